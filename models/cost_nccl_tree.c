/* cost_nccl_tree.c: the model of NCCL's tree (algos/nccl_tree.c): the same chunks through
 * the same trees (algos/nccl_search.c), timed chunk by chunk on every rank:
 *   reduction: a rank takes up chunk k once every child's chunk k has arrived and its
 *   protocol latency passed, and it has taken up chunk k-1; sums it (bytes / reduce_bw,
 *   times (children + 2) / 3 for the fused sum of several inputs, times the channels that
 *   sum at the same moment); sends it to its parent once the connection has delivered
 *   chunk k-1 (the root sends it straight back down to its children);
 *   broadcast: a rank takes up chunk k once it has arrived from the parent and it has taken
 *   up chunk k-1 of the broadcast, and forwards it to every child the same way;
 *   while a rank sums it can take up nothing else;
 *   a connection's chunks go one after the other, each taking its hop's time
 *   (cost_nccl_send) with every channel's edges busy in both directions.
 * A rank is done with its last chunk in and every send delivered; the time is the slowest
 * rank's, from its own start, after NCCL's launch latency. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algos/ar_parts.h"
#include "algos/nccl_sched.h"
#include "cost_ctx.h"
#include "cost_nccl_topo.h"

/* One channel count's trees: per channel and rank its parent and children, the ranks in an
 * order where children come before parents, and the hop of each edge each way. */
typedef struct {
  int nc;
  int *parent, *nchild, *child; /* [c * p + r], child [(c * p + r) * 3 + i] */
  int *order;                   /* [c * p + i]: leaves first */
  cost_hop *up, *down;          /* [c * p + r]: r to its parent, its parent to r, with both
                                 * the reductions and the broadcasts under way */
  cost_hop *up1, *down1;        /* the same with only the reductions, only the broadcasts */
  int *hw;                      /* [c * p + r]: class of the edge between r and its parent */
} tree_hops;

static void tree_hops_free(void *x)
{
  tree_hops *h = x;
  free(h->parent);
  free(h->nchild);
  free(h->child);
  free(h->order);
  free(h->up);
  free(h->down);
  free(h->up1);
  free(h->down1);
  free(h->hw);
}

/* Ranks of one tree ordered leaves first: by height, found by relaxation. */
static void order_by_height(int p, const int *parent, int *order, int *height)
{
  for (int r = 0; r < p; r++)
    height[r] = 0;
  for (int changed = 1; changed;) {
    changed = 0;
    for (int r = 0; r < p; r++)
      if (parent[r] >= 0 && height[parent[r]] < height[r] + 1) {
        height[parent[r]] = height[r] + 1;
        changed = 1;
      }
  }
  int n = 0;
  for (int h = 0; n < p; h++)
    for (int r = 0; r < p; r++)
      if (height[r] == h)
        order[n++] = r;
}

static int build_trees(cost_ctx *c, const cost_nccl_topo *t, int nc, void *entry)
{
  tree_hops *h = entry;
  int p = c->p, R = c->shape.rpn, n = nc * p;
  h->parent = malloc(sizeof(int) * (size_t)n);
  h->nchild = malloc(sizeof(int) * (size_t)n);
  h->child = malloc(sizeof(int) * 3 * (size_t)n);
  h->order = malloc(sizeof(int) * (size_t)n);
  h->up = calloc((size_t)n, sizeof(cost_hop));
  h->down = calloc((size_t)n, sizeof(cost_hop));
  h->up1 = calloc((size_t)n, sizeof(cost_hop));
  h->down1 = calloc((size_t)n, sizeof(cost_hop));
  h->hw = calloc((size_t)n, sizeof(int));
  int *height = malloc(sizeof(int) * (size_t)p), *who = malloc(sizeof(int) * 2 * (size_t)n);
  cost_flow *f = malloc(sizeof(cost_flow) * 2 * (size_t)n);
  cost_hop *each = malloc(sizeof(cost_hop) * 2 * (size_t)n);
  int rc = h->parent && h->nchild && h->child && h->order && h->up && h->down && h->up1 && h->down1 && h->hw &&
                   height && who && f && each
               ? 0
               : SA_ENOMEM;
  int nf = 0;
  for (int ch = 0; ch < nc && rc == 0; ch++) {
    for (int r = 0; r < p; r++)
      nccl_tree_rank(&t->rings, c->shape.nodes, ch, r, &h->parent[ch * p + r], &h->child[(ch * p + r) * 3],
                     &h->nchild[ch * p + r]);
    order_by_height(p, h->parent + ch * p, h->order + ch * p, height);
    for (int r = 0; r < p; r++) {
      int par = h->parent[ch * p + r];
      if (par < 0)
        continue;
      who[nf] = ch * p + r; /* up, then down */
      f[nf++] = (cost_flow){r, par};
      who[nf] = -(ch * p + r) - 1;
      f[nf++] = (cost_flow){par, r};
      h->hw[ch * p + r] = r / R != par / R ? NCCL_HW_NET
                          : nccl_node_nvlink(&t->node, r % R, par % R) ? NCCL_HW_NVLINK
                                                                        : NCCL_HW_PCI;
    }
  }
  /* every edge busy both ways; then the reductions alone (even flows), the broadcasts alone */
  if (rc == 0 && nf > 0)
    rc = cost_pattern(c, f, nf, each, NULL);
  for (int i = 0; i < nf && rc == 0; i++) {
    if (who[i] >= 0)
      h->up[who[i]] = each[i];
    else
      h->down[-who[i] - 1] = each[i];
  }
  cost_flow *g = malloc(sizeof(cost_flow) * (size_t)(nf + 1));
  rc = rc ? rc : g ? 0 : SA_ENOMEM;
  for (int dir = 0; dir < 2 && rc == 0 && nf > 0; dir++) {
    int m = 0;
    for (int i = dir; i < nf; i += 2)
      g[m++] = f[i];
    if ((rc = cost_pattern(c, g, m, each, NULL)) != 0)
      break;
    for (int i = dir, j = 0; i < nf; i += 2, j++) {
      if (dir == 0)
        h->up1[who[i]] = each[j];
      else
        h->down1[-who[i] - 1] = each[j];
    }
  }
  free(g);
  free(height);
  free(who);
  free(f);
  free(each);
  if (rc == 0)
    h->nc = nc;
  return rc;
}

