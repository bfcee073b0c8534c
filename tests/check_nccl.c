/* check_nccl.c: NCCL's algorithms (nccl-ring, nccl-tree, nccl) end to end: real data on many
 * shapes, protocols and channel counts; the pipeline's overlap of transfers and sums; the
 * channels over a DGX-1's NVLinks; the choice reported; bad input. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_util.h"
#include "cli_run.h"
#include "nccl/nccl_proto.h"
#include "nccl/nccl_sched.h"

static const char *str(const cJSON *o, const char *key)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsString(v) ? v->valuestring : "";
}

/* What a point of NCCL's algorithms ran, from its "nccl" field ("ring/LL128/12"). */
static nccl_choice ran(const cJSON *p)
{
  nccl_choice c = {-1, -1, 0};
  ck_assert_msg(nccl_choice_parse(str(p, "nccl"), &c) == 0, "nccl field '%s'", str(p, "nccl"));
  return c;
}

/* 1, 2, 3, 8 and 16 ranks on the NVLink mesh (8 GPUs: up to 8), a cluster over Ethernet and
 * a generated platform of NVSwitch nodes with a NIC per GPU on its own rail (two nodes, and
 * three for an odd number of nodes on rails); every protocol, one channel and several, both
 * types; counts below the rank count, and sizes that take several loops of chunks and shrink
 * the last one. */
static const struct {
  const char *platform;
  int nodes, rpn;
  const char *proto;
  int channels; /* 0: NCCL's choice */
  const char *dtype, *sizes;
} shapes[] = {
    {"dgx1", 1, 1, "Simple", 0, "fp32", "4,4K"},
    {"dgx1", 1, 2, "LL", 1, "fp16", "2,6,300K"},
    {"dgx1", 1, 3, "Simple", 1, "fp32", "4,36,13M"},
    {"dgx1", 1, 8, "LL128", 0, "fp16", "2,18,1M"},
    {"dgx1", 1, 8, "Simple", 3, "fp32", "4,100K,3M"},
    {"tencent16", 1, 1, "LL", 0, "fp16", "2,4K"},
    {"tencent16", 1, 2, "Simple", 2, "fp32", "4,12,5M"},
    {"tencent16", 1, 3, "LL128", 2, "fp16", "2,18,4M"},
    {"tencent16", 1, 8, "LL", 3, "fp32", "4,40,400K"},
    {"tencent16", 3, 1, "LL", 0, "fp32", "4,12,200K"},
    {"tencent16", 2, 8, "Simple", 0, "fp16", "2,30,1M"},
    {"tencent16", 2, 8, "LL", 2, "fp32", "4,60,2M"},
    {"hgx-h100-rails", 1, 1, "Simple", 0, "fp32", "4,4K"},
    {"hgx-h100-rails", 1, 2, "LL128", 1, "fp32", "4,36,3M"},
    {"hgx-h100-rails", 1, 3, "Simple", 2, "fp16", "2,10,9M"},
    {"hgx-h100-rails", 1, 8, "LL", 0, "fp16", "2,14,300K"},
    {"hgx-h100-rails", 2, 8, "Simple", 0, "fp32", "4,60,3M"},
    {"hgx-h100-rails", 2, 8, "LL128", 3, "fp16", "2,30,2M"},
    {"hgx-h100-rails", 3, 2, "Simple", 1, "fp16", "2,10,20M"},
    {"hgx-h100-rails", 3, 2, "LL", 0, "fp32", "4,20,500K"},
};
#define NSHAPES ((int)(sizeof shapes / sizeof shapes[0]))

