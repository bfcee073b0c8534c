/* cost_rhd.c: recursive halving-doubling's formula (algos/rhd.c), step by step: with P the
 * largest power of two <= p and r = p - P, a copy of the input, the fix-up pair exchange
 * when r > 0, log2 P halving steps (exchange, then sum the kept half), log2 P doubling
 * steps, the fix-up hand-back. Each step's partners are found by the same renumbering as
 * the code's, so the messages that meet on a node's links (all R ranks of a node talking
 * to another node at the long distances, node-major) are counted. The ranks do not move in
 * lock step: a pair exchanges once both partners are there, so a rank whose links are fast
 * at one distance and slow at another is timed along its own path, and the phases are
 * read off every rank's clock as the runner reads them. */
#include <math.h>
#include <stdlib.h>

#include "cost_models.h"

typedef struct {
  int P, r, log2P;
  cost_hop *pre, *post; /* [i]: fix-up pair i, even rank to odd before, odd to even after */
  cost_hop *step;       /* [k * P + v]: renumbered rank v to its partner at distance P >> (k+1) */
} rhd_hops;

static void rhd_free(void *x)
{
  rhd_hops *h = x;
  if (h) {
    free(h->pre);
    free(h->post);
    free(h->step);
  }
  free(h);
}

/* The code's renumbering: ranks 2v+1 (v < r) and v+r (v >= r) stay in. */
static int real_rank(int v, int r) { return v < r ? 2 * v + 1 : v + r; }

/* the key of what this model keeps for a layout (cost_ctx.h) */
static char rhd_key;

static int rhd_hops_of(cost_ctx *c, rhd_hops **out)
{
  if ((*out = cost_cache_get(c, &rhd_key)))
    return 0;
  int p = c->p, P = 1, k = 0;
  while (P * 2 <= p)
    P *= 2, k++;
  rhd_hops *h = calloc(1, sizeof *h);
  cost_flow *f = calloc((size_t)p, sizeof *f);
  int rc = h && f ? 0 : SA_ENOMEM;
  if (rc == 0) {
    h->P = P;
    h->r = p - P;
    h->log2P = k;
    h->step = calloc((size_t)(k ? k : 1) * (size_t)P, sizeof *h->step);
    h->pre = calloc((size_t)(h->r ? h->r : 1), sizeof *h->pre);
    h->post = calloc((size_t)(h->r ? h->r : 1), sizeof *h->post);
    rc = h->step && h->pre && h->post ? 0 : SA_ENOMEM;
  }
  if (rc == 0 && h->r > 0) {
    for (int i = 0; i < h->r; i++)
      f[i] = (cost_flow){2 * i, 2 * i + 1};
    rc = cost_pattern(c, f, h->r, h->pre, NULL);
    for (int i = 0; i < h->r && rc == 0; i++)
      f[i] = (cost_flow){2 * i + 1, 2 * i};
    if (rc == 0)
      rc = cost_pattern(c, f, h->r, h->post, NULL);
  }
  for (int s = 0; s < k && rc == 0; s++) {
    int dist = P >> (s + 1);
    for (int v = 0; v < P; v++)
      f[v] = (cost_flow){real_rank(v, h->r), real_rank(v ^ dist, h->r)};
    rc = cost_pattern(c, f, P, h->step + (size_t)s * (size_t)P, NULL);
  }
  free(f);
  return cost_cache_keep(c, &rhd_key, h, rhd_free, rc, (void **)out);
}

/* One exchange step of every renumbered rank with its partner: it starts when both are
 * there and ends when both directions have arrived, then the kept half is summed. */
static void exchange(const cost_ctx *c, const rhd_hops *h, int s, double bytes, double sum, double *t, double *next)
{
  int P = h->P, dist = P >> (s + 1);
  const cost_hop *hop = h->step + (size_t)s * (size_t)P;
  cost_size at = cost_size_of(c, bytes);
  for (int v = 0; v < P; v++) {
    int w = v ^ dist, a = real_rank(v, h->r), b = real_rank(w, h->r);
    next[v] = fmax(t[a], t[b]) + fmax(cost_hop_at(hop[v], &at), cost_hop_at(hop[w], &at)) + sum;
  }
  for (int v = 0; v < P; v++)
    t[real_rank(v, h->r)] = next[v];
}

/* The runner's phase times: each phase ends at the latest of every rank's end on its own
 * clock (end[k] - start[k]), and lasts from the previous phase's. Without r, only tracks. */
static void phase(const cost_ctx *c, cost_result *r, const char *name, const double *t, const double *start,
                  double *before)
{
  double worst = 0;
  for (int k = 0; k < c->p; k++)
    worst = fmax(worst, t[k] - start[k]);
  if (r)
    cost_result_phase(r, name, worst - *before);
  *before = worst;
}

/* Runs the steps from every rank's start; returns the slowest clock. t: 2p scratch. */
static double steps(const cost_ctx *c, const rhd_hops *h, uint64_t count, const double *start, double *t, cost_result *r)
{
  int p = c->p;
  double *next = t + p, es = c->shape.elem, all = (double)count * es, before = 0;
  int eager = all < c->net->detached_thresh;
  uint64_t block = cost_ceil_div(count, (uint64_t)h->P);
  for (int k = 0; k < p; k++) /* every rank copies its input as it starts */
    t[k] = start[k] + cost_copy_time(c, count);
  if (h->r > 0) { /* the even rank of each pair hands its vector over and sits out */
    for (int i = 0; i < h->r; i++) {
      double arrive = fmax(t[2 * i], t[2 * i + 1]) + cost_hop_time(c, h->pre[i], all);
      t[2 * i] = eager ? t[2 * i] : arrive;
      t[2 * i + 1] = arrive + cost_sum_time(c, count);
    }
    phase(c, r, AR_PH_PRE, t, start, &before);
  }
  /* halving: step s moves (and sums) the half of the current range, dist blocks */
  for (int s = 0; s < h->log2P; s++) {
    uint64_t n = (uint64_t)(h->P >> (s + 1)) * block;
    n = n < count ? n : count;
    exchange(c, h, s, (double)n * es, cost_sum_time(c, n), t, next);
  }
  phase(c, r, AR_PH_RS, t, start, &before);
  for (int s = h->log2P - 1; s >= 0; s--) { /* doubling: the same pairs, nearest first */
    uint64_t n = (uint64_t)(h->P >> (s + 1)) * block;
    exchange(c, h, s, (double)(n < count ? n : count) * es, 0, t, next);
  }
  phase(c, r, AR_PH_AG, t, start, &before);
  if (h->r > 0) {
    for (int i = 0; i < h->r; i++) {
      double arrive = fmax(t[2 * i], t[2 * i + 1]) + cost_hop_time(c, h->post[i], all);
      t[2 * i + 1] = eager ? t[2 * i + 1] : arrive;
      t[2 * i] = arrive;
    }
    phase(c, r, AR_PH_POST, t, start, &before);
  }
  return before;
}

int cost_rhd(cost_ctx *c, uint64_t count, cost_result *r)
{
  rhd_hops *h;
  int rc = rhd_hops_of(c, &h), p = c->p;
  double *t = rc ? NULL : calloc(3 * (size_t)p, sizeof(double));
  if (!t)
    return rc ? rc : SA_ENOMEM;
  double total = steps(c, h, count, c->skew, t, r), at_once = steps(c, h, count, t + 2 * p, t, NULL);
  r->skew_s = total - at_once; /* t + 2p: every rank starting at 0 */
  free(t);
  return 0;
}