static int trees_of(cost_ctx *c, int nc, tree_hops **out)
{
  return cost_nccl_by_channels(c, COST_CACHE_NCCL_TREE, sizeof **out, build_trees, tree_hops_free, nc, (void **)out);
}

/* Per rank of one channel while its chunks are timed. */
typedef struct {
  double up_ready, down_ready;   /* the reduction's and the broadcast's previous chunk taken up */
  double up_sent;                /* chunk k reached the parent */
  double down_sent[3];           /* chunk k reached child i */
  double end;                    /* the last chunk in and every send delivered */
  double up_free, down_free[3];  /* the connections to the parent, to the children: last delivery */
  double down_from;              /* when its broadcast began */
  long up_sends, down_sends[3];
  cost_nccl_slots up_slot, down_slot; /* the receive slots of the reduction, of the broadcast */
} tree_rank;

/* Where a channel stands: the links carry both its reductions and its broadcasts from the
 * moment the root sends its first chunk down until the last chunk goes up. */
typedef struct {
  double down_from; /* when the root sent chunk 0 down (INFINITY before) */
  int last;         /* the chunk being timed is the channel's last */
} tree_phase;

/* Sends chunk k from r to its i-th child, into the child's broadcast slots. */
static double send_down(cost_ctx *c, const tree_hops *h, int ch, const tree_phase *ph, tree_rank *rk, int r, int i,
                        double wire, int slots, double t)
{
  int p = c->p, y = h->child[(ch * p + r) * 3 + i];
  double room = cost_nccl_room(&rk[y].down_slot, rk[r].down_sends[i]++, slots);
  /* the rank's own reductions still go up its links until its last chunk has */
  cost_hop hop = ph->last || h->parent[ch * p + r] < 0 ? h->down1[ch * p + y] : h->down[ch * p + y];
  return rk[r].down_sent[i] = cost_nccl_send(c, hop, wire, fmax(t, room), &rk[r].down_free[i]);
}

/* Times chunk k (of n elements) of channel ch on every rank; gpu[rank]: the rank's GPU, which
 * sums for every channel. */
