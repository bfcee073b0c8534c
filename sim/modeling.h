/* modeling.h: the cost models inside the driver: their context for a run, the predictions
 * added to each point, and the per-size choice of --algo best. */
#ifndef SIM_MODELING_H
#define SIM_MODELING_H

#include "cli.h"
#include "models/cost.h"
#include "models/cost_best.h"
#include "models/cost_cover.h"
#include "plan.h"
#include "platform/platform.h"
#include "results.h"
#include "topo/fit_ran.h"

typedef struct {
  cost_ctx *ctx;      /* NULL: no model (why says why) */
  const cost_net *net;
  cost_nccl_shape nccl;
  cost_params params;
  char lat_factor[2048], bw_factor[2048], recv_overhead[2048]; /* SMPI's settings in force */
  cost_cover cover; /* where the platform is outside what the models assume */
  double late_s;    /* --what-if: the latest rank's delay, added whole to every prediction
                     * (nothing finishes without that rank's data; what the others do before
                     * it comes is not credited: an upper bound) */
  /* what the platform's fit says NCCL ran each size with at a shape (topo/fit_ran.h): --algo
   * nccl runs the same at this run's shape (nodes x rpn) where the run leaves NCCL its own
   * choice (no --nccl-algo, --proto or --channels); nran 0: nothing said */
  topo_ran ran[TOPO_RAN_SHAPES];
  int nran, nodes, rpn;
  char why[320];
} sim_model;

/* Sets the models up for the run's layout, from the platform's network and the options
 * (--cfg settings override the platform's, as they do in the simulation). Returns 0, or an SA_E* code
 * with m->why filled: the run goes on without models. */
int sim_model_open(sim_model *m, const sim_opts *o, plat_file *pf, int nodes, int rpn);
void sim_model_close(sim_model *m);

/* Fills a point's model fields from its algorithm and size (for NCCL's algorithms, at the
 * choice in p->nccl when it names one). */
void sim_model_point(const sim_model *m, sim_point *p);

/* --mode model: a point of the models alone for a slot of the plan, and the run's header
 * fields. */
void sim_model_only_point(const sim_model *m, const sim_opts *o, int rpn, const sim_slot *s, sim_point *p);
void sim_model_head(const sim_model *m, int rpn, sim_results *r);

/* --algo best: per size, the index into o->algos of the fastest prediction (-1: none), and
 * the ranges of sizes with the same choice (ranges holds o->nsizes). Returns the number of
 * ranges, or a negative SA_E* code when nothing could be predicted. */
int sim_model_best(const sim_model *m, const sim_opts *o, int *winner, cost_range *ranges);

#endif
