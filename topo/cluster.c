/* cluster.c: the links of a cluster and the routes between its GPUs (cluster.h). */
#include "cluster.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/sa_error.h"

static const char *const kind_names[] = {"cluster", "nvswitch", "pcie", "dgx1-mesh"};

const char *topo_node_kind_name(topo_node_kind k) { return kind_names[k]; }

int topo_node_kind_parse(const char *s, topo_node_kind *k)
{
  for (int i = 0; i < 4; i++)
    if (strcmp(s, kind_names[i]) == 0) {
      *k = (topo_node_kind)i;
      return 0;
    }
  return SA_EINVAL;
}

/* The DGX-1 hybrid cube-mesh: NVLinks between GPU pairs (one or two of 25 GB/s per
 * direction), as platforms/dgx1.xml draws them from NVIDIA's DGX-1 with Tesla V100 System
 * Architecture white paper (2017); a pair not listed goes through PCIe and QPI. */
static int dgx1_links(int a, int b)
{
  static const int pairs[][3] = {{0, 1, 1}, {0, 2, 1}, {0, 3, 2}, {0, 4, 2}, {1, 2, 2}, {1, 3, 1}, {1, 5, 2}, {2, 3, 2},
                                 {2, 6, 1}, {3, 7, 1}, {4, 5, 1}, {4, 6, 1}, {4, 7, 2}, {5, 6, 2}, {5, 7, 1}, {6, 7, 2}};
  int lo = a < b ? a : b, hi = a < b ? b : a;
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
    if (pairs[i][0] == lo && pairs[i][1] == hi)
      return pairs[i][2];
  return 0;
}

void topo_defaults(topo_cluster *t)
{
  if (t->node == TOPO_NODE_PCIE && t->gpus_per_switch <= 0)
    t->gpus_per_switch = 2;
  if (t->node == TOPO_NODE_DGX1) {
    /* platforms/dgx1.xml: PCIe gen3 x16 at 12 GBps, QPI 2 x 9.6 GT/s x 2 bytes, 1 us each */
    if (t->pcie_bw <= 0)
      t->pcie_bw = 12e9, t->pcie_lat = 1e-6;
    if (t->socket_bw <= 0)
      t->socket_bw = 19.2e9, t->socket_lat = 1e-6;
  }
  /* assumption: UPI between the sockets of a PCIe server, 3 links of 16 GT/s x 2 bytes */
  if (t->node == TOPO_NODE_PCIE && t->socket_bw <= 0)
    t->socket_bw = 96e9, t->socket_lat = 1e-6;
  if (t->oversub <= 0)
    t->oversub = 1;
  /* NVIDIA's DGX SuperPOD reference architecture groups 32 nodes under a scalable unit's
   * leaves; one spine hop taken as 0.3 us (assumption) */
  if (t->nodes_per_leaf <= 0)
    t->nodes_per_leaf = 32;
  if (t->uplink_lat <= 0)
    t->uplink_lat = 0.3e-6;
}

static int rate_ok(double bw) { return bw > 0 && isfinite(bw); }
static int lat_ok(double lat) { return lat >= 0 && isfinite(lat); }

static int bad(char *err, size_t errlen, const char *msg)
{
  snprintf(err, errlen, "%s", msg);
  return SA_EINVAL;
}

/* The NICs down name NICs and nodes there are, and leave every node a NIC. */
static int check_down(const topo_cluster *t, char *err, size_t errlen)
{
  if (t->ndown < 0 || t->ndown > TOPO_MAX_DOWN) {
    snprintf(err, errlen, "at most %d NICs down one by one", TOPO_MAX_DOWN);
    return SA_EINVAL;
  }
  if (t->nics < 64 && t->rails_down >> t->nics) {
    snprintf(err, errlen, "a rail down past the %d NICs of a node", t->nics);
    return SA_EINVAL;
  }
  for (int i = -1; i < t->ndown; i++) {
    int node = i < 0 ? -1 : t->down[i].node, left = 0;
    if (i >= 0 && (node < 0 || node >= t->nodes || t->down[i].nic < 0 || t->down[i].nic >= t->nics)) {
      snprintf(err, errlen, "NIC %d of node %d down: nodes 0 to %d, NICs 0 to %d", t->down[i].nic, node,
               t->nodes - 1, t->nics - 1);
      return SA_EINVAL;
    }
    for (int k = 0; k < t->nics; k++)
      left += topo_nic_up(t, node, k);
    if (left == 0) {
      if (node < 0)
        snprintf(err, errlen, "every rail is down: a node would have no NIC left");
      else
        snprintf(err, errlen, "node %d would have no NIC left", node);
      return SA_EINVAL;
    }
  }
  return 0;
}

