/* routes.c: the route view's tables (routes.h), and a cluster's first nodes as routes. A
 * cluster's links are the SPLITDUPLEX halves SimGrid routes through (a link's UP and DOWN are
 * two), numbered as the driver's probe numbers SimGrid's (platform/platform_probe.c). */
#include "routes.h"

#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"

topo_route *topo_route_table_new(int gpus) { return calloc((size_t)gpus * (size_t)gpus, sizeof(topo_route)); }

int topo_route_set(topo_route *r, const int *links, int n, double lat, double bw)
{
  free(r->link);
  r->link = n > 0 ? malloc(sizeof(int) * (size_t)n) : NULL;
  if (n > 0 && !r->link) {
    r->n = 0;
    return SA_ENOMEM;
  }
  if (n > 0)
    memcpy(r->link, links, sizeof(int) * (size_t)n);
  r->n = n;
  r->lat = lat;
  r->bw = bw;
  return 0;
}

static void free_table(topo_route *r, int gpus)
{
  for (int i = 0; r && i < gpus * gpus; i++)
    free(r[i].link);
  free(r);
}

void topo_routes_free(topo_routes *rt)
{
  for (int i = 0; i < TOPO_NINTRA; i++)
    free_table(rt->intra[i], rt->gpus);
  for (int i = 0; i < TOPO_NPAIRS; i++)
    free_table(rt->inter[i], rt->gpus);
  free(rt->links);
  memset(rt, 0, sizeof *rt);
}

/* The links found so far and which link of the cluster each is. */
typedef struct {
  topo_routes *rt;
  topo_hop *hop;
  int cap;
} builder;

static int index_of(builder *b, const topo_hop *h)
{
  for (int i = 0; i < b->rt->nlinks; i++)
    if (memcmp(&b->hop[i], h, sizeof *h) == 0)
      return i;
  if (b->rt->nlinks == b->cap) {
    int cap = b->cap ? 2 * b->cap : 64;
    topo_hop *n = realloc(b->hop, sizeof *n * (size_t)cap);
    if (!n)
      return SA_ENOMEM;
    b->hop = n;
    b->cap = cap;
  }
  b->hop[b->rt->nlinks] = *h;
  return b->rt->nlinks++;
}

/* Routes from node a's GPUs to node b's: every pair, or with whole = 0 the sample the probe
 * takes (topo_route_sampled). */
static int table(const topo_cluster *t, builder *b, int a, int c, int whole, topo_route **slot)
{
  int g = t->gpus, ids[TOPO_MAX_HOPS];
  if (!(*slot = topo_route_table_new(g)))
    return SA_ENOMEM;
  for (int j = 0; j < g; j++)
    for (int k = 0; k < g; k++) {
      if ((a == c && j == k) || !(whole || topo_route_sampled(j, k, g)))
        continue;
      topo_path p;
      topo_path_between(t, a, j, c, k, &p);
      for (int i = 0; i < p.n; i++) {
        if ((ids[i] = index_of(b, &p.h[i])) < 0)
          return SA_ENOMEM;
      }
      if (topo_route_set(&(*slot)[j * g + k], ids, p.n, 0, 0) != 0)
        return SA_ENOMEM;
    }
  return 0;
}

/* Sets every link's rate from t, and so every route's: its latency the sum of its links',
 * its rate the slowest one's. */
static void routes_rates(const topo_cluster *t, topo_routes *rt, const topo_hop *hops)
{
  for (int i = 0; i < rt->nlinks; i++)
    topo_link_rate(t, &hops[i], &rt->links[i].bw, &rt->links[i].lat);
  topo_route *tables[TOPO_NINTRA + TOPO_NPAIRS];
  for (int k = 0; k < TOPO_NINTRA; k++)
    tables[k] = rt->intra[k];
  for (int k = 0; k < TOPO_NPAIRS; k++)
    tables[TOPO_NINTRA + k] = rt->inter[k];
  for (int k = 0; k < TOPO_NINTRA + TOPO_NPAIRS; k++)
    for (int r = 0; tables[k] && r < rt->gpus * rt->gpus; r++) {
      topo_route *ro = &tables[k][r];
      ro->lat = 0;
      ro->bw = ro->n ? 1e300 : 0;
      for (int i = 0; i < ro->n; i++) {
        const topo_link *lk = &rt->links[ro->link[i]];
        ro->lat += lk->lat;
        ro->bw = lk->bw < ro->bw ? lk->bw : ro->bw;
      }
    }
}

int topo_routes_of(const topo_cluster *t, topo_routes *rt, topo_hop **hops)
{
  memset(rt, 0, sizeof *rt);
  rt->nnodes = t->nodes;
  rt->gpus = t->gpus;
  builder b = {rt, NULL, 0};
  /* the tables the probe reads, whole or sampled as it reads them */
  int rc = table(t, &b, 0, 0, 1, &rt->intra[0]);
  if (rc == 0 && t->nodes >= 2)
    rc = table(t, &b, 1, 1, t->nodes == 2, &rt->intra[1]);
  if (rc == 0 && t->nodes >= 2 &&
      (table(t, &b, 0, 1, 1, &rt->inter[TOPO_R01]) || table(t, &b, 1, 0, 1, &rt->inter[TOPO_R10])))
    rc = SA_ENOMEM;
  if (rc == 0 && t->nodes >= 3 &&
      (table(t, &b, 0, 2, 1, &rt->inter[TOPO_R02]) || table(t, &b, 2, 0, 1, &rt->inter[TOPO_R20]) ||
       table(t, &b, 2, 2, 0, &rt->intra[2]) || table(t, &b, 1, 2, 0, &rt->inter[TOPO_R12]) ||
       table(t, &b, 2, 1, 0, &rt->inter[TOPO_R21])))
    rc = SA_ENOMEM;
  if (rc == 0) {
    rt->links = calloc((size_t)(rt->nlinks ? rt->nlinks : 1), sizeof *rt->links);
    rc = rt->links ? 0 : SA_ENOMEM;
  }
  for (int i = 0; rc == 0 && i < rt->nlinks; i++)
    rt->links[i].shared = 1;
  if (rc == 0)
    routes_rates(t, rt, b.hop);
  *hops = b.hop;
  return rc;
}
