/* routes.c: a topology's first nodes as the cost models see them (routes.h). The links
 * are the SPLITDUPLEX halves SimGrid routes through (a link's UP and DOWN are two), numbered
 * in order of first appearance over the tables the driver's probe fills
 * (platform/platform_probe.c): node 0 within itself, node 1 within itself with two nodes, node 0
 * to 1 and back, node 0 to 2 and back. */
#include "routes.h"

#include <stdlib.h>
#include <string.h>

#include "fit/smpi_fit.h"
#include "common/sa_error.h"

static int index_of(topo_tnet *l, const topo_hop *h)
{
  for (int i = 0; i < l->net.nlinks; i++)
    if (memcmp(&l->hop[i], h, sizeof *h) == 0)
      return i;
  if (l->net.nlinks == l->cap) {
    int cap = l->cap ? 2 * l->cap : 64;
    topo_hop *n = realloc(l->hop, sizeof *n * (size_t)cap);
    if (!n)
      return SA_ENOMEM;
    l->hop = n;
    l->cap = cap;
  }
  l->hop[l->net.nlinks] = *h;
  return l->net.nlinks++;
}

/* Routes from node a's GPUs to node b's: every pair, or with whole = 0 the sample the probe
 * takes (cost_route_sampled). */
static int table(const topo_cluster *t, topo_tnet *l, int a, int b, int whole, cost_route **slot)
{
  int g = t->gpus, ids[TOPO_MAX_HOPS];
  if (!(*slot = cost_routes_new(g)))
    return SA_ENOMEM;
  for (int j = 0; j < g; j++)
    for (int k = 0; k < g; k++) {
      if ((a == b && j == k) || !(whole || cost_route_sampled(j, k, g)))
        continue;
      topo_path p;
      topo_route(t, a, j, b, k, &p);
      for (int i = 0; i < p.n; i++) {
        if ((ids[i] = index_of(l, &p.h[i])) < 0)
          return SA_ENOMEM;
      }
      if (cost_route_set(&(*slot)[j * g + k], ids, p.n, 0, 0) != 0)
        return SA_ENOMEM;
    }
  return 0;
}

void topo_tnet_rates(const topo_cluster *t, topo_tnet *n)
{
  cost_net *net = &n->net;
  for (int i = 0; i < net->nlinks; i++)
    topo_link_rate(t, &n->hop[i], &net->links[i].bw, &net->links[i].lat);
  cost_route *tables[COST_NINTRA + COST_NPAIRS];
  for (int k = 0; k < COST_NINTRA; k++)
    tables[k] = net->intra[k];
  for (int k = 0; k < COST_NPAIRS; k++)
    tables[COST_NINTRA + k] = net->inter[k];
  for (int k = 0; k < COST_NINTRA + COST_NPAIRS; k++)
    for (int r = 0; tables[k] && r < net->gpus * net->gpus; r++) {
      cost_route *ro = &tables[k][r];
      ro->lat = 0;
      ro->bw = ro->n ? 1e300 : 0;
      for (int i = 0; i < ro->n; i++) {
        const cost_link *lk = &net->links[ro->link[i]];
        ro->lat += lk->lat;
        ro->bw = lk->bw < ro->bw ? lk->bw : ro->bw;
      }
    }
}

int topo_tnet_build(const topo_cluster *t, const sa_compute *compute, topo_tnet *n)
{
  memset(n, 0, sizeof *n);
  cost_net *net = &n->net;
  cost_net_init(net);
  net->nnodes = t->nodes;
  net->gpus = t->gpus;
  net->tcp_gamma = FIT_SMPI_TCP_GAMMA;
  if (compute)
    net->compute = *compute;
  /* the tables the probe reads, whole or sampled as it reads them */
  int rc = table(t, n, 0, 0, 1, &net->intra[0]);
  if (rc == 0 && t->nodes >= 2)
    rc = table(t, n, 1, 1, t->nodes == 2, &net->intra[1]);
  if (rc == 0 && t->nodes >= 2 &&
      (table(t, n, 0, 1, 1, &net->inter[COST_R01]) || table(t, n, 1, 0, 1, &net->inter[COST_R10])))
    rc = SA_ENOMEM;
  if (rc == 0 && t->nodes >= 3 &&
      (table(t, n, 0, 2, 1, &net->inter[COST_R02]) || table(t, n, 2, 0, 1, &net->inter[COST_R20]) ||
       table(t, n, 2, 2, 0, &net->intra[2]) || table(t, n, 1, 2, 0, &net->inter[COST_R12]) ||
       table(t, n, 2, 1, 0, &net->inter[COST_R21])))
    rc = SA_ENOMEM;
  if (rc == 0) {
    net->links = calloc((size_t)(net->nlinks ? net->nlinks : 1), sizeof *net->links);
    rc = net->links ? 0 : SA_ENOMEM;
  }
  for (int i = 0; rc == 0 && i < net->nlinks; i++)
    net->links[i].shared = 1;
  if (rc == 0)
    topo_tnet_rates(t, n);
  return rc;
}

void topo_tnet_free(topo_tnet *n)
{
  cost_net_free(&n->net);
  free(n->hop);
  memset(n, 0, sizeof *n);
}
