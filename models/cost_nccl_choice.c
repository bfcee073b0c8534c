/* cost_nccl_choice.c: what NCCL's algorithms run at a size (NCCL's own tuner, cost_nccl.c,
 * on the channels laid over the layout), and their models at that choice: nccl-ring's and
 * nccl-tree's protocol and channels, and for "nccl" also which of the two. */
#include <math.h>
#include <string.h>

#include "cost_models.h"

int cost_nccl_plan(cost_ctx *c, const char *algo, uint64_t bytes, cost_nccl_choice *out)
{
  int a = strcmp(algo, "nccl-ring") == 0 ? COST_NCCL_RING : strcmp(algo, "nccl-tree") == 0 ? COST_NCCL_TREE : -1;
  if (a < 0 && strcmp(algo, "nccl") != 0)
    return SA_ENOMODEL;
  cost_nccl_shape s;
  cost_ctx_nccl_shape(c, &s);
  if (s.channels < 1)
    return SA_ENOROUTE;
  cost_nccl_choose(&s, (double)bytes, a, c->shape.nccl_proto, c->shape.nccl_channels, out);
  return 0;
}

int cost_nccl_candidates(cost_ctx *c, uint64_t bytes, cost_nccl_choice *out)
{
  cost_nccl_shape s;
  cost_ctx_nccl_shape(c, &s);
  if (s.channels < 1)
    return SA_ENOROUTE;
  cost_nccl_pred pred;
  cost_nccl_predict(&s, (double)bytes, &pred);
  int n = 0;
  for (int a = 0; a < COST_NCCL_NALGO; a++)
    for (int p = 0; p < COST_NCCL_NPROTO; p++) {
      int forced = c->shape.nccl_proto >= 0;
      if ((forced && p != c->shape.nccl_proto) || (!forced && isnan(pred.time_s[a][p])))
        continue; /* a protocol NCCL keeps off here, unless forced as NCCL_PROTO would */
      cost_nccl_choose(&s, (double)bytes, a, p, c->shape.nccl_channels, &out[n++]);
    }
  return n;
}

/* The model of algorithm `algo` at the choice for its size. */
static int at_choice(cost_ctx *c, const char *algo, uint64_t count, cost_result *r)
{
  cost_nccl_choice ch;
  int rc = cost_nccl_plan(c, algo, count * (uint64_t)c->shape.elem, &ch);
  if (rc)
    return rc;
  return ch.algo == COST_NCCL_TREE ? cost_nccl_tree_time(c, count, ch.proto, ch.channels, r)
                                   : cost_nccl_ring_time(c, count, ch.proto, ch.channels, r);
}

int cost_nccl_ring(cost_ctx *c, uint64_t count, cost_result *r) { return at_choice(c, "nccl-ring", count, r); }

int cost_nccl_tree(cost_ctx *c, uint64_t count, cost_result *r) { return at_choice(c, "nccl-tree", count, r); }

int cost_nccl(cost_ctx *c, uint64_t count, cost_result *r) { return at_choice(c, "nccl", count, r); }
