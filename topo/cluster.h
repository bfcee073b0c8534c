/* cluster.h: a GPU cluster as the generator draws it: how a node joins its GPUs (an NVSwitch, PCIe
 * switches, the DGX-1 cube mesh, or a private link per GPU), its NICs (one per GPU on rails
 * of their own, or shared), and the fabric between the nodes (one switch, or a fat-tree of
 * leaves under a spine with an oversubscription ratio). Every link and every route between
 * two GPUs comes from here: the platform XML (platform_xml.c) and the cost models' view of
 * its first nodes (routes.c) are both made from these functions, so they cannot disagree.
 *
 * Conventions (docs/platforms.md): hosts node<i>-gpu<j>; GPU j uses NIC floor(j * nics /
 * gpus); GPU to GPU in a node is GPU a's link up then GPU b's link down (through PCIe
 * switches and the CPU sockets on PCIe nodes); between nodes, up the GPU's way to its NIC,
 * its NIC link up, then, if the two NICs hang off different leaves, the first leaf's uplink
 * up and the second's down, then the other side's NIC down. With rails, leaf k holds NIC k of
 * every node; without, leaf l holds the NICs of nodes l*L .. l*L+L-1. A rail's leaf over more
 * than L nodes is built of units of L nodes (more, past 256 units), each joined to the rest of
 * its leaf by a link that carries what its NICs can and adds no latency: such a leaf limits
 * and delays a message as one switch would, and SimGrid finds a route in it among L + 1
 * points, not among every node. */
#ifndef TOPO_CLUSTER_H
#define TOPO_CLUSTER_H

#include <stddef.h>
#include <stdint.h>

#define TOPO_MAX_DOWN 16 /* NICs down on one node each: topo_cluster's down[] */

typedef enum { TOPO_NODE_CLUSTER, TOPO_NODE_NVSWITCH, TOPO_NODE_PCIE, TOPO_NODE_DGX1 } topo_node_kind;
typedef enum { TOPO_FABRIC_SWITCH, TOPO_FABRIC_FATTREE } topo_fabric_kind;

typedef struct {
  topo_node_kind node;
  int nodes, gpus;
  /* the GPU's own link, per direction: its NVLink bandwidth into the NVSwitch (nvswitch), its
   * PCIe link (pcie; a PCIe switch's uplink runs at the same rate), one NVLink (dgx1, whose
   * GPU pairs have one or two), its link into the node (cluster) */
  double gpu_bw, gpu_lat;
  int gpus_per_switch;          /* pcie: GPUs under one PCIe switch */
  double pcie_bw, pcie_lat;     /* dgx1: each GPU's PCIe link, for pairs without NVLink and the NICs */
  double socket_bw, socket_lat; /* pcie, dgx1: between the two CPU sockets (UPI, QPI) */
  int nics;                     /* per node */
  double nic_bw, nic_lat;
  int rails;                    /* 1: leaf k holds NIC k of every node */
  topo_fabric_kind fabric;
  double oversub;               /* fat-tree: a leaf's uplink = its NICs' total rate / oversub */
  int nodes_per_leaf;           /* fat-tree: nodes under one leaf; with rails, per piece of a rail's leaf */
  double uplink_lat;
  /* NICs that are gone (--what-if rail-down, nic-down; docs/platforms.md "NICs down"): bit k
   * of rails_down, NIC k of every node; down[0 .. ndown - 1], one NIC of one node. A GPU whose
   * NIC is gone leaves through another (topo_nic_used); none down in a healthy cluster. */
  uint64_t rails_down;
  int ndown;
  struct {
    int node, nic;
  } down[TOPO_MAX_DOWN];
} topo_cluster;

/* The largest cluster the generator draws and the loader builds (topo_check): far past the
 * 16384 GPUs make bench simulates, short of what one machine could hold the XML of. */
#define TOPO_MAX_NODES 100000
#define TOPO_MAX_GPUS 1024 /* per node */
#define TOPO_MAX_NICS 64   /* per node */

