/* model_batch.h: --mode model's predictions of a stretch of the plan, those of NCCL's
 * algorithms side by side in child processes. */
#ifndef SIM_MODEL_BATCH_H
#define SIM_MODEL_BATCH_H

#include "cli.h"
#include "modeling.h"
#include "plan.h"
#include "results.h"

/* How many slots sim_model_batch takes at once: enough for every process to have several
 * (so that the sizes' unequal costs even out), few enough that a sweep's points still come
 * out as it goes. */
int sim_model_batch_len(void);

/* The points of slots [lo, hi) into out[0 .. hi - lo), each as sim_model_only_point makes it:
 * NCCL's algorithms, whose models replay their pipelines (docs/nccl.md), dealt out in turn to
 * at most util_forked_workers() processes, the others here. Every prediction is made alone
 * from the same context, so that the points are the same bit for bit however they were
 * shared out (tests/check_modes.c). Returns 0 or SA_ENOMEM. */
int sim_model_batch(const sim_model *m, const sim_opts *o, int rpn, const sim_plan *pl, int lo, int hi, sim_point *out);

#endif
