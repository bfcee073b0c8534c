/* nccl_proto.h: what NCCL's allreduce kernels and tuner are made of, as numbers: the
 * protocols' buffer geometry (chunks, slices, slots in flight, bytes on the wire) and, per
 * NCCL version, the tuning constants of src/graph/tuning.cc. The simulated NCCL algorithms
 * (nccl_ring.c, nccl_tree.c) and the cost models (models/cost_nccl*.c) read them from here,
 * so that each constant is written once. No MPI here. */
#ifndef NCCL_NCCL_PROTO_H
#define NCCL_NCCL_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "common/compute.h"

/* In NCCL's own order (src/include/device.h), CollNet's two left out: tree, ring, NVLS (the
 * NVSwitch reduces and multicasts inside a node), NVLS tree (NVLS inside each node, a tree
 * across them); and LL, LL128, Simple. */
enum { NCCL_ALGO_TREE, NCCL_ALGO_RING, NCCL_ALGO_NVLS, NCCL_ALGO_NVLS_TREE, NCCL_NALGO };
enum { NCCL_PROTO_LL, NCCL_PROTO_LL128, NCCL_PROTO_SIMPLE, NCCL_NPROTO };
enum { NCCL_HW_NVLINK, NCCL_HW_PCI, NCCL_HW_NET, NCCL_NHW };

/* GPU generations NCCL's tables are indexed by (tuning.cc's compCapIndex). */
enum { NCCL_ARCH_VOLTA, NCCL_ARCH_AMPERE, NCCL_ARCH_HOPPER, NCCL_ARCH_BLACKWELL, NCCL_NARCH };

/* The GPU generation of a node whose GPUs have `nvlink_bw` bytes/s of NVLink each way (V100
 * 6 x 25 GB/s, A100 12 x 25, H100 18 x 25, B200 18 x 50): the row of NCCL's tables. */
int nccl_arch_of(double nvlink_bw);

/* The share of an NVLink's rate NCCL's kernels move payload at on generation `arch`: NCCL's
 * own figure per link (src/graph/topo.h, SM70_NVLINK_BW 20.0, SM80 20.0, SM90 20.6, SM100
 * 40.1 GB/s at v2.27-v2.30; 40.0 at v2.26.2) over the link's rate per direction in the
 * datasheets (NVLink 2, 3 and 4: 25 GB/s; NVLink 5: 50). NCCL sizes its channels by that
 * figure; the rest of a link's time goes to packet headers, flow control and the SMs' own
 * copy loop. */
double nccl_nvlink_efficiency(int arch);

/* Bytes on an NVLink per byte NCCL's protocol puts on the wire over it, on GPUs of generation
 * `arch`: 1 / nccl_nvlink_efficiency, times nvls_scale for NVLS's stand-in messages
 * (nccl_nvls_wire_scale; 0 for any other algorithm). The runner and the models alike. */
double nccl_nvlink_per_wire(int arch, double nvls_scale);

/* NVLS (nvls.c): the channels NCCL gives it (src/transport/nvls.cc v2.26.2:
 * NVLS_NCHANNELS_SM90 16, NVLS_NCHANNELS_SM100 32), the most GPUs of a node it spans here
 * (NCCL: NCCL_MAX_NVLS_ARITY 32; the presets have at most 16), and the bytes of a chunk a
 * channel moves at once for `bytes` per rank over `heads` GPUs a node (src/enqueue.cc
 * calcCollChunking: nvlsChunkSize 128 KiB, 64 KiB for a tree over 4 nodes or more, halved
 * down to 16 or 32 KiB while the buffer is small). */
int nccl_nvls_channels(int arch);
#define NCCL_NVLS_MAX_HEADS 16
uint64_t nccl_nvls_chunk(int algo, double bytes, int channels, int heads, int nodes);
/* The least bytes from which that chunk no longer shrinks (its largest). */
uint64_t nccl_nvls_full_bytes(int algo, int channels, int heads, int nodes);

/* The bandwidth NCCL's NVLS search gives each of a node's n GPUs (heads), GB/s, on GPUs of
 * generation `arch` whose NVLinks carry port_bw GB/s of NCCL's traffic each way: n heads pull
 * through every GPU's port, its own twice, so at most port_bw / (n + 1), rounded down to the
 * search's speed steps of the default version (nccl_nvls_step). NCCL's 2.26 model then runs
 * NVLS at n x that x 5/6 (tuning.cc: NVLS's ratio to algorithm bandwidth). */
