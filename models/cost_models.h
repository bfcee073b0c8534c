/* cost_models.h: the models' entry points (internal to models/), one per algorithm of
 * algos/algo_list.h that has a model, which the dispatch (cost.c) calls, and what one model
 * shares with another. Each takes `count` elements per rank, count > 0 and more than one rank
 * (cost_predict handles the rest), and returns 0 or an SA_E* code. */
#ifndef MODELS_COST_MODELS_H
#define MODELS_COST_MODELS_H

#include "algos/algo_list.h" /* the phases each model names, as its algorithm records them */
#include "cost_ctx.h"

int cost_ring(cost_ctx *c, uint64_t count, cost_result *r);
int cost_hier(cost_ctx *c, uint64_t count, cost_result *r);
int cost_rhd(cost_ctx *c, uint64_t count, cost_result *r);
int cost_naive(cost_ctx *c, uint64_t count, cost_result *r);
int cost_tree(cost_ctx *c, uint64_t count, cost_result *r);
int cost_twotree(cost_ctx *c, uint64_t count, cost_result *r);
int cost_topk(cost_ctx *c, uint64_t count, cost_result *r);
int cost_hitopk(cost_ctx *c, uint64_t count, cost_result *r);
/* NCCL's algorithms at the choice cost_nccl_plan makes for the size (cost_nccl_ring.c,
 * cost_nccl_tree.c; nccl: whichever NCCL picks, cost_nccl_choice.c), and each at a given
 * protocol and channel count, replaying the runner's pipeline (cost_nccl_des.c). */
int cost_nccl_ring(cost_ctx *c, uint64_t count, cost_result *r);
int cost_nccl_tree(cost_ctx *c, uint64_t count, cost_result *r);
int cost_nccl(cost_ctx *c, uint64_t count, cost_result *r);
int cost_nccl_ring_time(cost_ctx *c, uint64_t count, int proto, int channels, cost_result *r);
int cost_nccl_tree_time(cost_ctx *c, uint64_t count, int proto, int channels, cost_result *r);
/* NVLS and NVLS tree (cost_nccl_nvls.c): algo NCCL_ALGO_NVLS or NCCL_ALGO_NVLS_TREE, Simple. */
int cost_nvls(cost_ctx *c, uint64_t count, cost_result *r);
int cost_nvls_tree(cost_ctx *c, uint64_t count, cost_result *r);
int cost_nvls_time(cost_ctx *c, uint64_t count, int algo, int channels, cost_result *r);
/* The model of NCCL's algorithm `algo` with `proto` on `channels` channels. */
int cost_nccl_time(cost_ctx *c, uint64_t count, int algo, int proto, int channels, cost_result *r);

/* The hops of hier's two patterns (each node's ring; the rings across nodes of the ranks
 * with the same local index), which hitopk shares. */
typedef struct {
  cost_hops intra, inter;
} cost_hier_hops;
int cost_hier_hops_of(cost_ctx *c, cost_hier_hops **out);

#endif
