/* cost_ring.c: the ring's formula (algos/ring.c): 2(p-1) lock steps, each as long as the
 * slowest hop of the ring, every reduce-scatter step followed by the sums of what arrived.
 * With C channels every hop carries C messages at once; the model takes every channel
 * through the plain node order, which is where the runner puts them when all of a node's
 * GPUs hang off one link each (on NVLink meshes it picks other orders: pessimistic there). */
#include <stdlib.h>

#include "cost_models.h"

/* the key of what this model keeps for a layout (cost_ctx.h) */
static char ring_key;

static int ring_hops(cost_ctx *c, cost_hops **out)
{
  if ((*out = cost_cache_get(c, &ring_key)))
    return 0;
  int p = c->p, C = c->shape.channels;
  cost_hops *h = calloc(1, sizeof *h);
  cost_flow *f = calloc((size_t)p * (size_t)C, sizeof *f);
  int rc = h && f ? 0 : SA_ENOMEM;
  for (int ch = 0; ch < C && rc == 0; ch++)
    for (int r = 0; r < p; r++)
      f[ch * p + r] = (cost_flow){r, (r + 1) % p};
  if (rc == 0)
    rc = cost_pattern(c, f, p * C, NULL, h);
  free(f);
  return cost_cache_keep(c, &ring_key, h, free, rc, (void **)out);
}

int cost_ring(cost_ctx *c, uint64_t count, cost_result *r)
{
  cost_hops *h;
  int rc = ring_hops(c, &h);
  if (rc)
    return rc;
  int p = c->p, C = c->shape.channels;
  uint64_t chunk = cost_ceil_div(cost_ceil_div(count, (uint64_t)C), (uint64_t)p);
  /* a rank receives C messages a step, each with its receive overhead */
  double bytes = (double)(chunk * (uint64_t)c->shape.elem);
  double hop = cost_hops_time(c, h, bytes) + (C - 1) * cost_recv_overhead(c, bytes);
  cost_result_phase(r, AR_PH_RS, (p - 1) * (hop + C * cost_sum_time(c, chunk)));
  cost_result_phase(r, AR_PH_AG, (p - 1) * hop);
  cost_result_skew(r, 0, c->skew_max);
  return 0;
}
