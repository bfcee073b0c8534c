/* algo_list.h: the one list of algorithms: name, kind, cost model, phases, description.
 * Everything per algorithm is generated from it: the runner's registry (algos/registry.c),
 * the driver's catalog (sim/catalog.c) and the models' dispatch table (models/cost.c),
 * so none of them can disagree with another. No MPI here: the driver is not an MPI program.
 * Adding an algorithm: docs/algorithms.md. */
#ifndef AR_ALGO_LIST_H
#define AR_ALGO_LIST_H

#include <stddef.h>

enum {
  AR_DENSE = 1u << 0,  /* result is the exact elementwise sum */
  AR_SPARSE = 1u << 1, /* result is a top-k sparsified sum */
  AR_TREES = 1u << 2,  /* pipelined over trees in --segment segments (algos/tree_core.c) */
  AR_NCCL = 1u << 3,   /* NCCL's own algorithms (algos/nccl_*.c): named, never in --algo all or best */
};

/* The trees' largest segment, bytes: one above 1 GiB pipelines nothing, and so stays one
 * message (algos/ar_p2p.c); a larger --segment is capped here, by the algorithms and their
 * model alike. */
#define AR_TREE_MAX_SEGMENT ((size_t)1 << 30)

/* Phase names, one spelling for the algorithm that records a phase and the model that
 * predicts it (tests/check_phases.c runs both and compares). */
#define AR_PH_RS "reduce-scatter"
#define AR_PH_AG "allgather"
#define AR_PH_REDUCE "reduce"
#define AR_PH_BCAST "bcast"
#define AR_PH_INTRA_RS "intra-rs"
#define AR_PH_INTER_AR "inter-ar"
#define AR_PH_INTRA_AG "intra-ag"
#define AR_PH_PRE "pre"
#define AR_PH_POST "post"
#define AR_PH_GATHER_REDUCE "gather-reduce"
#define AR_PH_ALLREDUCE "allreduce"
#define AR_PH_SELECT "select"
#define AR_PH_SCATTER_ADD "scatter-add"
#define AR_PH_MSTOPK "mstopk"
#define AR_PH_INTER_AG "inter-ag"
#define AR_PH_LAUNCH "launch" /* NCCL's kernel launch: its base latency */
#define AR_PH_RING "ring"
#define AR_PH_TREE "tree"
#define AR_PH_NVLS "nvls"
#define AR_PH_NVLS_TREE "nvls-tree"
/* what a dense algorithm records on one rank, where it only copies its input */
#define AR_PH_COPY "copy"

/* X(id, "name", flags, cost model, (phases in the order they run), description), in
 * --list-algos order. Algorithm `name` (what users type; may hold a hyphen) is ar_<id>() in
 * algos/<id>.c (mpi's in algos/mpi_native.c); its model the cost function named (NULL:
 * none), declared in models/cost_models.h. A phase in the list may be skipped at some shapes (rhd's pre and post
 * exist only when the rank count is not a power of two; nccl runs a ring or a tree). */
#define AR_ALGO_LIST(X)                                                                                          \
  X(ring, "ring", AR_DENSE, cost_ring, (AR_PH_RS, AR_PH_AG),                                                     \
    "ring reduce-scatter + allgather, 2(p-1) steps; --channels C rings at once")                               \
  X(tree, "tree", AR_DENSE | AR_TREES, cost_tree, (AR_PH_REDUCE, AR_PH_BCAST),                                   \
    "pipelined binary tree: reduce to the root, broadcast back (--segment)")                                   \
  X(twotree, "twotree", AR_DENSE | AR_TREES, cost_twotree, (AR_PH_REDUCE, AR_PH_BCAST),                          \
    "double binary tree (two-tree, NCCL's tree): two trees, half the data each")                               \
  X(hier, "hier", AR_DENSE, cost_hier, (AR_PH_INTRA_RS, AR_PH_INTER_AR, AR_PH_INTRA_AG),                         \
    "hierarchical 2D-torus: intra-node reduce-scatter, inter-node ring, allgather")                            \
  X(rhd, "rhd", AR_DENSE, cost_rhd, (AR_PH_PRE, AR_PH_RS, AR_PH_AG, AR_PH_POST),                                 \
    "recursive halving-doubling (Rabenseifner), any rank count")                                               \
  X(naive, "naive", AR_DENSE, cost_naive, (AR_PH_GATHER_REDUCE, AR_PH_BCAST),                                    \
    "gather to one master, reduce there, broadcast back")                                                      \
  X(mpi, "mpi", AR_DENSE, NULL, (AR_PH_ALLREDUCE),                                                               \
    "the MPI library's own MPI_Allreduce (SMPI's selector when simulated)")                                    \
  X(topk, "topk", AR_SPARSE, cost_topk, (AR_PH_SELECT, AR_PH_AG, AR_PH_SCATTER_ADD),                             \
    "TopK-SGD (NaiveAG): exact top-k per rank, allgather of values and indices")                               \
  X(hitopk, "hitopk", AR_SPARSE, cost_hitopk, (AR_PH_INTRA_RS, AR_PH_MSTOPK, AR_PH_INTER_AG, AR_PH_INTRA_AG),    \
    "HiTopKComm: intra-node reduce-scatter, MSTopK, inter-node allgathers")                                    \
  X(nccl_ring, "nccl-ring", AR_DENSE | AR_NCCL, cost_nccl_ring, (AR_PH_LAUNCH, AR_PH_RING),                      \
    "NCCL's ring as its kernels run it: channels, pipelined slices, --proto LL|LL128|Simple")                  \
  X(nccl_tree, "nccl-tree", AR_DENSE | AR_NCCL, cost_nccl_tree, (AR_PH_LAUNCH, AR_PH_TREE),                      \
    "NCCL's tree: node chains under its double binary tree, pipelined slices")                                 \
  X(nvls, "nvls", AR_DENSE | AR_NCCL, cost_nvls, (AR_PH_LAUNCH, AR_PH_NVLS),                                      \
    "NCCL's NVLS: the NVSwitch sums each shard and multicasts it (one node of Hopper or later)")              \
  X(nvls_tree, "nvls-tree", AR_DENSE | AR_NCCL, cost_nvls_tree, (AR_PH_LAUNCH, AR_PH_NVLS_TREE),                 \
    "NCCL's NVLS tree: NVLS inside each node, each shard through a tree across the nodes")                    \
  X(nccl, "nccl", AR_DENSE | AR_NCCL, cost_nccl, (AR_PH_LAUNCH, AR_PH_RING, AR_PH_TREE, AR_PH_NVLS, AR_PH_NVLS_TREE), \
    "what NCCL (--nccl-version) would run: its algorithm, protocol and channels at each size")

/* A phase list of the table as an array initialiser: {AR_PHASES_INIT(phases)} */
#define AR_UNPAREN(...) __VA_ARGS__
#define AR_PHASES_INIT(phases) AR_UNPAREN phases, NULL

/* The most phases any algorithm lists, its end marker included. */
#define AR_MAX_LISTED_PHASES 8

#endif
