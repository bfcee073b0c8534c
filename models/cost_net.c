/* cost_net.c: building and freeing a platform description for the cost models. */
#include "cost_net.h"

#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"

cost_route *cost_routes_new(int gpus) { return calloc((size_t)gpus * (size_t)gpus, sizeof(cost_route)); }

int cost_route_set(cost_route *r, const int *links, int n, double lat, double bw)
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

void cost_net_init(cost_net *net)
{
  memset(net, 0, sizeof *net);
  /* SMPI's own defaults apply until the platform or the command line says otherwise;
   * the factors' defaults are set by the loader, which knows SimGrid's strings */
  cost_piecewise_parse("1", COST_FACTOR, &net->lat_factor);
  cost_piecewise_parse("1", COST_FACTOR, &net->bw_factor);
  cost_piecewise_parse("0", COST_OVERHEAD, &net->recv_overhead);
  net->detached_thresh = 65536;
  /* SMPI's network model sets network/weight-S to 8775 (SimGrid 3.32, as smpirun reports
   * it); plain SimGrid's LV08 default, which a non-SMPI program sees, is 20537 */
  net->weight_s = 8775;
}

static void free_routes(cost_route *r, int gpus)
{
  for (int i = 0; r && i < gpus * gpus; i++)
    free(r[i].link);
  free(r);
}

void cost_net_free(cost_net *net)
{
  for (int i = 0; i < COST_NINTRA; i++)
    free_routes(net->intra[i], net->gpus);
  for (int i = 0; i < COST_NPAIRS; i++)
    free_routes(net->inter[i], net->gpus);
  free(net->links);
  memset(net, 0, sizeof *net);
}
