/* registry.c: the table of algorithms, generated from algo_list.h. */
#include "algos.h"

#include <string.h>

const ar_algo ar_registry[] = {
#define AR_REGISTRY_ROW(id, name, flags, cost, phases, desc) {name, ar_##id, flags, desc},
    AR_ALGO_LIST(AR_REGISTRY_ROW)
#undef AR_REGISTRY_ROW
    {NULL, NULL, 0, NULL},
};

const ar_algo *ar_find(const char *name)
{
  for (const ar_algo *a = ar_registry; a->name; a++)
    if (strcmp(a->name, name) == 0)
      return a;
  return NULL;
}
