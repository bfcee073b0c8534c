/* cost_nccl.h: NCCL's own allreduce tuning model, as a reference prediction beside ours and
 * as the choice --algo nccl simulates. Follows src/graph/tuning.cc and the channel choice of
 * src/enqueue.cc of the NCCL version asked for (nccl/nccl_proto.h holds every version's
 * constants): per algorithm (ring, tree) and protocol (LL, LL128, Simple) a latency (base +
 * per-hop constants NCCL measured on its hardware) and a bus bandwidth (NCCL's channels times
 * their speed, with per-protocol efficiencies and caps); time = latency + bytes / algorithm
 * bandwidth; NCCL runs the fastest. The bandwidths here come from the platform (the channels
 * channels.c lays over its routes, an NVLink at NCCL's own figure for it) instead of NCCL's
 * topology search; the latencies stay
 * NCCL's. NVLS and NVLS tree where the nodes allow them (2.2x); CollNet and PAT are not
 * modelled. */
#ifndef COST_NCCL_H
#define COST_NCCL_H

#include "nccl/nccl_env.h"
#include "nccl/nccl_proto.h"

enum { COST_NCCL_TREE = NCCL_ALGO_TREE, COST_NCCL_RING = NCCL_ALGO_RING, COST_NCCL_NALGO = NCCL_NALGO };
enum { COST_NCCL_LL = NCCL_PROTO_LL, COST_NCCL_LL128 = NCCL_PROTO_LL128, COST_NCCL_SIMPLE = NCCL_PROTO_SIMPLE,
       COST_NCCL_NPROTO = NCCL_NPROTO };

/* What NCCL's model needs of a communicator. */
typedef struct {
  int ranks, nodes;
  double intra_bw; /* bytes/s all of NCCL's channels carry through a node, NVLink at NCCL's figure */
  double inter_bw; /* bytes/s a node sends to another with all its ranks sending */
  int nvlink;      /* intra-node links of NVLink class: NCCL's NVLink latencies, LL128 allowed */
  int channels;    /* NCCL's channel count for the communicator */
  const nccl_version *version; /* NULL: the default */
  int arch;        /* GPU generation (NCCL_ARCH_*): the 2.2x tables' row */
  int ll128_net;   /* LL128 also between nodes: NCCL allows it with the NIC next to the GPU */
  double nvls_bw;  /* bytes/s of NCCL's traffic a GPU's NVLinks carry each way (its links at
                    * NCCL's figure a link), where NVLS can run: NVSwitch nodes of Hopper or
                    * later, at most NCCL_NVLS_MAX_HEADS GPUs a node; else 0 */
} cost_nccl_shape;

typedef struct {
  double time_s[COST_NCCL_NALGO][COST_NCCL_NPROTO]; /* NaN where the protocol is off */
  double ring_s, tree_s;                            /* the fastest protocol of each */
  int ring_proto, tree_proto;
  double nvls_s; /* NVLS on one node, NVLS tree across nodes (Simple); NaN where NCCL has none */
} cost_nccl_pred;

/* Predicts an allreduce of `bytes` per rank. Needs ranks >= 2; else every time is NaN. */
void cost_nccl_predict(const cost_nccl_shape *s, double bytes, cost_nccl_pred *out);

/* What NCCL runs for `bytes`: the fastest by its model among the algorithms `algos` and the
 * protocols `protos` (sets of nccl/nccl_env.h; 0: every one NCCL runs there; a protocol in a
 * set given runs even where NCCL keeps it off by default, as NCCL_PROTO makes it), channels
 * (0: NCCL's per-size count, else forced). */
typedef struct {
  int algo, proto, channels;
  double time_s; /* NCCL's prediction for it */
} cost_nccl_choice;

void cost_nccl_choose(const cost_nccl_shape *s, double bytes, unsigned algos, unsigned protos, int channels,
                      cost_nccl_choice *out);

const char *cost_nccl_proto_name(int proto);

#endif