double nccl_nvls_head_bw(int arch, double port_bw, int n);

/* What NCCL's model runs NVLS at on those n GPUs, GB/s of the buffer: n x the head's
 * bandwidth x 5/6. */
double nccl_nvls_model_bw(int arch, double port_bw, int n);

/* NVLS's bytes on a GPU's NVLink per byte its stand-in messages carry (nvls.c), n GPUs whose
 * NVLinks carry port_bw bytes/s of NCCL's traffic. The GPU that owns a shard pulls its sum
 * from the switch, which reads it from every GPU; the owner then stores the sum to the
 * multicast address, which the switch writes into every GPU: (1 + 1/n) of the buffer each
 * way on every port. The simulation sends each shard to its owner and the sum back to every
 * GPU, 2 (n - 1) / n of the buffer each way; scaled so that a port's time is what NCCL's
 * model gives NVLS, the buffer / (n x head bandwidth x 5/6): port_bw / (2 (n - 1) x head
 * bandwidth x 5/6), (n + 1) / (2 (n - 1)) / (5/6) were the head's bandwidth not rounded.
 * Where the platform says what NVLS moves (nvls_bw > 0: the compute property, a fit's), a
 * port's time is the buffer / nvls_bw instead: port_bw x n / (2 (n - 1) x nvls_bw).
 * 1 for n < 2. In millionths. */
double nccl_nvls_wire_scale(int n, int arch, double port_bw, double nvls_bw);

/* Slots per connection: buffers of a connection hold NCCL_STEPS steps (device.h). */
#define NCCL_STEPS 8
/* Most channels --channels may force (the CLI's limit) */
#define NCCL_FORCED_CHANNELS 64

/* One NCCL version's tuning model (src/graph/tuning.cc of that tag, and the figures of its
 * NVLS search and transport the model reads). Latencies in us, bandwidths in GB/s, as NCCL
 * writes them. */
typedef struct {
  const char *name;   /* "2.26.2-1" */
  const char *commit; /* the tag's commit in github.com/NVIDIA/nccl */
  int model;          /* 0: the 2.7 formulas, 1: the 2.2x formulas, 2: the 2.12 formulas (cost_nccl.c) */
  double base_lat[NCCL_NALGO][NCCL_NPROTO];
  double hw_lat[NCCL_NHW][NCCL_NALGO][NCCL_NPROTO];
  int ntree_corr; /* entries of tree_corr the tree reads: powers of two from 64 B */
  double tree_corr[NCCL_NPROTO][24];
  /* 2.2x and 2.12: per GPU generation (rows) and node count 1, 2, more (columns) */
  double ll_max_bw[NCCL_NARCH][3];
  double ring_ll128_bw[NCCL_NARCH][3];
  double tree_ll128_bw[NCCL_NARCH][3];
  double tree_bw[NCCL_NARCH][3];
  /* NVLS (2.2x only). From 2.28 a head's bandwidth times nvlsEfficiency of its generation
   * (0 before: the 5/6 of 2.26), NVLS tree's capped per channel (perChMaxNVLSTreeBws); from
   * 2.29 NVLS tree on Blackwell takes the tree's size correction, nvls_tree_corr entries of
   * it (0: none). */
  double nvls_eff[NCCL_NARCH];
  double nvls_tree_bw[NCCL_NARCH][3];
  int nvls_tree_corr;
  /* The speed steps of NCCL's search a head may get (src/graph/search.cc
   * sm90SpeedArrayIntra/Inter, sm100...), descending, ending in 0: [one node, several nodes]
   * [Hopper, Blackwell]; and the NVLS channels of Blackwell GPUs in one node
   * (src/transport/nvls.cc: NVLS_NCHANNELS_SM100, NVLS_NCHANNELS_SM100_NVL from 2.27). */
  const double *nvls_speeds[2][2];
  int nvls_channels_nvl;
  /* 2.7 only: LL128's cap per channel for allreduce, and the trees' caps */
  double ll128_bw_2_7;
  /* 2.12 only: the bus bandwidth of A100 (compute capability 8.0) at most this */
  double a100_bw_2_12;
} nccl_version;

