/* cost_tree.c: the pipelined trees' formula (algos/tree.c, algos/twotree.c), on the very trees
 * the code builds (algos/tree_shape.c): per phase and tree,
 *   F + (S - 1) * D
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

#include "../algos/tree_shape.h"
#include "cost_ctx.h"

typedef struct {
  int *parent, *nchild;
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
  ar_tree_node *inter = malloc(sizeof *inter * (size_t)nodes), *all = malloc(sizeof *all * (size_t)p);
  q->parent = malloc(sizeof(int) * (size_t)p);
  q->nchild = malloc(sizeof(int) * (size_t)p);
  q->by_height = malloc(sizeof(int) * (size_t)p);
  q->by_depth = malloc(sizeof(int) * (size_t)p);
  q->fill_up = calloc((size_t)p, sizeof(cost_hop));
  q->fill_down = calloc((size_t)p, sizeof(cost_hop));
  int rc = inter && all && q->parent && q->nchild && q->by_height && q->by_depth && q->fill_up && q->fill_down
               ? 0
               : COST_ENOMEM;
  for (int n = 0; n < nodes && rc == 0; n++)
    ar_shape_twotree(nodes, which, n, &inter[n]);
  for (int r = 0; r < p && rc == 0; r++) {
    ar_shape_chain(nodes, rpn, which, inter, r, &all[r]);
    q->parent[r] = all[r].parent;
    q->nchild[r] = all[r].nchild;
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

static int tree_cache_of(cost_ctx *c, int nparts, int slot, tree_cache **out)
{
  if ((*out = c->cache[slot]))
    return 0;
  int p = c->p, n2 = 2 * p;
  tree_cache *t = calloc(1, sizeof *t);
  int *height = malloc(sizeof(int) * (size_t)n2), *depth = malloc(sizeof(int) * (size_t)n2), *who = malloc(sizeof(int) * (size_t)n2);
  cost_flow *f = calloc((size_t)n2, sizeof *f);
  cost_hop *each = malloc(sizeof *each * (size_t)n2);
  int rc = t && height && depth && who && f && each ? 0 : COST_ENOMEM;
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
  return cost_cache_keep(c, slot, t, tree_cache_free, rc, (void **)out);
}

/* The first segment's wave time: reduce (up) or bcast. */
static double fill(const cost_ctx *c, const tree_part *q, int up, double bytes, double sum, double *at)
{
  int p = c->p;
  double end = 0;
  if (up) {
    for (int i = 0; i < p; i++)
      at[i] = 0;
    for (int i = 0; i < p; i++) { /* leaves first: a rank is done once its children are */
      int r = q->by_height[i];
      at[r] += q->nchild[r] * sum;
      if (q->parent[r] >= 0) {
        double t = at[r] + cost_hop_time(c, q->fill_up[r], bytes);
        at[q->parent[r]] = t > at[q->parent[r]] ? t : at[q->parent[r]];
      } else {
        end = at[r] > end ? at[r] : end;
      }
    }
    return end;
  }
  for (int i = 0; i < p; i++) { /* root first */
    int r = q->by_depth[i];
    at[r] = q->parent[r] < 0 ? 0 : at[q->parent[r]] + cost_hop_time(c, q->fill_down[r], bytes);
    end = at[r] > end ? at[r] : end;
  }
  return end;
}

static int trees(cost_ctx *c, uint64_t count, int nparts, int slot, cost_result *r)
{
  tree_cache *t;
  int rc = tree_cache_of(c, nparts, slot, &t), p = c->p;
  /* per part, each rank's arrival time in the broadcast wave; then scratch for the reduce */
  double *at = rc ? NULL : malloc(sizeof(double) * (size_t)p * 3);
  if (!at)
    return rc ? rc : COST_ENOMEM;
  uint64_t es = (uint64_t)c->shape.elem, seg = c->shape.segment_bytes / es;
  seg = seg ? seg : 1;
  double phase[2] = {0, 0}, fill_b[2] = {0, 0}, end_b[2] = {0, 0};
  int used[2] = {0, 0};
  for (int i = 0; i < nparts; i++) {
    uint64_t len = nparts == 1 ? count : i == 0 ? count - count / 2 : count / 2;
    if (len == 0)
      continue;
    used[i] = 1;
    const tree_part *q = &t->part[i];
    uint64_t nseg = cost_ceil_div(len, seg), first = len < seg ? len : seg, last = len - (nseg - 1) * seg;
    int most = 0;
    for (int k = 0; k < p; k++)
      most = q->nchild[k] > most ? q->nchild[k] : most;
    for (int up = 0; up < 2; up++) {
      double sum = up ? cost_sum_time(c, first) : 0;
      double x = fill(c, q, up, (double)(first * es), sum, up ? at + 2 * p : at + i * p);
      if (!up)
        fill_b[i] = x;
      if (nseg > 1) { /* the steady segments, the last one possibly shorter */
        const cost_hops *steady = up ? &q->steady_up : &q->steady_down;
        for (int lastone = 0; lastone < 2; lastone++) {
          uint64_t n = lastone ? last : seg;
          double hop = cost_hops_time(c, steady, (double)(n * es)), work = up ? most * cost_sum_time(c, n) : 0;
          x += (double)(lastone ? 1 : nseg - 2) * (hop > work ? hop : work);
        }
      }
      if (!up)
        end_b[i] = x;
      phase[!up] = x > phase[!up] ? x : phase[!up];
    }
  }
  /* The ranks wait for the last to start, then each finishes when the broadcast reaches it
   * (as much earlier than the last rank as its wave arrives earlier) and reads its clock from
   * its own late start: the skew shows as far as the last ranks to finish started early. */
  double skew = 0;
  for (int k = 0; k < p; k++) {
    double done = 0;
    for (int i = 0; i < nparts; i++)
      if (used[i])
        done = fmax(done, end_b[i] - (fill_b[i] - at[i * p + k]));
    skew = fmax(skew, c->skew_max + done - phase[1] - c->skew[k]);
  }
  free(at);
  cost_result_phase(r, "reduce", phase[0]);
  cost_result_phase(r, "bcast", phase[1]);
  cost_result_skew(r, -1, skew);
  return 0;
}

int cost_tree(cost_ctx *c, uint64_t count, cost_result *r) { return trees(c, count, 1, COST_CACHE_TREE, r); }

int cost_twotree(cost_ctx *c, uint64_t count, cost_result *r) { return trees(c, count, 2, COST_CACHE_TWOTREE, r); }
