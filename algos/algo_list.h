/* algo_list.h: the one list of algorithm names, kinds and descriptions. The runner's
 * registry and the driver's catalog are both generated from it, so they cannot disagree.
 * No MPI here: the driver is not an MPI program. */
#ifndef AR_ALGO_LIST_H
#define AR_ALGO_LIST_H

enum {
  AR_DENSE = 1u << 0,  /* result is the exact elementwise sum */
  AR_SPARSE = 1u << 1, /* result is a top-k sparsified sum */
};

/* X(name, flags, description) in --list-algos order; algorithm `name` is ar_<name>(). */
#define AR_ALGO_LIST(X)                                                                  \
  X(ring, AR_DENSE, "ring reduce-scatter + allgather, 2(p-1) steps; --channels C rings at once")   \
  X(tree, AR_DENSE, "pipelined binary tree: reduce to the root, broadcast back (--segment)")        \
  X(twotree, AR_DENSE, "double binary tree (two-tree, NCCL's tree): two trees, half the data each") \
  X(hier, AR_DENSE, "hierarchical 2D-torus: intra-node reduce-scatter, inter-node ring, allgather") \
  X(rhd, AR_DENSE, "recursive halving-doubling (Rabenseifner), any rank count")                   \
  X(naive, AR_DENSE, "gather to one master, reduce there, broadcast back")                         \
  X(mpi, AR_DENSE, "the MPI library's own MPI_Allreduce (SMPI's selector when simulated)")       \
  X(topk, AR_SPARSE, "TopK-SGD (NaiveAG): exact top-k per rank, allgather of values and indices") \
  X(hitopk, AR_SPARSE, "HiTopKComm: intra-node reduce-scatter, MSTopK, inter-node allgathers")

#endif
