/* nccl_node.h: what NCCL makes of a node's graph (topo/channels.h), for the runner
 * (algos/nccl_comm.c) and the models (models/cost_nccl_layout.c) alike: the GPUs'
 * generation and the kernels' channels NCCL opens there (nccl/nccl_proto.h). */
#ifndef AR_NCCL_NODE_H
#define AR_NCCL_NODE_H

#include "nccl/nccl_proto.h"
#include "topo/channels.h"

/* The GPUs' generation, read from their NVLink bandwidth (nccl_arch_of). */
static inline int ar_nccl_node_arch(const topo_graph *g) { return nccl_arch_of(topo_graph_nvlink_bw(g)); }

/* NCCL's own kernels' channels on node graph g of a run over `nodes` nodes
 * (nccl_node_channels of what the graph counts). */
static inline int ar_nccl_node_channels(const topo_graph *g, int nodes)
{
  return nccl_node_channels(topo_graph_channels(g, nodes), topo_graph_nvswitch(g), topo_graph_nvlink_bw(g));
}

#endif
