/* outside_fit.h: where a run on a fitted platform goes past what the fit saw (its
 * "Fit covers:" line, topo/fit_cover.h): another node count or GPUs per node, sizes beyond
 * the fitted ones, another family of algorithm, NCCL left another choice (NCCL_ALGO,
 * NCCL_PROTO) than in the runs fitted, another NCCL release's choice than the fit's; said in one line on stderr before
 * the run and, per point, in the JSON with how far. The same header comment's lines of what NCCL ran (topo/fit_ran.h)
 * are read here too, for sim/nccl_plan.c. */
#ifndef SIM_OUTSIDE_FIT_H
#define SIM_OUTSIDE_FIT_H

#include <cjson/cJSON.h>
#include <stdint.h>

#include "cli.h"
#include "topo/fit_cover.h"
#include "topo/fit_ran.h"

/* The cover the platform file carries: 1 (cv filled), 0 when it has none. */
int sim_outside_fit_read(const char *platform_path, topo_cover *cv);
/* The "NCCL ran at" lines of the same comment (topo/fit_ran.h) into out, at most max: how many. */
int sim_fit_ran_read(const char *platform_path, topo_ran *out, int max);

/* The NCCL release a fit of NCCL's choice modelled (its cover's) becomes the run's, where
 * --nccl-version names none: --algo nccl on a fitted platform chooses as the fit did. */
void sim_fit_version(sim_opts *o, const char *platform_path);

/* The line for the run's sizes and algorithms at nodes x rpn, without "simallreduce: " and
 * its newline: 1 with it in buf, 0 when everything is inside. */
int sim_outside_fit_line(const topo_cover *cv, const sim_opts *o, int nodes, int rpn, char *buf, size_t len);

/* The point's "outside_fit" array ({"what", "factor", "reason"} each) on out, for a run of
 * options o (NULL: none given); nothing when the point is inside. */
void sim_outside_fit_json(cJSON *out, const topo_cover *cv, const sim_opts *o, int nodes, int rpn, const char *algo,
                          uint64_t bytes);

/* The cover as the JSON's "fit_cover". */
cJSON *sim_fit_cover_json(const topo_cover *cv);

#endif
