/* nccl_proto.c: NCCL's protocol geometry and tuning constants (see nccl_proto.h). Every
 * number below is NCCL's, read from github.com/NVIDIA/nccl at the tag named beside it. */
#include "nccl_proto.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/sa_error.h"

/* What tuning.cc kept from 2.26.2 to 2.30.7 (the tags below): baseLat (baseLatencies from
 * 2.28, which adds PAT's, left out); hwLat by link, algorithm and protocol, the NVLS tree's
 * network figure 14 us until 2.27, 20.9 from 2.28; treeCorrectionFactor over 23 powers of two
 * from 64 B, 24 from 2.29 (its last column is NVLS tree's only); and the rows of the
 * per-generation caps for Volta, Ampere and Hopper, Blackwell's row given. */
#define BASE_LAT_2_2X {{6.8, 14.0, 8.4}, {6.6, 14.0, 8.4}, {0, 0, 0}, {0, 0, 0}}
#define HW_LAT_2_2X(nvls_tree_net)                                                                                     \
  {{{.6, 1.25, 4.0}, {.6, 1.9, 3.4}, {0, 0, 25}, {0, 0, 25}},                                                          \
   {{1.0, 1.9, 4.0}, {1.0, 2.5, 5.7}, {0, 0, 0}, {0, 0, 0}},                                                           \
   {{5.0, 8.5, 14}, {2.7, 4.0, 14.0}, {0, 0, 18}, {0, 0, nvls_tree_net}}}
#define TREE_CORR_2_2X(ll, ll128, simple)                                                                              \
  {{1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0, ll},           \
   {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0, ll128},        \
   {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9, simple}}
/* llMaxBws: single node by GPU generation; across nodes NCCL looks at the CPU instead (Intel
 * row 0, AMD row 1), cost_nccl.c takes row 0 there */
#define LL_MAX_BW_2_2X {{39.0, 39.0, 20.4}, {87.7, 22.5, 19.0}, {141.0, 45.0, 35.0}, {2 * 141.0, 2 * 45.0, 2 * 35.0}}
#define RING_LL128_BW(n1, n2, n4) {{20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 36.7}, {n1, n2, n4}}
#define TREE_LL128_BW(n1, n2, n4) {{20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 29.0}, {n1, n2, n4}}
#define TREE_BW(n1, n2, n4) {{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {38.7, 41.4, 36.0}, {n1, n2, n4}}
/* 2.28 on: perChMaxNVLSTreeBws (NCCL fills Volta's and Ampere's rows, where NVLS never runs)
 * and nvlsEfficiency (Volta, Ampere 0; Hopper .85, Blackwell .74) */
#define NVLS_TREE_BW(n2, n4) {{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {0.0, 57.7, 45.5}, {0.0, n2, n4}}
#define NVLS_EFF_2_28 {0, 0, .85, .74}

/* src/graph/search.cc's speed steps: Hopper's the same from 2.26.2 to 2.30.7 (and 2.26.2's
 * Blackwell steps across nodes the same as Hopper's); Blackwell's grew
 * (one node: 18 from 2.27, 45 from 2.29; several: 96 and 45.1 in place of 45 from 2.27, 80
 * from 2.29, 86 from 2.30) */
static const double sm90_intra[] = {60.0, 50.0, 40.0, 30.0, 24.0, 20.0, 15.0, 12.0, 11.0, 6.0, 3.0, 0};
static const double sm90_inter[] = {48.0, 45.0, 42.0, 40.0, 30.0, 24.0, 22.0, 20.0, 17.5,
                                    15.0, 12.0, 6.0,  3.0,  2.4,  1.2,  0.24, 0.12, 0};
static const double sm100_intra_2_26[] = {90.0, 80.0, 70.0, 60.0, 50.0, 40.0, 30.0, 24.0, 20.0, 19.0, 0};
static const double sm100_intra_2_27[] = {90.0, 80.0, 70.0, 60.0, 50.0, 40.0, 30.0, 24.0, 20.0, 19.0, 18.0, 0};
static const double sm100_inter_2_27[] = {96.0, 48.0, 45.1, 42.0, 40.0, 30.0, 24.0, 22.0, 20.0, 17.5,
                                          15.0, 12.0, 6.0,  3.0,  2.4,  1.2,  0.24, 0.12, 0};
