/* cost_nccl_ring.c: the model of NCCL's ring (algos/nccl_ring.c): the same slices in the
 * same order (algos/nccl_sched.c), timed one after the other on every rank of the ring as
 * the pipeline lets them go:
 *   a slice can be taken up when it has arrived (the previous rank sent it one step before)
 *   and its protocol latency has passed (nccl_proto.h), and when the rank has finished the
 *   slice before it;
 *   summing it takes bytes / reduce_bw times the channels that sum at the same moment (one
 *   GPU sums for all its channels);
 *   it leaves when summed and when the connection has delivered the slice before (a
 *   connection's slices go one after the other) and takes its hop's time (cost_nccl_send).
 * A rank is done with its last slice in and its last send delivered; the time is the slowest
 * rank's, from its own start (the runner's start skew) after NCCL's launch latency. So
 * pipeline fill, link-bound and sum-bound stretches, the bubbles between loops and the last
 * loop's smaller chunks all come out as the schedule makes them. Per prediction this costs
 * ranks x slices per channel steps. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algos/ar_parts.h"
#include "algos/nccl_sched.h"
#include "cost_ctx.h"
#include "cost_nccl_topo.h"

/* Hops of the rings for one channel count: every channel's, sharing the links together. */
typedef struct {
  int nc;
  int *seq;      /* [c * p + place]: the rank */
  cost_hop *hop; /* [c * p + place]: the hop from place to place + 1 */
  int *hw;       /* [c * p + place]: class of the hop into place (NCCL_HW_*) */
} ring_hops;

static void ring_hops_free(void *x)
{
  ring_hops *h = x;
  free(h->seq);
  free(h->hop);
  free(h->hw);
}

static int hop_class(const cost_ctx *c, const cost_nccl_topo *t, int a, int b)
{
  int R = c->shape.rpn;
  if (a / R != b / R)
    return NCCL_HW_NET;
  return nccl_node_nvlink(&t->node, a % R, b % R) ? NCCL_HW_NVLINK : NCCL_HW_PCI;
}

static int build_hops(cost_ctx *c, const cost_nccl_topo *t, int nc, void *entry)
{
  ring_hops *h = entry;
  int p = c->p;
  h->seq = malloc(sizeof(int) * (size_t)(nc * p));
  h->hop = malloc(sizeof(cost_hop) * (size_t)(nc * p));
  h->hw = malloc(sizeof(int) * (size_t)(nc * p));
  cost_flow *f = malloc(sizeof(cost_flow) * (size_t)(nc * p));
  int rc = h->seq && h->hop && h->hw && f ? 0 : SA_ENOMEM;
  for (int ch = 0; ch < nc && rc == 0; ch++)
    for (int i = 0; i < p; i++)
      h->seq[ch * p + i] = nccl_ring_rank(&t->rings, ch, i);
  for (int ch = 0; ch < nc && rc == 0; ch++)
    for (int i = 0; i < p; i++) {
      int a = h->seq[ch * p + i], b = h->seq[ch * p + (i + 1) % p];
      f[ch * p + i] = (cost_flow){a, b};
      h->hw[ch * p + (i + 1) % p] = hop_class(c, t, a, b);
    }
  if (rc == 0)
    rc = cost_pattern(c, f, nc * p, h->hop, NULL);
  free(f);
  if (rc == 0)
    h->nc = nc;
  return rc;
}

static int hops_of(cost_ctx *c, int nc, ring_hops **out)
{
  return cost_nccl_by_channels(c, COST_CACHE_NCCL_RING, sizeof **out, build_hops, ring_hops_free, nc, (void **)out);
}

/* Per place of one channel while its slices are timed. */
typedef struct {
  double ready;         /* the rank has finished this channel's previous slice */
  double end;           /* its last slice in and last send delivered */
  double sent[4];       /* when its last 2S sends arrived, by slice index mod 2S */
  double free;          /* its connection to the next place delivered its last slice */
  long sends;
  cost_nccl_slots slot; /* its receive slots */
} ring_place;

/* Times slice k of channel ch at every place; gpu[rank]: the rank's GPU, which sums for
 * every channel. */