START_TEST(nccl_algorithms_verify)
{
  char args[512], ch[32] = "", what[160];
  if (shapes[_i].channels)
    snprintf(ch, sizeof ch, "--channels %d", shapes[_i].channels);
  snprintf(args, sizeof args,
           "--platform %s --nodes %d --ranks-per-node %d --algo nccl-ring,nccl-tree,nccl --proto %s %s --dtype %s "
           "--sizes %s --mode sim --verify",
           shapes[_i].platform, shapes[_i].nodes, shapes[_i].rpn, shapes[_i].proto, ch, shapes[_i].dtype, shapes[_i].sizes);
  snprintf(what, sizeof what, "%s %dx%d %s %s", shapes[_i].platform, shapes[_i].nodes, shapes[_i].rpn, shapes[_i].proto,
           ch);
  cli_result r = cli_run(args, 1);
  ck_assert_msg(r.status == 0 && r.json, "%s: exit %d: %s", what, r.status, r.err ? r.err : "");
  const cJSON *res = cJSON_GetObjectItemCaseSensitive(r.json, "results"), *p;
  int n = 0, sizes = 1;
  for (const char *c = shapes[_i].sizes; *c; c++)
    sizes += *c == ',';
  cJSON_ArrayForEach(p, res)
  {
    n++;
    ck_assert_msg(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "verified")) && cli_num(p, "max_abs_err") == 0,
                  "%s: %s at %g bytes wrong", what, str(p, "algo"), cli_num(p, "bytes"));
    nccl_choice c = ran(p);
    ck_assert_str_eq(nccl_proto_name(c.proto), shapes[_i].proto);
    if (shapes[_i].channels)
      ck_assert_int_eq(c.channels, shapes[_i].channels);
    ck_assert(cli_num(p, "time_s") > 0);
  }
  ck_assert_int_eq(n, 3 * sizes);
  cli_result_free(&r);
}
END_TEST

/* A ring cut to m ranks' steps (what the models replay on long rings): each loop its first
 * send, its first m - 1 sums, its last m - 2 copies and its last receive, each as the whole
 * ring has it (the same slice, the same flags); cut to n, the whole ring. 7 ranks, Simple
 * (2 slices a chunk), fp32, 3 whole loops and a shrunk last one. */
START_TEST(ring_cut_keeps_its_ends)
{
  int n = 7, m = 4;
  for (int pos = 0; pos < n; pos++) {
    nccl_ring_sched whole, cut;
    nccl_ring_sched_init(&whole, n, pos, 100, 0, NCCL_PROTO_SIMPLE, 4);
    whole.len = 3 * (size_t)n * whole.chunk + 1000;
    cut = whole;
    long ops = nccl_ring_sched_ops(&whole), steps = 2L * n - 1, s = whole.slices;
    ck_assert_int_eq(s, 2);
    ck_assert_int_eq(ops, 4 * steps * s);
    nccl_ring_sched_cut(&cut, n);
    ck_assert_int_eq(nccl_ring_sched_ops(&cut), ops);
    nccl_ring_sched_cut(&cut, m);
    ck_assert_int_eq(nccl_ring_sched_ops(&cut), 4 * (2L * m - 1) * s);
    /* cut step t' is the whole ring's step at[t'] */
    const long at[] = {0, 1, 2, 3, 10, 11, 12};
    for (long k = 0; k < nccl_ring_sched_ops(&cut); k++) {
      long loop = k / ((2L * m - 1) * s), t = at[(k / s) % (2 * m - 1)];
      nccl_op a, b;
      nccl_ring_sched_op(&cut, k, &a);
      nccl_ring_sched_op(&whole, (loop * steps + t) * s + k % s, &b);
      ck_assert_msg(a.off == b.off && a.n == b.n && a.flags == b.flags, "rank %d op %ld", pos, k);
    }
  }
}
END_TEST

/* A long ring's model from two cut replays (models/cost_nccl_ring.c): on mn1's 1024 ranks,
 * timed as nccl-tests, within 1% of the whole ring's replay, whose times were (before the
 * cut, 40 times slower): 6708.57 us at 4 MiB (LL, one channel), 16208.69 us at 32 MiB (LL, two
 * channels whose phases drift against each other: the cut's line 0.54% above). */
START_TEST(long_ring_model_follows_the_whole_replay)
{
  cli_result r = cli_run("--platform mn1 --algo nccl-ring --mode model --timing nccl-tests --sizes 4M,32M", 1);
  ck_assert_msg(r.status == 0, "%s", r.err);
  const double whole[] = {6708.57e-6, 16208.69e-6};
  for (int i = 0; i < 2; i++) {
    double t = cli_num(cli_point(&r, i), "model_time_s");
    ck_assert_msg(fabs(t - whole[i]) <= 0.01 * whole[i], "point %d: %g s against the whole replay's %g", i, t,
                  whole[i]);
  }
  cli_result_free(&r);
}
END_TEST

