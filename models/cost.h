/* cost.h: closed-form cost models of the allreduce algorithms (pure C over GSL, no SimGrid):
 * for every algorithm, the formula written atop its file in algos/, with the latencies,
 * bandwidths and link sharing taken from the platform the simulation runs on. */
#ifndef COST_H
#define COST_H

#include <stdint.h>

#include "common/sa_error.h"
#include "cost_nccl.h"
#include "cost_net.h"

/* How the runner times a point (runner/runner.h): from a barrier, which releases the ranks
 * one after the other (the models add that start skew), or as nccl-tests does, the steady
 * state of back-to-back allreduces (no skew). */
typedef enum { COST_TIMING_BARRIER, COST_TIMING_NCCL_TESTS } cost_timing;

/* Where the ranks sit and how the algorithms were asked to run. */
typedef struct {
  int nodes, rpn;         /* the first `nodes` nodes, the first `rpn` GPUs of each; node-major ranks */
  int elem;               /* bytes per element */
  uint64_t segment_bytes; /* trees' pipelining segment (--segment) */
  int channels;           /* rings of the ring algorithm (--channels) */
  double density;         /* top-k algorithms: fraction of elements selected (--density) */
  double overlap;         /* hitopk: fraction of indices shared between nodes (--overlap) */
  cost_timing timing;     /* --timing */
  /* NCCL's algorithms: the algorithms --algo nccl may choose among and the protocols any of
   * them may run (sets of nccl/nccl_env.h, as NCCL_ALGO and NCCL_PROTO give them; 0: NCCL's
   * choice), the channels (0: NCCL's choice), and the NCCL version whose choice they follow
   * (NULL: the default) */
  unsigned nccl_algos, nccl_protos;
  int nccl_channels;
  const nccl_version *nccl_version;
  /* NCCL's algorithms: q > 0 takes their channels as alike, q channels of a ring (one of
   * each tree) standing for all: a prediction in a fraction of the time, for fits, where
   * channels are alike (one NVSwitch node); 0: every channel (what the simulation runs) */
  int nccl_quick;
} cost_shape;

#define COST_MAX_PHASES 8

/* A prediction: the time the runner would measure, split into the algorithm's own phases
 * (the names it records); skew_s is the part of time_s that is the runner's start skew
 * (folded into the first phase, as the runner's phase clock does). */
typedef struct {
  double time_s;
  double skew_s;
  int nphases;
  const char *phase_name[COST_MAX_PHASES];
  double phase_s[COST_MAX_PHASES];
} cost_result;

typedef struct cost_ctx cost_ctx;

/* A model context for one platform and layout; it keeps what it derives from the routes
 * (link loads of each algorithm's steps) so that predictions for many sizes are cheap.
 * net must outlive it. Returns 0 or an SA_E* code. */
int cost_ctx_new(const cost_net *net, const cost_shape *shape, cost_ctx **out);
void cost_ctx_free(cost_ctx *c);

/* 1 when `algo` (a name of algos/algo_list.h) has a model. */
int cost_has_model(const char *algo);
/* Whether algo is one of NCCL's (nccl, nccl-ring, nccl-tree, nvls, nvls-tree). */
int cost_is_nccl(const char *algo);
/* The name of NCCL's algorithm `algo` (NCCL_ALGO_*) as --algo takes it ("nccl-ring"); NULL
 * for none. */
const char *cost_nccl_name(int algo);

/* Predicts one allreduce of `bytes` per rank. Returns 0, SA_ENOMODEL, or another code. */
int cost_predict(cost_ctx *c, const char *algo, uint64_t bytes, cost_result *r);

/* The parameters the models derived, for reports: per path class the latency and the
 * seconds per byte of a message alone, and under the sharing the classes meet in the
 * algorithms (a node's ranks sending across nodes at once). */
typedef struct {
  int ranks, nodes, rpn;
  double alpha_intra, beta_intra;    /* local 0 to local 1 (NaN with one rank per node) */
  double alpha_inter, beta_inter;    /* node 0 to node 1, GPU 0 to GPU 0 (NaN with one node) */
  double beta_inter_shared;          /* per byte of each of rpn messages leaving a node together */
  int nic_share;                     /* ranks of a node whose messages meet on one inter-node link */
  double gamma, reduce_lat, copy_beta; /* seconds per byte summed, per sum, per byte copied */
  double start_skew_s;               /* the runner's barrier releases rank 0 this much earlier */
} cost_params;

void cost_ctx_params(const cost_ctx *c, cost_params *p);

/* The inputs of NCCL's model (cost_nccl.h) for this layout: NCCL's channels laid over a
 * node's routes and what they carry, and what a node's ranks send to another node together
 * (derived once, kept in the context). */
void cost_ctx_nccl_shape(cost_ctx *c, cost_nccl_shape *s);

/* What NCCL's algorithm `algo` ("nccl-ring", "nccl-tree", or "nccl": either) runs at
 * `bytes` per rank on this layout: NCCL's choice of what the shape leaves open. Returns 0,
 * SA_ENOMODEL for another algorithm, or another SA_E* code. */
int cost_nccl_plan(cost_ctx *c, const char *algo, uint64_t bytes, cost_nccl_choice *out);
/* Leaves NCCL's choice for the next predictions to the algorithms, protocols and channels
 * given (the shape's nccl_algos, nccl_protos, nccl_channels; 0: NCCL's own), as a log says
 * NCCL ran a size: channels beyond those laid out stay NCCL's own (the layout, made once,
 * stays). Returns 0 or the layout's SA_E* code. */
int cost_nccl_restrict(cost_ctx *c, unsigned algos, unsigned protos, int channels);

/* Every choice NCCL could run at `bytes` on this layout: each algorithm with each protocol
 * NCCL enables there (those NCCL_ALGO and NCCL_PROTO leave, where the shape gives them),
 * each on NCCL's channel count for it (or --channels'). Fills out[] (room for COST_NCCL_NALGO * COST_NCCL_NPROTO) and returns how
 * many, or a negative SA_E* code. */
int cost_nccl_candidates(cost_ctx *c, uint64_t bytes, cost_nccl_choice *out);

/* NCCL's algorithm `algo` (COST_NCCL_RING or COST_NCCL_TREE) with protocol `proto` on
 * `channels` channels: the model of what the runner simulates for that choice. */
int cost_predict_nccl_at(cost_ctx *c, int algo, int proto, int channels, uint64_t bytes, cost_result *r);

#endif
