/* cost_nccl_layout.c: NCCL's channels over the layout: node 0's graph from the route view
 * (topo/graph.c), the channels laid over it by the very search the runner uses
 * (topo/channels.c), so that the models see the rings the simulation runs; and the inputs of
 * NCCL's tuning model derived from them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algos/nccl_node.h"
#include "cost_ctx.h"
#include "cost_nccl_layout.h"

static void layout_free(void *x)
{
  cost_nccl_layout *t = x;
  if (!t)
    return;
  topo_graph_free(&t->node);
  topo_rings_free(&t->rings);
  free(t);
}

/* the key of what this model keeps for a layout (cost_ctx.h) */
static char layout_key;

int cost_nccl_layout_of(cost_ctx *c, cost_nccl_layout **out)
{
  if ((*out = cost_cache_get(c, &layout_key)))
    return 0;
  cost_nccl_layout *t = calloc(1, sizeof *t);
  /* node 0's first GPUs, and its NICs from its routes to node 1 */
  int rc = t ? topo_graph_of(&c->net->rt, c->shape.rpn, c->shape.nodes, &t->node) : SA_ENOMEM;
  if (rc == 0) {
    t->node_channels = ar_nccl_node_channels(&t->node.g, c->shape.nodes);
    t->channels = c->shape.nccl_channels > t->node_channels ? c->shape.nccl_channels : t->node_channels;
    if (topo_search_rings(&t->node.g, c->shape.nodes, t->channels, &t->rings) != 0)
      rc = SA_ENOMEM;
  }
  return cost_cache_keep(c, &layout_key, t, layout_free, rc, (void **)out);
}

int cost_nccl_gpu_of(cost_ctx *c, sa_compute *gpu)
{
  cost_nccl_layout *t;
  int rc = cost_nccl_layout_of(c, &t);
  *gpu = c->net->compute;
  if (rc == 0)
    nccl_gpu_protocol_rates(gpu, ar_nccl_node_arch(&t->node.g), t->node_channels, c->shape.nodes);
  return rc;
}

int cost_nccl_shape_of(cost_ctx *c, cost_nccl_shape *s, double inter_bw)
{
  cost_nccl_layout *t;
  int rc = cost_nccl_layout_of(c, &t), R = c->shape.rpn;
  memset(s, 0, sizeof *s);
  s->ranks = c->p;
  s->nodes = c->shape.nodes;
  s->version = c->shape.nccl_version;
  s->inter_bw = inter_bw;
  if (rc)
    return rc;
  s->channels = t->node_channels;
  /* every channel carries an equal share: the slowest one sets the pace of all */
  double slowest = INFINITY;
  for (int ch = 0; ch < s->channels; ch++)
    slowest = t->rings.share[ch] < slowest ? t->rings.share[ch] : slowest;
  s->nvlink = R > 1;
  for (int i = 0; i + 1 < R; i++) /* NVLink latencies where the rings' hops all are NVLink */
    s->nvlink &= topo_graph_nvlink(&t->node.g, t->rings.order[i], t->rings.order[i + 1]);
  double nvlink = topo_graph_nvlink_bw(&t->node.g);
  s->arch = ar_nccl_node_arch(&t->node.g);
  /* NCCL's tuning takes an NVLink at its topology's figure for the generation, not the
   * datasheet's (nccl_nvlink_efficiency: SM80_NVLINK_BW 20 GB/s of A100's 25) */
  s->intra_bw = R > 1 ? s->channels * slowest * (s->nvlink ? nccl_nvlink_efficiency(s->arch) : 1) : s->inter_bw;
  if (topo_graph_nvswitch(&t->node.g) && s->arch >= NCCL_ARCH_HOPPER && R <= NCCL_NVLS_MAX_HEADS)
    s->nvls_bw = nvlink * nccl_nvlink_efficiency(s->arch);
  s->ll128_net = t->node.nic && topo_graph_gpus_per_nic(&t->node.g) <= 2;
  return 0;
}
