/* catalog.h: the algorithms the runner knows, as the driver lists and checks them. */
#ifndef SIM_CATALOG_H
#define SIM_CATALOG_H

#include "algos/algo_list.h"

typedef struct {
  const char *name;
  unsigned flags;
  const char *desc;
  const char *phases[AR_MAX_LISTED_PHASES]; /* in the order they run, NULL-terminated */
} sim_algo_info;

/* NULL-terminated, in --list-algos order. */
extern const sim_algo_info sim_catalog[];

const sim_algo_info *sim_catalog_find(const char *name);

#endif