/* A ring through like nodes repeats node by node, and its model replays the first nodes
 * alone (models/cost_fold.h): hgx-h100-rails' 4 x 8 H100, whose rings run through every other
 * node backwards, folds onto 2 nodes. Timed as nccl-tests, its calls start from the first
 * node's release on every node, the rest as every node's replay: within 1.5% of the whole
 * replay (SIMALLREDUCE_FOLD=0) from 1 MiB, the wobble of the steady state from call to call
 * (LL128 with the proxy held each step, nccl_net_gap_s: 48 MiB 364.60 us folded, 360.74
 * whole; 64 MiB 434.01 and 440.01; 0.3% or less at 1, 16, 80 and 128 MiB; 1% before the
 * proxy was held), and the steady state's 1 GiB to 1e-5 (5505.970 us). On
 * baidu40's 40 ranks of one GPU a 512 KiB chunk of 3280 floats leaves a shorter last one,
 * whose rank moves unlike its likes: not folded, the same bit for bit. */
START_TEST(like_nodes_fold_onto_the_first)
{
  static const char *const cmd[] = {
      "--platform hgx-h100-rails --algo nccl-ring --mode model --timing nccl-tests --sizes 1M,64M,1G",
      "--platform baidu40 --algo nccl-ring --mode model --timing nccl-tests --sizes 512K"};
  static const double tol[][3] = {{1.5e-2, 1.5e-2, 1e-5}, {0, 0, 0}};
  for (int k = 0; k < 2; k++) {
    double t[2][3];
    for (int whole = 0; whole < 2; whole++) {
      if (whole)
        setenv("SIMALLREDUCE_FOLD", "0", 1);
      cli_result r = cli_run(cmd[k], 1);
      unsetenv("SIMALLREDUCE_FOLD");
      ck_assert_msg(r.status == 0, "%s", r.err);
      for (int i = 0; i < 3 - 2 * k; i++)
        t[whole][i] = cli_num(cli_point(&r, i), "model_time_s");
      cli_result_free(&r);
    }
    for (int i = 0; i < 3 - 2 * k; i++)
      ck_assert_msg(fabs(t[0][i] - t[1][i]) <= tol[k][i] * t[1][i], "%s, point %d: folded %.9g us, whole %.9g us",
                    cmd[k], i, t[0][i] * 1e6, t[1][i] * 1e6);
  }
}
END_TEST

/* A single channel moves each slice while the previous one is being summed: per byte it
 * takes what the larger of the two takes, not their sum. nvswitch4: 4 GPUs, 25 GB/s and
 * 1 us GPU to GPU, sums at 40 GB/s; Simple slices of 1 MiB (2 MiB chunks, 8 MiB a loop of 4
 * ranks). Per loop every rank sends 12 slices (6 steps x 2) and sums 6 (3 steps x 2); a
 * slice takes 1 us + 1 MiB / (25 GB/s x NCCL's NVLink efficiency, 0.8 for a GPU of one link's
 * NVLink) on the link, 1 MiB / 40 GB/s to sum. The time per byte
 * is the difference between 128 MiB and 256 MiB (16 more loops), so that the pipeline's
 * start and the launch cancel out. */
START_TEST(one_channel_pays_the_larger_of_link_and_sum)
{
  cli_result r = cli_run("--platform " PLAT "nvswitch4.xml --algo nccl-ring --channels 1 --proto Simple "
                         "--sizes 128M,256M --mode sim",
                         1);
  ck_assert_msg(r.status == 0, "%s", r.err);
  double slope = cli_num(cli_point(&r, 1), "time_s") - cli_num(cli_point(&r, 0), "time_s");
  double mib = 1 << 20, link = 1e-6 + mib / (25e9 * nccl_nvlink_efficiency(nccl_arch_of(25e9))), sum = mib / 40e9;
  double larger = 16 * 12 * link, both = 16 * (12 * link + 6 * sum);
  ck_assert_msg(fabs(slope - larger) <= 0.05 * larger, "16 loops took %g us, the links %g us, links and sums %g us",
                slope * 1e6, larger * 1e6, both * 1e6);
  ck_assert(both > 1.2 * larger); /* the two laws are far enough apart to tell (4 x the tolerance) */
  cli_result_free(&r);
}
END_TEST