int topo_check(const topo_cluster *t, char *err, size_t errlen)
{
  if (t->nodes < 1 || t->gpus < 1 || t->nics < 1)
    return bad(err, errlen, "a cluster needs at least one node, one GPU and one NIC per node");
  if (t->nodes > TOPO_MAX_NODES || t->gpus > TOPO_MAX_GPUS || t->nics > TOPO_MAX_NICS) {
    snprintf(err, errlen, "at most %d nodes, %d GPUs and %d NICs per node", TOPO_MAX_NODES, TOPO_MAX_GPUS,
             TOPO_MAX_NICS);
    return SA_EINVAL;
  }
  if ((t->node == TOPO_NODE_PCIE && (t->gpus_per_switch < 1 || t->gpus_per_switch > t->gpus)) ||
      (t->fabric == TOPO_FABRIC_FATTREE && (t->nodes_per_leaf < 1 || t->nodes_per_leaf > TOPO_MAX_NODES)))
    return bad(err, errlen, "a PCIe switch holds 1 to all of a node's GPUs, a fat-tree leaf 1 node or more");
  if (t->nics > t->gpus)
    return bad(err, errlen, "more NICs than GPUs per node: every NIC must serve a GPU");
  int pcie = t->node == TOPO_NODE_PCIE || t->node == TOPO_NODE_DGX1, dgx1 = t->node == TOPO_NODE_DGX1;
  if (!rate_ok(t->gpu_bw) || !rate_ok(t->nic_bw) || !lat_ok(t->gpu_lat) || !lat_ok(t->nic_lat) ||
      (dgx1 && (!rate_ok(t->pcie_bw) || !lat_ok(t->pcie_lat))) ||
      (pcie && (!rate_ok(t->socket_bw) || !lat_ok(t->socket_lat))) ||
      (t->fabric == TOPO_FABRIC_FATTREE && (!lat_ok(t->uplink_lat) || !isfinite(t->oversub))))
    return bad(err, errlen, "link rates must be positive and finite, latencies finite and not negative");
  if (t->node == TOPO_NODE_DGX1 && t->gpus != 8)
    return bad(err, errlen, "a dgx1-mesh node has 8 GPUs");
  if (t->rails && t->fabric != TOPO_FABRIC_FATTREE)
    return bad(err, errlen, "rails need a fat-tree fabric (one leaf per rail)");
  if (t->fabric == TOPO_FABRIC_FATTREE && !(t->oversub >= 1))
    return bad(err, errlen, "the oversubscription ratio is 1 (non-blocking) or more");
  return check_down(t, err, errlen);
}

int topo_nic_of(const topo_cluster *t, int gpu) { return (int)((long)gpu * t->nics / t->gpus); }

int topo_nic_up(const topo_cluster *t, int node, int k)
{
  if (k < 64 && (t->rails_down >> k & 1))
    return 0;
  for (int i = 0; i < t->ndown; i++)
    if (t->down[i].node == node && t->down[i].nic == k)
      return 0;
  return 1;
}

/* pcie: the switch of GPU j, of NIC k, and the socket of switch s */
static int nswitch(const topo_cluster *t) { return (t->gpus + t->gpus_per_switch - 1) / t->gpus_per_switch; }
static int switch_of_gpu(const topo_cluster *t, int j) { return j / t->gpus_per_switch; }
static int switch_of_nic(const topo_cluster *t, int k) { return (int)((long)k * nswitch(t) / t->nics); }
static int socket_of(const topo_cluster *t, int s) { return nswitch(t) >= 2 ? s * 2 / nswitch(t) : 0; }

/* How far NIC k is from GPU j, as NCCL ranks paths (src/graph/topo.h: PIX < PXB < PXN < PHB
 * < SYS): on PCIe nodes the NIC under the GPU's own PCIe switch, then one under its socket,
 * then one across the sockets; on NVSwitch nodes every NIC is one NVLink hop and its GPU's
 * PCIe switch away (PXN); on the other kinds every NIC is reached the same way. */
static int nic_distance(const topo_cluster *t, int j, int k)
{
  if (t->node != TOPO_NODE_PCIE)
    return 0;
  int s = switch_of_gpu(t, j), d = switch_of_nic(t, k);
  return s == d ? 0 : socket_of(t, s) == socket_of(t, d) ? 1 : 2;
}

