/* results.h: the points a run produced, read back from the runner's result file. */
#ifndef SIM_RESULTS_H
#define SIM_RESULTS_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "nccl/nccl_proto.h"
#include "common/compute.h"
#include "report_links.h"

#define SIM_MAX_PHASES 8

typedef struct {
  char algo[32];
  char dtype[8];
  uint64_t bytes, count;
  double time_s, time_min_s, time_max_s;
  int verified; /* 1, 0, or -1 when not checked */
  double max_abs_err;
  int nphases;
  char phase_name[SIM_MAX_PHASES][32];
  double phase_s[SIM_MAX_PHASES];
  char error[64]; /* empty unless the runner reported one */
  int sparse;     /* a top-k algorithm: density and k apply */
  double density;
  long long k;           /* elements chosen per selection */
  double sparse_rel_err; /* verified sparse results: distance from the dense sum, else -1 */
  /* cost models (NaN when not asked for or not available) */
  int simulated;         /* 0: a model-only point, time_s means nothing */
  double model_s;
  int model_nphases;
  char model_phase_name[SIM_MAX_PHASES][32];
  double model_phase_s[SIM_MAX_PHASES];
  double nccl_ring_s, nccl_tree_s; /* NCCL's own model for the same ranks and size */
  double nccl_nvls_s;              /* its NVLS (one node) or NVLS tree (several); NaN: none */
  int nccl_ring_proto, nccl_tree_proto;
  char nccl[NCCL_CHOICE_LEN]; /* one of NCCL's algorithms: what it ran, "ring/LL128/24"; else "" */
  double next_clock_s; /* simulated: the clock the runner started the next point at (NaN: none) */
  double healthy_s;    /* --what-if: the same point without the faults, simulated or predicted
                        * as this one is (0: none) */
  sim_links links; /* --links: every link's traffic (empty otherwise); owned */
} sim_point;

typedef struct {
  char mode[16]; /* "simulated", "measured", or "model" (no simulation) */
  int ranks, ranks_per_node;
  double start_clock_s; /* simulated: the clock the runner started its first point at (NaN: none) */
  sa_compute compute; /* the hosts' device-work properties the runner charged */
  sim_point *points;
  int npoints;
} sim_results;

/* Clears a point's model fields (to NaN: none). */
void sim_point_no_model(sim_point *p);


/* A runner's result file (its stream, or one document) from its text. Returns 0, or
 * SA_EPARSE with err filled. */
int sim_results_parse(const char *text, sim_results *r, char *err, size_t errlen);
/* The run's fields from the stream's header (or the document): mode, ranks, compute. */
int sim_results_header(const cJSON *h, sim_results *r);
/* One point of the runner's (or of a --json/--jsonl result of simallreduce). Returns 0 or
 * SA_EPARSE. */
int sim_point_read(const cJSON *o, sim_point *p);
void sim_results_free(sim_results *r);

#endif