static const double sm100_intra_2_29[] = {90.0, 80.0, 70.0, 60.0, 50.0, 45.0, 40.0, 30.0, 24.0, 20.0, 19.0, 18.0, 0};
static const double sm100_inter_2_29[] = {96.0, 80.0, 48.0, 45.1, 42.0, 40.0, 30.0, 24.0, 22.0, 20.0,
                                          17.5, 15.0, 12.0, 6.0,  3.0,  2.4,  1.2,  0.24, 0.12, 0};
static const double sm100_inter_2_30[] = {96.0, 86.0, 80.0, 48.0, 45.1, 42.0, 40.0, 30.0, 24.0, 22.0,
                                          20.0, 17.5, 15.0, 12.0, 6.0,  3.0,  2.4,  1.2,  0.24, 0.12, 0};

/* The model of 2.26.2 to 2.30.7, a release's latency of NVLS tree across nodes given; 2.26.2's
 * and 2.27.7's Blackwell rows (Hopper's doubled) and 23 powers of two of treeCorrectionFactor
 * (the 24th, 2.29's, 0: none); from 2.28 Blackwell's rows of its own, nvlsEfficiency and
 * NVLS_NCHANNELS_SM100_NVL (2.27 on), from 2.29 Blackwell's ring LL128 cap 40 and the
 * correction's 24th power of two for NVLS tree. */
#define TUNING_2_2X(nvls_tree_net)                                                                                     \
  .model = 1, .base_lat = BASE_LAT_2_2X, .hw_lat = HW_LAT_2_2X(nvls_tree_net), .ntree_corr = 23,                       \
  .ll_max_bw = LL_MAX_BW_2_2X
#define TUNING_2_26(nvl_channels)                                                                                 \
  TUNING_2_2X(14), .tree_corr = TREE_CORR_2_2X(0, 0, 0), .ring_ll128_bw = RING_LL128_BW(2 * 36.7, 2 * 36.7, 2 * 36.7), \
  .tree_ll128_bw = TREE_LL128_BW(2 * 36.7, 2 * 36.7, 2 * 29.0), .tree_bw = TREE_BW(2 * 38.7, 2 * 41.4, 2 * 36.0),      \
  .nvls_channels_nvl = nvl_channels
#define TUNING_2_28                                                                                                    \
  TUNING_2_2X(20.9), .tree_ll128_bw = TREE_LL128_BW(55.6, 31.67, 20.0), .tree_bw = TREE_BW(70.0, 42.8, 24.0),          \
  .nvls_eff = NVLS_EFF_2_28, .nvls_channels_nvl = 24
#define TUNING_2_29                                                                                                    \
  TUNING_2_28, .tree_corr = TREE_CORR_2_2X(1.0, 1.0, .9), .ring_ll128_bw = RING_LL128_BW(40.0, 40.0, 40.0),           \
  .nvls_tree_corr = 24

/* v2.30.7-1 (commit 73cf1122): src/graph/tuning.cc ncclTunerConstantsDefaults (baseLatencies,
 * hwLatencies, llMaxBws, perChMaxRingLL128Bws, perChMaxTreeLL128Bws, perChMaxTreeBws,
 * perChMaxNVLSTreeBws: Blackwell's over 4 nodes or more 80), nvlsEfficiency,
 * treeCorrectionFactor; src/graph/search.cc sm90/sm100SpeedArrayIntra/Inter (Blackwell's
 * across nodes with 86); src/transport/nvls.cc NVLS_NCHANNELS_*. */
static const nccl_version v2_30 = {
    .name = "2.30.7-1",
    .commit = "73cf1122",
    TUNING_2_29,
    .nvls_tree_bw = NVLS_TREE_BW(96.0, 80.0),
    .nvls_speeds = {{sm90_intra, sm100_intra_2_29}, {sm90_inter, sm100_inter_2_30}},
};

/* v2.29.7-1 (commit b91894bd): the same files. Against 2.28.9: perChMaxRingLL128Bws of
 * Blackwell 40 at any node count, NVLS tree's size correction on Blackwell
 * (ncclTopoGetAlgoTime), Blackwell's steps 45 (one node) and 80 (several). */
static const nccl_version v2_29 = {
    .name = "2.29.7-1",
    .commit = "b91894bd",
    TUNING_2_29,
    .nvls_tree_bw = NVLS_TREE_BW(96.0, 43.8),
    .nvls_speeds = {{sm90_intra, sm100_intra_2_29}, {sm90_inter, sm100_inter_2_29}},
};

