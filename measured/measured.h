/* measured.h: the one schema every measurement is written in (ping-pong, streaming
 * bandwidth, CPU and CUDA kernels, NCCL allreduce, imported nccl-tests and OSU logs), so that
 * the same file can feed `simcalib fit` and serve as a validation target. */
#ifndef MEASURED_MEASURED_H
#define MEASURED_MEASURED_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Version 2 added runs (md_run) and each point's "run"; version 1 files, which have
 * neither, still read. */
#define MD_SCHEMA "simallreduce-measured-2"
#define MD_SCHEMA_1 "simallreduce-measured-1"

/* One measured point. Strings are empty and numbers negative where they do not apply. */
typedef struct {
  char op[24];     /* pingpong, stream, allreduce, reduce, memcpy, mstopk, topk_exact, memcpy_h2d, ... */
  char path[8];    /* intra or inter for point-to-point ops */
  char device[8];  /* cpu or cuda for kernels */
  char dtype[8];   /* fp32, fp16, ... */
  char source[32]; /* who measured it: simcalib, nccl-tests, osu_latency, ... */
  double bytes;    /* message or buffer size, bytes */
  double count;    /* elements */
  int ranks;       /* processes taking part */
  int inplace;     /* nccl-tests: 1 in-place, 0 out-of-place */
  double time_s;   /* median time of one operation */
  double spread_s; /* interquartile range of the repetitions */
  double min_s, max_s;
  int reps;
  double algbw_GBps, busbw_GBps; /* nccl-tests definitions, GB = 1e9 bytes */
  long errors;                   /* nccl-tests #wrong */
  int run;                       /* index of its run in md_data.runs; -1 none */
  char nccl_ran[24];             /* what NCCL ran the size with, as its tuning lines say:
                                  * "Ring/LL128/16" (algorithm/protocol[/channels], NCCL's names);
                                  * "" where the log does not say */
} md_point;

/* nccl-tests' own parameters as its "# nThread ..." line gives them (the names are those of
 * its JSON output; the flags that set them in brackets); -1 where the line does not say. */
typedef struct {
  int nthreads;           /* -t */
  int ngpus;              /* -g: GPUs per process */
  double minimum_bytes;   /* -b */
  double maximum_bytes;   /* -e */
  double step_factor;     /* -f */
  double step_bytes;      /* -i */
  int warmup_iters;       /* -w */
  int iterations;         /* -n */
  int aggregated_iterations; /* -m */
  int validation;         /* -c */
  int graph;              /* -G */
} md_run_params;

/* One run of a benchmark as its log describes it: a log can hold several (a sweep's
 * output, one OSU test after another), and each point names its own. Strings are empty and
 * numbers -1 where the log does not say. In this project a rank is one GPU, so the shape
 * nodes x gpus_per_node is that of the platform the run is simulated on. */
typedef struct {
  char tool[16];         /* nccl-tests, rccl-tests or osu */
  char tool_version[32]; /* "2.18.3", "develop:3f7f785", "7.5" */
  char test[24];         /* all_reduce_perf, osu_allreduce, osu_latency, osu_bw */
  char op[24];           /* the op of its points: allreduce, pingpong, stream */
  char dtype[8];         /* of every point (fp32, int32, ...); empty when they differ */
  int dtype_assumed;     /* 1: the log does not say; dtype is the tool's default */
  char redop[8];         /* nccl-tests' reduction (sum, ...); empty when rows differ */
  char nccl_version[32]; /* "2.26.2+cuda12.8", as NCCL (or RCCL) prints it */
  /* where the log names no version, the releases its NCCL INFO lines date it to, "2.3.5 to
   * 2.12.12" (import/import_nccl.c says which lines) */
  char nccl_dated[32];
  /* NCCL_ALGO and NCCL_PROTO as NCCL's INFO lines print them ("NCCL_PROTO set by environment
   * to ^LL128"): what NCCL was left to choose among */
  char nccl_algo[64], nccl_proto[64];
  int ranks, nodes;
  int gpus_per_node;     /* ranks on each node; -1 also when nodes hold different numbers */
  int nhosts;            /* hosts[nhosts]: the nodes' names, in order of their first rank */
  char **hosts;
  int *rank_node;        /* rank_node[ranks]: index in hosts of each rank's node; NULL none */
  int ngpu_models;       /* gpu_models[ngpu_models]: the distinct GPU models of the ranks */
  char **gpu_models;
  md_run_params params;
  long line;             /* line of its log where it begins */
} md_run;

typedef struct {
  md_point *p;
  size_t n, cap;
  md_run *runs; /* owned: md_data_free frees them */
  size_t nruns, runs_cap;
  char source[32];   /* what produced the file as a whole */
  char machine[128]; /* where it was measured, free text */
} md_data;

/* A point with every optional field marked "not applicable". */
md_point md_point_blank(const char *op, const char *source);

/* Appends a copy of pt; returns 0 or SA_ENOMEM. */
int md_data_add(md_data *d, const md_point *pt);
void md_data_free(md_data *d);

/* A run with nothing known: every number -1, no hosts. */
md_run md_run_blank(void);

/* Appends r, taking over what it owns (hosts, rank_node, gpu_models): *r is blank after.
 * Returns the new run's index, or SA_ENOMEM (r then still owns its arrays). */
int md_data_add_run(md_data *d, md_run *r);

/* Frees what r owns and blanks it. */
void md_run_free(md_run *r);

/* Run id of d, or NULL when there is none. */
const md_run *md_data_run(const md_data *d, int id);

/* The points of run id whose op is op (NULL: any), in order: returns the first at index *i
 * or after, and sets *i past it; NULL when there are no more. Start with *i = 0:
 *   for (size_t i = 0; (p = md_run_next(d, r, "allreduce", &i));) ... */
const md_point *md_run_next(const md_data *d, int id, const char *op, size_t *i);

/* Keeps only run id and its points (the run becoming run 0). Returns 0, or SA_EINVAL when
 * d has no run id. */
int md_data_keep_run(md_data *d, int id);

/* Fills algbw/busbw from bytes, time and ranks as nccl-tests defines them (busbw only for
 * allreduce: algbw * 2(n-1)/n; for point-to-point ops busbw = algbw). */
void md_point_bandwidths(md_point *pt);

/* Sets a point's time from n > 0 repeated timings (median, interquartile spread, min, max,
 * repetitions; sorts samples), then its bandwidths: bytes, count and ranks first. A median
 * of 0, a time below the clock's resolution, becomes 1 ns. */
void md_point_summarize(md_point *pt, double *samples, int n);

/* Writes d as JSON to path ("-" for stdout). Returns 0 or SA_EIO/SA_ENOMEM. */
int md_data_write(const md_data *d, const char *path);

/* Reads a file in this schema (or version 1), appending its points and runs to d (its
 * points' run indices shifted past the runs d held). On error returns SA_EIO or SA_EPARSE
 * with err naming the problem. */
int md_data_read(md_data *d, const char *path, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