static void time_chunk(cost_ctx *c, const tree_hops *h, int ch, int proto, size_t n, tree_phase *ph, tree_rank *rk,
                       cost_nccl_gpu *gpu)
{
  int p = c->p, slots = nccl_slots(NCCL_ALGO_TREE, proto);
  size_t es = (size_t)c->shape.elem;
  double bytes = (double)(n * es), wire = (double)nccl_wire_bytes(proto, n * es);
  const int *par = h->parent + ch * p, *nch = h->nchild + ch * p, *kid = h->child + ch * p * 3, *ord = h->order + ch * p;
  for (int i = 0; i < p; i++) { /* the reduction, leaves first */
    int r = ord[i];
    tree_rank *x = &rk[r];
    double t = x->up_ready;
    for (int j = 0; j < nch[r]; j++) {
      int y = kid[r * 3 + j];
      t = fmax(t, rk[y].up_sent + nccl_hop_extra_s(h->hw[ch * p + y], NCCL_ALGO_TREE, proto));
    }
    if (nch[r] && bytes > 0 && c->net->compute.reduce_bw > 0) /* a fused sum of the children's and its own */
      t = cost_nccl_sum(&gpu[r], t, (nch[r] + 2) / 3.0 * bytes / c->net->compute.reduce_bw);
    if (nch[r])
      cost_nccl_consume(&x->up_slot, t);
    x->up_ready = t;
    x->end = fmax(x->end, t);
    if (par[r] >= 0) {
      double room = cost_nccl_room(&rk[par[r]].up_slot, x->up_sends++, slots), go = fmax(t, room);
      /* its links carry its broadcasts too once they have begun */
      cost_hop hop = go >= x->down_from ? h->up[ch * p + r] : h->up1[ch * p + r];
      x->up_sent = cost_nccl_send(c, hop, wire, go, &x->up_free);
      x->end = fmax(x->end, x->up_sent);
    } else { /* the root turns the sum straight around */
      ph->down_from = fmin(ph->down_from, t);
      for (int j = 0; j < nch[r]; j++)
        x->end = fmax(x->end, send_down(c, h, ch, ph, rk, r, j, wire, slots, t));
    }
  }
  for (int i = p - 1; i >= 0; i--) { /* the broadcast, root first */
    int r = ord[i], at = 0;
    tree_rank *x = &rk[r];
    if (par[r] < 0)
      continue;
    while (kid[par[r] * 3 + at] != r)
      at++;
    double t = fmax(x->down_ready, rk[par[r]].down_sent[at] + nccl_hop_extra_s(h->hw[ch * p + r], NCCL_ALGO_TREE, proto));
    cost_nccl_consume(&x->down_slot, t);
    x->down_from = fmin(x->down_from, t);
    x->down_ready = t;
    x->end = fmax(x->end, t);
    for (int j = 0; j < nch[r]; j++)
      x->end = fmax(x->end, send_down(c, h, ch, ph, rk, r, j, wire, slots, t));
  }
}

int cost_nccl_tree_time(cost_ctx *c, uint64_t count, int proto, int nc, cost_result *r)
{
  tree_hops *h;
  int rc = trees_of(c, nc, &h), p = c->p;
  if (rc)
    return rc;
  size_t es = (size_t)c->shape.elem, *chunk = malloc(sizeof(size_t) * (size_t)nc);
  tree_phase *ph = malloc(sizeof *ph * (size_t)nc);
  tree_rank *rk = malloc(sizeof *rk * (size_t)(nc * p));
  cost_nccl_gpu *gpu = calloc((size_t)p, sizeof *gpu);
  double launch = nccl_launch_s(NCCL_ALGO_TREE, proto), worst = 0;
  long most = 0;
  if (!rk || !gpu || !chunk || !ph) {
    free(rk);
    free(gpu);
    free(chunk);
    free(ph);
    return SA_ENOMEM;
  }
  for (int ch = 0; ch < nc; ch++) {
    size_t len = ar_part_len((size_t)count, nc, ch);
    chunk[ch] = nccl_tree_chunk(proto, len, es, c->shape.nodes, p);
    long k = len ? (long)((len + chunk[ch] - 1) / chunk[ch]) : 0;
    ph[ch] = (tree_phase){INFINITY, 0};
    most = k > most ? k : most;
    for (int i = 0; i < p; i++) {
      double start = c->skew[i] + launch;
      rk[ch * p + i] = (tree_rank){.up_ready = start, .down_ready = start, .end = start, .up_free = start,
                                   .down_from = INFINITY,
                                   .down_free = {start, start, start}, .up_slot = {.start = start},
                                   .down_slot = {.start = start}};
    }
  }
  /* the channels go in step: chunk k of each in turn */
  for (long k = 0; k < most; k++)
    for (int ch = 0; ch < nc; ch++) {
      size_t len = ar_part_len((size_t)count, nc, ch), at = (size_t)k * chunk[ch];
      ph[ch].last = at + chunk[ch] >= len;
      if (at < len)
        time_chunk(c, h, ch, proto, len - at < chunk[ch] ? len - at : chunk[ch], &ph[ch], rk + ch * p, gpu);
    }
  for (int ch = 0; ch < nc; ch++)
    for (int i = 0; ar_part_len((size_t)count, nc, ch) > 0 && i < p; i++)
      worst = fmax(worst, rk[ch * p + i].end - c->skew[i]);
  free(rk);
  free(gpu);
  free(chunk);
  free(ph);
  cost_result_phase(r, AR_PH_LAUNCH, launch);
  cost_result_phase(r, AR_PH_TREE, worst - launch);
  return 0;
}