static void time_slice(cost_ctx *c, const ring_hops *h, int ch, int proto, nccl_ring_sched *sched, long k,
                       ring_place *pl, cost_nccl_gpu *gpu)
{
  int p = c->p, S = nccl_slices_per_chunk(NCCL_ALGO_RING, proto);
  size_t es = (size_t)c->shape.elem;
  for (int i = 0; i < p; i++) {
    np_op op;
    ring_place *x = &pl[i];
    int rank = h->seq[ch * p + i];
    sched->pos = i;
    nccl_ring_sched_op(sched, k, &op);
    double bytes = (double)(op.n * es), t = x->ready;
    if (op.flags & NP_RECV) { /* what place i - 1 sent one step (S slices) before */
      double arrived = pl[(i + p - 1) % p].sent[(k - S) % (2 * S)];
      t = fmax(t, arrived + nccl_hop_extra_s(h->hw[ch * p + i], NCCL_ALGO_RING, proto));
    }
    if ((op.flags & NP_REDUCE) && bytes > 0 && c->net->compute.reduce_bw > 0)
      t = cost_nccl_sum(&gpu[rank], t, bytes / c->net->compute.reduce_bw);
    if (op.flags & NP_RECV)
      cost_nccl_consume(&x->slot, t);
    x->ready = t;
    x->end = fmax(x->end, t);
    if (op.flags & NP_SEND) {
      int W = nccl_slots(NCCL_ALGO_RING, proto);
      double room = cost_nccl_room(&pl[(i + 1) % p].slot, x->sends++, W);
      double done = cost_nccl_send(c, h->hop[ch * p + i], (double)nccl_wire_bytes(proto, op.n * es), fmax(t, room), &x->free);
      x->sent[k % (2 * S)] = done; /* kept for S slices: the next place's next step */
      x->end = fmax(x->end, done);
    }
  }
}

int cost_nccl_ring_time(cost_ctx *c, uint64_t count, int proto, int nc, cost_result *r)
{
  ring_hops *h;
  int rc = hops_of(c, nc, &h), p = c->p;
  if (rc)
    return rc;
  size_t es = (size_t)c->shape.elem;
  ring_place *pl = malloc(sizeof *pl * (size_t)(nc * p));
  nccl_ring_sched *sched = malloc(sizeof *sched * (size_t)nc);
  cost_nccl_gpu *gpu = calloc((size_t)p, sizeof *gpu);
  long *nops = malloc(sizeof(long) * (size_t)nc), most = 0;
  if (!pl || !sched || !gpu || !nops) {
    free(pl);
    free(sched);
    free(gpu);
    free(nops);
    return SA_ENOMEM;
  }
  double launch = nccl_launch_s(NCCL_ALGO_RING, proto), worst = 0;
  for (int ch = 0; ch < nc; ch++) {
    nccl_ring_sched_init(&sched[ch], p, 0, ar_part_off((size_t)count, nc, ch), ar_part_len((size_t)count, nc, ch), proto,
                         es);
    nops[ch] = nccl_ring_sched_ops(&sched[ch]);
    most = nops[ch] > most ? nops[ch] : most;
    for (int i = 0; i < p; i++) {
      double start = c->skew[h->seq[ch * p + i]] + launch;
      pl[ch * p + i] = (ring_place){.ready = start, .end = start, .free = start, .slot = {.start = start}};
    }
  }
  /* the channels go in step: slice k of each in turn, as the GPU takes them as they come */
  for (long k = 0; k < most; k++)
    for (int ch = 0; ch < nc; ch++)
      if (k < nops[ch])
        time_slice(c, h, ch, proto, &sched[ch], k, pl + ch * p, gpu);
  for (int ch = 0; ch < nc; ch++)
    for (int i = 0; nops[ch] > 0 && i < p; i++)
      worst = fmax(worst, pl[ch * p + i].end - c->skew[h->seq[ch * p + i]]);
  free(pl);
  free(sched);
  free(gpu);
  free(nops);
  cost_result_phase(r, AR_PH_LAUNCH, launch);
  cost_result_phase(r, AR_PH_RING, worst - launch);
  return 0;
}
