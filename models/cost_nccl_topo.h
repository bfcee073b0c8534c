/* cost_nccl_topo.h: NCCL's channels over the layout as the models see them (internal to
 * models/): the node as algos/nccl_search.c sees it, NCCL's channel count for it, and the
 * channels laid over it. */
#ifndef COST_NCCL_TOPO_H
#define COST_NCCL_TOPO_H

#include "algos/nccl_search.h"
#include "cost.h"

typedef struct {
  nccl_node node;
  double *bw;
  int **route;
  int *nic;
  int node_channels; /* NCCL's own count */
  int channels;      /* laid out: the larger of it and --channels */
  nccl_rings rings;
} cost_nccl_topo;

/* Built once per context (cached). Returns 0 or a SA_E* code. */
int cost_nccl_topo_of(cost_ctx *c, cost_nccl_topo **out);

/* NCCL's tuning inputs for the layout (inter_bw: what a node sends to another with all its
 * ranks sending, bytes/s). Returns 0 or a SA_E* code (s then has ranks and nodes only). */
int cost_nccl_shape_of(cost_ctx *c, cost_nccl_shape *s, double inter_bw);

#endif