/* On a DGX-1, NCCL's channels follow the NVLink cycles: a GPU's six NVLinks of 25 GB/s,
 * at NCCL's 20 GB/s per V100 link (src/graph/topo.h SM70_NVLINK_BW), allow 120 GB/s of bus
 * bandwidth; the ring reaches at least 85% of it and never more. */
START_TEST(dgx1_ring_drives_the_nvlinks)
{
  cli_result r = cli_run("--platform dgx1 --algo nccl-ring --sizes 256M,512M --mode sim", 1);
  ck_assert_msg(r.status == 0, "%s", r.err);
  for (int i = 0; i < 2; i++) {
    double bus = cli_num(cli_point(&r, i), "busbw_GBps");
    ck_assert_msg(bus >= 0.85 * 120 && bus <= 120, "%g bytes: busbw %g GB/s", cli_num(cli_point(&r, i), "bytes"), bus);
    ck_assert_int_eq(ran(cli_point(&r, i)).proto, NCCL_PROTO_SIMPLE);
  }
  cli_result_free(&r);
}
END_TEST

/* The choice is in the table and the JSON; what is forced stays forced. */
/* GPUs 0-3 of a DGX-1 are joined all to all: 0-1, 0-2 and 1-3 by one NVLink (25 GB/s),
 * 0-3, 1-2 and 2-3 by two. Each of the quad's three cycles crosses a single link, but two of
 * them (0-1-2-3 and 0-2-1-3), each way round, take every single link once a direction and
 * every double one twice: four rings of 25 GB/s, 100 GB/s of bus bandwidth, 80 at NCCL's 20
 * GB/s a link, as NCCL's search finds them (the greedy one alone got 52). */
START_TEST(dgx1_quad_rings_use_every_link)
{
  cli_result r = cli_run("--platform dgx1 --ranks-per-node 4 --algo nccl-ring --proto Simple --size 256M --mode sim", 1);
  ck_assert_msg(r.status == 0, "%s", r.err);
  double bus = cli_num(cli_point(&r, 0), "busbw_GBps");
  ck_assert_msg(bus >= 0.9 * 80 && bus <= 80, "busbw %g GB/s", bus);
  cli_result_free(&r);
}
END_TEST

/* The channels NCCL's ring search gives GPUs on an NVSwitch, its NVLinks at NCCL's figure
 * (20 GB/s a link, 20.6 on Hopper, 40.1 of 50 on Blackwell): 8 A100 (12 links, 240 GB/s): 6
 * x 40, duplicated to 12 x 20, 24 kernels' channels; 8 H100 (18, 370.8): 6 x 60 (9 x 40 and
 * 12 x 30 carry no more), 12 x 30, 24 (twice 18 links would be 36, capped at 32); 8 H800 (8,
 * 164.8): 4 x 40, duplicated (not more than 4 channels), 16; DGX-2's V100 (6, 120): 3 x 40,
 * 12; B200 (18 of 50 GB/s, 721.8): 8 x 90, 32. Across nodes the NICs cap them (16 for 8 NICs),
 * and a node of no NVSwitch keeps what was counted. The simulation opens as many. */
