/* clustercal.h: from measured allreduce runs (nccl-tests, OSU: simcalib import) to a fitted
 * cluster, and what a platform needs of it: the runs gathered with their shapes, the node
 * and fabric they ran on (the preset their GPU model names, or one given), the fit of
 * clusterfit.h, its report, the calibration file's "cluster" section and back. */
#ifndef FIT_CLUSTERCAL_H
#define FIT_CLUSTERCAL_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "clusterfit.h"
#include "measured/measured.h"
#include "topo/presets.h"

/* What a platform takes from a cluster fit (the calibration file's "cluster"). */
typedef struct {
  int has;
  topo_cluster topo; /* its nodes are the platform's to choose */
  int has_compute;
  sa_compute compute;
  double half, steep, latx; /* the ramp: smpi/bw-factor and smpi/lat-factor */
  char algo[32];      /* the algorithm it was fitted with */
  char preset[32];    /* the server it started from */
  char notes[4096];   /* what was fitted from what, how well, what was assumed */
} fit_cluster_cal;

cJSON *fit_cluster_cal_json(const fit_cluster_cal *c);
/* 0, or SA_EPARSE for a section that is not one. */
int fit_cluster_cal_from_json(const cJSON *o, fit_cluster_cal *c);

typedef struct {
  const char *algo;   /* the algorithm whose model is fitted; NULL: NCCL's choice (nccl) for nccl-tests
                       * logs, ring for others */
  int holdout;        /* 0: none; 1: every odd point of a run (from its smallest fitted one) held out; 2: even */
  double min_bytes;   /* smaller points are reported, not fitted */
  int inplace;        /* nccl-tests' in-place times instead of out-of-place */
  const char *preset; /* the node and NICs to start from; NULL: the one the logs' GPU names */
  int jobs;           /* processes the fit runs at once (util/forked.h); 0: one per processor */
  /* what NCCL ran, where the logs do not say: the algorithms NCCL_ALGO and the protocols
   * NCCL_PROTO left it (sets of nccl/nccl_env.h; 0: as the logs say, else NCCL's choice),
   * and its version (NULL: the logs', else the default) */
  unsigned nccl_algos, nccl_protos;
  const nccl_version *nccl_version;
  double nic_bw; /* the NICs' rate as the user knows it (platform --nic-rate): held there, not
                  * fitted; 0: the server's, fitted where the logs show it */
} fit_cluster_opts;

/* The options both fit and platform take for it, by name without "--": fit-algo, holdout,
 * min-bytes, inplace (no value), preset, nccl-algo, jobs, nccl-proto, nccl-version. 1 when
 * name is one of them (0 when not, the value untouched), or SA_EINVAL with a line on stderr
 * for a bad value. */
int fit_cluster_option(fit_cluster_opts *o, const char *name, const char *value);
#define FIT_CLUSTER_OPTIONS                                                                                         \
  "  --fit-algo A      the algorithm whose cost model is fitted (default: nccl, NCCL's own choice, for\n"        \
  "                    nccl-tests logs; ring for others)\n"                                                      \
  "  --nccl-algo A     the log ran NCCL with NCCL_ALGO=A (Ring, Tree, NVLS, NVLSTree, a list or ^list):\n"   \
  "                    fit NCCL's choice among those (default: the log's NCCL_ALGO line, else all)\n"        \
  "  --nccl-proto P    the log ran NCCL with NCCL_PROTO=P (LL, LL128, Simple, a list or ^list)\n"             \
  "  --nccl-version V  the NCCL that ran (default: the version the log prints, else the best fit\n"         \
  "                    among the releases its NCCL INFO lines date it to, else 2.26.2)\n"                    \
  "  --holdout odd|even  fit every other size of each run, report the others apart\n"                            \
  "  --min-bytes S     fit the sizes from S (default 0), report the smaller ones\n"                               \
  "  --inplace         nccl-tests' in-place times (default: out-of-place)\n"                                     \
  "  --preset NAME     the server to start from (default: the one the logs' GPU model names)\n"                \
  "  --jobs N          processes the fit runs at once (default: one per processor; the fit is the same)\n"
#define FIT_CLUSTER_LONGOPTS(first)                                                                                  \
  {"fit-algo", required_argument, NULL, (first)}, {"holdout", required_argument, NULL, (first) + 1},              \
      {"min-bytes", required_argument, NULL, (first) + 2}, {"inplace", no_argument, NULL, (first) + 3},             \
      {"preset", required_argument, NULL, (first) + 4}, {"nccl-algo", required_argument, NULL, (first) + 5},        \
      {"jobs", required_argument, NULL, (first) + 6}, {"nccl-proto", required_argument, NULL, (first) + 7},         \
      {"nccl-version", required_argument, NULL, (first) + 8}
#define FIT_CLUSTER_NOPTS 9

/* A link's rate under this share of the preset's is reported (fit_cluster.below). */
#define FIT_FAR_BELOW 0.7
/* NCCL's start, or a step of LL128 or Simple on a GPU's hops, fitted above this many times
 * NCCL's own is reported (fit_cluster.above). */
#define FIT_FAR_ABOVE 2.0

typedef struct {
  fit_cfit fit;
  fit_crun *runs;
  int nruns;
  const topo_preset *preset;
  char assumed[1024]; /* one line each: what the logs do not say and was taken */
  char bounds[1024];  /* one line each: a figure that ended at its physical bound, and what that suggests */
  char below[1024];   /* one line each: a link's rate fitted far below the preset's (FIT_FAR_BELOW) */
  char ran[1024];     /* one line each: what the logs' tuning lines say NCCL ran, and where the
                       * model of its tuning would have picked otherwise */
  char above[1024];   /* one line each: NCCL's start or steps fitted far above NCCL's own (FIT_FAR_ABOVE) */
} fit_cluster;

/* Gathers every allreduce run of d whose shape is known, picks the node (o->preset, else
 * the GPU model's), fits. Returns 0, or SA_ENODATA / SA_EINVAL with err for the user, or
 * another code. fit_cluster_free c either way. */
int fit_cluster_calibrate(const md_data *d, const fit_cluster_opts *o, fit_cluster *c, char *err, size_t errlen);
void fit_cluster_free(fit_cluster *c);

/* Every point (run, size, measured, model, error, used or held out), the summaries and the
 * fitted parameters with what they mean. */
void fit_cluster_report(FILE *f, const fit_cluster *c, const fit_cluster_opts *o);

/* The JSON of the fit: the platform's part (fit_cluster_cal_json) and every point. */
cJSON *fit_cluster_json(const fit_cluster *c, const fit_cluster_opts *o);

/* What a platform takes of it; sources names the logs for its notes. */
void fit_cluster_cal_of(const fit_cluster *c, const fit_cluster_opts *o, const char *sources, fit_cluster_cal *out);

#endif
