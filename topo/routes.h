/* routes.h: the route view of a platform, the one every layer above reads a topology
 * through: its links as SimGrid sees them, and the routes between the GPUs of its first
 * nodes. The driver's probe reads it from SimGrid (platform/platform_probe.c,
 * platform_net.c); topo_routes_of makes it from a cluster without SimGrid, for the fits; the
 * cost models (models/cost_net.h) and NCCL's channel search (graph.h) read it.
 * tests/check_topo.c checks the two makers agree on every generated platform it draws. */
#ifndef TOPO_ROUTES_H
#define TOPO_ROUTES_H

#include "cluster.h"

/* A link as SimGrid sees it; a SPLITDUPLEX link is two of these (its _UP and _DOWN halves). */
typedef struct {
  double bw;  /* bytes/s */
  double lat; /* s */
  int shared; /* 0 for FATPIPE: every flow gets the whole bandwidth */
} topo_link;

/* A route between two hosts: its links in order, and the latency and bandwidth SimGrid gives
 * a message that travels it alone (sum of latencies, narrowest link). */
typedef struct {
  int n;
  int *link; /* indices into topo_routes.links */
  double lat, bw;
} topo_route;

/* Routes between node a's GPU j and node b's GPU k are kept for the pairs of nodes below;
 * every other pair of nodes is assumed to be alike (models/cost_path.c). The models read the
 * first four; node 1 to 2 and back are kept to check that assumption (models/cost_cover.c). */
enum { TOPO_R01, TOPO_R10, TOPO_R02, TOPO_R20, TOPO_R12, TOPO_R21, TOPO_NPAIRS };
#define TOPO_NINTRA 3

/* The pairs of GPUs j, k (of g per node) a sampled table holds: j to j+1, j to 0, 0 to k,
 * j to j. The platform probe and topo_routes_of sample alike. */
static inline int topo_route_sampled(int j, int k, int g) { return k == (j + 1) % g || j == 0 || k == 0 || j == k; }

typedef struct {
  int nnodes; /* nodes in the platform */
  int gpus;   /* GPUs per node the tables hold: the run's ranks per node (every node is
               * assumed to have at least as many) */
  int nlinks;
  topo_link *links;
  /* [j * gpus + k]: within nodes 0, 1, 2, and between the pairs of nodes above. Node 0's
   * table, node 1's with two nodes, and R01..R20 are whole; with three nodes or more nodes 1
   * and 2's tables and R12, R21 hold a sample of pairs (topo_route_sampled), the rest
   * empty (no links, bw 0) */
  topo_route *intra[TOPO_NINTRA];
  topo_route *inter[TOPO_NPAIRS];
} topo_routes;

/* One table of gpus x gpus empty routes (NULL when out of memory). */
topo_route *topo_route_table_new(int gpus);
/* Sets a route's links (copied). Returns 0 or SA_ENOMEM. */
int topo_route_set(topo_route *r, const int *links, int n, double lat, double bw);
/* Frees every table and the links, and empties rt. */
void topo_routes_free(topo_routes *rt);

/* The routes of cluster t's first min(nodes, 3) nodes, as the driver's probe lists them:
 * links numbered in order of first appearance over the tables (node 0 within itself, node 1
 * within itself with two nodes, node 0 to 1 and back, node 0 to 2 and back), every one
 * shared, with t's rates. *hops gets which link of t each link is ([rt->nlinks], free() it).
 * Returns 0 or SA_ENOMEM; topo_routes_free rt either way. */
int topo_routes_of(const topo_cluster *t, topo_routes *rt, topo_hop **hops);

#endif