START_TEST(nvswitch_channels_as_nccls_search)
{
  ck_assert_int_eq(nccl_nvswitch_channels(NCCL_ARCH_AMPERE, 300e9), 24);
  ck_assert_int_eq(nccl_nvswitch_channels(NCCL_ARCH_HOPPER, 450e9), 24);
  ck_assert_int_eq(nccl_nvswitch_channels(NCCL_ARCH_HOPPER, 200e9), 16);
  ck_assert_int_eq(nccl_nvswitch_channels(NCCL_ARCH_VOLTA, 150e9), 12);
  ck_assert_int_eq(nccl_nvswitch_channels(NCCL_ARCH_BLACKWELL, 900e9), 32);
  ck_assert_int_eq(nccl_node_channels(32, 1, 450e9), 24);
  ck_assert_int_eq(nccl_node_channels(16, 1, 450e9), 16);
  ck_assert_int_eq(nccl_node_channels(32, 0, 450e9), 32);
  cli_result r =
      cli_run("--platform hgx-h100-rails --nodes 1 --algo nccl-ring --proto Simple --size 64M --mode sim", 1);
  ck_assert_msg(r.status == 0, "%s", r.err);
  ck_assert_msg(strstr(r.out, "ring/Simple/24"), "%s", r.out);
  cli_result_free(&r);
}
END_TEST

/* Where a platform gives no LL or LL128 rate, NCCL's ceilings on one node (tuning.cc v2.26.2):
 * LL twice llMaxBws' one-node bus bandwidth on the wire (87.7 GB/s on Ampere, 39.0 Volta),
 * LL128 16/15 of perChMaxRingLL128Bws' figure per graph channel (20.0; 36.7 on Hopper) times
 * half the kernels' channels; a given rate, Simple, and a GPU across nodes are left alone. */
START_TEST(protocol_ceilings_where_none_given)
{
  sa_compute c = {0};
  nccl_gpu_protocol_rates(&c, NCCL_ARCH_AMPERE, 24, 1);
  ck_assert_double_eq_tol(c.ll_bw, 175.4e9, 1e3);
  ck_assert_double_eq_tol(c.ll128_bw, 16.0 / 15 * 12 * 20e9, 1e3);
  ck_assert_double_eq(c.simple_bw, 0);
  sa_compute h = {.ll_bw = 1e9};
  nccl_gpu_protocol_rates(&h, NCCL_ARCH_HOPPER, 24, 1);
  ck_assert_double_eq(h.ll_bw, 1e9);
  ck_assert_double_eq_tol(h.ll128_bw, 16.0 / 15 * 12 * 36.7e9, 1e3);
  sa_compute v = {0};
  nccl_gpu_protocol_rates(&v, NCCL_ARCH_VOLTA, 12, 1);
  ck_assert_double_eq_tol(v.ll_bw, 78e9, 1e3);
  ck_assert_double_eq_tol(v.ll128_bw, 16.0 / 15 * 6 * 20e9, 1e3);
  sa_compute n = {0};
  nccl_gpu_protocol_rates(&n, NCCL_ARCH_HOPPER, 16, 2);
  ck_assert(n.ll_bw == 0 && n.ll128_bw == 0);
  /* a channel's own LL rate, where measured (Hopper), at any node count */
  ck_assert_double_eq_tol(n.ll_channel_bw, 2 * 7.24e9, 1e3);
  ck_assert_double_eq(c.ll_channel_bw, 0);
  ck_assert_double_eq(v.ll_channel_bw, 0);
}
END_TEST

/* One channel's LL on Hopper (nccl_channel_ll_bw: 14.48 GB/s on the wire, measured): NCCL's
 * tree over 2 x 8 H100 at 64 KiB, LL on 16 channels (4 KiB a channel), crosses 16 hops one
 * after the other, each at least 8 KiB of lines over a channel's rate: 9.05 us more than at
 * 16 B, plus the links' share of the bytes, about 1.3 us (L07 measured 8.9 us more; with
 * the GPU's LL free of the channel's rate across nodes the model added 1.1). The runner
 * bounds each operation to its floor, the model caps its share of the GPU: the two agree. */
