/* nccl_proto.c: NCCL's protocol geometry and tuning constants (see nccl_proto.h). Every
 * number below is NCCL's, read from github.com/NVIDIA/nccl at the tag named beside it. */
#include "nccl_proto.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/sa_error.h"

/* v2.26.2-1 (commit f44ac759): src/graph/tuning.cc baseLat, hwLat (NVLS and NVLS tree too), llMaxBws,
 * perChMaxRingLL128Bws, perChMaxTreeLL128Bws, perChMaxTreeBws, treeCorrectionFactor. */
static const nccl_version v2_26 = {
    .name = "2.26.2-1",
    .commit = "f44ac759",
    .model = 1,
    .base_lat = {{6.8, 14.0, 8.4}, {6.6, 14.0, 8.4}, {0, 0, 0}, {0, 0, 0}},
    .hw_lat = {{{.6, 1.25, 4.0}, {.6, 1.9, 3.4}, {0, 0, 25}, {0, 0, 25}},
               {{1.0, 1.9, 4.0}, {1.0, 2.5, 5.7}, {0, 0, 0}, {0, 0, 0}},
               {{5.0, 8.5, 14}, {2.7, 4.0, 14.0}, {0, 0, 18}, {0, 0, 14}}},
    .ntree_corr = 23,
    .tree_corr = {{1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0},
                  {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0},
                  {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9}},
    /* single node by GPU generation; across nodes NCCL looks at the CPU instead (Intel row 0,
     * AMD row 1), cost_nccl.c takes row 0 there */
    .ll_max_bw = {{39.0, 39.0, 20.4}, {87.7, 22.5, 19.0}, {141.0, 45.0, 35.0}, {2 * 141.0, 2 * 45.0, 2 * 35.0}},
    .ring_ll128_bw = {{20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 36.7}, {2 * 36.7, 2 * 36.7, 2 * 36.7}},
    .tree_ll128_bw = {{20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 29.0}, {2 * 36.7, 2 * 36.7, 2 * 29.0}},
    .tree_bw = {{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {38.7, 41.4, 36.0}, {2 * 38.7, 2 * 41.4, 2 * 36.0}},
};

/* v2.7.5-1 (commit 01afd20a), the V100-era release (no NVLS): src/graph/tuning.cc baseLat, hwLat,
 * ll128MaxBwPerCh[ncclCollAllReduce], treeCorrectionFactor. */
static const nccl_version v2_7 = {
    .name = "2.7.5-1",
    .commit = "01afd20a",
    .model = 0,
    .base_lat = {{4.4, 4.4, 0}, {3.6, 10.0, 8.4}},
    .hw_lat = {{{.52, 1.2, 28}, {.47, 1.9, 3.4}},
               {{1.0, 1.9, 28}, {1.0, 2.5, 5.7}},
               {{5.0, 8.5, 50}, {2.7, 4.0, 9.6}}},
    .ntree_corr = 22,
    .tree_corr = {{1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0},
                  {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .5, .6, .6, .7, .7, .8, .9, .9, 1.0},
                  {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .5, .5, .6, .6, .7, .8, .9}},
    .ll128_bw_2_7 = 16.7,
};

static const nccl_version *const versions[] = {&v2_26, &v2_7};

const nccl_version *nccl_version_default(void) { return &v2_26; }

const nccl_version *nccl_version_find(const char *name)
{
  size_t n = name ? strlen(name) : 0;
  for (size_t i = 0; n && i < sizeof versions / sizeof versions[0]; i++) {
    const char *v = versions[i]->name; /* "X.Y.Z-R": the release suffix may be left out */
    if (strcmp(v, name) == 0 || (strncmp(v, name, n) == 0 && v[n] == '-'))
      return versions[i];
  }
  return NULL;
}

const char *nccl_version_list(void) { return "2.26.2 (default), 2.7.5"; }

const char *nccl_proto_name(int proto)
{
  static const char *const names[] = {"LL", "LL128", "Simple"};
  return proto >= 0 && proto < NCCL_NPROTO ? names[proto] : "?";
}

static const char *const algo_names[NCCL_NALGO] = {"tree", "ring", "nvls", "nvlstree"};

const char *nccl_algo_name(int algo) { return algo >= 0 && algo < NCCL_NALGO ? algo_names[algo] : "?"; }

int nccl_algo_index(int algo)
{
  static const int index[NCCL_NALGO] = {0, 1, 4, 5};
  return algo >= 0 && algo < NCCL_NALGO ? index[algo] : -1;
}

int nccl_proto_parse(const char *s)
{
  for (int p = 0; s && p < NCCL_NPROTO; p++)
    if (strcasecmp(s, nccl_proto_name(p)) == 0)
      return p;
  return -1;
}

void nccl_choice_format(const nccl_choice *c, char *out, size_t len)
{
  snprintf(out, len, "%s/%s/%d", nccl_algo_name(c->algo), nccl_proto_name(c->proto), c->channels);
}

int nccl_choice_parse(const char *text, nccl_choice *out)
{
  char algo[12], proto[8], tail;
  int ch;
  if (sscanf(text, "%11[a-z]/%7[A-Za-z0-9]/%d%c", algo, proto, &ch, &tail) != 3 || ch < 1 || ch > NCCL_FORCED_CHANNELS)
    return SA_EINVAL;
  out->algo = -1;
  for (int a = 0; a < NCCL_NALGO; a++)
    if (strcmp(algo, algo_names[a]) == 0)
      out->algo = a;
  out->proto = nccl_proto_parse(proto);
  out->channels = ch;
  return out->algo >= 0 && out->proto >= 0 ? 0 : SA_EINVAL;
}

/* Connection buffers (src/init.cc, DEFAULT_*_BUFFSIZE): LL 8 lines x 512 threads x 8 steps
 * of 16-byte lines; LL128 120 8-byte elements x 640 threads x 8 steps; Simple 4 MiB. A step
 * is an eighth (NCCL_STEPS). */
#define LL_STEP_BYTES (8 * 512 * 16)
#define LL128_STEP_BYTES (120 * 640 * 8)
#define SIMPLE_STEP_BYTES ((4 << 20) / NCCL_STEPS)
/* The ring's Simple protocol moves chunks of ALLREDUCE_CHUNKSTEPS = 4 steps in slices of
 * ALLREDUCE_SLICESTEPS = 2 (src/include/collectives.h); every other case one step each. */
#define RING_CHUNK_STEPS (NCCL_STEPS / 2)
#define RING_SLICE_STEPS (NCCL_STEPS / 4)

uint64_t nccl_chunk_bytes(int algo, int proto)
{
  switch (proto) {
  case NCCL_PROTO_LL: return LL_STEP_BYTES / 2;             /* half of each line is flags */
  case NCCL_PROTO_LL128: return LL128_STEP_BYTES / 16 * 15; /* 15 of every 16 words are data */
  default: return (uint64_t)SIMPLE_STEP_BYTES * (algo == NCCL_ALGO_RING ? RING_CHUNK_STEPS : 1);
  }
}

int nccl_slices_per_chunk(int algo, int proto)
{
  return algo == NCCL_ALGO_RING && proto == NCCL_PROTO_SIMPLE ? RING_CHUNK_STEPS / RING_SLICE_STEPS : 1;
}

int nccl_nvls_channels(int arch) { return arch >= NCCL_ARCH_BLACKWELL ? 32 : 16; }

uint64_t nccl_nvls_chunk(int algo, double bytes, int channels, int heads, int nodes)
{
  double ops = (double)channels * heads; /* concurrentOps */
  uint64_t chunk = 128 << 10;             /* nvlsChunkSize */
  if (algo == NCCL_ALGO_NVLS_TREE) {
    if (nodes >= 4)
      chunk = 64 << 10; /* NCCL_NVLSTREE_MAX_CHUNKSIZE's default */
    const struct { double times; uint64_t above; } rules[] = {{4, 65536}, {1, 32768}};
    for (int i = 0; i < 2; i++)
      if (bytes < rules[i].times * ops * (double)chunk && chunk > rules[i].above)
        chunk = rules[i].above;
    return chunk;
  }
  const struct { double times; uint64_t above; } rules[] = {{64, 65536}, {8, 32768}, {2, 16384}};
  for (int i = 0; i < 3; i++)
    if (bytes < rules[i].times * ops * (double)chunk && chunk > rules[i].above)
      chunk = rules[i].above;
  return chunk;
}

double nccl_nvls_head_bw(int arch, double port_bw, int n)
{
  static const double sm90[] = {60.0, 50.0, 40.0, 30.0, 24.0, 20.0, 15.0, 12.0, 11.0, 6.0, 3.0};
  static const double sm100[] = {90.0, 80.0, 70.0, 60.0, 50.0, 40.0, 30.0, 24.0, 20.0, 19.0};
  const double *speed = arch >= NCCL_ARCH_BLACKWELL ? sm100 : sm90;
  int ns = arch >= NCCL_ARCH_BLACKWELL ? (int)(sizeof sm100 / sizeof *sm100) : (int)(sizeof sm90 / sizeof *sm90), i = 0;
  while (i < ns - 1 && speed[i] > port_bw / (n + 1))
    i++;
  return speed[i];
}

double nccl_nvls_wire_scale(int n, int arch, double port_bw)
{
  double x = n < 2 ? 1 : port_bw / 1e9 / (2.0 * (n - 1) * nccl_nvls_head_bw(arch, port_bw / 1e9, n) * 5.0 / 6.0);
  return round(x * 1e6) / 1e6; /* in millionths, as the runner hands it to its ranks */
}

int nccl_slots(int algo, int proto)
{
  return algo == NCCL_ALGO_RING && proto == NCCL_PROTO_SIMPLE ? NCCL_STEPS / RING_SLICE_STEPS : NCCL_STEPS;
}

uint64_t nccl_wire_bytes(int proto, uint64_t bytes)
{
  if (proto == NCCL_PROTO_LL)
    return (bytes + 7) / 8 * 16;
  if (proto == NCCL_PROTO_LL128)
    return (bytes + 119) / 120 * 128;
  return bytes;
}

double nccl_hop_extra_s(int hw, int algo, int proto)
{
  const nccl_version *v = nccl_version_default();
  /* NVLS's NVLink figure is its whole latency, the start (nccl_launch_s); its tree's network
   * figure is per hop, beyond the tree's own LL one */
  if (algo == NCCL_ALGO_NVLS || algo == NCCL_ALGO_NVLS_TREE)
    return hw == NCCL_HW_NET ? 1e-6 * (v->hw_lat[hw][algo][proto] - v->hw_lat[hw][NCCL_ALGO_TREE][NCCL_PROTO_LL]) : 0;
  return 1e-6 * (v->hw_lat[hw][algo][proto] - v->hw_lat[hw][algo][NCCL_PROTO_LL]);
}

int nccl_arch_of(double nvlink_bw)
{
  return nvlink_bw < 225e9 ? NCCL_ARCH_VOLTA : nvlink_bw < 375e9 ? NCCL_ARCH_AMPERE
         : nvlink_bw < 675e9 ? NCCL_ARCH_HOPPER : NCCL_ARCH_BLACKWELL;
}

double nccl_nvlink_efficiency(int arch)
{
  static const double per_link[NCCL_NARCH] = {20.0 / 25, 20.0 / 25, 20.6 / 25, 40.1 / 50};
  return per_link[arch < 0 ? 0 : arch >= NCCL_NARCH ? NCCL_NARCH - 1 : arch];
}

double nccl_launch_s(int algo, int proto)
{
  const nccl_version *v = nccl_version_default();
  if (algo == NCCL_ALGO_NVLS || algo == NCCL_ALGO_NVLS_TREE)
    return 1e-6 * v->hw_lat[NCCL_HW_NVLINK][algo][proto];
  return 1e-6 * v->base_lat[algo][proto];
}

double nccl_hop_s(const sa_compute *c, int hw, int algo, int proto)
{
  double v = proto == NCCL_PROTO_LL128 ? c->ll128_lat : proto == NCCL_PROTO_SIMPLE ? c->simple_lat : 0;
  return v > 0 ? v : nccl_hop_extra_s(hw, algo, proto);
}

double nccl_start_s(const sa_compute *c, int algo, int proto)
{
  return c->launch_lat > 0 ? c->launch_lat : nccl_launch_s(algo, proto);
}

/* Threads per channel (src/graph/tuning.cc maxThreads: NCCL_SIMPLE_MAX_NTHREADS 512, or 256
 * for a ring on PCIe-class links; LL 512; LL128 640) and bytes per thread below which a
 * channel is dropped (src/include/comm.h: LL and LL128 8, the ring's LL times the ranks,
 * Simple 64). */
int nccl_channels_for(int algo, int proto, double bytes, int ranks, int channels, int pcie_only)
{
  int nt = proto == NCCL_PROTO_LL128 ? 640 : proto == NCCL_PROTO_SIMPLE && algo == NCCL_ALGO_RING && pcie_only ? 256 : 512;
  double thr = proto == NCCL_PROTO_SIMPLE ? 64 : 8;
  if (proto == NCCL_PROTO_LL && algo == NCCL_ALGO_RING)
    thr *= ranks;
  int nc = channels < 1 ? 1 : channels;
  while (nc > 1 && bytes < (double)nc * nt * thr)
    nc--;
  return nc;
}

