/* cost_tree.c: the pipelined trees' formula (algos/tree.c, algos/twotree.c), on the very trees
 * the code builds (topo/trees.c): per phase and tree,
 *   F + (S - 1) * D, with
 * F: the first segment's way through the tree (reduce: up from the leaves, each node summing
 *   its children's segments; bcast: down from the root), each hop sharing its links with the
 *   hops of the same wave (the messages of every tree that leave at the same height, or depth);
 * D: the steady segment time, the slowest hop with every edge of every tree busy at once,
 *   latency included (a node forwards segment k only once it has it, so no hop has two of
 *   its segments in flight long enough to hide the latency), or the slowest node's sums
 *   when they take longer;
 * S: segments of the tree's part (--segment). The phase lasts as long as its slowest tree. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "topo/trees.h"
#include "cost_models.h"

typedef struct {
  int *parent, *nchild, *child; /* child[3 r + i]: r's children */
  int *by_height, *by_depth; /* ranks, leaves first / root first */
  cost_hop *fill_up, *fill_down; /* [r]: the edge between r and its parent, in its wave */
  cost_hops steady_up, steady_down;
} tree_part;

typedef struct {
  int nparts;
  tree_part part[2];
} tree_cache;

static void tree_cache_free(void *x)
{
  tree_cache *t = x;
  for (int i = 0; t && i < 2; i++) {
    tree_part *q = &t->part[i];
    free(q->parent);
    free(q->nchild);
    free(q->child);
    free(q->by_height);
    free(q->by_depth);
    free(q->fill_up);
    free(q->fill_down);
  }
  free(t);
}

static int *g_key; /* qsort has no context argument: the key the ranks are sorted by */
static int by_key(const void *a, const void *b)
{
  int x = g_key[*(const int *)a], y = g_key[*(const int *)b];
  if (x != y)
    return x < y ? -1 : 1;
  return *(const int *)a - *(const int *)b;
}

/* Builds tree `which` over the ranks exactly as ar_tree_of_rank does, with heights and
 * depths. height and depth are scratch arrays of p ints, filled. */
static int build_part(const cost_ctx *c, int which, tree_part *q, int *height, int *depth)
{
  int p = c->p, rpn = c->shape.rpn, nodes = p / rpn;
  topo_tree_node *inter = malloc(sizeof *inter * (size_t)nodes), *all = malloc(sizeof *all * (size_t)p);
  q->parent = malloc(sizeof(int) * (size_t)p);
  q->nchild = malloc(sizeof(int) * (size_t)p);
  q->child = malloc(sizeof(int) * 3 * (size_t)p);
  q->by_height = malloc(sizeof(int) * (size_t)p);
  q->by_depth = malloc(sizeof(int) * (size_t)p);
  q->fill_up = calloc((size_t)p, sizeof(cost_hop));
  q->fill_down = calloc((size_t)p, sizeof(cost_hop));
  int rc = inter && all && q->parent && q->nchild && q->child && q->by_height && q->by_depth && q->fill_up && q->fill_down
               ? 0
               : SA_ENOMEM;
  for (int n = 0; n < nodes && rc == 0; n++)
    topo_tree_two(nodes, which, n, &inter[n]);
  for (int r = 0; r < p && rc == 0; r++) {
    topo_tree_chain(nodes, rpn, which, inter, r, &all[r]);
    q->parent[r] = all[r].parent;
    q->nchild[r] = all[r].nchild;
    for (int i = 0; i < all[r].nchild; i++)
      q->child[3 * r + i] = all[r].child[i];
    height[r] = depth[r] = -1;
    q->by_height[r] = q->by_depth[r] = r;
  }
  /* heights and depths by repeated relaxation: trees are shallow (log of the nodes plus
   * the chain), so a few sweeps settle them */
  for (int changed = 1; changed && rc == 0;) {
    changed = 0;
    for (int r = 0; r < p; r++) {
      int h = 0, d = q->parent[r] < 0 ? 0 : depth[q->parent[r]] < 0 ? -1 : depth[q->parent[r]] + 1;
      for (int i = 0; i < all[r].nchild; i++)
        h = height[all[r].child[i]] < 0 ? -1 : h > height[all[r].child[i]] + 1 ? h : height[all[r].child[i]] + 1;
      if (h != height[r] || d != depth[r])
        changed = 1;
      height[r] = h;
      depth[r] = d;
    }
  }
  if (rc == 0) {
    g_key = height;
    qsort(q->by_height, (size_t)p, sizeof(int), by_key);
    g_key = depth;
    qsort(q->by_depth, (size_t)p, sizeof(int), by_key);
  }
  free(inter);
  free(all);
  return rc;
}

