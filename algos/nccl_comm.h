/* nccl_comm.h: the channels of a run, as NCCL would lay them over the platform: built once
 * by the runner before any timing (rank 0 reads the routes of the first two nodes from
 * SimGrid and searches, channels.c; every rank gets the result), read by nccl_ring.c and
 * nccl_tree.c. Every node uses the same pattern, as NCCL's channels do. */
#ifndef ALGOS_NCCL_COMM_H
#define ALGOS_NCCL_COMM_H

#include "ar.h"
#include "topo/channels.h"
#include "topo/trees.h"

typedef struct ar_nccl_comm {
  int rpn, nodes;
  int channels;          /* channels laid out (NCCL's own count, or more when asked) */
  int node_channels;     /* NCCL's own count for this node (channels.h) */
  topo_rings rings;      /* their orders (share unused) */
  unsigned char *nvlink; /* [rpn x rpn]: NVLink-class pair */
  int arch;              /* the GPUs' generation (NCCL_ARCH_*), from their NVLink bandwidth */
  double nvls_scale;     /* NVLS's bytes on an NVLink per byte sent (nccl_nvls_wire_scale) */
} ar_nccl_comm;

/* Collective over comm (rpn ranks per node, node-major). channels: how many to lay out at
 * least (NCCL's own count at the least); nvls_bw: what NVLS moves, where the platform says
 * (the compute property; 0: NCCL's model); from: the node whose routes (to the next node)
 * the channels are laid from, the one with the fewest NICs (NCCL takes the fewest channels
 * any rank finds: initTransportsRank in src/init.cc, v2.26.2-1, all-gathers every rank's
 * graph and keeps the smallest nChannels; each node lays them over its own NICs, here every
 * node takes that node's orders). Returns 0 or an SA_E* code. */
int ar_nccl_comm_init(ar_nccl_comm *t, MPI_Comm comm, int rpn, int channels, double nvls_bw, int from);
void ar_nccl_comm_free(ar_nccl_comm *t);

/* Channel c's ring through every rank: this rank's place and neighbours. */
void ar_nccl_comm_ring(const ar_nccl_comm *t, int c, int rank, int *pos, int *prev, int *next);

/* Channel c's tree (NCCL: the first half of the channels on tree 0 of the double binary
 * tree over the nodes, the second half on tree 1; a chain through each node from the GPU
 * the node's tree edges attach to). */
void ar_nccl_comm_tree(const ar_nccl_comm *t, int c, int rank, topo_tree_node *out);

/* Seconds a slice of protocol proto takes on the hop from rank a to rank b beyond what the
 * link itself takes (nccl_proto.h), by the hop's class: network between nodes, NVLink or
 * PCI inside one. 0 in a real run: the hardware pays it. */
double ar_nccl_comm_extra(const ar_nccl_comm *t, const sa_compute *c, int a, int b, int algo, int proto);
/* The proxy's seconds before each slice from rank a to rank b leaves: nccl_net_gap_s across
 * nodes, 0 within one. */
double ar_nccl_comm_gap(const ar_nccl_comm *t, const sa_compute *c, int a, int b, int algo, int proto);

/* 1 when the hop from rank a to rank b is an NVLink-class one inside a node (its bytes on the
 * link: nccl_nvlink_per_wire; a NIC's or PCI's efficiency is the platform's rate). */
int ar_nccl_comm_nvlink(const ar_nccl_comm *t, int a, int b);

#endif