/* v2.28.9-1 (commit dbc86fd0): tuning.cc's constants become ncclTunerConstantsDefaults, with
 * Blackwell rows of their own (perChMaxRingLL128Bws 73.4/34.6/73.4, perChMaxTreeLL128Bws
 * 55.6/31.67/20, perChMaxTreeBws 70/42.8/24), perChMaxNVLSTreeBws, hwLatencies' NVLS tree
 * network figure 20.9; NVLS's bandwidth from nvlsEfficiency in place of 5/6. search.cc and
 * nvls.cc as 2.27.7. */
static const nccl_version v2_28 = {
    .name = "2.28.9-1",
    .commit = "dbc86fd0",
    TUNING_2_28,
    .tree_corr = TREE_CORR_2_2X(0, 0, 0),
    .ring_ll128_bw = RING_LL128_BW(2 * 36.7, 34.6, 2 * 36.7),
    .nvls_tree_bw = NVLS_TREE_BW(96.0, 43.8),
    .nvls_speeds = {{sm90_intra, sm100_intra_2_27}, {sm90_inter, sm100_inter_2_27}},
};

/* v2.27.7-1 (commit 593de54e): tuning.cc's allreduce model as 2.26.2's (its changes are
 * allgather's and reducescatter's NVLS, LL128 over C2C); search.cc's Blackwell steps (18 in
 * one node; 96 and 45.1 across nodes); nvls.cc NVLS_NCHANNELS_SM100_NVL 24 for Blackwell in
 * one node. */
static const nccl_version v2_27 = {
    .name = "2.27.7-1",
    .commit = "593de54e",
    TUNING_2_26(24),
    .nvls_speeds = {{sm90_intra, sm100_intra_2_27}, {sm90_inter, sm100_inter_2_27}},
};

/* v2.26.2-1 (commit f44ac759): src/graph/tuning.cc baseLat, hwLat (NVLS and NVLS tree too),
 * llMaxBws, perChMaxRingLL128Bws, perChMaxTreeLL128Bws, perChMaxTreeBws, treeCorrectionFactor;
 * src/graph/search.cc sm90/sm100SpeedArrayIntra/Inter; src/transport/nvls.cc
 * NVLS_NCHANNELS_SM100 (Blackwell, any node count). */
