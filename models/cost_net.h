/* cost_net.h: what the cost models know of a platform: its route view (topo/routes.h), its
 * compute rates and the SMPI network settings in force. The driver fills it from SimGrid
 * (platform/platform_load.c), a fit from a cluster (fit/clusterfit.c); tests build small
 * ones by hand. */
#ifndef COST_NET_H
#define COST_NET_H

#include <stddef.h>

#include "common/compute.h"
#include "common/piecewise.h"
#include "topo/routes.h"

typedef struct {
  topo_routes rt;     /* its links and the routes between the GPUs of its first nodes */
  sa_compute compute; /* device work, as the runner charges it (node 0's first GPU's properties) */
  /* SMPI's network model: per-message factors on latency and bandwidth, the receive
   * overhead of messages sent eagerly, the eager limit, TCP window bound, cross traffic */
  sa_piecewise lat_factor, bw_factor, recv_overhead;
  double detached_thresh; /* messages smaller than this are sent eagerly (detached) */
  double tcp_gamma;       /* a flow's rate is at most tcp_gamma / (2 latency); 0: no bound */
  int crosstraffic;       /* SimGrid adds a reverse flow of 5% per message */
  double weight_s;        /* network/weight-S: a message's share of a link shrinks with
                           * its route's latency + weight_s * sum(1/bandwidth) */
  int late_latency;       /* NCCL's slices cross back to back, each one's latency paid at its
                           * receiver (topo/sg_latency.h); 0 where smpi/lat-factor is set
                           * (by the file or --cfg), SimGrid then refusing the runner's way */
} cost_net;

void cost_net_init(cost_net *net);
void cost_net_free(cost_net *net);

#endif
