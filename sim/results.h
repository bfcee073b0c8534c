/* results.h: the points a run produced, read back from the runner's result file. */
#ifndef SIM_RESULTS_H
#define SIM_RESULTS_H

#include <stddef.h>
#include <stdint.h>

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
} sim_point;

typedef struct {
  char mode[16]; /* "simulated" or "measured" */
  int ranks, ranks_per_node;
  double reduce_bw, reduce_lat, copy_bw, topk_a, topk_b, mstopk_a, mstopk_b, scatter_a, scatter_b;
  sim_point *points;
  int npoints;
} sim_results;

/* Reads a runner result file. Returns 0, or -1 with err filled. */
int sim_results_read(const char *path, sim_results *r, char *err, size_t errlen);
void sim_results_free(sim_results *r);

#endif
