/* cost_nccl.c: NCCL's tuning model for allreduce (see cost_nccl.h), rewritten from the
 * description of src/graph/tuning.cc and src/enqueue.cc of each version; the constants are
 * NCCL's (nccl/nccl_proto.c), in microseconds and GB/s. */
#include "cost_nccl.h"

#include <math.h>

/* floor(log2(n)), 0 for n < 2, as the 2.7 tuner's log2i. */
static int log2i(double n)
{
  int l = 0;
  for (; n >= 2; n /= 2)
    l++;
  return l;
}

const char *cost_nccl_proto_name(int proto) { return nccl_proto_name(proto); }

static const nccl_version *version_of(const cost_nccl_shape *s)
{
  return s->version ? s->version : nccl_version_default();
}

/* The row of NCCL's per-generation tables. */
static int arch_row(const cost_nccl_shape *s)
{
  return s->arch < 0 ? 0 : s->arch >= NCCL_NARCH ? NCCL_NARCH - 1 : s->arch;
}

/* NCCL's channels times their speed (GB/s): what a ring through the nodes can carry. */
static double channels_bw(const cost_nccl_shape *s)
{
  return (s->nodes > 1 && s->inter_bw < s->intra_bw ? s->inter_bw : s->intra_bw) / 1e9;
}

/* The channels of NCCL's search graph, which its per-channel caps multiply
 * (graphs[a]->nChannels in ncclTopoTuneModel, src/graph/tuning.cc of v2.7.5, v2.12.12 and
 * v2.26.2): half the kernels' channels counted here (s->channels), which ncclTopoPostset
 * (src/graph/connect.cc) makes by doubling the graph's, at most MAXCHANNELS ("execution
 * channels are typically 2x the search channels": S. Jeaugey, NVIDIA/nccl#1041). */
static int graph_channels(const cost_nccl_shape *s) { return nccl_graph_channels(s->channels); }

/* v2.7.5: bus bandwidth of algorithm a with protocol p, before the conversion to algbw. */
static double bus_bw_2_7(const cost_nccl_shape *s, const nccl_version *v, int a, int p)
{
  double bw = channels_bw(s), ppn = (double)s->ranks / s->nodes, ll128_cap = v->ll128_bw_2_7 * graph_channels(s);
  if (a == COST_NCCL_RING) {
    if (p == COST_NCCL_LL)
      bw *= 1.0 / 4.0;
    if (p == COST_NCCL_LL128)
      bw = fmin(bw * (ppn < 2 ? 0.7 : 0.92), ll128_cap);
    return bw;
  }
  bw = fmin(bw * 0.9, s->nodes > 2 ? 80.0 : 110.0);
  if (p == COST_NCCL_LL)
    bw *= 1.0 / 3.8;
  if (p == COST_NCCL_LL128)
    bw = fmin(bw * (s->nodes == 1 ? 7.0 / 9.0 : 0.915), ll128_cap * 7.0 / 9.0);
  return bw;
}

/* v2.7.5's latency and time of algorithm a with protocol p (us), NaN when off. */
static double time_2_7(const cost_nccl_shape *s, const nccl_version *v, int a, int p, double bytes)
{
  int nsteps = 2 * (s->ranks - 1), inter_steps = 2 * (s->nodes - 1), intra_hw = s->nvlink ? NCCL_HW_NVLINK : NCCL_HW_PCI;
  double bw = bus_bw_2_7(s, v, a, p) * (a == COST_NCCL_RING ? (double)s->ranks / nsteps : 0.5);
  double intra_lat = v->hw_lat[intra_hw][a][p] * (s->nodes > 1 && p == COST_NCCL_LL ? 1.8 : 1.0);
  double inter_lat = v->hw_lat[NCCL_HW_NET][a][p], lat = v->base_lat[a][p];
  if (a == COST_NCCL_RING)
    lat += (nsteps - inter_steps) * intra_lat + inter_steps * inter_lat;
  else
    lat += 2 * ((s->ranks / s->nodes - 1) * intra_lat + log2i(s->nodes) * inter_lat);
  int log_size = log2i(floor(bytes / 64));
  if (a == COST_NCCL_TREE && log_size < v->ntree_corr)
    bw *= v->tree_corr[p][log_size];
  /* NCCL's "plateau" of multi-node Simple rings */
  if (a == COST_NCCL_RING && p == COST_NCCL_SIMPLE && s->nodes > 1 && bytes >= s->ranks / 16.0 * 65536)
    lat *= 1.9;
  return bw > 0 ? lat + bytes / (1000 * bw) : NAN;
}

