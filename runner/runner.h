/* runner.h: what the runner is asked to do and what it found, shared by its files. */
#ifndef RUNNER_H
#define RUNNER_H

#include "algos/ar.h"

#define RUNNER_MAX_ALGOS 32

/* How a point is timed. BARRIER: each repetition starts from a barrier and lasts until the
 * slowest rank ends, so it includes the ranks' start skew (the barrier releases them one
 * after the other). NCCL_TESTS: as nccl-tests' all_reduce_perf times it (its BenchTime):
 * warm-up allreduces, then `iters` back to back with no barrier between them; the time of
 * one is each rank's time over them divided by iters, the slowest rank's reported: the
 * steady state, without start skew. */
typedef enum { RUNNER_TIMING_BARRIER, RUNNER_TIMING_NCCL_TESTS } runner_timing;

typedef struct {
  const ar_algo *algos[RUNNER_MAX_ALGOS];
  int nalgos;
  size_t *sizes; /* bytes per rank */
  int nsizes;
  ar_dtype dt;
  int verify;
  int iters, warmup; /* repetitions for real runs; one suffices in simulation */
  runner_timing timing;
  const char *result_path;
  ar_params params; /* template copied into each point */
} runner_config;

typedef struct {
  const char *algo;
  size_t bytes, count;
  double time_s;   /* median over iterations of the slowest rank's time */
  double tmin, tmax; /* spread over iterations */
  double *times;     /* every iteration's time, in order (iters of them); owned */
  int ntimes;
  int verified;    /* 1, 0, or -1 when not checked */
  double max_err;
  int sparse;      /* a top-k algorithm: k, density and rel_err apply */
  long long k;     /* elements chosen per selection (rank 0's) */
  double rel_err;  /* sparse, verified: distance of the result from the dense sum */
  int nphases;
  const char *phase_name[AR_MAX_PHASES];
  double phase_s[AR_MAX_PHASES];
  int rc; /* 0 or the AR_E* code of the first failing rank */
} runner_point;

/* Parses argv; on error prints one line to stderr and returns an SA_E* code. */
int runner_parse(int argc, char **argv, runner_config *cfg);
void runner_config_free(runner_config *cfg);

/* Rank 0 writes the result file; returns 0 or SA_EIO (message on stderr). */
int runner_write(const runner_config *cfg, int ranks, const runner_point *pts, int npts);

#endif
