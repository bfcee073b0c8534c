/* graph.c: a node's graph from the route view (graph.h). */
#include "graph.h"

#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"

void topo_graph_free(topo_graph_data *d)
{
  for (int i = 0; d->route && i < d->g.gpus * d->g.gpus; i++)
    free(d->route[i]);
  free(d->route);
  free(d->bw);
  free(d->nic);
  memset(d, 0, sizeof *d);
}

int topo_graph_of(const topo_routes *rt, int gpus, int nodes, topo_graph_data *d)
{
  int R = gpus, g = rt->gpus;
  memset(d, 0, sizeof *d);
  d->g.gpus = R; /* before anything can fail: topo_graph_free walks the routes by it */
  d->bw = malloc(sizeof(double) * (size_t)(rt->nlinks + 1));
  d->route = calloc((size_t)(R * R), sizeof *d->route);
  if (!d->bw || !d->route)
    return SA_ENOMEM;
  for (int l = 0; l < rt->nlinks; l++)
    d->bw[l] = rt->links[l].bw;
  char *intra = calloc((size_t)rt->nlinks + 1, 1);
  int rc = intra ? 0 : SA_ENOMEM;
  for (int a = 0; a < R && rc == 0; a++)
    for (int b = 0; b < R && rc == 0; b++) {
      const topo_route *r = a == b ? NULL : &rt->intra[0][a * g + b];
      if (!r)
        continue;
      if (!(d->route[a * R + b] = malloc(sizeof(int) * (size_t)(r->n + 1)))) {
        rc = SA_ENOMEM;
        break;
      }
      for (int i = 0; i < r->n; i++) {
        d->route[a * R + b][i] = r->link[i];
        intra[r->link[i]] = 1;
      }
      d->route[a * R + b][r->n] = -1;
    }
  if (rc == 0 && nodes > 1 && rt->inter[TOPO_R01]) {
    if (!(d->nic = malloc(sizeof(int) * (size_t)R)))
      rc = SA_ENOMEM;
    for (int a = 0; rc == 0 && a < R; a++) {
      const topo_route *r = &rt->inter[TOPO_R01][a * g + a];
      d->nic[a] = -1;
      for (int i = 0; i < r->n && d->nic[a] < 0; i++)
        if (!intra[r->link[i]])
          d->nic[a] = r->link[i];
    }
  }
  free(intra);
  d->g = (topo_graph){R, rt->nlinks, d->bw, (const int *const *)d->route, d->nic};
  return rc;
}
