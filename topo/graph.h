/* graph.h: a node as the channel search (channels.h) reads it: its GPUs, the links of the
 * route between every ordered pair of them with each link's bandwidth, and the NIC each GPU
 * leaves the node through. Made from the route view (routes.h) here, for the cost models and
 * the fits; from SimGrid's own routes in the runner (algos/node_graph.c), the same way. */
#ifndef TOPO_GRAPH_H
#define TOPO_GRAPH_H

#include "routes.h"

typedef struct {
  int gpus;
  int nlinks;
  const double *bw;        /* [link]: bytes/s */
  const int *const *route; /* [a * gpus + b]: link indices, -1 terminated (NULL for a == b) */
  const int *nic;          /* [gpu]: any id of the first link of its routes to another node;
                            * NULL when the run has one node */
} topo_graph;

/* A graph and the arrays it points into. */
typedef struct {
  topo_graph g;
  double *bw;
  int **route;
  int *nic;
} topo_graph_data;

/* The graph of the first `gpus` GPUs of node 0 of rt; with nodes > 1 (and rt's routes from
 * node 0 to node 1), each GPU's NIC: the first link of its route to the same GPU of node 1
 * that no route inside the node uses. Returns 0 or SA_ENOMEM; topo_graph_free d either way. */
int topo_graph_of(const topo_routes *rt, int gpus, int nodes, topo_graph_data *d);
void topo_graph_free(topo_graph_data *d);

#endif
