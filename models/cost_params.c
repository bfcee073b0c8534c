/* cost_params.c: what the models derived from the platform, for reports, and the inputs
 * NCCL's model takes from the same platform. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cost_ctx.h"

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

/* NVLink-class links are faster than any PCIe gen3 x16 (15.75 GB/s raw): the threshold
 * picks NCCL's NVLink or PCI latencies. */
#define COST_NVLINK_BW 20e9

void cost_ctx_nccl_shape(const cost_ctx *c, cost_nccl_shape *s)
{
  int R = c->shape.rpn, m = c->shape.nodes;
  memset(s, 0, sizeof *s);
  s->ranks = c->p;
  s->nodes = m;
  s->channels = 2; /* NCCL duplicates the rings it finds; only LL128's cap depends on it */
  double k = shared_inter_kappa(c);
  s->inter_bw = isnan(k) || k <= 0 ? 0 : R / k;
  s->intra_bw = INFINITY;
  /* the ring's hops inside a node, and its way back when the ring stays in one node */
  int hops = m == 1 ? R : R - 1;
  for (int j = 0; R > 1 && j < hops; j++) {
    cost_path p;
    if (cost_path_of(c, j, (j + 1) % R, &p) == 0)
      s->intra_bw = p.bw < s->intra_bw ? p.bw : s->intra_bw;
  }
  if (isinf(s->intra_bw))
    s->intra_bw = s->inter_bw;
  s->nvlink = R > 1 && s->intra_bw >= COST_NVLINK_BW;
}