/* From 2.8: the bus bandwidth bw of algorithm a with protocol p under the caps per channel of
 * the GPU's generation and the node count (tuning.cc's llMaxBw, ll128 and tree caps), the
 * ring's LL taking `ring_ll` of the links (1/4 to 2.12, 1/2 in 2.2x) and LL128 `ring_ll128`. */
static double caps_2_8(const cost_nccl_shape *s, const nccl_version *v, int a, int p, double bw, double ll_max,
                       double ring_ll, double ring_ll128)
{
  int arch = arch_row(s), col = s->nodes <= 2 ? s->nodes - 1 : 2, nch = graph_channels(s);
  if (a == COST_NCCL_RING)
    return p == COST_NCCL_LL      ? fmin(ll_max, bw * ring_ll)
           : p == COST_NCCL_LL128 ? fmin(bw * ring_ll128, nch * v->ring_ll128_bw[arch][col])
                                  : bw;
  bw = fmin(bw * .92, nch * v->tree_bw[arch][col]);
  return p == COST_NCCL_LL ? fmin(bw / 3.8, ll_max)
         : p == COST_NCCL_LL128
             ? fmin(bw * (s->nodes == 1 ? 7.0 / 9.0 : 120.0 / 128.0), nch * v->tree_ll128_bw[arch][col])
             : bw;
}

/* The tree's algorithm bandwidth bw at `bytes` times NCCL's size correction
 * (treeCorrectionFactor, powers of two from 64 B). */
static double tree_corrected(const nccl_version *v, int a, int p, double bw, double bytes)
{
  double q = floor(bytes / 64);
  int log_size = q < 1 ? -1 : log2i(q);
  return a == COST_NCCL_TREE && log_size >= 0 && log_size < v->ntree_corr ? bw * v->tree_corr[p][log_size] : bw;
}

/* v2.12.12: the 2.7 formulas with 2.8's per-generation caps (src/graph/tuning.cc
 * ncclTopoTuneModel and ncclTopoGetAlgoTime of v2.12.12): an A100's bus bandwidth at most 235
 * GB/s, the ring's LL at most llMaxBw, LL128 at most 20 GB/s a channel, the tree at most
 * perChMaxTreeBw a channel; 2 x nodes network steps in a multi-node ring (as NCCL counts
 * them), the multi-node Simple ring's "plateau" x 1.9. The rows: Ampere's for compute
 * capability 8.0 (the model's Ampere), Volta's for the rest; llMaxBw across nodes by the
 * host's CPU, an Intel host's (row 0) taken. */
static double time_2_12(const cost_nccl_shape *s, const nccl_version *v, int a, int p, double bytes)
{
  int arch = arch_row(s), col = s->nodes <= 2 ? s->nodes - 1 : 2;
  int nsteps = 2 * (s->ranks - 1), intra_hw = s->nvlink ? NCCL_HW_NVLINK : NCCL_HW_PCI;
  double ppn = (double)s->ranks / s->nodes, bw = channels_bw(s), ll_max = v->ll_max_bw[s->nodes == 1 ? arch : 0][col];
  if (arch == NCCL_ARCH_AMPERE)
    bw = fmin(bw, v->a100_bw_2_12);
  bw = caps_2_8(s, v, a, p, bw, ll_max, 1.0 / 4.0, ppn < 2 ? 0.7 : 0.92);
  bw *= a == COST_NCCL_RING ? (double)s->ranks / nsteps : 0.5;
  double intra_lat = v->hw_lat[intra_hw][a][p] * (s->nodes > 1 && p == COST_NCCL_LL ? 1.8 : 1.0);
  double inter_lat = v->hw_lat[NCCL_HW_NET][a][p], lat = v->base_lat[a][p];
  if (a == COST_NCCL_RING) {
    int inter_steps = s->nodes > 1 ? 2 * s->nodes : 0;
    lat += (nsteps - inter_steps) * intra_lat + inter_steps * inter_lat;
  } else {
    lat += 2 * ((s->ranks / s->nodes - 1) * intra_lat + log2i(s->nodes) * inter_lat);
  }
  bw = tree_corrected(v, a, p, bw, bytes);
  if (a == COST_NCCL_RING && p == COST_NCCL_SIMPLE && s->nodes > 1 && bytes >= s->ranks / 16.0 * 65536)
    lat *= 1.9;
  return bw > 0 ? lat + bytes / (1000 * bw) : NAN;
}

