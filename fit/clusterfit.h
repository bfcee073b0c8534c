/* clusterfit.h: fitting a cluster's node and fabric to measured allreduce times (nccl-tests,
 * OSU, the runner's own measured runs): the rates and latencies of its links and a bandwidth
 * ramp with message size, such that the cost model of an algorithm (the closed form of
 * models/, which the simulation follows within a fraction of a percent on these shapes) at
 * each run's shape gives the measured times. GSL nonlinear least squares on relative error.
 *
 * What is fitted: the GPU link's rate and latency (a node's GPUs), the NIC's rate and
 * latency (between nodes), and the ramp: a message of s bytes moves at e(s) of a link's rate,
 * e(s) = 1 / (1 + (h / s)^g), a half-rate size h and a steepness g (pipelining, protocols and
 * channels that NCCL ramps up with size), along which the latency grows from that of the
 * small messages to latx times it (fitted where the runs hold sizes of 64 KiB or less). SMPI applies it as piecewise smpi/bw-factor, one
 * piece per power of two (SA_MAX_PIECES), and the models with it, so that the platform
 * written from a fit is exactly what was fitted. A single-node run fits the GPU link and
 * the ramp, a multi-node one the NIC and the ramp (the GPU link too unless a single-node run
 * is fitted with it). NCCL's algorithms (nccl, nccl-ring, nccl-tree) move their data in the
 * slices of their protocols, whose sizes the ramp would stand for: fitted to them, the links
 * move at their rates (no ramp) and the fit takes instead what each protocol costs: the time
 * a collective takes to start and the rates a GPU writes LL, LL128 and Simple lines at. */
#ifndef FIT_CLUSTERFIT_H
#define FIT_CLUSTERFIT_H

#include <stddef.h>

#include "common/compute.h"
#include "common/piecewise.h"
#include "nccl/nccl_proto.h"
#include "topo/cluster.h"

/* the replays (the quick one, closer ones, the whole) a point keeps its times for */
#define FIT_TOOK 3

typedef struct {
  double bytes;      /* per rank */
  double measured_s; /* the time of one allreduce */
  int used;          /* 1: in the fit; 0: held out (--holdout) or below --min-bytes */
  int outlier;       /* left out of the fit after a first one: far off while the others are not */
  double model_s;    /* the fitted model's time */
  int proto;         /* NCCL's algorithms: the protocol NCCL runs at that size; else -1 */
  int algo;          /* NCCL's algorithms: the algorithm it runs (NCCL_ALGO_*); else -1 */
  /* what the log's tuning lines say NCCL ran (md_point.nccl_ran): an algorithm's and a
   * protocol's bit (nccl/nccl_env.h) and its channels (0: not said); ran_algos 0: not said,
   * or an algorithm not modelled (unmodelled 1); own_algo, own_proto: what the model of
   * NCCL's tuning would have picked instead (-1: the same, or not said) */
  unsigned ran_algos, ran_protos;
  int ran_channels, unmodelled, own_algo, own_proto;
  /* seconds its last evaluation took with each of the replays it had lately (quick: cost.h
   * nccl_quick; secs 0: none), to share the next ones out evenly */
  struct {
    double secs;
    int quick;
  } took[FIT_TOOK];
} fit_cpoint;

/* One measured run: its shape and points. */
typedef struct {
  char label[160]; /* LOG:run, for reports */
  int nodes, gpus, elem;
  fit_cpoint *pt;
  int n;
} fit_crun;

/* The fitted parameters: the links' rates and latencies, the ramp, and for NCCL's algorithms
 * what its protocols take on the GPU (the compute properties launch_lat, ll_bw, ll128_bw and
 * simple_bw: how long a collective takes to start, the rate a GPU writes each protocol's
 * lines at; common/compute.h), what NVLS's copy warps move (nvls_copy_bw), and the least a
 * step of a ring across nodes takes (proxy_lat, proxy_simple_lat: the network proxy's). */
enum {
  FIT_P_GPU_BW,
  FIT_P_GPU_LAT,
  FIT_P_NIC_BW,
  FIT_P_NIC_LAT,
  FIT_P_HALF,
  FIT_P_STEEP,
  FIT_P_LATX,
  FIT_P_LAUNCH,
  FIT_P_LL,
  FIT_P_LL128,
  FIT_P_SIMPLE,
  FIT_P_LL128_LAT,
  FIT_P_SIMPLE_LAT,
  FIT_P_NVLS_COPY,
  FIT_P_PROXY,
  FIT_P_PROXY_SIMPLE,
  FIT_NPARAM
};

