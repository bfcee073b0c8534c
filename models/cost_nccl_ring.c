/* cost_nccl_ring.c: the model of NCCL's ring (algos/nccl_ring.c): per rank and channel the
 * very stream the runner runs (nccl/nccl_sched.c: loops of 2p-1 steps over the ring NCCL's
 * search lays over the node, topo/channels.c), replayed with every other rank's over a
 * fluid network (cost_nccl_des.c): pipeline fill, link-bound and sum-bound stretches, the
 * bubbles between loops and the last loop's smaller chunks all come out as the schedule
 * makes them. The time is the slowest rank's, from its own start, after NCCL's launch
 * latency. */
#include <stdlib.h>
#include <string.h>

#include "cost_fold.h"
#include "cost_models.h"
#include "cost_nccl_des.h"
#include "cost_nccl_layout.h"
#include "kernels/parts.h"
#include "nccl/nccl_sched.h"

static void ring_op(const void *ctx, long k, nccl_op *op) { nccl_ring_sched_op(ctx, k, op); }

/* Whether the rings repeat every P ranks: each rank P ranks on as far further along every
 * channel's ring. */
static int rings_repeat(const int *place, int p, int P, int nc)
{
  for (int ch = 0; ch < nc; ch++)
    for (int rank = 0; rank < p; rank++)
      if (place[ch * p + (rank + P) % p] != (place[ch * p + rank] + P) % p)
        return 0;
  return 1;
}

/* The fewest ranks of whole nodes the rings repeat after, the cluster folding onto them
 * (cost_fold.h) where its nodes and routes are alike too: one node, or two where NCCL's
 * rings run through every other node backwards (ncclTopoPostset's alternating rings,
 * topo/channels.c: 0 2 3 .. 7 1 on node 0, then 9 15 14 .. 8 on node 1); p: none. */
static int ring_period(const cost_ctx *c, const int *place, int nc)
{
  int R = c->shape.rpn, nodes = c->shape.nodes;
  for (int k = 1; k < nodes; k++)
    if (nodes % k == 0 && rings_repeat(place, c->p, k * R, nc))
      return k * R;
  return c->p;
}

/* SIMALLREDUCE_FOLD=0 replays every node (make bench times the fold against it). */
static int fold_off(void)
{
  const char *v = getenv("SIMALLREDUCE_FOLD");
  return v && strcmp(v, "0") == 0;
}

/* The ring replayed with each loop cut to the steps of a ring of m ranks (m = p: whole), over
 * the first node alone where the cluster folds onto it (a node's likes on the others replay
 * the same; fold 0: every rank). */
static int replay_cut(cost_ctx *c, uint64_t count, int proto, int nc, int m, int fold, cost_result *r)
{
  cost_nccl_layout *t;
  int rc = cost_nccl_layout_of(c, &t), p = c->p, n = 0;
  if (rc)
    return rc;
  if (nc < 1 || nc > t->channels)
    return SA_EINVAL;
  cost_des_stream *st = calloc((size_t)(nc * p), sizeof *st);
  nccl_ring_sched *sc = calloc((size_t)(nc * p), sizeof *sc);
  int *place = malloc(sizeof(int) * (size_t)(nc * p));
  if (!st || !sc || !place) {
    free(st);
    free(sc);
    free(place);
    return SA_ENOMEM;
  }
  for (int ch = 0; ch < nc; ch++)
    for (int i = 0; i < p; i++)
      place[ch * p + topo_ring_rank(&t->rings, ch, i)] = i;
  int q = c->shape.nccl_quick, run = q > 0 && nc > q ? q : nc; /* quick: q channels stand for them all */
  /* the fits' quick replays too: a period of every channel's rings is one of the first q's */
  int nr = fold && !fold_off() ? ring_period(c, place, nc) : p;
  for (int ch = 0; ch < run && nr < p; ch++) { /* a short chunk's rank moves unlike its likes */
    nccl_ring_sched even;
    nccl_ring_sched_init(&even, p, 0, 0, kn_part_len((size_t)count, nc, ch), proto, (size_t)c->shape.elem);
    nr = nccl_ring_sched_even(&even) ? nr : p;
  }
  for (int rank = 0; rank < nr; rank++) /* a rank's streams together, channel by channel */
    for (int ch = 0; ch < run; ch++, n++) {
      int i = place[ch * p + rank];
      nccl_ring_sched_init(&sc[n], p, i, kn_part_off((size_t)count, nc, ch), kn_part_len((size_t)count, nc, ch), proto,
                           (size_t)c->shape.elem);
      nccl_ring_sched_cut(&sc[n], m);
      st[n] = (cost_des_stream){.rank = rank, .nrecv = 1, .nsend = 1, .nops = nccl_ring_sched_ops(&sc[n]),
                                .op = ring_op, .ctx = &sc[n], .weight = (double)nc / run};
      st[n].recv_peer[0] = topo_ring_rank(&t->rings, ch, (i + p - 1) % p);
      st[n].send_peer[0] = topo_ring_rank(&t->rings, ch, (i + 1) % p);
      st[n].recv_tag[0] = st[n].send_tag[0] = ch;
    }
  rc = cost_nccl_des_run_folded(c, st, n, nr, NCCL_ALGO_RING, proto, AR_PH_RING, r);
  free(st);
  free(sc);
  free(place);
  return rc == COST_UNFOLDED ? replay_cut(c, count, proto, nc, m, 0, r) : rc;
}