/* The speed step of v's NVLS search at most bw GB/s (the smallest step where none is), among
 * the steps of one node (several 0) or of several, on GPUs of generation arch. */
double nccl_nvls_step(const nccl_version *v, int arch, int several, double bw);
/* The bwInter NCCL's NVLS search ends with (search.cc ncclTopoCompute, its second pass):
 * from the heads' step `head` up, one step at a time while the last is under twice `head`
 * and the next is at most cap (what a head's NIC carries; INFINITY in one node, where NVLS
 * uses no NIC). */
double nccl_nvls_raised(const nccl_version *v, int arch, int several, double head, double cap);
/* The ring search's graph holds at most MAXCHANNELS / 2 channels (src/init.cc, ringGraph's
 * maxChannels), the kernels twice the graph's. */
#define NCCL_SEARCH_MAX_CHANNELS 16
/* The kernels' channels NCCL opens for a ring on GPUs of generation arch alone in their node,
 * each joined to one NVSwitch by NVLinks of nvlink_bw bytes/s per direction in all (v2.26.2's
 * src/graph/search.cc ncclTopoCompute): it takes NVLink at its own figure
 * (nccl_nvlink_efficiency), tries its speed steps from the fastest, each giving as many
 * channels as fit in that, and keeps the first graph that carries the most, going no slower
 * than half its speed; a graph of 25 GB/s a channel or more is then duplicated at half the
 * speed, except on Hopper and later below 50 GB/s with more than 4 channels
 * (ncclTopoDupChannels), and the kernels run twice the graph's (ncclTopoPostset). 8 A100:
 * 6 x 40 GB/s, 12 x 20, 24 channels; 8 H100: 6 x 60, 12 x 30, 24 (the "24 coll channels" of
 * NCCL's INFO line on AWS p5.48xlarge); 8 H800 (8 NVLinks): 4 x 40, 8 x 20, 16 (NCCL#892). */
int nccl_nvswitch_channels(int arch, double nvlink_bw);
/* A node's kernels' channels: `counted` (topo_graph_channels: twice its NVLinks, at most
 * twice its NICs across nodes), or fewer where the node is an NVSwitch's, whose GPUs of
 * nvlink_bw each NCCL's own search gives fewer (nccl_nvswitch_channels). */
int nccl_node_channels(int counted, int nvswitch, double nvlink_bw);
/* NVLS's channels on generation arch over `nodes` nodes, by v's transport. */
int nccl_nvls_channels_of(const nccl_version *v, int arch, int nodes);

/* The default (a 2.2x release whose model the simulation's constants follow) and the lookup
 * by name: "2.26.2-1" or "2.26.2", "2.7.5-1" or "2.7.5", or a series, "2.30", for the latest
 * release of it known here. NULL for a version without tables. */
const nccl_version *nccl_version_default(void);
const nccl_version *nccl_version_find(const char *name);
/* The known release nearest to the version a log prints ("2.20.5+cuda12.4"): the same
 * series' or the nearest series' (by its second number, then its third); *exact is 1 when it
 * is that very release. NULL when the text holds no version. */
const nccl_version *nccl_version_nearest(const char *text, int *exact);
/* The latest modelled release from `first` to `last` ("2.3.5", "2.12.12": the releases a log's
 * lines date its NCCL to), *inside 1; else the one nearest either end, *inside 0; NULL when
 * they are not versions. */
const nccl_version *nccl_version_between(const char *first, const char *last, int *inside);
/* The modelled releases from `first` to `last`, newest first, at most max into out: how many. */
int nccl_versions_between(const char *first, const char *last, const nccl_version **out, int max);
/* The known versions, newest first, for messages: "2.30.7, ..., 2.26.2 (default), 2.12.12, 2.7.5". */
const char *nccl_version_list(void);

const char *nccl_proto_name(int proto);
const char *nccl_algo_name(int algo);
/* The index NCCL itself gives algorithm `algo` (src/include/device.h: tree 0, ring 1, NVLS
 * 4, NVLS tree 5; CollNet's two are 2 and 3), as its tuner plugins name it. The protocols'
 * indices are NCCL's own. */
int nccl_algo_index(int algo);
/* "LL", "LL128", "Simple" (any case); -1 for anything else. */
int nccl_proto_parse(const char *s);

