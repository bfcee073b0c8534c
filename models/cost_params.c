/* cost_params.c: what the models derived from the platform, for reports, and the inputs
 * NCCL's model takes from the same platform. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cost_ctx.h"
#include "cost_nccl_layout.h"

/* Seconds per byte of each of a node's rpn ranks sending to the next node at once (hier's
 * inter-node step), or NaN. */
static double shared_inter_kappa(const cost_ctx *c)
{
  int R = c->shape.rpn;
  double worst = NAN;
  cost_flow *f = c->shape.nodes > 1 ? calloc((size_t)R, sizeof *f) : NULL;
  cost_hop *h = f ? malloc(sizeof *h * (size_t)R) : NULL;
  if (f && h) {
    for (int l = 0; l < R; l++)
      f[l] = (cost_flow){l, R + l};
    if (cost_pattern((cost_ctx *)c, f, R, h, NULL) == 0) {
      worst = 0;
      for (int l = 0; l < R; l++)
        worst = h[l].kappa > worst ? h[l].kappa : worst;
    }
  }
  free(f);
  free(h);
  return worst;
}

void cost_ctx_params(const cost_ctx *c, cost_params *p)
{
  memset(p, 0, sizeof *p);
  p->ranks = c->p;
  p->nodes = c->shape.nodes;
  p->rpn = c->shape.rpn;
  p->alpha_intra = p->beta_intra = p->alpha_inter = p->beta_inter = p->beta_inter_shared = NAN;
  cost_path path;
  if (c->shape.rpn > 1 && cost_path_of(c, 0, 1, &path) == 0) {
    p->alpha_intra = path.lat;
    p->beta_intra = 1 / path.bw;
  }
  if (c->shape.nodes > 1 && cost_path_of(c, 0, c->shape.rpn, &path) == 0) {
    p->alpha_inter = path.lat;
    p->beta_inter = 1 / path.bw;
  }
  p->beta_inter_shared = shared_inter_kappa(c);
  if (!isnan(p->beta_inter_shared) && p->beta_inter > 0)
    p->nic_share = (int)lround(p->beta_inter_shared / p->beta_inter);
  p->gamma = c->net->compute.reduce_bw > 0 ? 1 / c->net->compute.reduce_bw : 0;
  p->reduce_lat = c->net->compute.reduce_lat;
  p->copy_beta = c->net->compute.copy_bw > 0 ? 1 / c->net->compute.copy_bw : 0;
  p->start_skew_s = c->skew_max;
}

/* the key of the shape kept for a layout (cost_ctx.h) */
static char shape_key;

void cost_ctx_nccl_shape(cost_ctx *c, cost_nccl_shape *s)
{
  cost_nccl_shape *kept = cost_cache_get(c, &shape_key);
  if (!kept && (kept = malloc(sizeof *kept))) {
    double k = shared_inter_kappa(c);
    cost_nccl_shape_of(c, kept, isnan(k) || k <= 0 ? 0 : c->shape.rpn / k);
    cost_cache_keep(c, &shape_key, kept, free, 0, (void **)&kept);
  }
  if (kept)
    *s = *kept;
  else
    memset(s, 0, sizeof *s);
}