START_TEST(one_channel_ll_rate_on_hopper)
{
  static const char *const mode[] = {"sim", "model"}, *const key[] = {"time_s", "model_time_s"};
  cli_result r[2];
  double t[2][2];
  for (int k = 0; k < 2; k++) {
    char line[256];
    snprintf(line, sizeof line,
             "--platform hgx-h100-rails --nodes 2 --algo nccl-tree --proto LL --timing nccl-tests --sizes 16,64K "
             "--mode %s",
             mode[k]);
    r[k] = cli_run(line, 1);
    ck_assert_msg(r[k].status == 0, "%s", r[k].err);
    for (int i = 0; i < 2; i++)
      t[k][i] = cli_num(cli_point(&r[k], i), key[k]);
    cli_result_free(&r[k]);
  }
  for (int i = 0; i < 2; i++)
    ck_assert_msg(fabs(t[1][i] - t[0][i]) <= 0.01 * t[0][i], "point %d: model %g us, simulation %g us", i,
                  t[1][i] * 1e6, t[0][i] * 1e6);
  double floor = 16 * 2 * 4096.0 / nccl_channel_ll_bw(NCCL_ARCH_HOPPER), grow = t[0][1] - t[0][0];
  ck_assert_msg(grow >= floor && grow <= floor + 2e-6, "64 KiB took %g us more than 16 B, the floors %g", grow * 1e6,
                floor * 1e6);
}
END_TEST

/* A ring across nodes waits on its network proxy (nccl_step_s): each step's time beyond its
 * route is at least proxy_lat (LL, LL128) or proxy_simple_lat (Simple) where the ring spans
 * nodes, and NCCL's own hop figure where that is more (a Simple step across the network,
 * hwLat 14 us against LL's 2.7); a tree, or one node, is not held to it. L12's fit (2 x 8 H100,
 * NCCL_ALGO=Ring) sets them, and the runner and the model, each through nccl_step_s, agree
 * within 2%: each of nccl-tests' calls wobbles by about 1% (docs/nccl.md), and at 16 MiB
 * they were 1.04% apart (191.2 and 193.2 us) once the fit put the proxy's LL128 step at 1.64
 * us. */
START_TEST(ring_across_nodes_waits_on_its_proxy)
{
  sa_compute c = {.proxy_lat = 2e-6, .proxy_simple_lat = 6e-6};
  double ll128 = nccl_hop_s(&c, NCCL_HW_NVLINK, NCCL_ALGO_RING, NCCL_PROTO_LL128);
  ck_assert_double_eq(nccl_step_s(&c, NCCL_HW_NVLINK, NCCL_ALGO_RING, NCCL_PROTO_LL128, 2), 2e-6);
  ck_assert_double_eq(nccl_step_s(&c, NCCL_HW_NVLINK, NCCL_ALGO_RING, NCCL_PROTO_SIMPLE, 2), 6e-6);
  ck_assert_double_eq(nccl_step_s(&c, NCCL_HW_NVLINK, NCCL_ALGO_RING, NCCL_PROTO_LL128, 1), ll128);
  ck_assert_double_eq(nccl_step_s(&c, NCCL_HW_NVLINK, NCCL_ALGO_TREE, NCCL_PROTO_LL128, 2),
                      nccl_hop_s(&c, NCCL_HW_NVLINK, NCCL_ALGO_TREE, NCCL_PROTO_LL128));
  ck_assert_double_eq_tol(nccl_step_s(&c, NCCL_HW_NET, NCCL_ALGO_RING, NCCL_PROTO_SIMPLE, 2), 11.3e-6, 1e-12);
  sa_compute none = {0};
  ck_assert_double_eq(nccl_step_s(&none, NCCL_HW_NVLINK, NCCL_ALGO_RING, NCCL_PROTO_LL128, 2), ll128);
  static const char *const mode[] = {"sim", "model"}, *const key[] = {"time_s", "model_time_s"};
  double t[2][2];
  for (int k = 0; k < 2; k++) {
    char line[256];
    snprintf(line, sizeof line,
             "--platform " PLAT "l12_nccl_ring_fit.xml --algo nccl-ring --timing nccl-tests --sizes 1M,16M --mode %s",
             mode[k]);
    cli_result r = cli_run(line, 1);
    ck_assert_msg(r.status == 0, "%s", r.err);
    for (int i = 0; i < 2; i++)
      t[k][i] = cli_num(cli_point(&r, i), key[k]);
    cli_result_free(&r);
  }
  for (int i = 0; i < 2; i++)
    ck_assert_msg(fabs(t[1][i] - t[0][i]) <= 0.02 * t[0][i], "point %d: model %g us, simulation %g us", i,
                  t[1][i] * 1e6, t[0][i] * 1e6);
  /* 1 MiB, LL128: its 30 steps one after the other at least at the proxy's pace */
  ck_assert_msg(t[0][0] >= 30 * 1.6e-6, "1 MiB in %g us", t[0][0] * 1e6);
}
END_TEST

