/* cost_naive.c: gather to rank 0, p-1 sums there, broadcast back (algos/naive.c): both
 * transfers are p-1 messages in flight at once, all through rank 0's links. */
#include <stdlib.h>

#include "cost_models.h"

typedef struct {
  cost_hop *gather, *bcast; /* [i - 1]: rank i's message to rank 0, and rank 0's to it */
} naive_hops;

static void naive_free(void *x)
{
  naive_hops *h = x;
  if (h) {
    free(h->gather);
    free(h->bcast);
  }
  free(h);
}

/* the key of what this model keeps for a layout (cost_ctx.h) */
static char naive_key;

static int naive_hops_of(cost_ctx *c, naive_hops **out)
{
  if ((*out = cost_cache_get(c, &naive_key)))
    return 0;
  int p = c->p;
  naive_hops *h = calloc(1, sizeof *h);
  cost_flow *f = calloc((size_t)p, sizeof *f);
  int rc = h && f ? 0 : SA_ENOMEM;
  if (rc == 0) {
    h->gather = calloc((size_t)p, sizeof *h->gather);
    h->bcast = calloc((size_t)p, sizeof *h->bcast);
    rc = h->gather && h->bcast ? 0 : SA_ENOMEM;
  }
  for (int i = 1; i < p && rc == 0; i++)
    f[i - 1] = (cost_flow){i, 0};
  if (rc == 0)
    rc = cost_pattern(c, f, p - 1, h->gather, NULL);
  for (int i = 1; i < p && rc == 0; i++)
    f[i - 1] = (cost_flow){0, i};
  if (rc == 0)
    rc = cost_pattern(c, f, p - 1, h->bcast, NULL);
  free(f);
  return cost_cache_keep(c, &naive_key, h, naive_free, rc, (void **)out);
}

int cost_naive(cost_ctx *c, uint64_t count, cost_result *r)
{
  naive_hops *h;
  int rc = naive_hops_of(c, &h);
  if (rc)
    return rc;
  /* On rank 0's clock: rank i starts skew[i] late, so its message is in at skew[i] plus its
   * hop; the sums start when the last one is in. */
  /* Rank 0 waits for its receives in rank order, paying each one's receive overhead after
   * it arrives. */
  double bytes = (double)count * c->shape.elem, in = 0, alone = 0;
  cost_size sz = cost_size_of(c, bytes);
  double o = sz.overhead;
  for (int i = 1; i < c->p; i++) {
    double t = cost_hop_at(h->gather[i - 1], &sz) - o;
    in = (c->skew[i] + t > in ? c->skew[i] + t : in) + o;
    alone = (t > alone ? t : alone) + o;
  }
  double work = cost_copy_time(c, count) + (c->p - 1) * cost_sum_time(c, count), gathered = in + work;
  /* Rank i's clock reads its result's arrival minus its own late start. Sent eagerly, the
   * broadcast leaves rank 0 at once; otherwise rank 0 waits for every transfer. */
  double total = gathered, slowest = 0;
  for (int i = 1; i < c->p; i++) {
    double t = cost_hop_at(h->bcast[i - 1], &sz);
    slowest = t > slowest ? t : slowest;
    total = gathered + t - c->skew[i] > total ? gathered + t - c->skew[i] : total;
  }
  if (bytes >= c->net->detached_thresh)
    total = gathered + slowest > total ? gathered + slowest : total;
  cost_result_phase(r, AR_PH_GATHER_REDUCE, gathered);
  cost_result_phase(r, AR_PH_BCAST, total - gathered);
  r->skew_s = total - (alone + work + slowest);
  return 0;
}