/* Hops of one wave: the edges below a given height (reduce) or depth (bcast) of every part. */
static int wave(cost_ctx *c, tree_cache *t, int up, int level, const int *const *lvl, cost_flow *f, int *who,
                cost_hop *each)
{
  int n = 0;
  for (int i = 0; i < t->nparts; i++)
    for (int r = 0; r < c->p; r++) {
      int par = t->part[i].parent[r];
      if (par < 0 || lvl[i][up ? r : par] != level)
        continue;
      f[n] = up ? (cost_flow){r, par} : (cost_flow){par, r};
      who[n++] = i * c->p + r;
    }
  int rc = n ? cost_pattern(c, f, n, each, NULL) : 0;
  for (int k = 0; k < n && rc == 0; k++) {
    tree_part *q = &t->part[who[k] / c->p];
    (up ? q->fill_up : q->fill_down)[who[k] % c->p] = each[k];
  }
  return rc;
}

/* the keys of what the two models keep for a layout (cost_ctx.h) */
static char tree_key, twotree_key;

static int tree_cache_of(cost_ctx *c, int nparts, const void *key, tree_cache **out)
{
  if ((*out = cost_cache_get(c, key)))
    return 0;
  int p = c->p, n2 = 2 * p;
  tree_cache *t = calloc(1, sizeof *t);
  int *height = malloc(sizeof(int) * (size_t)n2), *depth = malloc(sizeof(int) * (size_t)n2), *who = malloc(sizeof(int) * (size_t)n2);
  cost_flow *f = calloc((size_t)n2, sizeof *f);
  cost_hop *each = malloc(sizeof *each * (size_t)n2);
  int rc = t && height && depth && who && f && each ? 0 : SA_ENOMEM;
  if (t)
    t->nparts = nparts;
  for (int i = 0; i < nparts && rc == 0; i++)
    rc = build_part(c, i, &t->part[i], height + i * p, depth + i * p);
  const int *hl[2] = {height, height + p}, *dl[2] = {depth, depth + p};
  int maxlevel = 0;
  for (int i = 0; i < nparts * p && rc == 0; i++) {
    maxlevel = height[i] > maxlevel ? height[i] : maxlevel;
    maxlevel = depth[i] > maxlevel ? depth[i] : maxlevel;
  }
  for (int level = 0; level <= maxlevel && rc == 0; level++) {
    rc = wave(c, t, 1, level, hl, f, who, each);
    if (rc == 0)
      rc = wave(c, t, 0, level, dl, f, who, each);
  }
  /* steady state: every edge of every part busy, per direction */
  for (int up = 0; up < 2 && rc == 0; up++) {
    int n = 0;
    for (int i = 0; i < nparts; i++)
      for (int r = 0; r < p; r++)
        if (t->part[i].parent[r] >= 0) {
          f[n] = up ? (cost_flow){r, t->part[i].parent[r]} : (cost_flow){t->part[i].parent[r], r};
          who[n++] = i;
        }
    rc = cost_pattern(c, f, n, each, NULL);
    for (int k = 0; k < n && rc == 0; k++)
      cost_hops_add(up ? &t->part[who[k]].steady_up : &t->part[who[k]].steady_down, each[k]);
  }
  free(height);
  free(depth);
  free(who);
  free(f);
  free(each);
  return cost_cache_keep(c, key, t, tree_cache_free, rc, (void **)out);
}

/* The first segment's reduce, on rank 0's clock: rank r starts at start[r] (the runner's
 * skew, or 0), a message leaves once its sender has it and its receiver has posted the
 * receive (at its start), the children's messages are taken in arrival order, each paying
 * its receive overhead in turn, then summed. at[r] ends as the time rank r has its sum;
 * returns the root's. */
static double fill_up(const cost_ctx *c, const tree_part *q, double bytes, double sum, const double *start, double *at)
{
  cost_size sz = cost_size_of(c, bytes);
  double end = 0, o = sz.overhead;
  for (int i = 0; i < c->p; i++) { /* leaves first: a rank is done once its children are */
    int r = q->by_height[i], n = q->nchild[r];
    double arr[3], t = start[r];
    for (int k = 0; k < n; k++) {
      int ch = q->child[3 * r + k];
      arr[k] = fmax(at[ch], start[r]) + cost_hop_at(q->fill_up[ch], &sz) - o;
      for (int m = k; m > 0 && arr[m] < arr[m - 1]; m--) {
        double x = arr[m];
        arr[m] = arr[m - 1];
        arr[m - 1] = x;
      }
    }
    for (int k = 0; k < n; k++)
      t = fmax(arr[k], t) + o;
    at[r] = t + n * sum;
    if (q->parent[r] < 0)
      end = at[r];
  }
  return end;
}

