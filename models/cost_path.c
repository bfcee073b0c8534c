/* cost_path.c: the links a message between two ranks crosses.
 *
 * The platform gives routes among the GPUs of its first nodes only (cost_net.h). With three
 * or more nodes, nodes are taken to be alike: a link on both node 0's route to node 1 and its
 * route to node 2 belongs to node 0's sending side, one on both routes into node 0 (from
 * nodes 1 and 2) to its receiving side; a message from node a to node b crosses node a's copy
 * of the first and node b's copy of the second. Links between the two sides (a switch) bound
 * a message's rate through the route's bandwidth but are not counted as shared: the fabric is
 * taken to be non-blocking. With two nodes every link is an object of its own and the routes
 * are used as they are. */
#include <stdlib.h>
#include <string.h>

#include "cost_ctx.h"

static const topo_route *route_at(const topo_route *table, int gpus, int j, int k)
{
  return table ? &table[j * gpus + k] : NULL;
}

static int add_key(cost_path *p, int key)
{
  if (p->n == COST_MAX_ROUTE)
    return SA_EINVAL;
  p->key[p->n++] = key;
  return 0;
}

int cost_path_of(const cost_ctx *c, int a, int b, cost_path *p)
{
  const cost_net *net = c->net;
  int rpn = c->shape.rpn, na = a / rpn, nb = b / rpn, j = a % rpn, k = b % rpn, g = net->rt.gpus;
  const topo_route *r;
  memset(p, 0, sizeof *p);
  if (na == nb)
    r = route_at(net->rt.intra[c->relabel ? 0 : na], g, j, k);
  else
    r = route_at(net->rt.inter[na < nb ? TOPO_R01 : TOPO_R10], g, j, k);
  if (!r || r->bw <= 0)
    return SA_ENOROUTE;
  p->lat = r->lat;
  p->bw = r->bw;
  for (int i = 0; i < r->n; i++)
    p->inv_bw += 1.0 / net->rt.links[r->link[i]].bw;
  int rc = 0;
  if (!c->relabel || na == nb) {
    for (int i = 0; i < r->n && rc == 0; i++)
      rc = add_key(p, r->link[i] * c->owners + (c->relabel ? na : 0));
    return rc;
  }
  int pair = j * g + k;
  for (int i = 0; i < c->nup[pair] && rc == 0; i++)
    rc = add_key(p, c->up[pair][i] * c->owners + na);
  for (int i = 0; i < c->ndown[pair] && rc == 0; i++)
    rc = add_key(p, c->down[pair][i] * c->owners + nb);
  return rc;
}
