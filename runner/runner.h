/* runner.h: what the runner is asked to do and what it found, shared by its files. */
#ifndef RUNNER_H
#define RUNNER_H

#include "algos/ar.h"
#include "runner_links.h"

/* One point to time: an algorithm at a size (bytes per rank), and for NCCL's algorithms
 * what they run there (nccl.channels 0: not given, their defaults). */
typedef struct {
  const ar_algo *algo;
  size_t bytes;
  nccl_choice nccl;
} runner_job;

/* How a point is timed. BARRIER: each repetition starts from a barrier and lasts until the
 * slowest rank ends, so it includes the ranks' start skew (the barrier releases them one
 * after the other). NCCL_TESTS: as nccl-tests' all_reduce_perf times it (its BenchTime):
 * warm-up allreduces, then `iters` back to back with no barrier between them; the time of
 * one is each rank's time over them divided by iters, the ranks' mean reported (nccl-tests
 * averages it over its ranks): the steady state, without start skew. */
typedef enum { RUNNER_TIMING_BARRIER, RUNNER_TIMING_NCCL_TESTS } runner_timing;

/* --what-if's faults as the driver passes them (runner_faults.c) */
typedef struct {
  int rank;
  double value; /* seconds late, or how many times slower */
} runner_rank_fault;
typedef struct {
  char *name;
  double factor, add_lat; /* bandwidth times factor, latency plus add_lat seconds */
} runner_link_fault;
typedef struct {
  runner_rank_fault *late, *slow;
  runner_link_fault *links;
  int nlate, nslow, nlinks;
  int nccl_node; /* the node NCCL's channels are laid from (its fewest NICs), 0 by default */
} runner_faults;

typedef struct {
  runner_job *jobs; /* in the order they run: --points as given, or --algo x --sizes */
  int njobs;
  kn_dtype dt;
  int verify;
  int iters, warmup; /* repetitions for real runs; one suffices in simulation */
  runner_timing timing;
  const char *result_path;
  double start_clock; /* --start-clock: the simulated time the first point starts at (0: none) */
  int links;               /* > 0: account every link's traffic (simulation only); keep this
                              many of the busiest over time when tracing */
  const char *trace_dir;   /* record traced ranks' steps into files there (runner_timeline.c) */
  const char *trace_ranks; /* which ranks (rank_list.h); NULL: all */
  ar_params params; /* template copied into each point */
  runner_faults faults;
  double late; /* seconds this rank reaches every allreduce late (its faults') */
} runner_config;

typedef struct {
  const char *algo;
  size_t bytes, count;
  const nccl_choice *nccl; /* what an NCCL algorithm ran (its job's); NULL for the others */
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
  runner_link *links; /* with cfg->links, on rank 0: every link that carried anything; owned */
  int nlinks;
  double links_window_s; /* from the first rank's start to the last one's end */
  int rc; /* 0 or the AR_E* code of the first failing rank */
} runner_point;

/* runner_stream.c: the result file, JSON Lines written by rank 0 as the run goes: a header,
 * one line per point as soon as it is done (flushed), an end line. */
typedef struct runner_stream runner_stream;
/* Creates the file and writes the header; NULL (message on stderr) when it cannot. */
runner_stream *runner_stream_open(const runner_config *cfg, int ranks, double start_clock);
/* One point's line; next_clock is the simulated time the next point starts at (NaN: none).
 * Returns 0 or SA_EIO. */
int runner_stream_point(runner_stream *s, const runner_config *cfg, const runner_point *pt, double next_clock);
/* The end line (status 0: every point ran) and closes; returns 0 or SA_EIO. */
int runner_stream_close(runner_stream *s, int status);

/* runner_clock.c: starts every point at a simulated time that depends on what ran before it
 * only through the clock (see there); returns that time, or NaN outside SimGrid. start_at > 0
 * asks for that time when it is still ahead of every rank. Collective. */
double runner_clock_next(double start_at);
/* Every rank waits until t (collective in effect: each rank calls it with the same t). */
void runner_clock_wait(double t, int rank, int size);

/* runner_faults.c: the --faults file into f; 0, or SA_EIO / SA_EINVAL (a line on stderr) or
 * SA_ENOMEM. */
int runner_faults_read(runner_faults *f, const char *path);
int runner_faults_any(const runner_faults *f);
/* The seconds rank reaches every allreduce late. */
double runner_faults_late(const runner_faults *f, int rank);
/* rank's compute properties as its slow GPU has them. */
void runner_faults_compute(const runner_faults *f, int rank, sa_compute *c);
/* The links as asked, before anything is sent (collective); 0, or SA_EINVAL when the
 * platform has no link of a name given (said on stderr), or when faults are asked of a real
 * run. */
int runner_faults_links(const runner_faults *f, int rank);
/* Waits `late` seconds of simulated time (nothing in a real run). */
void runner_faults_reach(double late);
void runner_faults_free(runner_faults *f);

/* Parses argv; on error prints one line to stderr and returns an SA_E* code. */
int runner_parse(int argc, char **argv, runner_config *cfg);
void runner_config_free(runner_config *cfg);

/* runner_timeline.c: a recorder for this rank when it is traced, else NULL (free with
 * runner_timeline_close); after each point, the rank's steps and phases, and on rank 0 the
 * busiest links over time, appended to the trace directory's files. 0 or SA_EIO. */
ar_steps *runner_timeline_open(const runner_config *cfg, int rank);
void runner_timeline_close(ar_steps *tr);
int runner_timeline_rank(const runner_config *cfg, int rank, int point, const runner_point *pt, const ar_phases *ph,
                      double t0, double t1, const ar_steps *tr);
int runner_timeline_links(const runner_config *cfg, int point);

#endif
