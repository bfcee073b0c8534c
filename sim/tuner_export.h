/* tuner_export.h: --export-tuner, the decision table of the NCCL tuner plugin (tuner/,
 * docs/tuner.md) from a run of --algo nccl: at every size, every algorithm and protocol NCCL
 * could pick is run, and the fastest is the table's choice, the next its runner-up. */
#ifndef SIM_TUNER_EXPORT_H
#define SIM_TUNER_EXPORT_H

#include <stddef.h>

#include "cli.h"
#include "modeling.h"
#include "plan.h"

/* Replaces the plan's points by NCCL's candidates at each size (size by size, each with its
 * choice in the slot's nccl field). Returns 0, or an SA_E* code with err saying why. */
int sim_tuner_plan(sim_plan *pl, const sim_opts *o, const sim_model *m, char *err, size_t errlen);

/* Writes the table for a job of `nodes` x `rpn` from the plan's done points (simulated
 * times, or the models' with --mode model), and its summary on stderr (tuner_summary.h).
 * Returns 0, or an SA_E* code with err. */
int sim_tuner_export(const sim_plan *pl, const char *path, int nodes, int rpn, char *err, size_t errlen);

#endif