/* v2.2x: the same for the current tuner (src/graph/tuning.cc ncclTopoTuneModel and
 * ncclTopoGetAlgoTime of v2.26.2): per-channel caps by GPU generation and node count, the
 * network overhead of multi-node rings (1 us per step, 3 for Simple: an Intel host), the
 * tree's network latency used for rings with one GPU per node, the tree 15% slower there. */
static double time_2_2x(const cost_nccl_shape *s, const nccl_version *v, int a, int p, double bytes)
{
  int arch = arch_row(s);
  int col = s->nodes <= 2 ? s->nodes - 1 : 2, row = s->nodes == 1 ? arch : 0; /* LL: an Intel host across nodes */
  int nsteps = 2 * (s->ranks - 1), intra_hw = s->nvlink ? NCCL_HW_NVLINK : NCCL_HW_PCI, nch = s->channels;
  double ppn = (double)s->ranks / s->nodes, bw = channels_bw(s), ll_max = v->ll_max_bw[row][col];
  bw = caps_2_8(s, v, a, p, bw, ll_max, .5, 0.92);
  /* with one GPU a node NCCL's tree search takes its simple pattern (search.cc: ngpus == 1),
   * and the tuning then takes 15% off the tree (maxTreePattern == NCCL_TOPO_PATTERN_TREE) */
  if (a == COST_NCCL_TREE && ppn == 1)
    bw *= .85;
  bw *= a == COST_NCCL_RING ? (double)s->ranks / nsteps : 0.5;
  double lat = v->base_lat[a][p], intra_lat = v->hw_lat[intra_hw][a][p];
  double inter_lat = v->hw_lat[NCCL_HW_NET][ppn == 1 ? COST_NCCL_TREE : a][p];
  if (a == COST_NCCL_RING) {
    double net_overhead = s->nodes > 1 ? nccl_net_overhead_us(p == COST_NCCL_SIMPLE, 0) : 0;
    int inter_steps = s->nodes == 1 ? 0 : 2 * (s->nodes - 1);
    lat += (nsteps - inter_steps) * fmax(intra_lat, net_overhead) + inter_steps * inter_lat;
  } else {
    lat += 2 * ((s->ranks / s->nodes - 1) * intra_lat + log2i(s->nodes) * inter_lat);
  }
  bw = tree_corrected(v, a, p, bw, bytes);
  if (a == COST_NCCL_RING && p == COST_NCCL_SIMPLE && s->nodes > 1 && bytes / ((double)nch * s->ranks) >= 64)
    lat *= arch < NCCL_ARCH_AMPERE ? 1.9 : 1.4; /* NCCL's "plateau" of multi-node rings */
  return bw > 0 ? lat + bytes / (1000 * bw) : NAN;
}

/* 2.26 and 2.27: NCCL's NVLS search gives each of a node's n GPUs (heads) the bandwidth its
 * port allows with n heads pulling through it and its own twice (search.cc
 * ncclTopoSearchTryNvls, nccl_nvls_step; here the one-node steps across nodes too: NCCL's
 * multi-node steps give Hopper the same 40 GB/s); across nodes each head a node's NICs'
 * share, halved for a tree over more than 2 nodes; bus bandwidth heads x that, times 5/6 for
 * the algorithm bandwidth (tuning.cc ncclTopoTuneModel, v2.26.2). */