/* What one call of NCCL's algorithms runs: algorithm and protocol (the values above; -1:
 * the default, NCCL's ring with Simple) and channels (0: every channel laid out). The
 * driver decides it per point (models/cost_nccl.c) and hands it to the runner in its points
 * file as "ring/Simple/12" (nccl_choice_format, nccl_choice_parse). */
typedef struct {
  int algo, proto, channels;
} nccl_choice;

#define NCCL_CHOICE_LEN 24 /* "nvlstree/Simple/64" and its NUL, with room */
void nccl_choice_format(const nccl_choice *c, char *out, size_t len);
/* Returns 0, or SA_EINVAL for text that is not ALGO/PROTO/CHANNELS with channels in
 * 1..NCCL_FORCED_CHANNELS. */
int nccl_choice_parse(const char *text, nccl_choice *out);

/* The geometry of a protocol in an algorithm (src/enqueue.cc calcCollChunking,
 * src/device/prims_*.h): payload bytes of one chunk, slices a chunk is cut into, and how
 * many slices a connection holds in flight. */
uint64_t nccl_chunk_bytes(int algo, int proto);
int nccl_slices_per_chunk(int algo, int proto);
int nccl_slots(int algo, int proto);

/* Bytes on the wire for `bytes` of payload: LL sends 8-byte lines of 4 data bytes and a
 * 4-byte flag each 8-byte word, i.e. 16-byte lines of 8 data bytes; LL128 128-byte lines
 * of 120 data bytes; Simple the payload itself. */
uint64_t nccl_wire_bytes(int proto, uint64_t bytes);

/* Seconds one step of protocol `proto` takes on a hop of class hw beyond what the same hop
 * takes with LL (the transport itself: NCCL's lowest per-hop latency), from the default
 * version's hwLat; and the fixed latency of one collective (NCCL's baseLat), in seconds. */
double nccl_hop_extra_s(int hw, int algo, int proto);

/* The same on hosts of compute properties c: on a GPU's own hops (NVLink, PCIe) ll_lat,
 * ll128_lat or simple_lat where the platform gives it (fitted to a cluster's measurements),
 * else NCCL's; across the network always NCCL's, whose step goes through the proxy thread
 * and the NIC (hwLat's NET row: Simple 14 us against LL's 2.7 on a ring), not the GPU: a fit
 * of a ring at LL128 said nothing of it, and its one figure for every hop had made NVLS
 * tree's Simple steps across nodes 11 us shorter each. */
double nccl_hop_s(const sa_compute *c, int hw, int algo, int proto);

/* What NCCL's model takes a ring's step across nodes to take at least, in us, its proxy's
 * pace (tuning.cc getNetOverhead at v2.26.2): 1 us on an Intel host or one it does not know,
 * 2 us on an AMD host (amd), three times that for Simple (simple). */
double nccl_net_overhead_us(int simple, int amd);

/* Sets c's proxy_lat and proxy_simple_lat to NCCL's figures for a host of AMD's (amd) or
 * Intel's CPUs: what its model takes a ring's step across nodes to take at least, in seconds. */
void nccl_host_proxy(sa_compute *c, int amd);

/* A step's time on a hop beyond its route's latency as NCCL's `algo` runs it over `nodes`
 * nodes: nccl_hop_s, and on a ring that spans nodes at least the network proxy's part of a
 * step (the compute properties proxy_lat, for LL and LL128, and proxy_simple_lat; 0: none).
 * NCCL's own model holds every step of a ring across nodes to its proxy's overhead
 * (src/graph/tuning.cc ncclTopoTuneModel at v2.26.2: "Inter-node rings still have to launch
 * nsteps * net overhead", intraLat = max(intraLat, netOverhead), 1 us on an Intel host, 2 on
 * an AMD one, three times that for Simple): each rank's step waits on its predecessor's, so
 * the proxy's pace, where a step crosses the network, is every step's. Trees are not held to
 * it (NCCL's model neither), nor one node. */
double nccl_step_s(const sa_compute *c, int hw, int algo, int proto, int nodes);
double nccl_launch_s(int algo, int proto);

