/* cost_nccl_layout.h: NCCL's channels over the layout as the models see them (internal to
 * models/): node 0's graph (topo/graph.h), NCCL's channel count for it, and the channels
 * laid over it (topo/channels.h). */
#ifndef MODELS_COST_NCCL_LAYOUT_H
#define MODELS_COST_NCCL_LAYOUT_H

#include "topo/channels.h"
#include "cost.h"

typedef struct {
  topo_graph_data node;
  int node_channels; /* NCCL's own count */
  int channels;      /* laid out: the larger of it and --channels */
  topo_rings rings;
} cost_nccl_layout;

/* Built once per context (cached). Returns 0 or a SA_E* code. */
int cost_nccl_layout_of(cost_ctx *c, cost_nccl_layout **out);

/* The platform's compute properties as NCCL's kernels see them on this layout: with NCCL's
 * ceilings of LL and LL128 where it gives no rate of its own (nccl_gpu_protocol_rates).
 * Returns 0 or a SA_E* code. */
int cost_nccl_gpu_of(cost_ctx *c, sa_compute *gpu);

/* NCCL's tuning inputs for the layout (inter_bw: what a node sends to another with all its
 * ranks sending, bytes/s). Returns 0 or a SA_E* code (s then has ranks and nodes only). */
int cost_nccl_shape_of(cost_ctx *c, cost_nccl_shape *s, double inter_bw);

#endif
