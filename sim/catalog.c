/* catalog.c: the driver's copy of the algorithm list, generated from algos/algo_list.h. */
#include "catalog.h"

#include <string.h>

const sim_algo_info sim_catalog[] = {
#define SIM_CATALOG_ROW(id, name, flags, cost, phases, desc) {name, flags, desc, {AR_PHASES_INIT(phases)}},
    AR_ALGO_LIST(SIM_CATALOG_ROW)
#undef SIM_CATALOG_ROW
    {NULL, 0, NULL, {NULL}},
};

const sim_algo_info *sim_catalog_find(const char *name)
{
  for (const sim_algo_info *a = sim_catalog; a->name; a++)
    if (strcmp(a->name, name) == 0)
      return a;
  return NULL;
}
