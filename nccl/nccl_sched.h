/* nccl_sched.h: the order in which NCCL's kernels move a channel's elements, as operations
 * on slices (src/device/all_reduce.h runRing and runTreeSplit, src/device/prims_simple.h,
 * src/enqueue.cc calcCollChunking, v2.26.2). The runner's algorithms (nccl_ring.c,
 * nccl_tree.c) run these operations; the cost models (models/cost_nccl_ring.c,
 * cost_nccl_tree.c) time the very same ones. No MPI here. */
#ifndef NCCL_NCCL_SCHED_H
#define NCCL_NCCL_SCHED_H

#include <stddef.h>

#include "common/compute.h"
#include "nccl_proto.h"

enum {
  NCCL_OP_RECV = 1u << 0,   /* receive the slice from every receive peer */
  NCCL_OP_REDUCE = 1u << 1, /* out = in + the received slices (else out = the received slice) */
  NCCL_OP_SEND = 1u << 2,   /* send the slice to every send peer: out when received, else in */
  /* NVLS without registered buffers (src/device/all_reduce.h, v2.26.2): its scatter warps copy
   * the user's input into the switch's buffer before the switch reads it, its gather warps
   * copy the switch's result out to the user's output once it lands: GPU time on the
   * operation, the slice copied once each way (nccl_op_time_nvls) */
  NCCL_OP_COPY_IN = 1u << 3,
  NCCL_OP_COPY_OUT = 1u << 4,
};

/* The most peers a stream receives from or sends to: NVLS tree's shard owner takes the
 * other GPUs of its node and a tree rank's three children (nvls.c). */
#define NCCL_MAX_PEERS (NCCL_NVLS_MAX_HEADS - 1 + 3)

/* One operation: a slice of the buffer and what to do with it. */
typedef struct {
  size_t off, n; /* elements */
  unsigned flags;
} nccl_op;

/* A ring channel as its loops go: n ranks, this one at place pos, over elements
 * [off, off + len) (see nccl_ring.c). */
typedef struct {
  int n, pos;
  size_t off, len;
  size_t chunk;     /* elements of a full chunk */
  int slices;       /* per chunk */
  size_t min_slice; /* prims_simple never cuts a slice below a 32nd of its slot */
  size_t align;     /* a shrunk chunk stays a multiple of 16 bytes */
  int m;            /* steps as a ring of m ranks takes them (n: the ring itself; see below) */
} nccl_ring_sched;

void nccl_ring_sched_init(nccl_ring_sched *r, int n, int pos, size_t off, size_t len, int proto, size_t elem);
long nccl_ring_sched_ops(const nccl_ring_sched *r);
/* Operation k, 0 <= k < nccl_ring_sched_ops(r): loop k / (S (2m-1)), step (k / S) mod (2m-1),
 * slice k mod S (m = n but in a cut ring, below). */
void nccl_ring_sched_op(const nccl_ring_sched *r, long k, nccl_op *op);
/* The same ring with each loop cut to 2m - 1 steps, 2 <= m <= n: its first send, the first
 * m - 1 sums, the last m - 2 copies and its last receive, each of the size it has in the
 * whole ring. Every rank still waits for its predecessor's step before its own, so the
 * pipeline is the ring's, shorter by 2 (n - m) steps a loop: what the models replay to find
 * the time a step adds (cost_nccl_ring.c). Not for data: the chunks reduced are not all. */
void nccl_ring_sched_cut(nccl_ring_sched *r, int m);
/* Whether every chunk of every loop has as many elements as the others (the last loop's too:
 * its shrunk chunks divide what is left evenly), so that the ranks at every place in the
 * ring move alike at every step. */
int nccl_ring_sched_even(const nccl_ring_sched *r);

/* Elements per chunk (one slice each) of a tree channel carrying `len` elements of `elem`
 * bytes, with `nodes` nodes and `ranks` ranks. */
size_t nccl_tree_chunk(int proto, size_t len, size_t elem, int nodes, int ranks);

/* The GPU time of one operation of NCCL's pipeline (the flags above) on `bytes` of
 * payload, with nrecv and nsend peers, on hosts of compute properties c: its sum (a fused
 * kernel reads every input once and writes once: (k + 2) / 3 of a two-input sum's memory
 * traffic for k received slices, at reduce_bw) and the protocol's writing of what it sends
 * to each peer (its bytes on the wire at ll_bw, ll128_bw or simple_bw: the rate a GPU's
 * threads write its lines at, every channel together, fitted to a cluster's measurements;
 * where the platform gives none, the runner and the models pass NCCL's ceilings of LL and
 * LL128 on one node, nccl_gpu_protocol_rates, and Simple is free). */
double nccl_op_time(const sa_compute *c, int proto, unsigned flags, int nrecv, int nsend, size_t bytes);

/* The same for a stream whose first switch_recv receive peers the NVSwitch sums (NVLS,
 * nccl_nvls.h): the GPU sums only the others, with what the switch returns as its input;
 * nothing when there are none. NCCL_OP_COPY_IN and NCCL_OP_COPY_OUT each add a copy of the
 * slice at nvls_copy_bw, what the copy warps move with the most warps NCCL gives them (fitted
 * where a log runs NVLS), else at copy_bw, the rate a device-local copy was measured at: a
 * bound, since NCCL's copy warps run on the channels' own multiprocessors and move no
 * faster; times copy_in (the scatter's) or copy_out (the gather's), the stream's share of
 * those warps (nccl_nvls_copy_warps; 0: 1). */
double nccl_op_time_nvls(const sa_compute *c, int proto, unsigned flags, int nrecv, int switch_recv, int nsend,
                         double copy_in, double copy_out, size_t bytes);

/* The least seconds one channel's operation takes however little the GPU's other channels
 * ask of it: with LL, what it sends to each peer at ll_channel_bw (one block's writing and
 * polling of its lines); 0 otherwise or where none is given. The runner bounds the
 * operation's device time to its GPU seconds over this (SimGrid's bound on an execution),
 * the models alike (a stream standing for w channels: each of them bound so). An operation
 * with a floor and no GPU time charged otherwise (no sum, no ll_bw: across nodes) is given a
 * thousandth of its floor as GPU time (*seconds raised to it), so that it takes its floor
 * through the same sharing, at a share of the GPU too small to slow another. */
double nccl_op_floor_s(const sa_compute *c, int proto, unsigned flags, int nsend, size_t bytes, double *seconds);

#endif