/* NCCL's mirrorBits (src/graph/topo.h, v2.26.2-1): val's bits below pow2, reversed. */
static int mirror_bits(int val, int pow2)
{
  int m = 0;
  for (int b = 1, mb = pow2 >> 1; b < pow2; b <<= 1, mb >>= 1)
    if (val & b)
      m |= mb;
  return m;
}

/* NCCL 2.26.2 (src/graph/topo.cc, tag v2.26.2-1), ncclTopoGetLocalNet: a GPU's NICs are
 * those at its best path (ncclTopoGetLocal: highest bandwidth, then lowest path type), in
 * NIC order; it takes NIC number dev (its CUDA index, bit-reversed when the count is a power
 * of two) plus the channel, modulo their count. With its own NIC gone, a GPU of an NVSwitch
 * node reaches every other NIC by PXN (src/graph/paths.cc, ncclTopoComputePaths: through the
 * NIC's own GPU over NVLink, PATH_PXN, better than through the CPU), all alike: GPU 3 of 8
 * with rail 3 down gets the 4th of NICs 0 1 2 4 5 6 7, NIC 4, on channel 0, and the next one
 * up on each channel after. SimGrid's routes are fixed, so the route takes channel 0's. */
int topo_nic_used(const topo_cluster *t, int node, int j)
{
  int own = topo_nic_of(t, j);
  if ((t->rails_down == 0 && t->ndown == 0) || topo_nic_up(t, node, own))
    return own;
  int local[TOPO_MAX_NICS], n = 0, best = 3;
  for (int k = 0; k < t->nics && k < TOPO_MAX_NICS; k++) {
    int d = nic_distance(t, j, k);
    if (!topo_nic_up(t, node, k) || d > best)
      continue;
    if (d < best)
      best = d, n = 0;
    local[n++] = k;
  }
  if (n == 0)
    return -1;
  int net = (n & (n - 1)) == 0 ? mirror_bits(j, n) : j;
  return local[net % n];
}

/* The GPU NCCL relays through to NIC k (ncclTopoGetLocalGpu, src/graph/topo.cc v2.26.2-1:
 * the first of the NIC's own GPUs whose channel 0 goes to it): the first GPU wired to k. */
static int relay_gpu(const topo_cluster *t, int k)
{
  int g = 0;
  while (g < t->gpus - 1 && topo_nic_of(t, g) < k)
    g++;
  return g;
}

int topo_leaves(const topo_cluster *t)
{
  if (t->fabric == TOPO_FABRIC_SWITCH)
    return 1;
  return t->rails ? t->nics : (t->nodes + t->nodes_per_leaf - 1) / t->nodes_per_leaf;
}

int topo_leaf_of(const topo_cluster *t, int node, int gpu)
{
  if (t->fabric == TOPO_FABRIC_SWITCH)
    return 0;
  return t->rails ? topo_nic_used(t, node, gpu) : node / t->nodes_per_leaf;
}

/* Nodes per unit: nodes_per_leaf, or more where that would make over MAX_UNITS units (the
 * units of a leaf are joined pair by pair in the file). */
#define MAX_UNITS 256
static int unit_size(const topo_cluster *t)
{
  int least = (t->nodes + MAX_UNITS - 1) / MAX_UNITS;
  return t->nodes_per_leaf > least ? t->nodes_per_leaf : least;
}

int topo_units(const topo_cluster *t)
{
  return t->rails && t->fabric == TOPO_FABRIC_FATTREE && t->nodes > t->nodes_per_leaf
             ? (t->nodes + unit_size(t) - 1) / unit_size(t)
             : 1;
}

int topo_unit_of(const topo_cluster *t, int node) { return topo_units(t) > 1 ? node / unit_size(t) : 0; }

void topo_unit_range(const topo_cluster *t, int u, int *first, int *end)
{
  int size = topo_units(t) > 1 ? unit_size(t) : t->nodes;
  *first = u < 0 ? 0 : u * size;
  *end = u < 0 || t->nodes - *first < size ? t->nodes : *first + size;
}

/* Nodes in unit u (one NIC each on a rail). */
static int unit_nodes(const topo_cluster *t, int u)
{
  int first, end;
  topo_unit_range(t, u, &first, &end);
  return end - first;
}

