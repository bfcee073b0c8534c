/* cost_hier.c: the hierarchical allreduce's formula (algos/hier.c): a ring reduce-scatter
 * among a node's R ranks, R rings among the m nodes at once (sharing each node's links
 * across nodes), a ring allgather inside the node. */
#include <stdlib.h>

#include "cost_models.h"

/* the key of what this model keeps for a layout (cost_ctx.h) */
static char hier_key;

int cost_hier_hops_of(cost_ctx *c, cost_hier_hops **out)
{
  if ((*out = cost_cache_get(c, &hier_key)))
    return 0;
  int p = c->p, R = c->shape.rpn, m = c->shape.nodes;
  cost_hier_hops *h = calloc(1, sizeof *h);
  cost_flow *f = calloc((size_t)p, sizeof *f);
  int rc = h && f ? 0 : SA_ENOMEM;
  if (rc == 0 && R > 1) { /* every node's ring at once: local l to local l+1 */
    for (int r = 0; r < p; r++)
      f[r] = (cost_flow){r, r / R * R + (r % R + 1) % R};
    rc = cost_pattern(c, f, p, NULL, &h->intra);
  }
  if (rc == 0 && m > 1) { /* R rings across nodes: local l of node n to local l of node n+1 */
    for (int r = 0; r < p; r++)
      f[r] = (cost_flow){r, (r / R + 1) % m * R + r % R};
    rc = cost_pattern(c, f, p, NULL, &h->inter);
  }
  free(f);
  return cost_cache_keep(c, &hier_key, h, free, rc, (void **)out);
}

int cost_hier(cost_ctx *c, uint64_t count, cost_result *r)
{
  cost_hier_hops *h;
  int rc = cost_hier_hops_of(c, &h);
  if (rc)
    return rc;
  int R = c->shape.rpn, m = c->shape.nodes, es = c->shape.elem;
  uint64_t mine = cost_ceil_div(count, (uint64_t)R), part = cost_ceil_div(mine, (uint64_t)m);
  double intra = cost_hops_time(c, &h->intra, (double)(mine * (uint64_t)es));
  double inter = cost_hops_time(c, &h->inter, (double)(part * (uint64_t)es));
  /* a ring of one rank copies its input into place instead */
  double rs = R > 1 ? (R - 1) * (intra + cost_sum_time(c, mine)) : cost_copy_time(c, count);
  cost_result_phase(r, AR_PH_INTRA_RS, rs);
  cost_result_phase(r, AR_PH_INTER_AR, m > 1 ? (m - 1) * (2 * inter + cost_sum_time(c, part)) : 0);
  cost_result_phase(r, AR_PH_INTRA_AG, (R - 1) * intra);
  /* the node's ring waits for node 0's late ranks only; the rest shows across nodes */
  cost_result_skew(r, 0, c->skew_node0);
  cost_result_skew(r, 1, c->skew_max - c->skew_node0);
  return 0;
}