/* A topology with the defaults of its kind filled in where the caller left 0 (gpus_per_switch,
 * socket and PCIe links, nodes_per_leaf, oversub, uplink_lat). */
void topo_defaults(topo_cluster *t);

/* 0, or SA_EINVAL with err saying what does not hold (counts out of 1..TOPO_MAX_*, a dgx1
 * node of other than 8 GPUs, a rate that is not positive and finite, a latency that is
 * negative or not finite, rails on a single switch, a fat-tree leaf of no nodes...): what
 * the generator and the loader (zone.cpp) both refuse, a topology that has its defaults. */
int topo_check(const topo_cluster *t, char *err, size_t errlen);

const char *topo_node_kind_name(topo_node_kind k);
int topo_node_kind_parse(const char *s, topo_node_kind *k); /* 0 or SA_EINVAL */

/* A link: what it is, whose (node; leaf for an uplink), which (GPU, switch, NIC, pair a-b). */
typedef enum {
  TOPO_LK_GPU,
  TOPO_LK_NVPAIR,
  TOPO_LK_PCIE,
  TOPO_LK_SWITCH,
  TOPO_LK_SOCKET,
  TOPO_LK_NIC,
  TOPO_LK_UPLINK,
  TOPO_LK_UNIT /* a rail leaf's piece to the rest of the leaf (a: leaf, b: unit) */
} topo_link_kind;

typedef struct {
  topo_link_kind kind;
  int node, a, b;
  int up; /* crossed in its UP direction (SimGrid's SPLITDUPLEX halves), else DOWN */
} topo_hop;

#define TOPO_MAX_HOPS 12
typedef struct {
  int n;
  topo_hop h[TOPO_MAX_HOPS];
} topo_path;

void topo_link_name(const topo_cluster *t, const topo_hop *h, char *buf, size_t len);
void topo_link_rate(const topo_cluster *t, const topo_hop *h, double *bw, double *lat);

/* Every link of node i (direction UP), and the fabric's: how many there are (out gets at
 * most max of them). */
int topo_node_links(const topo_cluster *t, int node, topo_hop *out, int max);
int topo_fabric_links(const topo_cluster *t, topo_hop *out, int max);

/* The NIC GPU gpu is wired to: floor(gpu * nics / gpus). */
int topo_nic_of(const topo_cluster *t, int gpu);
/* 1 when NIC k of node is there (not down). */
int topo_nic_up(const topo_cluster *t, int node, int k);
/* The NIC GPU j of node leaves the node through: its own, or where that is down, the one
 * NCCL gives it (cluster.c: ncclTopoGetLocalNet's choice for channel 0); -1 when the node
 * has none left (topo_check refuses that). */
int topo_nic_used(const topo_cluster *t, int node, int j);
int topo_leaves(const topo_cluster *t);
int topo_leaf_of(const topo_cluster *t, int node, int gpu);

/* The pieces ("units") a rail's leaf is built of, and node's: one unit, 0, unless the leaves
 * are rails over more than nodes_per_leaf nodes; then units of nodes_per_leaf nodes, or of
 * more where that would make over 256 (docs/platforms.md). */
int topo_units(const topo_cluster *t);
int topo_unit_of(const topo_cluster *t, int node);
/* The nodes of unit u, first to end - 1 (u -1: every node). */
void topo_unit_range(const topo_cluster *t, int u, int *first, int *end);

/* GPU j to GPU k of one node; GPU j up to and through its NIC link (topo_nic_used's: where
 * its own is down, over NVLink into the GPU of the NIC it uses, PXN, on NVSwitch nodes; the
 * way to a NIC shared with other GPUs elsewhere); GPU j of node a to GPU k
 * of node b (a != b: to_nic, the uplinks when the leaves differ, the other to_nic reversed). */
void topo_intra(const topo_cluster *t, int node, int j, int k, topo_path *p);
void topo_to_nic(const topo_cluster *t, int node, int j, topo_path *p);
void topo_path_between(const topo_cluster *t, int a, int j, int b, int k, topo_path *p);

#endif
