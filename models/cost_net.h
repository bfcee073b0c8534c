/* cost_net.h: what the cost models know of a platform: its links, the routes between the
 * GPUs of its first nodes, its compute rates and the SMPI network settings in force. The
 * driver fills it from SimGrid (platform/platform_load.c); tests build small ones by hand. */
#ifndef COST_NET_H
#define COST_NET_H

#include <stddef.h>

#include "common/compute.h"
#include "cost_factor.h"

/* A link as SimGrid sees it; a SPLITDUPLEX link is two of these (its _UP and _DOWN halves). */
typedef struct {
  double bw;  /* bytes/s */
  double lat; /* s */
  int shared; /* 0 for FATPIPE: every flow gets the whole bandwidth */
} cost_link;

/* A route between two hosts: its links in order, and the latency and bandwidth SimGrid gives
 * a message that travels it alone (sum of latencies, narrowest link). */
typedef struct {
  int n;
  int *link; /* indices into cost_net.links */
  double lat, bw;
} cost_route;

/* Routes between node a's GPU j and node b's GPU k are kept for the pairs of nodes below;
 * every other pair of nodes is assumed to be alike (see cost_path_of). The models read the
 * first four; node 1 to 2 and back are kept to check that assumption (cost_cover.c). */
enum { COST_R01, COST_R10, COST_R02, COST_R20, COST_R12, COST_R21, COST_NPAIRS };
#define COST_NINTRA 3

/* The pairs of GPUs j, k (of g per node) a sampled table holds: j to j+1, j to 0, 0 to k,
 * j to j. The platform probe (platform/platform_probe.c) and the generator's own view of a
 * platform (topo/routes.c) sample alike. */
static inline int cost_route_sampled(int j, int k, int g) { return k == (j + 1) % g || j == 0 || k == 0 || j == k; }

typedef struct {
  int nnodes; /* nodes in the platform */
  int gpus;   /* GPUs per node the tables hold: the run's ranks per node (every node is
               * assumed to have at least as many) */
  int nlinks;
  cost_link *links;
  /* [j * gpus + k]: within nodes 0, 1, 2, and between the pairs of nodes above. Node 0's
   * table, node 1's with two nodes, and R01..R20 are whole; with three nodes or more nodes 1
   * and 2's tables and R12, R21 hold a sample of pairs (j to j+1, j to 0, 0 to k, j to j),
   * the rest empty (no links, bw 0) */
  cost_route *intra[COST_NINTRA];
  cost_route *inter[COST_NPAIRS];
  sa_compute compute; /* device work, as the runner charges it (node 0's first GPU's properties) */
  /* SMPI's network model: per-message factors on latency and bandwidth, the receive
   * overhead of messages sent eagerly, the eager limit, TCP window bound, cross traffic */
  cost_piecewise lat_factor, bw_factor, recv_overhead;
  double detached_thresh; /* messages smaller than this are sent eagerly (detached) */
  double tcp_gamma;       /* a flow's rate is at most tcp_gamma / (2 latency); 0: no bound */
  int crosstraffic;       /* SimGrid adds a reverse flow of 5% per message */
  double weight_s;        /* network/weight-S: a message's share of a link shrinks with
                           * its route's latency + weight_s * sum(1/bandwidth) */
} cost_net;

/* Allocates n routes for one of the tables above (links NULL, filled by the caller). */
cost_route *cost_routes_new(int gpus);
/* Sets a route's links (copied). Returns 0 or SA_ENOMEM. */
int cost_route_set(cost_route *r, const int *links, int n, double lat, double bw);

void cost_net_init(cost_net *net);
void cost_net_free(cost_net *net);

#endif
