/* cost.c: the models' dispatch (cost.h): from an algorithm's name to its model, through the
 * table algos/algo_list.h generates, and what every dense algorithm does alike (nothing for
 * no elements, a copy on one rank). Above the models: the base (cost_ctx.c) knows none. */
#include <string.h>

#include "algos/algo_list.h"
#include "cost_models.h"

typedef int (*cost_fn)(cost_ctx *, uint64_t, cost_result *);

/* Every algorithm of algos/algo_list.h with its model (NULL: none). */
static const struct {
  const char *name;
  cost_fn fn;
  unsigned flags;
} models[] = {
#define COST_MODEL_ROW(id, name, flags, cost, phases, desc) {name, cost, flags},
    AR_ALGO_LIST(COST_MODEL_ROW)
#undef COST_MODEL_ROW
};

static int model_index(const char *algo)
{
  for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
    if (strcmp(models[i].name, algo) == 0)
      return models[i].fn ? (int)i : -1;
  return -1;
}

int cost_has_model(const char *algo) { return model_index(algo) >= 0; }

/* What every dense algorithm does alike: nothing for no elements, a copy of its input on one
 * rank. Returns 1 when that is all (r filled), else 0. */
static int trivial(cost_ctx *c, uint64_t count, cost_result *r)
{
  if (count == 0)
    return 1;
  if (c->p > 1)
    return 0;
  cost_result_phase(r, AR_PH_COPY, cost_copy_time(c, count));
  return 1;
}

int cost_predict(cost_ctx *c, const char *algo, uint64_t bytes, cost_result *r)
{
  cost_result_init(r);
  int i = model_index(algo);
  if (i < 0)
    return SA_ENOMODEL;
  uint64_t count = bytes / (uint64_t)c->shape.elem;
  if (count == 0 || ((models[i].flags & AR_DENSE) && trivial(c, count, r)))
    return 0;
  return models[i].fn(c, count, r);
}

int cost_predict_nccl_at(cost_ctx *c, int algo, int proto, int channels, uint64_t bytes, cost_result *r)
{
  cost_result_init(r);
  uint64_t count = bytes / (uint64_t)c->shape.elem;
  if (trivial(c, count, r))
    return 0;
  return cost_nccl_time(c, count, algo, proto, channels, r);
}

