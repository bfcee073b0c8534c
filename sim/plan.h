/* plan.h: the points of a run in the order they are reported (the runner's: by algorithm,
 * then size; --algo best: by size), each filled when its result is known: from --resume,
 * from the runner as it goes, or from the models. */
#ifndef SIM_PLAN_H
#define SIM_PLAN_H

#include "cli.h"
#include "results.h"

typedef struct {
  const char *algo; /* a name from o->algos */
  uint64_t bytes;
  char nccl[NCCL_CHOICE_LEN]; /* what one of NCCL's algorithms runs here (sim/nccl_plan.c); "" for the others */
  int done;    /* pt holds the result */
  int resumed; /* taken from --resume's file */
  double wall_s; /* host seconds it took in this run (since the point before it) */
  double healthy_s; /* --what-if: the same point without the faults (0: none) */
  sim_point pt;
} sim_slot;

typedef struct {
  sim_slot *slot;
  int n, ndone;
} sim_plan;

/* Every algorithm at every size, or with `winner` (per size an index into o->algos, -1 for
 * none) the chosen one per size. Returns 0 or SA_ENOMEM. */
int sim_plan_build(sim_plan *pl, const sim_opts *o, const int *winner);
/* The first slot of (algo, bytes) not done yet, or -1; of NCCL's algorithms, the one whose
 * choice is `nccl` ("" or a slot without a choice: any). */
int sim_plan_find(const sim_plan *pl, const char *algo, uint64_t bytes, const char *nccl);
/* Fills slot i with p (which takes the slot's NCCL choice when it has none of its own: a
 * prediction's). */
void sim_plan_fill(sim_plan *pl, int i, const sim_point *p);
/* The done points in order, as results with the run's header fields (points copied). */
int sim_plan_results(const sim_plan *pl, const sim_results *head, sim_results *r);
void sim_plan_free(sim_plan *pl);

#endif
