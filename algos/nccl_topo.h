/* nccl_topo.h: the channels of a run, as NCCL would lay them over the platform: built once
 * by the runner before any timing (rank 0 reads the routes of the first two nodes from
 * SimGrid and searches, nccl_search.c; every rank gets the result), read by nccl_ring.c and
 * nccl_tree.c. Every node uses the same pattern, as NCCL's channels do. */
#ifndef AR_NCCL_TOPO_H
#define AR_NCCL_TOPO_H

#include "ar.h"
#include "nccl_search.h"
#include "tree_shape.h"

typedef struct nccl_topo {
  int rpn, nodes;
  int channels;          /* channels laid out (NCCL's own count, or more when asked) */
  int node_channels;     /* NCCL's own count for this node (nccl_search.h) */
  nccl_rings rings;      /* their orders (share unused) */
  unsigned char *nvlink; /* [rpn x rpn]: NVLink-class pair */
} nccl_topo;

/* Collective over comm (rpn ranks per node, node-major). channels: how many to lay out at
 * least (NCCL's own count at the least). Returns 0 or an SA_E* code. */
int nccl_topo_init(nccl_topo *t, MPI_Comm comm, int rpn, int channels);
void nccl_topo_free(nccl_topo *t);

/* Channel c's ring through every rank: this rank's place and neighbours. */
void nccl_topo_ring(const nccl_topo *t, int c, int rank, int *pos, int *prev, int *next);

/* Channel c's tree (NCCL: the first half of the channels on tree 0 of the double binary
 * tree over the nodes, the second half on tree 1; a chain through each node from the GPU
 * the node's tree edges attach to). */
void nccl_topo_tree(const nccl_topo *t, int c, int rank, ar_tree_node *out);

/* Seconds a slice of protocol proto takes on the hop from rank a to rank b beyond what the
 * link itself takes (nccl_proto.h), by the hop's class: network between nodes, NVLink or
 * PCI inside one. 0 in a real run: the hardware pays it. */
double nccl_topo_extra(const nccl_topo *t, const sa_compute *c, int a, int b, int algo, int proto);

#endif
