/* cost_nccl_choice.c: what NCCL's algorithms run at a size (NCCL's own tuner, cost_nccl.c,
 * on the channels laid over the layout), and their models at that choice: nccl-ring's,
 * nccl-tree's, nvls's and nvls-tree's protocol and channels, and for "nccl" also which. */
#include <math.h>
#include <string.h>

#include "cost_models.h"
#include "cost_nccl_layout.h"

/* NCCL's algorithms by name; -1: NCCL's choice among them */
static const struct {
  const char *name;
  int algo;
} named[] = {{"nccl-ring", COST_NCCL_RING}, {"nccl-tree", COST_NCCL_TREE}, {"nvls", NCCL_ALGO_NVLS},
             {"nvls-tree", NCCL_ALGO_NVLS_TREE}, {"nccl", -1}};
#define NNAMED ((int)(sizeof named / sizeof named[0]))

static int named_index(const char *algo)
{
  int i = 0;
  while (i < NNAMED && strcmp(algo, named[i].name) != 0)
    i++;
  return i < NNAMED ? i : -1;
}

int cost_is_nccl(const char *algo) { return named_index(algo) >= 0; }

const char *cost_nccl_name(int algo)
{
  for (int i = 0; i < NNAMED; i++)
    if (named[i].algo == algo && algo >= 0)
      return named[i].name;
  return NULL;
}

int cost_nccl_plan(cost_ctx *c, const char *algo, uint64_t bytes, cost_nccl_choice *out)
{
  int i = named_index(algo);
  if (i < 0)
    return SA_ENOMODEL;
  int a = named[i].algo;
  /* "nccl": NCCL's choice among those NCCL_ALGO leaves it (--nccl-algo) */
  unsigned algos = a >= 0 ? NCCL_BIT(a) : c->shape.nccl_algos;
  cost_nccl_shape s;
  cost_ctx_nccl_shape(c, &s);
  if (s.channels < 1)
    return SA_ENOROUTE;
  cost_nccl_choose(&s, (double)bytes, algos, c->shape.nccl_protos, c->shape.nccl_channels, out);
  /* NVLS asked for where it cannot run (the node, the node count; a protocol but Simple) */
  unsigned nvls = NCCL_BIT(NCCL_ALGO_NVLS) | NCCL_BIT(NCCL_ALGO_NVLS_TREE);
  if (algos && !(algos & ~nvls) && isnan(out->time_s) && c->p > 1)
    return SA_ENONVLS; /* one rank copies, whatever the algorithm */
  return 0;
}

int cost_nccl_restrict(cost_ctx *c, unsigned algos, unsigned protos, int channels)
{
  cost_nccl_layout *t;
  int rc = cost_nccl_layout_of(c, &t);
  if (rc)
    return rc;
  c->shape.nccl_algos = algos;
  c->shape.nccl_protos = protos;
  c->shape.nccl_channels = channels > 0 && channels <= t->channels ? channels : 0;
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
  unsigned algos = c->shape.nccl_algos, protos = c->shape.nccl_protos;
  for (int a = 0; a < COST_NCCL_NALGO; a++)
    for (int p = 0; p < COST_NCCL_NPROTO; p++) {
      if ((algos && !(algos & NCCL_BIT(a))) || (protos ? !(protos & NCCL_BIT(p)) : isnan(pred.time_s[a][p])))
        continue; /* one NCCL_ALGO leaves out, or a protocol NCCL keeps off here unless NCCL_PROTO names it */
      cost_nccl_choose(&s, (double)bytes, NCCL_BIT(a), NCCL_BIT(p), c->shape.nccl_channels, &out[n++]);
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
  return cost_nccl_time(c, count, ch.algo, ch.proto, ch.channels, r);
}

int cost_nccl_time(cost_ctx *c, uint64_t count, int algo, int proto, int channels, cost_result *r)
{
  switch (algo) {
  case NCCL_ALGO_TREE: return cost_nccl_tree_time(c, count, proto, channels, r);
  case NCCL_ALGO_NVLS:
  case NCCL_ALGO_NVLS_TREE: return cost_nvls_time(c, count, algo, channels, r);
  default: return cost_nccl_ring_time(c, count, proto, channels, r);
  }
}

int cost_nccl_ring(cost_ctx *c, uint64_t count, cost_result *r) { return at_choice(c, "nccl-ring", count, r); }

int cost_nccl_tree(cost_ctx *c, uint64_t count, cost_result *r) { return at_choice(c, "nccl-tree", count, r); }

int cost_nccl(cost_ctx *c, uint64_t count, cost_result *r) { return at_choice(c, "nccl", count, r); }

int cost_nvls(cost_ctx *c, uint64_t count, cost_result *r) { return at_choice(c, "nvls", count, r); }

int cost_nvls_tree(cost_ctx *c, uint64_t count, cost_result *r) { return at_choice(c, "nvls-tree", count, r); }