typedef struct {
  /* in */
  const char *algo;      /* the algorithm whose model is fitted (ring) */
  topo_cluster topo;         /* the node and fabric; its rates are the fit's start, then its result */
  int has_compute;       /* device work charged as the platform will charge it */
  sa_compute compute;
  double half, steep;    /* the ramp: start, then result */
  double latx;           /* the latency at large sizes over the one at small sizes */
  int free[FIT_NPARAM];  /* the parameters the fit moves */
  /* physical upper bounds (0: none): a rate at most the datasheet's (a NIC its line rate, a
   * GPU link its NVLink figure, a protocol's writes the GPU's memory); a bounded parameter
   * moves as hi / (1 + e^-x), so that the descent can come near the bound, never past it */
  double hi[FIT_NPARAM];
  /* physical lower bounds (0: none): a time at least what the GPU was measured to take
   * (topo_preset_floors); the descent holds a parameter there as at hi */
  double lo[FIT_NPARAM];
  int quick;             /* NCCL's algorithms: 1 fits a single node with the quick replay */
  const nccl_version *nccl_version; /* NCCL's algorithms: whose choice of algorithm, protocol and channels */
  unsigned nccl_algos, nccl_protos; /* what NCCL_ALGO and NCCL_PROTO left it (nccl/nccl_env.h; 0: all) */
  /* out */
  int iterations, status; /* GSL's */
  double r2, median_err, max_err; /* over the used points: |model - measured| / measured */
  int nused;
} fit_cfit;

/* The ramp as SMPI's smpi/bw-factor and smpi/lat-factor (piecewise): the rate factor e(s),
 * and the latency factor 1 + (latx - 1) e(s), from the latency of the small messages
 * (NCCL's low-latency protocol) to latx times it for the large ones (its simple one). */
void fit_cfit_factor(double half, double steep, double latx, sa_piecewise *bw, sa_piecewise *lat);

/* Whether a point of runs[0..nruns) (a used one, with used_only) runs NCCL's algorithm algo
 * (NCCL_ALGO_*, as the last evaluation planned it). */
int fit_cruns_run(const fit_crun *runs, int nruns, int algo, int used_only);

/* Whether NCCL's algorithm algo (NCCL_ALGO_*) at run r is a ring across nodes, whose steps
 * the proxy's figures hold (nccl_step_s). */
int fit_cring_across(const fit_crun *r, int algo);

/* Whether the NICs' rate is out of the runs' reach: the largest used point of every run
 * across nodes ran NVLS tree (its plateau the switch's and its copy warps', not the NICs',
 * which a ring over the same NICs reaches at their line rate: L12 against L09), or none
 * crosses nodes. The fit then keeps the NICs at the server's figure (clustercal.c says so). */
int fit_cnic_unseen(const fit_crun *runs, int nruns);

/* The model's time for every point of runs[0..nruns) (model_s), with f's parameters as
 * they are. Returns 0 or an SA_E* code (an algorithm without a model: SA_ENOMODEL). */
int fit_cfit_eval(fit_cfit *f, fit_crun *runs, int nruns);

/* Fits the free parameters to the used points, then evaluates every point. A point off by
 * more than FIT_OUTLIER_FACTOR times the median error and FIT_OUTLIER_MIN after the fit (a
 * timing disturbed in the run: nccl-tests' first size, often) is marked an outlier and the
 * fit done again without it. Returns 0, SA_ENODATA (fewer used points than free
 * parameters), SA_EFIT (GSL failed) or another code. */
#define FIT_OUTLIER_FACTOR 5.0
#define FIT_OUTLIER_MIN 0.25
int fit_cfit_run(fit_cfit *f, fit_crun *runs, int nruns);

/* Whether free parameter i ended at its bound (within FIT_AT_BOUND of it): what the times
 * asked for is beyond what the hardware can do, for the algorithm fitted. */
#define FIT_AT_BOUND 0.01
int fit_cfit_at_bound(const fit_cfit *f, int i);
/* Whether figure i, free, is left at its start since no fitted size reads it (the protocol
 * it belongs to runs at none of them, no NVLS, NICs no size shows; NCCL's LL steps for the
 * GPU links' latency), as the runs' points were planned last. */
int fit_cparam_unused(const fit_cfit *f, int i, const fit_crun *runs, int nruns);
/* The same for its lower bound alone */
int fit_cfit_at_floor(const fit_cfit *f, int i);

/* |model - measured| / measured over the points whose used flag is `used`: median, max,
 * geometric mean (each floored at 0.01%), count. */
typedef struct {
  double median, max, geomean;
  int n;
} fit_cerr;
fit_cerr fit_cfit_errors(const fit_crun *runs, int nruns, int used, double min_bytes);

#endif