/* NICs attached to leaf l: what its uplink carries at most, before oversubscription. */
static int leaf_nics(const topo_cluster *t, int l)
{
  if (t->rails)
    return t->nodes;
  int first = l * t->nodes_per_leaf, n = t->nodes - first;
  return (n < t->nodes_per_leaf ? n : t->nodes_per_leaf) * t->nics;
}

void topo_link_name(const topo_cluster *t, const topo_hop *h, char *buf, size_t len)
{
  static const char *const gpu_suffix[] = {"link", "nvl", "pcie", "pcie"};
  switch (h->kind) {
  case TOPO_LK_GPU: snprintf(buf, len, "node%d-gpu%d-%s", h->node, h->a, gpu_suffix[t->node]); break;
  case TOPO_LK_NVPAIR: snprintf(buf, len, "node%d-nvlink-%d-%d", h->node, h->a, h->b); break;
  case TOPO_LK_PCIE: snprintf(buf, len, "node%d-gpu%d-pcie", h->node, h->a); break;
  case TOPO_LK_SWITCH: snprintf(buf, len, "node%d-pcisw%d", h->node, h->a); break;
  case TOPO_LK_SOCKET: snprintf(buf, len, "node%d-%s", h->node, t->node == TOPO_NODE_DGX1 ? "qpi" : "upi"); break;
  case TOPO_LK_NIC: snprintf(buf, len, "node%d-nic%d", h->node, h->a); break;
  case TOPO_LK_UPLINK: snprintf(buf, len, "leaf%d-up", h->a); break;
  case TOPO_LK_UNIT: snprintf(buf, len, "leaf%d-unit%d-up", h->a, h->b); break;
  }
}

void topo_link_rate(const topo_cluster *t, const topo_hop *h, double *bw, double *lat)
{
  switch (h->kind) {
  case TOPO_LK_GPU:
  case TOPO_LK_SWITCH: *bw = t->gpu_bw, *lat = t->gpu_lat; break;
  case TOPO_LK_NVPAIR: *bw = dgx1_links(h->a, h->b) * t->gpu_bw, *lat = t->gpu_lat; break;
  case TOPO_LK_PCIE: *bw = t->pcie_bw, *lat = t->pcie_lat; break;
  case TOPO_LK_SOCKET: *bw = t->socket_bw, *lat = t->socket_lat; break;
  case TOPO_LK_NIC: *bw = t->nic_bw, *lat = t->nic_lat; break;
  case TOPO_LK_UPLINK: *bw = leaf_nics(t, h->a) * t->nic_bw / t->oversub, *lat = t->uplink_lat; break;
  case TOPO_LK_UNIT: *bw = unit_nodes(t, h->b) * t->nic_bw, *lat = 0; break;
  }
}

static void add(topo_path *p, topo_link_kind kind, int node, int a, int b, int up)
{
  if (p->n < TOPO_MAX_HOPS)
    p->h[p->n++] = (topo_hop){kind, node, a, b, up};
}

int topo_node_links(const topo_cluster *t, int node, topo_hop *out, int max)
{
  int n = 0;
#define PUT(k, a, b)                                                                                                   \
  do {                                                                                                                 \
    if (n < max)                                                                                                       \
      out[n] = (topo_hop){k, node, a, b, 1};                                                                            \
    n++;                                                                                                               \
  } while (0)
  if (t->node == TOPO_NODE_DGX1) {
    for (int a = 0; a < t->gpus; a++)
      for (int b = a + 1; b < t->gpus; b++)
        if (dgx1_links(a, b))
          PUT(TOPO_LK_NVPAIR, a, b);
    for (int j = 0; j < t->gpus; j++)
      PUT(TOPO_LK_PCIE, j, 0);
  } else {
    for (int j = 0; j < t->gpus; j++)
      PUT(TOPO_LK_GPU, j, 0);
  }
  if (t->node == TOPO_NODE_PCIE && nswitch(t) > 1)
    for (int s = 0; s < nswitch(t); s++)
      PUT(TOPO_LK_SWITCH, s, 0);
  if (t->node == TOPO_NODE_DGX1 || (t->node == TOPO_NODE_PCIE && nswitch(t) > 1))
    PUT(TOPO_LK_SOCKET, 0, 0);
  for (int k = 0; k < t->nics; k++)
    if (topo_nic_up(t, node, k))
      PUT(TOPO_LK_NIC, k, 0);
#undef PUT
  return n;
}