/* The first segment's broadcast from the root (time 0): at[r] its arrival at r; returns
 * the last arrival. */
static double fill_down(const cost_ctx *c, const tree_part *q, double bytes, double *at)
{
  double end = 0;
  cost_size sz = cost_size_of(c, bytes);
  for (int i = 0; i < c->p; i++) { /* root first */
    int r = q->by_depth[i];
    at[r] = q->parent[r] < 0 ? 0 : at[q->parent[r]] + cost_hop_at(q->fill_down[r], &sz);
    end = fmax(end, at[r]);
  }
  return end;
}

/* The S - 1 segments after the first at the steady segment time of a direction, the last
 * one possibly shorter; a reducing rank also sums `most` children's segments. */
static double steady(const cost_ctx *c, const cost_hops *h, uint64_t nseg, uint64_t seg, uint64_t last, int most)
{
  double x = 0, es = c->shape.elem;
  for (int lastone = 0; nseg > 1 && lastone < 2; lastone++) {
    uint64_t n = lastone ? last : seg;
    double hop = cost_hops_time(c, h, (double)n * es), work = most * cost_sum_time(c, n);
    x += (double)(lastone ? 1 : nseg - 2) * fmax(hop, work);
  }
  return x;
}

/* Per part: reduce (its root's time, from every rank's own start) then broadcast; a rank
 * is done when the last segment of every part has reached it, and the runner reads each
 * rank's clock from its own start. The reduce phase is the roots' view, the broadcast the
 * rest of the slowest clock. */
static int trees(cost_ctx *c, uint64_t count, int nparts, const void *key, cost_result *r)
{
  tree_cache *t;
  int rc = tree_cache_of(c, nparts, key, &t), p = c->p;
  double *at = rc ? NULL : malloc(sizeof(double) * (size_t)p * 4);
  if (!at)
    return rc ? rc : SA_ENOMEM;
  double *zero = at + p, *done = at + 2 * p, *wave = at + 3 * p;
  uint64_t es = (uint64_t)c->shape.elem,
           seg = (c->shape.segment_bytes < AR_TREE_MAX_SEGMENT ? c->shape.segment_bytes : AR_TREE_MAX_SEGMENT) / es;
  seg = seg ? seg : 1;
  double reduce = 0, alone[2] = {0, 0};
  for (int k = 0; k < p; k++)
    zero[k] = done[k] = 0;
  for (int i = 0; i < nparts; i++) {
    uint64_t len = nparts == 1 ? count : i == 0 ? count - count / 2 : count / 2;
    if (len == 0)
      continue;
    const tree_part *q = &t->part[i];
    uint64_t nseg = cost_ceil_div(len, seg), first = len < seg ? len : seg, last = len - (nseg - 1) * seg;
    int most = 0, root = 0;
    for (int k = 0; k < p; k++) {
      most = q->nchild[k] > most ? q->nchild[k] : most;
      root = q->parent[k] < 0 ? k : root;
    }
    double sum = cost_sum_time(c, first), bytes = (double)(first * es);
    double up = steady(c, &q->steady_up, nseg, seg, last, most);
    double reduced = fill_up(c, q, bytes, sum, c->skew, at) + up;
    double fb = fill_down(c, q, bytes, wave), down = steady(c, &q->steady_down, nseg, seg, last, 0);
    reduce = fmax(reduce, reduced - c->skew[root]);
    alone[0] = fmax(alone[0], fill_up(c, q, bytes, sum, zero, at) + up);
    alone[1] = fmax(alone[1], fb + down);
    for (int k = 0; k < p; k++) /* the last segment reaches k as much before the last rank as the first does */
      done[k] = fmax(done[k], reduced + fb + down - (fb - wave[k]));
  }
  double total = 0;
  for (int k = 0; k < p; k++)
    total = fmax(total, done[k] - c->skew[k]);
  free(at);
  cost_result_phase(r, AR_PH_REDUCE, reduce);
  cost_result_phase(r, AR_PH_BCAST, total - reduce);
  r->skew_s = total - alone[0] - alone[1];
  return 0;
}

int cost_tree(cost_ctx *c, uint64_t count, cost_result *r) { return trees(c, count, 1, &tree_key, r); }

int cost_twotree(cost_ctx *c, uint64_t count, cost_result *r) { return trees(c, count, 2, &twotree_key, r); }
