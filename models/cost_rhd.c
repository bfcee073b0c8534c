/* cost_rhd.c: recursive halving-doubling's formula (algos/rhd.c), step by step: with P the
 * largest power of two <= p and r = p - P, a copy of the input, the fix-up pair exchange
 * when r > 0, log2 P halving steps (exchange, then sum the kept half), log2 P doubling
 * steps, the fix-up hand-back. Each step's partners are found by the same renumbering as
 * the code's, so the messages that meet on a node's links (all R ranks of a node talking
 * to another node at the long distances, node-major) are counted. */
#include <stdlib.h>

#include "cost_ctx.h"

typedef struct {
  int P, r, log2P;
  cost_hops pre, post; /* fix-up pairs: even rank to odd before, odd to even after */
  cost_hops *step;     /* [k]: exchanges at distance P >> (k+1), k = 0..log2P-1 */
} rhd_hops;

static void rhd_free(void *x)
{
  rhd_hops *h = x;
  if (h)
    free(h->step);
  free(h);
}

/* The code's renumbering: ranks 2v+1 (v < r) and v+r (v >= r) stay in. */
static int real_rank(int v, int r) { return v < r ? 2 * v + 1 : v + r; }

static int rhd_hops_of(cost_ctx *c, rhd_hops **out)
{
  if ((*out = c->cache[COST_CACHE_RHD]))
    return 0;
  int p = c->p, P = 1, k = 0;
  while (P * 2 <= p)
    P *= 2, k++;
  rhd_hops *h = calloc(1, sizeof *h);
  cost_flow *f = calloc((size_t)p, sizeof *f);
  int rc = h && f ? 0 : COST_ENOMEM;
  if (rc == 0) {
    h->P = P;
    h->r = p - P;
    h->log2P = k;
    h->step = calloc((size_t)(k ? k : 1), sizeof *h->step);
    rc = h->step ? 0 : COST_ENOMEM;
  }
  if (rc == 0 && h->r > 0) {
    for (int i = 0; i < h->r; i++)
      f[i] = (cost_flow){2 * i, 2 * i + 1};
    rc = cost_pattern(c, f, h->r, NULL, &h->pre);
    for (int i = 0; i < h->r && rc == 0; i++)
      f[i] = (cost_flow){2 * i + 1, 2 * i};
    if (rc == 0)
      rc = cost_pattern(c, f, h->r, NULL, &h->post);
  }
  for (int s = 0; s < k && rc == 0; s++) {
    int dist = P >> (s + 1);
    for (int v = 0; v < P; v++)
      f[v] = (cost_flow){real_rank(v, h->r), real_rank(v ^ dist, h->r)};
    rc = cost_pattern(c, f, P, NULL, &h->step[s]);
  }
  free(f);
  return cost_cache_keep(c, COST_CACHE_RHD, h, rhd_free, rc, (void **)out);
}

int cost_rhd(cost_ctx *c, uint64_t count, cost_result *r)
{
  rhd_hops *h;
  int rc = rhd_hops_of(c, &h);
  if (rc)
    return rc;
  double es = c->shape.elem, all = (double)count * es;
  uint64_t block = cost_ceil_div(count, (uint64_t)h->P);
  double copy = cost_copy_time(c, count);
  if (h->r > 0)
    cost_result_phase(r, "pre", copy + cost_hops_time(c, &h->pre, all) + cost_sum_time(c, count));
  /* step s moves (and, halving, sums) the half of the current range: dist blocks */
  double rs = h->r > 0 ? 0 : copy, ag = 0;
  for (int s = 0; s < h->log2P; s++) {
    uint64_t n = (uint64_t)(h->P >> (s + 1)) * block;
    n = n < count ? n : count;
    rs += cost_hops_time(c, &h->step[s], (double)n * es) + cost_sum_time(c, n);
    ag += cost_hops_time(c, &h->step[s], (double)n * es);
  }
  cost_result_phase(r, "reduce-scatter", rs);
  cost_result_phase(r, "allgather", ag);
  if (h->r > 0)
    cost_result_phase(r, "post", cost_hops_time(c, &h->post, all));
  cost_result_skew(r, 0, c->skew_max);
  return 0;
}