static double nvls_bw_2_26(const cost_nccl_shape *s, const nccl_version *v, int a, int heads)
{
  double intra = nccl_nvls_step(v, s->arch, 0, s->nvls_bw / 1e9 / (heads + 1)), inter = s->inter_bw / 1e9 / heads;
  double bw = a == NCCL_ALGO_NVLS ? intra : fmin(intra, s->nodes <= 2 ? inter : inter / 2);
  return bw * (heads * 5.0 / 6.0);
}

/* 2.28 on (tuning.cc ncclTopoTuneModel): a head moves its search bandwidth times its
 * generation's nvlsEfficiency times (n - 1) / n, twice over for allreduce (its reduce and its
 * broadcast pipeline), at most the graph's bwInter (doubled for a tree over 2 nodes) and, for
 * NVLS tree, perChMaxNVLSTreeBws; bus bandwidth heads x that, converted to algorithm
 * bandwidth as a ring's, ranks / (2 (ranks - 1)). The heads' step is the largest both their
 * ports and (across nodes) their NICs carry, from the search's steps of one node or of several;
 * bwInter the step the search's second pass raises it to (nccl_nvls_raised), capped across
 * nodes by a head's share of its node's NICs. */
static double nvls_bw_2_28(const cost_nccl_shape *s, const nccl_version *v, int a, int heads)
{
  int arch = arch_row(s), several = s->nodes > 1, col = s->nodes <= 2 ? s->nodes - 1 : 2;
  double nic = several ? s->inter_bw / 1e9 / heads : INFINITY;
  double head = nccl_nvls_step(v, arch, several, fmin(s->nvls_bw / 1e9 / (heads + 1), nic));
  double inter = nccl_nvls_raised(v, arch, several, head, nic);
  double bw = fmin(head * v->nvls_eff[arch] * (heads - 1) / heads * 2,
                   a == NCCL_ALGO_NVLS_TREE && s->nodes <= 2 ? 2 * inter : inter);
  if (a == NCCL_ALGO_NVLS_TREE)
    bw = fmin(bw, v->nvls_tree_bw[arch][col]);
  return heads * bw * s->ranks / (2.0 * (s->ranks - 1));
}

/* v2.2x's NVLS (one node) and NVLS tree (several): Simple only, at most NCCL_NVLS_MAX_HEADS
 * GPUs a node. Latency: the NVLink figure, and for the tree 2 log2(nodes) network ones; from
 * 2.29 NVLS tree on Blackwell takes the tree's size correction (ncclTopoGetAlgoTime, on x86
 * hosts, as the ring's network overhead here assumes). */
static double time_nvls(const cost_nccl_shape *s, const nccl_version *v, int a, int p, double bytes)
{
  int heads = s->ranks / s->nodes;
  if (v->model != 1 || p != COST_NCCL_SIMPLE || s->nvls_bw <= 0 || heads < 2 || heads > NCCL_NVLS_MAX_HEADS ||
      (a == NCCL_ALGO_NVLS) != (s->nodes == 1))
    return NAN;
  double bw = v->nvls_eff[arch_row(s)] > 0 ? nvls_bw_2_28(s, v, a, heads) : nvls_bw_2_26(s, v, a, heads);
  double lat = v->base_lat[a][p] + v->hw_lat[NCCL_HW_NVLINK][a][p];
  if (a == NCCL_ALGO_NVLS_TREE)
    lat += 2 * log2i(s->nodes) * v->hw_lat[NCCL_HW_NET][a][p];
  double q = floor(bytes / 64);
  int log_size = q < 1 ? -1 : log2i(q);
  if (a == NCCL_ALGO_NVLS_TREE && s->arch >= NCCL_ARCH_BLACKWELL && log_size >= 0 && log_size < v->nvls_tree_corr)
    bw *= v->tree_corr[p][log_size];
  return bw > 0 ? lat + bytes / (1000 * bw) : NAN;
}

/* Seconds; NaN where NCCL keeps the protocol off by default (unless forced): LL128 runs only
 * over NVLink, and across nodes only with the NIC next to the GPU; in 2.12, on Volta and
 * Ampere alone (tuning.cc: compute capability 7.0 or 8.0). */