/* A long ring's steps: past the first few each adds the same time (every rank waits for
 * its predecessor's step alone), give or take the jitter of the channels' phases against
 * each other (mn1's 1024 ranks at 64 MiB, LL on 2 channels: one step 13.2 to 13.6 us, cut
 * rings of 4 to 128 ranks replayed). From RING_CUT_FROM ranks the ring is replayed with its
 * loops cut to the steps of RING_CUT_SHORT and RING_CUT_LONG ranks (nccl_ring_sched_cut) and
 * the straight line through the two carried to its own: the jitter, a few us at either end,
 * is spread over RING_CUT_LONG - RING_CUT_SHORT ranks' steps (with 16 in place of 64, mn1 at
 * 64 MiB came 1.9% off the whole replay; with 64, 0.1%). Against the whole replay, 1 KiB to 1
 * GiB by x8, both timings: mn1 within 0.54% (32 MiB), 32 generated HGX H100 nodes (256 ranks,
 * 16 channels) within 1.05% (256 MiB, barrier). The whole replay's time grows as the ranks'
 * square (a loop's steps times its ranks): mn1's sweep took 33 s, cut 2.3 s. */
#define RING_CUT_SHORT 8
#define RING_CUT_LONG 64
#define RING_CUT_FROM (4 * RING_CUT_LONG)

static int replay(cost_ctx *c, uint64_t count, int proto, int nc, cost_result *r)
{
  if (c->p < RING_CUT_FROM)
    return replay_cut(c, count, proto, nc, c->p, 1, r);
  cost_result a, b;
  cost_result_init(&a);
  cost_result_init(&b);
  int rc = replay_cut(c, count, proto, nc, RING_CUT_SHORT, 1, &a);
  if (rc == 0)
    rc = replay_cut(c, count, proto, nc, RING_CUT_LONG, 1, &b);
  if (rc == 0)
    cost_nccl_line(&a, &b, (double)(c->p - RING_CUT_SHORT) / (RING_CUT_LONG - RING_CUT_SHORT), r);
  return rc;
}

/* Loops after the first few repeat the same steps: beyond 6 loops, the straight line through 3
 * and 6; the quick replay of fits, through 1 and 2 (within 0.5% of it on one A100 node from 1
 * GiB to 8 GiB, the same on two H100 nodes). */
#define RING_STEADY_LOOPS 3
#define RING_STEADY_LOOPS_QUICK 1

int cost_nccl_ring_time(cost_ctx *c, uint64_t count, int proto, int nc, cost_result *r)
{
  uint64_t loop = (uint64_t)c->p * (nccl_chunk_bytes(NCCL_ALGO_RING, proto) / (uint64_t)c->shape.elem);
  uint64_t k = c->shape.nccl_quick > 0 ? RING_STEADY_LOOPS_QUICK : RING_STEADY_LOOPS;
  return cost_nccl_steady(c, count, loop, k, proto, nc, replay, r);
}