/* The proxy's time is paid again at every step of a ring across nodes, not hidden behind
 * the slices in flight (nccl_net_gap_s): it holds each slice it sends that step's share of
 * NCCL's per-step figure (Simple's 2 slices a chunk 3 us each of 6), after the slice before
 * it is delivered. L08 (4 x 8 H100) shows it: about 7 us a step above what its NICs take, from
 * 512 KiB to 2 MiB chunks; as a latency its slices hid, its 256 MiB came 24% fast. On L12's
 * fit (NICs at 50 GB/s, 2 of the 16 channels a NIC, the proxy at 3 us a Simple step), 512
 * MiB is one loop of 30 steps of 2 MiB chunks: the runner and the model agree, and the time
 * beyond the NICs' is the 30 steps' proxy (90 us) and the start (the fitted launch, 24 us, and
 * the first slices' latency), where with the slices hiding the proxy it was 43 us. */
START_TEST(ring_across_nodes_pays_its_proxy_each_step)
{
  sa_compute c = {.proxy_lat = 2e-6, .proxy_simple_lat = 6e-6};
  ck_assert_double_eq(nccl_net_gap_s(&c, NCCL_ALGO_RING, NCCL_PROTO_SIMPLE), 3e-6);
  ck_assert_double_eq(nccl_net_gap_s(&c, NCCL_ALGO_RING, NCCL_PROTO_LL128), 2e-6);
  ck_assert_double_eq(nccl_net_gap_s(&c, NCCL_ALGO_TREE, NCCL_PROTO_SIMPLE), 0);
  static const char *const mode[] = {"sim", "model"}, *const key[] = {"time_s", "model_time_s"};
  double t[2];
  for (int k = 0; k < 2; k++) {
    char line[256];
    snprintf(line, sizeof line,
             "--platform " PLAT "l12_nccl_ring_fit.xml --algo nccl-ring --proto Simple --timing nccl-tests "
             "--sizes 512M,4 --mode %s",
             mode[k]);
    cli_result r = cli_run(line, 1);
    ck_assert_msg(r.status == 0, "%s", r.err);
    t[k] = cli_num(cli_point(&r, 1), key[k]); /* 512 MiB; 4 B before it */
    cli_result_free(&r);
  }
  ck_assert_msg(fabs(t[1] - t[0]) <= 0.005 * t[0], "model %g us, simulation %g us", t[1] * 1e6, t[0] * 1e6);
  double nics = 30 * 2097152 / 25e9, beyond = t[0] - nics;
  ck_assert_msg(beyond >= 30 * 3e-6 && beyond <= 30 * 3e-6 + 60e-6, "%g us beyond the NICs' %g", beyond * 1e6,
                nics * 1e6);
}
END_TEST

/* A start fitted to one algorithm carries to the others as NCCL's model has them differ
 * (nccl_start_s): launch_lat is a ring's with LL, and NVLS tree starts 18.4 us later (its 25
 * us against the ring's 6.6, tuning.cc v2.26.2); with none, NCCL's own. */
START_TEST(launch_is_a_rings_with_ll)
{
  sa_compute c = {.launch_lat = 10e-6}, none = {0};
  ck_assert_double_eq(nccl_start_s(&c, NCCL_ALGO_RING, NCCL_PROTO_LL), 10e-6);
  ck_assert_double_eq_tol(nccl_start_s(&c, NCCL_ALGO_NVLS_TREE, NCCL_PROTO_SIMPLE), 28.4e-6, 1e-12);
  ck_assert_double_eq_tol(nccl_start_s(&c, NCCL_ALGO_RING, NCCL_PROTO_LL128), 17.4e-6, 1e-12);
  ck_assert_double_eq_tol(nccl_start_s(&none, NCCL_ALGO_RING, NCCL_PROTO_SIMPLE), 8.4e-6, 1e-12);
  ck_assert_double_eq_tol(nccl_start_s(&none, NCCL_ALGO_NVLS_TREE, NCCL_PROTO_SIMPLE), 25e-6, 1e-12);
}
END_TEST