static double algo_time(const cost_nccl_shape *s, int a, int p, double bytes, int forced)
{
  const nccl_version *v = version_of(s);
  if (a == NCCL_ALGO_NVLS || a == NCCL_ALGO_NVLS_TREE)
    return 1e-6 * time_nvls(s, v, a, p, bytes);
  if (!forced && p == COST_NCCL_LL128 && !(s->nvlink && (s->nodes == 1 || s->ll128_net)))
    return NAN;
  if (!forced && p == COST_NCCL_LL128 && v->model == 2 && arch_row(s) > NCCL_ARCH_AMPERE)
    return NAN;
  return 1e-6 * (v->model == 1   ? time_2_2x(s, v, a, p, bytes)
                 : v->model == 2 ? time_2_12(s, v, a, p, bytes)
                                 : time_2_7(s, v, a, p, bytes));
}

void cost_nccl_predict(const cost_nccl_shape *s, double bytes, cost_nccl_pred *out)
{
  out->ring_s = out->tree_s = out->nvls_s = NAN;
  out->ring_proto = out->tree_proto = -1;
  for (int a = 0; a < COST_NCCL_NALGO; a++)
    for (int p = 0; p < COST_NCCL_NPROTO; p++)
      out->time_s[a][p] = NAN;
  if (s->ranks < 2 || s->nodes < 1 || !(s->intra_bw > 0 || s->nodes > 1) || s->channels < 1)
    return;
  for (int a = 0; a < COST_NCCL_NALGO; a++)
    for (int p = 0; p < COST_NCCL_NPROTO; p++) {
      double t = out->time_s[a][p] = algo_time(s, a, p, bytes, 0);
      if (a != COST_NCCL_RING && a != COST_NCCL_TREE) {
        out->nvls_s = isnan(t) ? out->nvls_s : t; /* one of the two, on one node or several */
        continue;
      }
      double *best = a == COST_NCCL_RING ? &out->ring_s : &out->tree_s;
      int *proto = a == COST_NCCL_RING ? &out->ring_proto : &out->tree_proto;
      if (!isnan(t) && (isnan(*best) || t < *best)) {
        *best = t;
        *proto = p;
      }
    }
}

/* NCCL gives rings on PCIe-class links 256 threads (tuning.cc: bwIntra x nChannels <=
 * PCI_BW, 12 GB/s). */
#define PCI_BW 12e9

/* the first of a set (0: every one), for a choice that has none to run */
static int first_of(unsigned set, int dflt)
{
  for (int i = 0; set && i < 32; i++)
    if (set & NCCL_BIT(i))
      return i;
  return dflt;
}

void cost_nccl_choose(const cost_nccl_shape *s, double bytes, unsigned algos, unsigned protos, int channels,
                      cost_nccl_choice *out)
{
  cost_nccl_pred pred;
  cost_nccl_predict(s, bytes, &pred);
  *out = (cost_nccl_choice){first_of(algos, COST_NCCL_RING), first_of(protos, COST_NCCL_SIMPLE), 1, NAN};
  for (int a = 0; a < COST_NCCL_NALGO; a++)
    for (int p = 0; p < COST_NCCL_NPROTO; p++) {
      double t = pred.time_s[a][p];
      if ((algos && !(algos & NCCL_BIT(a))) || (protos && !(protos & NCCL_BIT(p))))
        continue;
      if (protos && s->ranks > 1)
        t = algo_time(s, a, p, bytes, 1);
      if (!isnan(t) && (isnan(out->time_s) || t < out->time_s))
        *out = (cost_nccl_choice){a, p, 1, t};
    }
  int nch = s->channels > 0 ? s->channels : 1;
  if (out->algo == NCCL_ALGO_NVLS || out->algo == NCCL_ALGO_NVLS_TREE)
    out->channels = channels > 0 ? channels : nccl_nvls_channels_of(version_of(s), s->arch, s->nodes);
  else
    out->channels = channels > 0 ? channels : nccl_channels_for(out->algo, out->proto, bytes, s->ranks, nch, s->intra_bw <= PCI_BW);
}
