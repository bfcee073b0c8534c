/* cost_nccl_layout.c: NCCL's channels over the layout, from the probed routes of node 0 (and
 * node 0 to node 1 for the NICs), laid by the very search the runner uses
 * (topo/channels.c), so that the models see the rings the simulation runs; and the
 * inputs of NCCL's tuning model derived from them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cost_ctx.h"
#include "cost_nccl_layout.h"

static void topo_free(void *x)
{
  cost_nccl_layout *t = x;
  if (!t)
    return;
  for (int i = 0; t->route && i < t->node.gpus * t->node.gpus; i++)
    free(t->route[i]);
  free(t->route);
  free(t->bw);
  free(t->nic);
  topo_rings_free(&t->rings);
  free(t);
}

/* The first R GPUs of node 0 as the search sees them. */
static int build_node(const cost_ctx *c, cost_nccl_layout *t)
{
  const cost_net *net = c->net;
  int R = c->shape.rpn, g = net->gpus;
  t->bw = malloc(sizeof(double) * (size_t)(net->nlinks + 1));
  t->route = calloc((size_t)(R * R), sizeof *t->route);
  if (!t->bw || !t->route)
    return SA_ENOMEM;
  for (int l = 0; l < net->nlinks; l++)
    t->bw[l] = net->links[l].bw;
  char *intra = calloc((size_t)net->nlinks + 1, 1);
  int rc = intra ? 0 : SA_ENOMEM;
  for (int a = 0; a < R && rc == 0; a++)
    for (int b = 0; b < R && rc == 0; b++) {
      const cost_route *r = a == b ? NULL : &net->intra[0][a * g + b];
      if (!r)
        continue;
      if (!(t->route[a * R + b] = malloc(sizeof(int) * (size_t)(r->n + 1)))) {
        rc = SA_ENOMEM;
        break;
      }
      for (int i = 0; i < r->n; i++) {
        t->route[a * R + b][i] = r->link[i];
        intra[r->link[i]] = 1;
      }
      t->route[a * R + b][r->n] = -1;
    }
  /* a GPU's NIC: the first link of its route to node 1 that no route inside the node uses */
  if (rc == 0 && c->shape.nodes > 1 && net->inter[COST_R01]) {
    if (!(t->nic = malloc(sizeof(int) * (size_t)R)))
      rc = SA_ENOMEM;
    for (int a = 0; rc == 0 && a < R; a++) {
      const cost_route *r = &net->inter[COST_R01][a * g + a];
      t->nic[a] = -1;
      for (int i = 0; i < r->n && t->nic[a] < 0; i++)
        if (!intra[r->link[i]])
          t->nic[a] = r->link[i];
    }
  }
  free(intra);
  t->node = (topo_graph){R, net->nlinks, t->bw, (const int *const *)t->route, t->nic};
  return rc;
}

int cost_nccl_layout_of(cost_ctx *c, cost_nccl_layout **out)
{
  if ((*out = c->cache[COST_CACHE_NCCL]))
    return 0;
  cost_nccl_layout *t = calloc(1, sizeof *t);
  int rc = t ? build_node(c, t) : SA_ENOMEM;
  if (rc == 0) {
    t->node_channels = topo_graph_channels(&t->node, c->shape.nodes);
    t->channels = c->shape.nccl_channels > t->node_channels ? c->shape.nccl_channels : t->node_channels;
    if (topo_search_rings(&t->node, c->shape.nodes, t->channels, &t->rings) != 0)
      rc = SA_ENOMEM;
  }
  return cost_cache_keep(c, COST_CACHE_NCCL, t, topo_free, rc, (void **)out);
}

/* The bandwidth per GPU NVLink generations give each direction (V100 6 x 25 GB/s, A100 12 x
 * 25, H100 18 x 25, B200 18 x 50): which row of the 2.2x tables applies. */
static int arch_of(double nvlink_bw)
{
  return nvlink_bw < 225e9 ? NCCL_ARCH_VOLTA : nvlink_bw < 375e9 ? NCCL_ARCH_AMPERE
         : nvlink_bw < 675e9 ? NCCL_ARCH_HOPPER : NCCL_ARCH_BLACKWELL;
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
  s->intra_bw = R > 1 ? s->channels * slowest : s->inter_bw;
  s->nvlink = R > 1;
  for (int i = 0; i + 1 < R; i++) /* NVLink latencies where the rings' hops all are NVLink */
    s->nvlink &= topo_graph_nvlink(&t->node, t->rings.order[i], t->rings.order[i + 1]);
  s->arch = arch_of(topo_graph_nvlink_bw(&t->node));
  s->ll128_net = t->nic && topo_graph_gpus_per_nic(&t->node) <= 2;
  return 0;
}
