/* tree_core.h: pipelined reduce-then-broadcast over one or more trees at once, each tree
 * carrying its own part of the buffer; tree and twotree are built from it. */
#ifndef AR_TREE_CORE_H
#define AR_TREE_CORE_H

#include "ar.h"
#include "topo/trees.h"

typedef struct {
  topo_tree_node node; /* this rank's parent and children (ranks of comm) */
  size_t off, len;   /* element range the tree carries */
} ar_tree_part;

/* This rank's place in topology-aware tree `which` over comm's size ranks, R = p's ranks per
 * node: 0 is the in-order binary tree over the nodes entered at local rank 0, 1 the shifted
 * (complementary) tree entered at local rank R-1 (trees.h). */
int ar_tree_of_rank(const ar_params *p, int rank, int size, int which, topo_tree_node *out);

/* Reduce every part up its tree toward the root, then broadcast it back down, cut into
 * segments of p->segment_bytes: a rank sends segment s to its parent while receiving
 * segment s+1 from its children. Records the phases AR_PH_REDUCE and AR_PH_BCAST. */
int ar_tree_allreduce(const void *sendbuf, void *recvbuf, kn_dtype dt, MPI_Comm comm, const ar_params *p,
                      const ar_tree_part *parts, int nparts);

#endif
