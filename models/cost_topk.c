/* cost_topk.c: the top-k aggregations' formulas (algos/topk.c, algos/hitopk.c; [Shi21] eqs. 3
 * and 7-10), with each message's hop taken from the platform like the dense models': topk's
 * two allgathers are rings over every rank, hitopk's are hier's patterns (a ring inside each
 * node; rings across nodes, one per local index, sharing each node's links). Selection,
 * zeroing and scatter-add are charged from the platform's compute properties exactly as the
 * runner charges them. */
#include <math.h>
#include <stdlib.h>

#include "kernels/topk_select.h"
#include "cost_models.h"

#define INDEX_BYTES 4 /* indices travel as 32-bit integers */

/* the key of what this model keeps for a layout (cost_ctx.h) */
static char topk_key;

static int ring_hops(cost_ctx *c, cost_hops **out)
{
  if ((*out = cost_cache_get(c, &topk_key)))
    return 0;
  int p = c->p;
  cost_hops *h = calloc(1, sizeof *h);
  cost_flow *f = calloc((size_t)p, sizeof *f);
  int rc = h && f ? 0 : SA_ENOMEM;
  for (int r = 0; r < p && rc == 0; r++)
    f[r] = (cost_flow){r, (r + 1) % p};
  if (rc == 0)
    rc = cost_pattern(c, f, p, NULL, h);
  free(f);
  return cost_cache_keep(c, &topk_key, h, free, rc, (void **)out);
}

static double bytes_copy(const cost_ctx *c, double bytes) { return c->net->compute.copy_bw > 0 ? bytes / c->net->compute.copy_bw : 0; }

/* ar_zero: a memset moves half the bytes of a copy. */
static double zero_time(const cost_ctx *c, uint64_t elems) { return bytes_copy(c, (double)elems * c->shape.elem) / 2; }

static double scatter_time(const cost_ctx *c, uint64_t pairs)
{
  return pairs ? c->net->compute.scatter_a + c->net->compute.scatter_b * (double)pairs : 0;
}

/* ar_allgather_pairs over `ranks` ranks on hops h: the rank's own pairs copied into place,
 * then a ring allgather of the values and one of the indices. */
static double pairs_allgather(const cost_ctx *c, const cost_hops *h, int ranks, uint64_t k)
{
  double v = (double)k * c->shape.elem, i = (double)k * INDEX_BYTES;
  return bytes_copy(c, v) + bytes_copy(c, i) + (ranks - 1) * (cost_hops_time(c, h, v) + cost_hops_time(c, h, i));
}

int cost_topk(cost_ctx *c, uint64_t count, cost_result *r)
{
  static const cost_hops alone = {0, {{0, 0}}}; /* one rank: its allgather sends nothing */
  const cost_hops *h = &alone;
  cost_hops *ring;
  int rc = c->p > 1 ? ring_hops(c, &ring) : 0;
  if (rc)
    return rc;
  if (c->p > 1)
    h = ring;
  const cost_net *net = c->net;
  uint64_t k = kn_topk_k(count, c->shape.density), n = k < count ? k : count;
  cost_result_phase(r, AR_PH_SELECT, n ? net->compute.topk_a + net->compute.topk_b * (double)count : 0);
  cost_result_phase(r, AR_PH_AG, pairs_allgather(c, h, c->p, k));
  cost_result_phase(r, AR_PH_SCATTER_ADD, zero_time(c, count) + scatter_time(c, (uint64_t)c->p * k));
  cost_result_skew(r, 1, c->skew_max);
  return 0;
}

int cost_hitopk(cost_ctx *c, uint64_t count, cost_result *r)
{
  cost_hier_hops *h;
  int rc = cost_hier_hops_of(c, &h);
  if (rc)
    return rc;
  const cost_net *net = c->net;
  int n = c->shape.rpn, m = c->shape.nodes, es = c->shape.elem;
  uint64_t shard = cost_ceil_div(count, (uint64_t)n), k = kn_topk_k(shard, c->shape.density);
  /* (1) the node's ring reduce-scatter, as hier's */
  double rs = n > 1 ? (n - 1) * (cost_hops_time(c, &h->intra, (double)(shard * (uint64_t)es)) + cost_sum_time(c, shard))
                    : cost_copy_time(c, count);
  cost_result_phase(r, AR_PH_INTRA_RS, rs);
  /* (2) MSTopK over the shard, charged per input byte */
  cost_result_phase(r, AR_PH_MSTOPK, k ? net->compute.mstopk_a + net->compute.mstopk_b * (double)(shard * (uint64_t)es) : 0);
  /* (3) allgather of k~ pairs across nodes, then the union: zero the shard, add the m k~
   * pairs, read the shard once more to compact it */
  uint64_t pairs = (uint64_t)m * k;
  double u = floor((double)k * (1.0 + (m - 1) * (1.0 - c->shape.overlap)) + 0.5);
  u = fmin(u, fmin((double)pairs, (double)shard));
  cost_result_phase(r, AR_PH_INTER_AG, pairs_allgather(c, &h->inter, m, k) + zero_time(c, shard) + scatter_time(c, pairs) +
                                        bytes_copy(c, (double)(shard * (uint64_t)es)) / 2);
  /* (4) inside the node: the union sizes, then the unions' values and indices around the
   * ring; the result zeroed and the n unions added */
  double ag = (n - 1) * (cost_hops_time(c, &h->intra, INDEX_BYTES) + cost_hops_time(c, &h->intra, u * es) +
                         cost_hops_time(c, &h->intra, u * INDEX_BYTES));
  cost_result_phase(r, AR_PH_INTRA_AG, ag + zero_time(c, count) + n * scatter_time(c, (uint64_t)u));
  cost_result_skew(r, 0, c->skew_node0);
  cost_result_skew(r, 2, c->skew_max - c->skew_node0);
  return 0;
}
