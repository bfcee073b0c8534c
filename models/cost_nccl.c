/* cost_nccl.c: NCCL v2.7.5-1's tuning model for allreduce (see cost_nccl.h), rewritten from
 * the description of src/graph/tuning.cc; the constants are NCCL's, in microseconds and GB/s. */
#include "cost_nccl.h"

#include <math.h>

/* Base latency per algorithm and protocol (LL, LL128, Simple), us. */
static const double base_lat[COST_NCCL_NALGO][COST_NCCL_NPROTO] = {{4.4, 4.4, 0}, {3.6, 10.0, 8.4}};

/* Per-hop latency by the hop's hardware, algorithm and protocol, us. */
enum { HW_NVLINK, HW_PCI, HW_NET };
static const double hw_lat[3][COST_NCCL_NALGO][COST_NCCL_NPROTO] = {
    {{.52, 1.2, 28}, {.47, 1.9, 3.4}},
    {{1.0, 1.9, 28}, {1.0, 2.5, 5.7}},
    {{5.0, 8.5, 50}, {2.7, 4.0, 9.6}},
};

/* LL128's bandwidth ceiling per channel for allreduce, GB/s. */
#define LL128_MAX_BW_PER_CH 16.7

/* NCCL scales the tree's bandwidth down at medium sizes, by log2(bytes / 64) from 0 to 21. */
static const double tree_correction[COST_NCCL_NPROTO][22] = {
    {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0},
    {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .5, .6, .6, .7, .7, .8, .9, .9, 1.0},
    {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .5, .5, .6, .6, .7, .8, .9},
};

/* floor(log2(n)), 0 for n < 2, as NCCL's log2i. */
static int log2i(double n)
{
  int l = 0;
  for (; n >= 2; n /= 2)
    l++;
  return l;
}

const char *cost_nccl_proto_name(int proto)
{
  static const char *const names[] = {"LL", "LL128", "Simple"};
  return proto >= 0 && proto < COST_NCCL_NPROTO ? names[proto] : "?";
}

/* Bus bandwidth (GB/s) of algorithm a with protocol p, before the conversion to algbw. */
static double bus_bw(const cost_nccl_shape *s, int a, int p)
{
  /* NCCL's channels times their speed: what a ring through the nodes can carry */
  double bw = (s->nodes > 1 && s->inter_bw < s->intra_bw ? s->inter_bw : s->intra_bw) / 1e9;
  double ppn = (double)s->ranks / s->nodes, ll128_cap = LL128_MAX_BW_PER_CH * s->channels;
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

void cost_nccl_predict(const cost_nccl_shape *s, double bytes, cost_nccl_pred *out)
{
  out->ring_s = out->tree_s = NAN;
  out->ring_proto = out->tree_proto = -1;
  for (int a = 0; a < COST_NCCL_NALGO; a++)
    for (int p = 0; p < COST_NCCL_NPROTO; p++)
      out->time_s[a][p] = NAN;
  if (s->ranks < 2 || s->nodes < 1 || !(s->intra_bw > 0 || s->nodes > 1))
    return;
  int nsteps = 2 * (s->ranks - 1), inter_steps = 2 * (s->nodes - 1), intra_hw = s->nvlink ? HW_NVLINK : HW_PCI;
  for (int a = 0; a < COST_NCCL_NALGO; a++)
    for (int p = 0; p < COST_NCCL_NPROTO; p++) {
      /* LL128 is on by default only for Volta/Ampere over NVLink; across nodes it also needs
       * the NIC next to the GPU (GPUDirect), which these platforms do not promise */
      if (p == COST_NCCL_LL128 && !(s->nvlink && s->nodes == 1))
        continue;
      double bw = bus_bw(s, a, p) * (a == COST_NCCL_RING ? (double)s->ranks / nsteps : 0.5);
      double intra_lat = hw_lat[intra_hw][a][p] * (s->nodes > 1 && p == COST_NCCL_LL ? 1.8 : 1.0);
      double inter_lat = hw_lat[HW_NET][a][p], lat = base_lat[a][p];
      if (a == COST_NCCL_RING)
        lat += (nsteps - inter_steps) * intra_lat + inter_steps * inter_lat;
      else
        lat += 2 * ((s->ranks / s->nodes - 1) * intra_lat + log2i(s->nodes) * inter_lat);
      int log_size = log2i(floor(bytes / 64));
      if (a == COST_NCCL_TREE && log_size < 22)
        bw *= tree_correction[p][log_size];
      /* NCCL's "plateau" of multi-node Simple rings */
      if (a == COST_NCCL_RING && p == COST_NCCL_SIMPLE && s->nodes > 1 && bytes >= s->ranks / 16.0 * 65536)
        lat *= 1.9;
      if (bw <= 0)
        continue;
      double t = (lat + bytes / (1000 * bw)) * 1e-6;
      out->time_s[a][p] = t;
      double *best = a == COST_NCCL_RING ? &out->ring_s : &out->tree_s;
      int *proto = a == COST_NCCL_RING ? &out->ring_proto : &out->tree_proto;
      if (isnan(*best) || t < *best) {
        *best = t;
        *proto = p;
      }
    }
}
