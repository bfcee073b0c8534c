/* cost_nccl.h: NCCL's own allreduce tuning model, as a reference prediction beside ours.
 * Follows NCCL v2.7.5-1, src/graph/tuning.cc (github.com/NVIDIA/nccl, commit 01afd20a),
 * the V100-era release: per algorithm (ring, tree) and protocol (LL, LL128, Simple) a
 * latency (base + per-hop constants NCCL measured on its hardware) and a bus bandwidth
 * (NCCL's channels times their speed, with per-protocol efficiencies); time = latency +
 * bytes / algorithm bandwidth. The bandwidths here come from the platform instead of NCCL's
 * topology search; the latencies stay NCCL's. */
#ifndef COST_NCCL_H
#define COST_NCCL_H

#define COST_NCCL_VERSION "2.7.5-1"

enum { COST_NCCL_TREE, COST_NCCL_RING, COST_NCCL_NALGO };
enum { COST_NCCL_LL, COST_NCCL_LL128, COST_NCCL_SIMPLE, COST_NCCL_NPROTO };

/* What NCCL's model needs of a communicator. */
typedef struct {
  int ranks, nodes;
  double intra_bw; /* bytes/s of the slowest GPU-to-GPU hop of a ring through a node */
  double inter_bw; /* bytes/s a node sends to another with all its ranks sending */
  int nvlink;      /* intra-node links of NVLink class: NCCL's NVLink latencies, LL128 allowed */
  int channels;    /* NCCL channels: only caps LL128's bandwidth */
} cost_nccl_shape;

typedef struct {
  double time_s[COST_NCCL_NALGO][COST_NCCL_NPROTO]; /* NaN where the protocol is off */
  double ring_s, tree_s;                            /* the fastest protocol of each */
  int ring_proto, tree_proto;
} cost_nccl_pred;

/* Predicts an allreduce of `bytes` per rank. Needs ranks >= 2; else every time is NaN. */
void cost_nccl_predict(const cost_nccl_shape *s, double bytes, cost_nccl_pred *out);

const char *cost_nccl_proto_name(int proto);

#endif
