/* nccl_plan.h: what NCCL's algorithms (nccl-ring, nccl-tree, nccl) run at each point of a
 * run, as the cost models decide it (models/cost_nccl.c: NCCL's own tuner on the channels
 * laid over the platform): the runner takes it with each point, the report shows it. */
#ifndef SIM_NCCL_PLAN_H
#define SIM_NCCL_PLAN_H

#include <stddef.h>

#include "modeling.h"
#include "plan.h"

/* Fills the nccl field of the plan's slots of NCCL's algorithms. Returns 0, or an SA_E*
 * code with err saying why (no model of the platform: NCCL's channels and choices come from
 * it). */
int sim_nccl_plan(sim_plan *pl, const sim_model *m, char *err, size_t errlen);

#endif
