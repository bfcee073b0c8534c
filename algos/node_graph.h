/* node_graph.h: the GPUs of one node and the routes between them as SimGrid gives them (and,
 * given the next node's hosts, the NIC each GPU leaves through), in the form the channel
 * search reads (topo/graph.h, topo/channels.h). The runner builds it before any timing: the ring's channel
 * orders (ring_orders.c) and NCCL's channels (nccl_comm.c) come from the same search. Under
 * SMPI only: outside a simulation there are no routes to read, and building fails. */
#ifndef AR_NODE_GRAPH_H
#define AR_NODE_GRAPH_H

#include "topo/channels.h"

typedef struct {
  topo_graph g;  /* what the search reads; its arrays point into the fields below */
  void **links; /* SimGrid's links, by index */
  double *bw;
  int **route;
  int *nic;
  int cap, rpn;
} ar_node_graph;

/* The graph of the node whose GPUs are hosts[0..rpn); next: the same GPUs of another node
 * (a GPU's NIC is the first link of its route there that no route inside the node uses),
 * or NULL for a run of one node. Returns 0, SA_ENOMEM, or SA_EINVAL outside SMPI. Free it
 * with ar_node_graph_free whatever it returned. */
int ar_node_graph_build(ar_node_graph *b, const char *const *hosts, const char *const *next, int rpn);
void ar_node_graph_free(ar_node_graph *b);

#endif
