/* training.h: --workload (docs/training.md): a training step on the run's cluster, its
 * buckets' allreduces the run's points, each algorithm's iteration worked out from them
 * (train/overlap.c) and reported after the allreduce table and in the JSON. */
#ifndef SIM_TRAINING_H
#define SIM_TRAINING_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "results.h"
#include "trace.h"
#include "train/train.h"

typedef struct sim_training {
  train_workload w;
  train_bucket *b;
  int nb;
  char scheme[64]; /* --buckets */
} sim_training;

/* The workload (a built-in's name or a JSON file) and its buckets (scheme: ddp, horovod,
 * whole or a size), its gradients elem bytes an element (0: the workload's own); 0, or an
 * SA_E* code with err. */
int sim_training_open(sim_training *t, const char *workload, const char *scheme, int elem, char *err, size_t errlen);
void sim_training_free(sim_training *t);

/* The buckets' sizes, ascending without repeats, malloc'd into *sizes: the run's points.
 * Returns how many, or SA_ENOMEM. */
int sim_training_sizes(const sim_training *t, uint64_t **sizes);

/* Per algorithm of the results, its iteration (train/train.h) on `ranks` GPUs: a table, and
 * the JSON's "training" object. */
void sim_training_table(FILE *f, const sim_training *t, const sim_results *r, int ranks);
/* The steps on the trace after the runs: per algorithm a process, forward and backprop on
 * one thread, each bucket's allreduce on the stream's. */
void sim_training_trace(sim_trace *tr, const sim_training *t, const sim_results *r, int ranks);
cJSON *sim_training_json(const sim_training *t, const sim_results *r, int ranks);

#endif