/* The seconds a ring's connection across nodes holds each slice before its bytes leave, from
 * when the slice is ready and the one before it delivered: its step's share of the proxy's
 * figure (proxy_lat a slice of LL and LL128, proxy_simple_lat over Simple's slices a chunk),
 * paid again at every step. NCCL's model holds each of a ring's 2 (p - 1) steps to its
 * proxy's pace once a call ("Inter-node rings still have to launch nsteps * net overhead",
 * tuning.cc at v2.26.2); the logs pay it at every step of every loop, with the chunks' bytes
 * on top: L08 (4 x 8 H100) about 7 us a step beyond its NICs' time at 512 KiB, 1 MiB and 2
 * MiB chunks alike, L12 (2 x 8 H100, another cluster) about 2 us (docs/nccl.md). As a latency
 * alone the slices in flight hid it. 0 for trees (NCCL's model holds them to none) and where
 * the platform gives no proxy figure. */
double nccl_net_gap_s(const sa_compute *c, int algo, int proto);

/* The seconds a collective of NCCL's `algo` with `proto` takes to start on hosts of compute
 * properties c: NCCL's base latency (for NVLS and NVLS tree, whose base is 0, their NVLink
 * latency: NCCL's whole latency of NVLS on one node, 25 us); where the platform gives
 * launch_lat, that is the start of a ring with LL (NCCL's lightest: its base latency, 6.6 us
 * at v2.26.2, is a launch; one H100 measured 5.83 us a call) and the others start NCCL's own
 * difference from it later (LL128 7.4 us, NVLS tree 18.4): a start fitted to a log of one
 * algorithm carries to the others as NCCL's model says they differ. Taken whole for every
 * algorithm, a ring's fit of L12 started NVLS tree 12 us before L09 shows it (the same cluster),
 * and their two fits put the launch at 40 and 30 us; so, at 19 and 27. */
double nccl_start_s(const sa_compute *c, int algo, int proto);

/* The channels of the search's graph behind kernel_channels of NCCL's kernels: half,
 * as ncclTopoPostset (src/graph/connect.cc) doubles the graph's for the kernels. */
int nccl_graph_channels(int kernel_channels);

/* The rates a GPU of generation arch writes LL's and LL128's lines at, every channel together,
 * where the platform gives none (ll_bw, ll128_bw 0; a fit's figures stay), on one node:
 * NCCL's own ceilings there, from the default release's tuning (src/graph/tuning.cc at
 * v2.26.2, whose tables hold every generation): LL at llMaxBws' one-node bus bandwidth, LL128
 * at perChMaxRingLL128Bws' one-node figure per channel of the ring search's graph
 * (nccl_graph_channels of node_channels), as bytes on the wire (nccl_wire_bytes: LL's twice
 * its data, LL128's 16/15). A ring's bus bandwidth is what each GPU sends a second. With
 * none, a preset's LL128 ran at NVLink's speed: 12 V100 of a DGX-2 26% under NCCL's time at
 * 8 and 16 MiB (tests/data/measured/L05). Across nodes (nodes > 1) the GPU stays free of
 * them, as a fit of a multi-node log leaves it (fit/clustercal.c): the NICs bound there,
 * and charged before each slice's transfer the ceiling would count twice what NCCL measured
 * once (2 x 8 H100 with NCCL_ALGO=Ring, L12: LL128's 290 GB/s at 64 MiB is NCCL's 8 graph
 * channels x 36.7; the ceiling charged on top put it at 220). Simple has no such ceiling: its
 * links bound it. */
void nccl_gpu_protocol_rates(sa_compute *c, int arch, int node_channels, int nodes);

/* Bytes on the wire per second one channel of a GPU of generation arch moves LL's lines at,
 * where measured (Hopper), else 0: a channel is one block of threads writing and polling
 * its lines, whose rate does not grow with the GPU's other channels; nccl_gpu_protocol_rates
 * sets it as ll_channel_bw where the platform gives none, at any node count (each channel's
 * own FIFO work, not a ceiling on the node's traffic the NICs could also bind). */
double nccl_channel_ll_bw(int arch);

/* NCCL's channel count choice for an allreduce of `bytes` (topoGetAlgoInfo in
 * src/enqueue.cc): from `channels` down while each channel would get less than its threads
 * times the protocol's per-thread threshold. */
int nccl_channels_for(int algo, int proto, double bytes, int ranks, int channels, int pcie_only);

#endif
