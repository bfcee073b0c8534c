/* cost_nccl_des.h: the runner's slice pipeline (algos/nccl_pipe.c) replayed event by event
 * over a fluid model of the network (internal to models/). The streams are those the
 * runner's NCCL algorithms build, and they run by the runner's rules: every stream takes its
 * ready operations as soon as they are ready, a sum waits for the rank's GPU, which takes
 * the ready one whose data became visible first, a connection sends its slices one at a time
 * into receives posted `slots` ahead, a slice becomes visible its protocol's latency after it
 * arrives; and the messages in flight share the links as SimGrid shares them (weighted
 * max-min, cost_share.c), recomputed whenever one starts or ends. So a link is shared only
 * while two messages are on it at once, which no fixed sharing pattern can say of a pipeline
 * filling and draining (the first chunks of a tree go up and down links that the other
 * channels reach later). */
#ifndef COST_NCCL_DES_H
#define COST_NCCL_DES_H

#include "nccl/nccl_sched.h"
#include "cost_ctx.h"

/* Fills operation k of a stream (ctx: the generator's own description). */
typedef void (*cost_des_op_fn)(const void *ctx, long k, nccl_op *op);

/* One stream of one rank, as algos/nccl_pipe.h describes it: the peers it receives from and
 * sends to (a message goes to the stream of the peer that receives from this rank with the
 * same tag), and its operations. */
typedef struct {
  int rank;
  int nrecv, nsend;
  int recv_peer[NCCL_MAX_PEERS], recv_tag[NCCL_MAX_PEERS];
  int send_peer[NCCL_MAX_PEERS], send_tag[NCCL_MAX_PEERS];
  long nops;
  cost_des_op_fn op;
  const void *ctx;
  double weight; /* > 1: it stands for this many alike streams (their messages on its links,
                  * their GPU time on its GPU): the quick replay of fits; 0 or 1: itself */
  int switch_recv;     /* NVLS: the first switch_recv receive peers are summed by the switch */
  double nvlink_scale; /* NVLS: bytes on an NVLink per byte sent (nccl_nvls_wire_scale); 0: 1 */
  double copy_in, copy_out; /* NVLS: its copy warps' share (nccl_nvls_stream); 0: 1 */
} cost_des_stream;

/* Runs the streams of NCCL's algorithm `algo` with protocol `proto` (bytes on the wire, the
 * extra latency per hop, slices in flight: nccl/nccl_proto.h), every rank starting at its
 * barrier skew plus NCCL's launch time, and records in r the launch and, as `phase`, the
 * rest: until the slowest rank's last operation is done and its last message delivered.
 * Returns 0, SA_ENOMEM, SA_ENOROUTE, or SA_EINVAL when the streams cannot all finish (they
 * do not match). */
int cost_nccl_des_run(cost_ctx *c, const cost_des_stream *st, int nst, int algo, int proto, const char *phase,
                      cost_result *r);

/* The same of a cluster folded onto its first node (cost_fold.h): the streams of ranks 0 ..
 * nr - 1 alone, their peers wherever they are (a peer on another node stands for its like
 * among them). Returns COST_UNFOLDED, nothing replayed, where the nodes' ranks do not start
 * as the first node's or their routes are not alike; otherwise as cost_nccl_des_run. */
int cost_nccl_des_run_folded(cost_ctx *c, const cost_des_stream *st, int nst, int nr, int algo, int proto,
                             const char *phase, cost_result *r);

/* A model's time for `count` elements on nc channels (cost_nccl_ring_time, ...). */
typedef int (*cost_nccl_model_fn)(cost_ctx *c, uint64_t count, int proto, int nc, cost_result *r);

/* The straight line through two replays' results, phase by phase, at x: a + x (b - a), into r
 * (x = 1 is b; the time a step, loop or chunk adds is b - a over how many lie between). */
void cost_nccl_line(const cost_result *a, const cost_result *b, double x, cost_result *r);

/* Where every channel's part repeats a pattern of `unit` elements (the ring's loop, the
 * tree's chunk) more than 2k times, the replay's cost would grow with the size while the
 * pipeline only repeats its steady state: fn at the same count less whole units, to k units
 * in the largest channel, and at k units more, and the straight line through them, phase by
 * phase. Otherwise fn itself. */
int cost_nccl_steady(cost_ctx *c, uint64_t count, uint64_t unit, uint64_t k, int proto, int nc, cost_nccl_model_fn fn,
                     cost_result *r);

#endif
