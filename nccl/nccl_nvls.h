/* nccl_nvls.h: NCCL's NVLS and NVLS tree allreduce (src/device/all_reduce.h runRing for
 * NCCL_ALGO_NVLS and NCCL_ALGO_NVLS_TREE, src/transport/nvls.cc, v2.26.2) as streams of
 * operations on slices, the runner's (algos/nvls.c) and the model's (models/cost_nccl_nvls.c)
 * alike. No MPI here.
 *
 * NVLS: the node's buffer is cut into one shard per GPU. The GPU owning a shard reads it
 * through the NVSwitch's multicast address with multimem.ld_reduce: the switch fetches that
 * shard from every GPU, sums it and returns the sum; the owner then stores the sum with
 * multimem.st, which the switch writes into every GPU. Neither the switch nor its arithmetic
 * is a SimGrid object: each GPU sends its part of a shard to the shard's owner, the owner
 * adds them (the switch's sum, no GPU time) and sends the sum to every GPU of the node; the
 * bytes those messages put on an NVLink are NVLS's own (nccl_nvls_wire_scale). NVLS tree:
 * the same inside every node, and between the switch's sum and its multicast the owner runs
 * the shard through a tree over the nodes, with the GPUs of the same index in the other
 * nodes (reduce up, broadcast down, half of it on each of NCCL's double binary trees),
 * summing what its children send on the GPU.
 *
 * NCCL's NVLS channels work on their chunks side by side; here one operation moves one chunk
 * of every channel of a shard at once (channels x NCCL's chunk, nccl_nvls_chunk), NCCL_STEPS
 * of them in flight per connection. */
#ifndef NCCL_NCCL_NVLS_H
#define NCCL_NCCL_NVLS_H

#include <stddef.h>

#include "nccl_sched.h"

/* One stream of a rank: a range of the buffer cut in chunks, an operation each, every one
 * with the same flags and peers. */
typedef struct {
  size_t off, len, chunk; /* elements */
  unsigned flags;
  int nrecv, nsend;
  int switch_recv; /* the first switch_recv receive peers are summed by the switch */
  double copy_in, copy_out; /* what its scatter and gather warps move, against the most NCCL
                             * gives them (nccl_nvls_copy_warps) */
  int recv_peer[NCCL_MAX_PEERS], recv_tag[NCCL_MAX_PEERS];
  int send_peer[NCCL_MAX_PEERS], send_tag[NCCL_MAX_PEERS];
} nccl_nvls_stream;

/* A node's place in one of the trees over the nodes: the nodes above and below it. */
typedef struct {
  int parent, nchild, child[3];
} nccl_nvls_tree;

/* The most streams a rank runs: per half of a shard (two across nodes, one on one node), a
 * part to send and a sum to receive per other GPU of its node, its own half going up and
 * coming down. */
#define NCCL_NVLS_MAX_STREAMS (4 * NCCL_NVLS_MAX_HEADS)

/* Rank `rank` of `nodes` nodes x `rpn` GPUs (2 <= rpn <= NCCL_NVLS_MAX_HEADS), node-major,
 * `count` elements of `elem` bytes, `channels` NVLS channels. For NVLS tree (nodes > 1),
 * tree[0] and tree[1] are this rank's node in NCCL's two trees over the nodes: as NCCL's
 * channels alternate between them, the first half of every shard runs on tree 0, the second
 * on tree 1. Fills out[] and returns how many streams. */
int nccl_nvls_streams(int algo, int rank, int rpn, int nodes, const nccl_nvls_tree tree[2], size_t count, size_t elem,
                      int channels, nccl_nvls_stream *out);

long nccl_nvls_ops(const nccl_nvls_stream *s);

void nccl_nvls_op(const nccl_nvls_stream *s, long k, nccl_op *op);

/* The warps of a channel's 20 (NCCL_MAX_NTHREADS 640) that NCCL 2.26.2's kernel gives NVLS's
 * copies on a GPU of a communicator of nranks (src/device/all_reduce.h, RunWorkColl for
 * NCCL_ALGO_NVLS and NCCL_ALGO_NVLS_TREE, buffers not registered): 5 sum the switch's
 * multicast (7 for 6 ranks or fewer); where the node has a parent in the tree (has_up), 4
 * more broadcast what comes down it and the sums take 5; the rest go to the scatter (the
 * half rounded up) and the gather. One node of 8 GPUs, or a tree's root: 8 and 7; a node
 * with a parent: 6 and 5. */
void nccl_nvls_copy_warps(int has_up, int nranks, int *scatter, int *gather);

#endif
