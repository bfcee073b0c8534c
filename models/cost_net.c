/* cost_net.c: building and freeing a platform description for the cost models. */
#include "cost_net.h"

#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"

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

void cost_net_free(cost_net *net)
{
  topo_routes_free(&net->rt);
  memset(net, 0, sizeof *net);
}
