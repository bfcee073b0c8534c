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
  sa_piecewise_parse("1", SA_PIECE_FACTOR, &net->lat_factor);
  sa_piecewise_parse("1", SA_PIECE_FACTOR, &net->bw_factor);
  sa_piecewise_parse("0", SA_PIECE_OVERHEAD, &net->recv_overhead);
  net->detached_thresh = 65536;
  /* SMPI's network model sets network/weight-S to 8775 (SimGrid 3.32, as smpirun reports
   * it); plain SimGrid's LV08 default, which a non-SMPI program sees, is 20537 */
  net->weight_s = 8775;
  net->late_latency = 1; /* as the runner does wherever smpi/lat-factor is left alone */
}

void cost_net_free(cost_net *net)
{
  topo_routes_free(&net->rt);
  memset(net, 0, sizeof *net);
}