int topo_fabric_links(const topo_cluster *t, topo_hop *out, int max)
{
  int n = 0, leaves = topo_leaves(t), units = topo_units(t);
  for (int l = 0; leaves > 1 && l < leaves; l++, n++)
    if (n < max)
      out[n] = (topo_hop){TOPO_LK_UPLINK, -1, l, 0, 1};
  for (int l = 0; units > 1 && l < leaves; l++)
    for (int u = 0; u < units; u++, n++)
      if (n < max)
        out[n] = (topo_hop){TOPO_LK_UNIT, -1, l, u, 1};
  return n;
}

/* pcie: from switch s to switch d of a node (nothing when they are one). */
static void pcie_cross(const topo_cluster *t, int node, int s, int d, topo_path *p)
{
  if (s == d)
    return;
  add(p, TOPO_LK_SWITCH, node, s, 0, 1);
  if (socket_of(t, s) != socket_of(t, d))
    add(p, TOPO_LK_SOCKET, node, 0, 0, socket_of(t, s) < socket_of(t, d));
  add(p, TOPO_LK_SWITCH, node, d, 0, 0);
}

void topo_intra(const topo_cluster *t, int node, int j, int k, topo_path *p)
{
  p->n = 0;
  if (t->node == TOPO_NODE_DGX1) {
    if (dgx1_links(j, k)) {
      add(p, TOPO_LK_NVPAIR, node, j < k ? j : k, j < k ? k : j, j < k);
    } else {
      add(p, TOPO_LK_PCIE, node, j, 0, 1);
      add(p, TOPO_LK_SOCKET, node, 0, 0, j < k);
      add(p, TOPO_LK_PCIE, node, k, 0, 0);
    }
    return;
  }
  add(p, TOPO_LK_GPU, node, j, 0, 1);
  if (t->node == TOPO_NODE_PCIE)
    pcie_cross(t, node, switch_of_gpu(t, j), switch_of_gpu(t, k), p);
  add(p, TOPO_LK_GPU, node, k, 0, 0);
}

void topo_to_nic(const topo_cluster *t, int node, int j, topo_path *p)
{
  int nic = topo_nic_used(t, node, j);
  p->n = 0;
  if (nic < 0) /* no NIC left: topo_check refuses the cluster */
    nic = topo_nic_of(t, j);
  if (nic != topo_nic_of(t, j) && t->node == TOPO_NODE_NVSWITCH) {
    /* PXN: over NVLink into the memory of the NIC's own GPU, which the NIC reads */
    add(p, TOPO_LK_GPU, node, j, 0, 1);
    add(p, TOPO_LK_GPU, node, relay_gpu(t, nic), 0, 0);
    add(p, TOPO_LK_NIC, node, nic, 0, 1);
    return;
  }
  switch (t->node) {
  case TOPO_NODE_NVSWITCH: break; /* the NIC sits on the GPU's own PCIe switch, faster than it */
  case TOPO_NODE_CLUSTER: add(p, TOPO_LK_GPU, node, j, 0, 1); break;
  case TOPO_NODE_DGX1: add(p, TOPO_LK_PCIE, node, j, 0, 1); break;
  case TOPO_NODE_PCIE:
    add(p, TOPO_LK_GPU, node, j, 0, 1);
    pcie_cross(t, node, switch_of_gpu(t, j), switch_of_nic(t, nic), p);
    break;
  }
  add(p, TOPO_LK_NIC, node, nic, 0, 1);
}

void topo_path_between(const topo_cluster *t, int a, int j, int b, int k, topo_path *p)
{
  if (a == b) {
    topo_intra(t, a, j, k, p);
    return;
  }
  topo_path back;
  topo_to_nic(t, a, j, p);
  int la = topo_leaf_of(t, a, j), lb = topo_leaf_of(t, b, k);
  int ua = topo_unit_of(t, a), ub = topo_unit_of(t, b);
  int leaves_unit = topo_units(t) > 1 && (la != lb || ua != ub); /* out of its unit, in another */
  if (leaves_unit)
    add(p, TOPO_LK_UNIT, -1, la, ua, 1);
  if (la != lb) {
    add(p, TOPO_LK_UPLINK, -1, la, 0, 1);
    add(p, TOPO_LK_UPLINK, -1, lb, 0, 0);
  }
  if (leaves_unit)
    add(p, TOPO_LK_UNIT, -1, lb, ub, 0);
  topo_to_nic(t, b, k, &back);
  for (int i = back.n - 1; i >= 0; i--) {
    back.h[i].up = !back.h[i].up;
    add(p, back.h[i].kind, back.h[i].node, back.h[i].a, back.h[i].b, back.h[i].up);
  }
}
