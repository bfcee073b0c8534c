/* channels.h: the channel view of a topology: how NCCL lays its channels over a node, from
 * the node's graph (graph.h): how many channels, and for each the order it visits the node's
 * GPUs in, and the trees over them. The runner (algos/nccl_comm.c and algos/ring_orders.c,
 * from SimGrid's routes) and the cost models (from the route view) both call it, so the
 * simulated rings and the modelled ones are the same. No MPI, no SimGrid here. */
#ifndef TOPO_CHANNELS_H
#define TOPO_CHANNELS_H

#include "graph.h"

/* The most channels NCCL lays over a node: MAXCHANNELS is 64 (src/include/device.h), and its
 * topology search keeps at most half of them (src/graph/search.cc, v2.26.2). */
#define TOPO_MAX_CHANNELS 32

/* Channels laid over the node: channel c visits GPUs order[c * gpus + 0 .. gpus-1]. With one
 * node the order is a cycle; across nodes it is a path entered from the previous node at its
 * first GPU and left for the next at its last, and with flip[c] set the odd-numbered nodes
 * run it backwards (see channels.c). share[c]: the bandwidth channel c gets with every
 * channel running (bytes/s), its slowest link's capacity shared by every channel on it. */
typedef struct {
  int channels, gpus;
  int *order;
  int *flip;
  double *share;
} topo_rings;

/* The number of channels NCCL would build for this node and node count (see the .c). */
int topo_graph_channels(const topo_graph *g, int nodes);

/* 1 when GPUs a and b of the node are joined by NVLink-class links (their route is at
 * least as fast as NVLink and faster than any PCIe x16): NCCL's NVLink latencies apply. */
int topo_graph_nvlink(const topo_graph *g, int a, int b);

/* The NVLink-class bandwidth the node's least connected GPU sends at (bytes/s, 0 without
 * NVLink), and the most GPUs that share one NIC (0 without NICs). */
double topo_graph_nvlink_bw(const topo_graph *g);
int topo_graph_gpus_per_nic(const topo_graph *g);

/* 1 when every GPU reaches every other over NVLink through one link of its own, the same for
 * all (its port into an NVSwitch): a node where NVLS can run, of the right generation. */
int topo_graph_nvswitch(const topo_graph *g);

/* Lays `channels` channels over the node for a run of `nodes` nodes. Returns 0, or -1 when
 * out of memory. Free with topo_rings_free. */
int topo_search_rings(const topo_graph *g, int nodes, int channels, topo_rings *out);
void topo_rings_free(topo_rings *r);

/* The rank at place `place` of channel c's ring through `nodes` nodes of `gpus` GPUs laid out
 * as rings r describes: node by node, each node's GPUs in the channel's order, backwards on
 * the odd-numbered nodes where the channel flips. */
int topo_ring_rank(const topo_rings *r, int c, int place);

/* A rank's place in channel c's tree (the first half of the channels on tree 0 of the double
 * binary tree over the nodes, the second half on tree 1, as NCCL splits them; through each
 * node, a chain in the channel's order from the GPU the node's tree edges attach to): its
 * parent (-1 at the root) and children (up to 3). */
void topo_tree_rank(const topo_rings *r, int nodes, int c, int rank, int *parent, int child[3], int *nchild);

/* NCCL's double binary tree over n nodes (src/graph/trees.cc ncclGetDtree): node `pos`'s
 * parent (-1 at the root) and up to two children (-1 where none) in tree 0 or 1. */
void topo_dtree(int n, int which, int pos, int *parent, int child[2]);

#endif
