/* topo.h: a GPU cluster as simcalib draws it: how a node joins its GPUs (an NVSwitch, PCIe
 * switches, the DGX-1 cube mesh, or a private link per GPU), its NICs (one per GPU on rails
 * of their own, or shared), and the fabric between the nodes (one switch, or a fat-tree of
 * leaves under a spine with an oversubscription ratio). Every link and every route between
 * two GPUs comes from here: the platform XML (platform_gen.c) and the cost models' view of
 * its first nodes (topo_net.c) are both made from these functions, so they cannot disagree.
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
#ifndef CAL_TOPO_H
#define CAL_TOPO_H

#include <stddef.h>

typedef enum { CAL_NODE_CLUSTER, CAL_NODE_NVSWITCH, CAL_NODE_PCIE, CAL_NODE_DGX1 } cal_node_kind;
typedef enum { CAL_FABRIC_SWITCH, CAL_FABRIC_FATTREE } cal_fabric_kind;

typedef struct {
  cal_node_kind node;
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
  cal_fabric_kind fabric;
  double oversub;               /* fat-tree: a leaf's uplink = its NICs' total rate / oversub */
  int nodes_per_leaf;           /* fat-tree: nodes under one leaf; with rails, per piece of a rail's leaf */
  double uplink_lat;
} cal_topo;

/* A topology with the defaults of its kind filled in where the caller left 0 (gpus_per_switch,
 * socket and PCIe links, nodes_per_leaf, oversub, uplink_lat). */
void cal_topo_defaults(cal_topo *t);

/* 0, or SA_EINVAL with err saying what does not hold (a dgx1 node of other than 8 GPUs, a
 * rate that is not positive, rails on a single switch...). */
int cal_topo_check(const cal_topo *t, char *err, size_t errlen);

const char *cal_node_kind_name(cal_node_kind k);
int cal_node_kind_parse(const char *s, cal_node_kind *k); /* 0 or SA_EINVAL */

/* A link: what it is, whose (node; leaf for an uplink), which (GPU, switch, NIC, pair a-b). */
typedef enum {
  CAL_LK_GPU,
  CAL_LK_NVPAIR,
  CAL_LK_PCIE,
  CAL_LK_SWITCH,
  CAL_LK_SOCKET,
  CAL_LK_NIC,
  CAL_LK_UPLINK,
  CAL_LK_UNIT /* a rail leaf's piece to the rest of the leaf (a: leaf, b: unit) */
} cal_link_kind;

typedef struct {
  cal_link_kind kind;
  int node, a, b;
  int up; /* crossed in its UP direction (SimGrid's SPLITDUPLEX halves), else DOWN */
} cal_hop;

#define CAL_TOPO_MAX_HOPS 12
typedef struct {
  int n;
  cal_hop h[CAL_TOPO_MAX_HOPS];
} cal_path;

void cal_topo_link_name(const cal_topo *t, const cal_hop *h, char *buf, size_t len);
void cal_topo_link_rate(const cal_topo *t, const cal_hop *h, double *bw, double *lat);

/* Every link of node i (direction UP), and the fabric's: how many there are (out gets at
 * most max of them). */
int cal_topo_node_links(const cal_topo *t, int node, cal_hop *out, int max);
int cal_topo_fabric_links(const cal_topo *t, cal_hop *out, int max);

int cal_topo_nic_of(const cal_topo *t, int gpu);
int cal_topo_leaves(const cal_topo *t);
int cal_topo_leaf_of(const cal_topo *t, int node, int gpu);

/* The pieces ("units") a rail's leaf is built of, and node's: one unit, 0, unless the leaves
 * are rails over more than nodes_per_leaf nodes; then units of nodes_per_leaf nodes, or of
 * more where that would make over 256 (docs/platforms.md). */
int cal_topo_units(const cal_topo *t);
int cal_topo_unit_of(const cal_topo *t, int node);
/* The nodes of unit u, first to end - 1 (u -1: every node). */
void cal_topo_unit_range(const cal_topo *t, int u, int *first, int *end);

/* GPU j to GPU k of one node; GPU j up to and through its NIC link; GPU j of node a to GPU k
 * of node b (a != b: to_nic, the uplinks when the leaves differ, the other to_nic reversed). */
void cal_topo_intra(const cal_topo *t, int node, int j, int k, cal_path *p);
void cal_topo_to_nic(const cal_topo *t, int node, int j, cal_path *p);
void cal_topo_route(const cal_topo *t, int a, int j, int b, int k, cal_path *p);

#endif