static const nccl_version v2_26 = {
    .name = "2.26.2-1",
    .commit = "f44ac759",
    TUNING_2_26(32),
    .nvls_speeds = {{sm90_intra, sm100_intra_2_26}, {sm90_inter, sm90_inter}},
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

/* v2.12.12-1 (commit 7aa1c46f), the last of the 2.8 to 2.12 releases (A100's first, the
 * ones whose INFO lines say "Launch mode"): src/graph/tuning.cc baseLat, hwLat (the network's
 * Simple figures 28 for ring and tree), llMaxBws and perChMaxTreeBws (two rows: Volta's and
 * Ampere's by compute capability 8.0 in one node; across nodes llMaxBws by the host's CPU,
 * Intel's row taken), ll128MaxBwPerCh 20 for ring and tree, the A100's 235 GB/s cap,
 * treeCorrectionFactor. Hopper and Blackwell have no row of their own there: they read
 * Volta's, as any GPU but compute capability 8.0 does. */
#define ARG3(a, b, c) \
  {                   \
    a, b, c           \
  } /* a row, as one argument of ROWS_2_12 */
#define ROWS_2_12(volta, ampere) \
  {                              \
    volta, ampere, volta, volta  \
  }
static const nccl_version v2_12 = {
    .name = "2.12.12-1",
    .commit = "7aa1c46f",
    .model = 2,
    .base_lat = {{4.4, 4.4, 0}, {3.6, 10.0, 8.4}},
    .hw_lat = {{{.52, 1.25, 28}, {.47, 1.9, 3.4}}, {{1.0, 1.9, 28}, {1.0, 2.5, 5.7}}, {{5.0, 8.5, 28}, {2.7, 4.0, 28}}},
    .ntree_corr = 23,
    .tree_corr = TREE_CORR_2_2X(0, 0, 0),
    .ll_max_bw = ROWS_2_12(ARG3(39.0, 39.0, 20.4), ARG3(87.7, 22.5, 19.0)),
    .ring_ll128_bw = ROWS_2_12(ARG3(20.0, 20.0, 20.0), ARG3(20.0, 20.0, 20.0)),
    .tree_ll128_bw = ROWS_2_12(ARG3(20.0, 20.0, 20.0), ARG3(20.0, 20.0, 20.0)),
    .tree_bw = ROWS_2_12(ARG3(26.5, 18.5, 10.0), ARG3(24.0, 23.6, 17.8)),
    .a100_bw_2_12 = 235.0,
};

/* newest first; a series' latest before its older ones */
static const nccl_version *const versions[] = {&v2_30, &v2_29, &v2_28, &v2_27, &v2_26, &v2_12, &v2_7};
#define NVERSIONS ((int)(sizeof versions / sizeof versions[0]))

const nccl_version *nccl_version_default(void) { return &v2_26; }

const nccl_version *nccl_version_find(const char *name)
{
  size_t n = name ? strlen(name) : 0;
  /* "X.Y": a series, named by its first two numbers */
  int series = n && strchr(name, '.') && strchr(name, '.') == strrchr(name, '.');
  for (int i = 0; n && i < NVERSIONS; i++) {
    const char *v = versions[i]->name; /* "X.Y.Z-R": the release suffix may be left out */
    if (strcmp(v, name) == 0 || (strncmp(v, name, n) == 0 && v[n] == (series ? '.' : '-')))
      return versions[i];
  }
  return NULL;
}

/* "2.26.2" as one number that orders releases, or -1 when it is not one */
static double version_key(const char *text)
{
  int a, b, c;
  return text && sscanf(text, "%d.%d.%d", &a, &b, &c) == 3 ? 1e6 * a + 1e3 * b + c : -1;
}

const nccl_version *nccl_version_nearest(const char *text, int *exact)
{
  int a, b, c;
  *exact = 0;
  if (!text || sscanf(text, "%d.%d.%d", &a, &b, &c) != 3)
    return NULL;
  const nccl_version *best = NULL;
  double dist = HUGE_VAL;
  for (int i = 0; i < NVERSIONS; i++) {
    int x, y, z;
    sscanf(versions[i]->name, "%d.%d.%d", &x, &y, &z);
    double d = 1e6 * abs(x - a) + 1e3 * abs(y - b) + abs(z - c);
    if (d < dist) {
      dist = d;
      best = versions[i];
    }
  }
  *exact = dist == 0;
  return best;
}

int nccl_versions_between(const char *first, const char *last, const nccl_version **out, int max)
{
  double lo = version_key(first), hi = version_key(last);
  int n = 0;
  for (int i = 0; lo >= 0 && hi >= lo && i < NVERSIONS && n < max; i++) {
    double k = version_key(versions[i]->name);
    if (k >= lo && k <= hi)
      out[n++] = versions[i];
  }
  return n;
}

const nccl_version *nccl_version_between(const char *first, const char *last, int *inside)
{
  double lo = version_key(first), hi = version_key(last);
  const nccl_version *in[1];
  *inside = 0;
  if (lo < 0 || hi < lo)
    return NULL;
  if (nccl_versions_between(first, last, in, 1) == 1) {
    *inside = 1;
    return in[0]; /* versions[] is newest first */
  }
  int exact;
  const nccl_version *below = nccl_version_nearest(first, &exact), *above = nccl_version_nearest(last, &exact);
  return fabs(version_key(below->name) - lo) <= fabs(version_key(above->name) - hi) ? below : above;
}

const char *nccl_version_list(void)
{
  static char list[160];
  if (!list[0])
    for (int i = 0, at = 0; i < NVERSIONS; i++)
      at += snprintf(list + at, sizeof list - (size_t)at, "%s%.*s%s", i ? ", " : "",
                     (int)strcspn(versions[i]->name, "-"), versions[i]->name,
                     versions[i] == nccl_version_default() ? " (default)" : "");
  return list;
}

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

int nccl_nvls_channels(int arch) { return nccl_nvls_channels_of(nccl_version_default(), arch, 1); }

int nccl_nvls_channels_of(const nccl_version *v, int arch, int nodes)
{
  return arch < NCCL_ARCH_BLACKWELL ? 16 : nodes > 1 ? 32 : v->nvls_channels_nvl;
}

/* calcCollChunking's rules for NVLS and NVLS tree, in order: below `times` x concurrentOps
 * (channels x heads) x the chunk, a chunk larger than `above` becomes `above` (0 ends the
 * list); and the chunk they start from */
typedef struct {
  double times;
  uint64_t above;
} nvls_rule;

static const nvls_rule *nvls_rules(int algo, int nodes, uint64_t *full)
{
  static const nvls_rule nvls[] = {{64, 65536}, {8, 32768}, {2, 16384}, {0, 0}}, tree[] = {{4, 65536}, {1, 32768}, {0, 0}};
  *full = algo == NCCL_ALGO_NVLS_TREE && nodes >= 4 ? 64 << 10 /* NCCL_NVLSTREE_MAX_CHUNKSIZE */
                                                     : 128 << 10; /* nvlsChunkSize */
  return algo == NCCL_ALGO_NVLS_TREE ? tree : nvls;
}

uint64_t nccl_nvls_chunk(int algo, double bytes, int channels, int heads, int nodes)
{
  uint64_t chunk;
  double ops = (double)channels * heads; /* concurrentOps */
  for (const nvls_rule *r = nvls_rules(algo, nodes, &chunk); r->times > 0; r++)
    if (bytes < r->times * ops * (double)chunk && chunk > r->above)
      chunk = r->above;
  return chunk;
}

uint64_t nccl_nvls_full_bytes(int algo, int channels, int heads, int nodes)
{
  uint64_t full, least = 0;
  for (const nvls_rule *r = nvls_rules(algo, nodes, &full); r->times > 0; r++)
    if (full > r->above && r->times * (double)channels * heads * (double)full > (double)least)
      least = (uint64_t)(r->times * (double)channels * heads * (double)full);
  return least;
}

static const double *nvls_speeds(const nccl_version *v, int arch, int several)
{
  return v->nvls_speeds[several ? 1 : 0][arch >= NCCL_ARCH_BLACKWELL ? 1 : 0];
}

/* The index of the largest step at most bw (the last, the slowest, when none is). */
static int step_at(const double *speed, double bw)
{
  int i = 0;
  while (speed[i + 1] > 0 && speed[i] > bw)
    i++;
  return i;
}

double nccl_nvls_step(const nccl_version *v, int arch, int several, double bw)
{
  const double *speed = nvls_speeds(v, arch, several);
  return speed[step_at(speed, bw)];
}

double nccl_nvls_raised(const nccl_version *v, int arch, int several, double head, double cap)
{
  const double *speed = nvls_speeds(v, arch, several);
  int i = step_at(speed, head);
  while (i > 0 && speed[i] < 2 * head && speed[i - 1] <= cap)
    i--;
  return speed[i];
}

/* src/graph/search.cc speedArrayIntra of v2.26.2: the ring search's steps in one node before
 * Hopper (Hopper's and Blackwell's are the NVLS search's, nvls_speeds) */
static const double intra_pre90[] = {40.0, 30.0, 20.0, 18.0, 15.0, 12.0, 10.0, 9.0, 7.0, 6.0, 5.0, 4.0, 3.0, 0};

int nccl_nvswitch_channels(int arch, double nvlink_bw)
{
  const double *speed = arch >= NCCL_ARCH_HOPPER ? nvls_speeds(nccl_version_default(), arch, 0) : intra_pre90;
  double total = nvlink_bw * nccl_nvlink_efficiency(arch) / 1e9, best = 0;
  int n = 0;
  for (int i = 0; speed[i] > 0 && best < total && !(n > 0 && speed[i] <= .49 * best / n); i++) {
    int k = (int)(total / speed[i] * (1 + 1e-9));
    k = k > NCCL_SEARCH_MAX_CHANNELS ? NCCL_SEARCH_MAX_CHANNELS : k;
    if (k * speed[i] > best) /* a graph replaces the one kept only when it carries more */
      best = k * speed[i], n = k;
  }
  if (n == 0)
    return 2;
  double step = best / n;
  if (step >= 25.0 && !(arch >= NCCL_ARCH_HOPPER && step < 50.0 && n > 4)) /* ncclTopoDupChannels */
    n = 2 * n > NCCL_SEARCH_MAX_CHANNELS ? NCCL_SEARCH_MAX_CHANNELS : 2 * n;
  return 2 * n; /* ncclTopoPostset */
}

int nccl_node_channels(int counted, int nvswitch, double nvlink_bw)
{
  int own = nvswitch ? nccl_nvswitch_channels(nccl_arch_of(nvlink_bw), nvlink_bw) : counted;
  return own < counted ? own : counted;
}

double nccl_nvls_head_bw(int arch, double port_bw, int n)
{
  return nccl_nvls_step(nccl_version_default(), arch, 0, port_bw / (n + 1));
}

double nccl_nvls_model_bw(int arch, double port_bw, int n)
{
  return n * nccl_nvls_head_bw(arch, port_bw, n) * 5.0 / 6.0;
}

double nccl_nvls_wire_scale(int n, int arch, double port_bw, double nvls_bw)
{
  double x = n < 2         ? 1
             : nvls_bw > 0 ? port_bw * n / (2.0 * (n - 1) * nvls_bw)
                           : port_bw / 1e9 * n / (2.0 * (n - 1) * nccl_nvls_model_bw(arch, port_bw / 1e9, n));
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

double nccl_net_overhead_us(int simple, int amd) { return (amd ? 2.0 : 1.0) * (simple ? 3 : 1); }

void nccl_host_proxy(sa_compute *c, int amd)
{
  c->proxy_lat = 1e-6 * nccl_net_overhead_us(0, amd);
  c->proxy_simple_lat = 1e-6 * nccl_net_overhead_us(1, amd);
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

double nccl_nvlink_per_wire(int arch, double nvls_scale)
{
  return (nvls_scale > 0 ? nvls_scale : 1) / nccl_nvlink_efficiency(arch);
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
  if (hw == NCCL_HW_NET)
    return nccl_hop_extra_s(hw, algo, proto);
  double v = proto == NCCL_PROTO_LL128 ? c->ll128_lat : proto == NCCL_PROTO_SIMPLE ? c->simple_lat : 0;
  return v > 0 ? v : nccl_hop_extra_s(hw, algo, proto);
}

double nccl_step_s(const sa_compute *c, int hw, int algo, int proto, int nodes)
{
  double v = nccl_hop_s(c, hw, algo, proto), proxy = proto == NCCL_PROTO_SIMPLE ? c->proxy_simple_lat : c->proxy_lat;
  return algo == NCCL_ALGO_RING && nodes > 1 && proxy > v ? proxy : v;
}

double nccl_net_gap_s(const sa_compute *c, int algo, int proto)
{
  double proxy = proto == NCCL_PROTO_SIMPLE ? c->proxy_simple_lat : c->proxy_lat;
  return algo == NCCL_ALGO_RING && proxy > 0 ? proxy / nccl_slices_per_chunk(algo, proto) : 0;
}

double nccl_start_s(const sa_compute *c, int algo, int proto)
{
  double own = nccl_launch_s(algo, proto);
  return c->launch_lat > 0 ? c->launch_lat + own - nccl_launch_s(NCCL_ALGO_RING, NCCL_PROTO_LL) : own;
}

int nccl_graph_channels(int kernel_channels) { return kernel_channels > 1 ? (kernel_channels + 1) / 2 : 1; }

/* One channel's LL on Hopper: a ring of NCCL's recvReduceSend steps through LL's FIFOs, 8
 * rings of 2 blocks (16 multiprocessors, a channel each, as on a node of 16 channels) on one
 * H100 80GB HBM3 (SXM5): 7.24 GB/s of payload a channel, 14.48 on the wire (LL's 16-byte
 * lines of 8 data bytes); a channel alone 10.8, 32 blocks 7.05 (experiments/gpu/
 * h100-sxm-protocols.json, ring_ll at count 8, ranks 2; the H200's 7.21). Volta, Ampere
 * and Blackwell: not measured. */
#define HOPPER_LL_CHANNEL_WIRE 14.48e9

double nccl_channel_ll_bw(int arch) { return arch == NCCL_ARCH_HOPPER ? HOPPER_LL_CHANNEL_WIRE : 0; }

void nccl_gpu_protocol_rates(sa_compute *c, int arch, int node_channels, int nodes)
{
  const nccl_version *v = nccl_version_default();
  int row = arch < 0 ? 0 : arch >= NCCL_NARCH ? NCCL_NARCH - 1 : arch;
  if (c->ll_channel_bw <= 0)
    c->ll_channel_bw = nccl_channel_ll_bw(arch);
  if (nodes != 1)
    return;
  if (c->ll_bw <= 0)
    c->ll_bw = 2 * v->ll_max_bw[row][0] * 1e9;
  if (c->ll128_bw <= 0)
    c->ll128_bw = 16.0 / 15 * nccl_graph_channels(node_channels) * v->ring_ll128_bw[row][0] * 1e9;
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