START_TEST(choice_is_reported)
{
  cli_result r = cli_run("--platform dgx1 --algo nccl --sizes 8,1M,256M --mode sim", 1);
  ck_assert_msg(r.status == 0, "%s", r.err);
  const int protos[] = {NCCL_PROTO_LL, NCCL_PROTO_LL128, NCCL_PROTO_SIMPLE};
  for (int i = 0; i < 3; i++) {
    const cJSON *p = cli_point(&r, i);
    nccl_choice c = ran(p);
    ck_assert_str_eq(str(p, "algo"), "nccl");
    ck_assert_int_eq(c.proto, protos[i]);
    ck_assert(c.channels >= 1 && c.channels <= 32);
  }
  ck_assert_int_eq(ran(cli_point(&r, 0)).channels, 1); /* 8 bytes: one channel */
  ck_assert_ptr_nonnull(strstr(r.out, "  ring/LL/1\n"));
  cli_result_free(&r);
  r = cli_run("--platform dgx1 --algo nccl-tree --proto LL128 --channels 5 --size 1M --mode sim", 1);
  ck_assert_msg(r.status == 0, "%s", r.err);
  ck_assert_str_eq(str(cli_point(&r, 0), "nccl"), "tree/LL128/5");
  cli_result_free(&r);
}
END_TEST

START_TEST(same_command_same_times)
{
  const char *args = "--platform hgx-h100-rails --nodes 3 --ranks-per-node 2 --algo nccl-ring,nccl-tree,nvls-tree "
                     "--sizes 1K,3M --mode sim";
  cli_result a = cli_run(args, 1), b = cli_run(args, 1);
  ck_assert(a.status == 0 && b.status == 0);
  for (int i = 0; i < 6; i++)
    ck_assert(cli_num(cli_point(&a, i), "time_s") == cli_num(cli_point(&b, i), "time_s"));
  cli_result_free(&a);
  cli_result_free(&b);
}
END_TEST

START_TEST(bad_input_exits_2)
{
  const char *bad[][2] = {
      {"--algo ring --proto LL", "--proto applies to NCCL's algorithms"},
      {"--algo nccl-ring --proto LL64", "'LL64' is none of NCCL's protocols"},
      {"--algo nccl --nccl-version 2.99.1", "unknown --nccl-version"},
      {"--algo ring --export-tuner t.csv", "--export-tuner writes the choices among NCCL's algorithms"},
      {"--algo nccl,nccl-ring --export-tuner t.csv", "it goes with --algo nccl alone"},
      {"--algo nccl --export-tuner /nonexistent-dir/t.csv", "cannot write /nonexistent-dir/t.csv"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    cli_result r = cli_run(bad[i][0], 0);
    ck_assert_msg(r.status == 2, "%s: exit %d", bad[i][0], r.status);
    ck_assert_msg(strstr(r.err, bad[i][1]) && cli_lines(r.err) == 1, "%s: %s", bad[i][0], r.err);
    cli_result_free(&r);
  }
  ck_assert_int_ne(access("t.csv", F_OK), 0); /* refused before any file was written */
}
END_TEST

int main(void)
{
  Suite *s = suite_create("nccl");
  CHECK_LOOP_CASE(s, "verify", 120, nccl_algorithms_verify, NSHAPES);
  CHECK_CASE(s, "pipeline", 120, ring_cut_keeps_its_ends, long_ring_model_follows_the_whole_replay,
             one_channel_pays_the_larger_of_link_and_sum, dgx1_ring_drives_the_nvlinks, dgx1_quad_rings_use_every_link,
             nvswitch_channels_as_nccls_search, protocol_ceilings_where_none_given, one_channel_ll_rate_on_hopper,
             ring_across_nodes_waits_on_its_proxy, ring_across_nodes_pays_its_proxy_each_step,
             launch_is_a_rings_with_ll, like_nodes_fold_onto_the_first);
  CHECK_CASE(s, "cli", 60, choice_is_reported, same_command_same_times, bad_input_exits_2);
  return check_run(s);
}
