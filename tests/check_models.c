/* check_models.c: every cost model against values worked out by hand on a small star platform,
 * SMPI's piecewise settings, link sharing, NCCL's model and the --algo best choice. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/cost_best.h"
#include "models/cost_cover.h"
#include "models/cost_ctx.h"
#include "check_util.h"

/* The hand platform: M nodes of G GPUs; each GPU a private link into its node (100 GB/s,
 * 1 us, one link object per direction), each node a NIC (10 GB/s, 4 us per direction).
 * Intra-node: 2 us, 100 GB/s; inter-node: 10 us, 10 GB/s. Sums at 100 GB/s, copies 200 GB/s. */
enum { M = 3, G = 2 };
#define US 1e-6
static cost_net net;

static int gpu_link(int node, int gpu, int down) { return (node * G + gpu) * 2 + down; }
static int nic_link(int node, int down) { return 2 * M * G + 2 * node + down; }

static void set_route(topo_route *r, int a, int j, int b, int k)
{
  int l[4], n = 0;
  l[n++] = gpu_link(a, j, 0);
  if (a != b) {
    l[n++] = nic_link(a, 0);
    l[n++] = nic_link(b, 1);
  }
  l[n++] = gpu_link(b, k, 1);
  ck_assert_int_eq(topo_route_set(r, l, n, a == b ? 2 * US : 10 * US, a == b ? 100e9 : 10e9), 0);
}

static topo_route *table(int a, int b)
{
  topo_route *t = topo_route_table_new(G);
  for (int j = 0; j < G; j++)
    for (int k = 0; k < G; k++)
      if (a != b || j != k)
        set_route(&t[j * G + k], a, j, b, k);
  return t;
}

/* nnodes: 3 (routes stand for every pair of nodes) or 2 (routes used as they are). */
static void build(int nnodes)
{
  cost_net_init(&net);
  net.rt.nnodes = nnodes;
  net.rt.gpus = G;
  net.rt.nlinks = 2 * M * G + 2 * M;
  net.rt.links = calloc((size_t)net.rt.nlinks, sizeof *net.rt.links);
  for (int i = 0; i < net.rt.nlinks; i++)
    net.rt.links[i] = i < 2 * M * G ? (topo_link){100e9, 1 * US, 1} : (topo_link){10e9, 4 * US, 1};
  net.rt.intra[0] = table(0, 0);
  if (nnodes == 2)
    net.rt.intra[1] = table(1, 1);
  net.rt.inter[TOPO_R01] = table(0, 1);
  net.rt.inter[TOPO_R10] = table(1, 0);
  if (nnodes >= 3) {
    net.rt.inter[TOPO_R02] = table(0, 2);
    net.rt.inter[TOPO_R20] = table(2, 0);
  }
  net.compute.reduce_bw = 100e9;
  net.compute.copy_bw = 200e9;
  net.weight_s = 0; /* shares then follow the routes' latencies only */
}

static cost_ctx *ctx(int nodes, int rpn)
{
  cost_shape s = {.nodes = nodes, .rpn = rpn, .elem = 4, .segment_bytes = 1 << 20, .channels = 1, .density = 0.01,
                   .timing = COST_TIMING_BARRIER};
  cost_ctx *c = NULL;
  ck_assert_int_eq(cost_ctx_new(&net, &s, &c), 0);
  return c;
}

/* Predicts and checks the total and the phases (us), to 1e-9 relative. */
static void expect(cost_ctx *c, const char *algo, uint64_t bytes, double total_us, const double *phase_us, int n)
{
  cost_result r;
  ck_assert_int_eq(cost_predict(c, algo, bytes, &r), 0);
  ck_assert_msg(fabs(r.time_s / US - total_us) < 1e-9 * total_us, "%s: %.9f us, expected %.9f", algo, r.time_s / US,
                total_us);
  ck_assert_int_eq(r.nphases, n);
  for (int i = 0; i < n; i++)
    ck_assert_msg(fabs(r.phase_s[i] / US - phase_us[i]) < 1e-9 * total_us, "%s phase %s: %.9f us, expected %.9f",
                  algo, r.phase_name[i], r.phase_s[i] / US, phase_us[i]);
}

static void teardown(void) { cost_net_free(&net); }

START_TEST(ring_is_the_slowest_hop_2p_minus_2_times)
{
  build(3);
  cost_ctx *c = ctx(3, 2);
  /* p = 6, 1e6-byte chunks: inter hop 10 + 100 us, sums 10 us, 10 us of start skew */
  const double ph[] = {5 * (110 + 10) + 10, 5 * 110};
  expect(c, "ring", 6000000, 1160, ph, 2);
  cost_ctx_free(c);
}
END_TEST

START_TEST(hier_shares_the_nic_between_a_nodes_rings)
{
  build(3);
  cost_ctx *c = ctx(3, 2);
  /* intra: 3e6-byte halves, 2 + 30 us and a 30 us sum; inter: two 1e6-byte messages per NIC
   * at 5 GB/s each, 10 + 200 us, 4 steps and 2 sums; skew 2 us inside node 0, 10 across */
  const double ph[] = {62 + 2, 2 * (2 * 210 + 10) + 8, 32};
  expect(c, "hier", 6000000, 964, ph, 3);
  cost_ctx_free(c);
}
END_TEST

START_TEST(rhd_counts_the_messages_on_each_nic)
{
  build(3);
  cost_ctx *c = ctx(2, 2);
  /* 4e6 bytes: a 20 us copy; distance 2 crosses nodes, 2 messages of 2e6 bytes per NIC:
   * 10 + 400 us, sum 20; distance 1 in the node: 2 + 10 us, sum 10 */
  const double ph[] = {20 + 430 + 22 + 10, 410 + 12};
  expect(c, "rhd", 4000000, 904, ph, 2);
  cost_ctx_free(c);
}
END_TEST

START_TEST(naive_funnels_everything_through_rank_0)
{
  build(3);
  cost_ctx *c = ctx(2, 2);
  /* 4e6 bytes: ranks 2 and 3 share node 0's NIC (5 GB/s each, 10 + 800 us, starting 10 us
   * late); copy 20 + 3 sums of 40 us; the broadcast the same way back, sent rendezvous */
  const double ph[] = {820 + 140, 810};
  expect(c, "naive", 4000000, 1770, ph, 2);
  cost_ctx_free(c);
}
END_TEST

START_TEST(trees_pipeline_their_segments)
{
  build(3);
  cost_ctx *c = ctx(2, 1);
  /* tree: rank 0 the child of rank 1, 4 segments of 1 MiB, hop 10 + 104.8576 us, sum
   * 10.48576 us: reduce = first hop + sum + 3 hops, bcast = 4 hops, + 10 us skew */
  double hop = 10 + 104.8576, sum = 10.48576;
  const double tr[] = {hop + sum + 3 * hop, 4 * hop + 10};
  expect(c, "tree", 4194304, tr[0] + tr[1], tr, 2);
  /* twotree: each tree 2e6 bytes, a 1 MiB segment then 951424 bytes, on opposite link
   * directions (no sharing); rank 0, the root of tree 1, sees the skew in its reduce */
  double last = 10 + 95.1424;
  const double tw[] = {hop + sum + last + 10, hop + last};
  expect(c, "twotree", 4000000, tw[0] + tw[1], tw, 2);
  cost_ctx_free(c);
}
END_TEST

START_TEST(topk_models_charge_selection_and_pairs)
{
  build(3);
  net.compute.topk_a = 10 * US;
  net.compute.topk_b = 1e-9;
  net.compute.mstopk_a = 100 * US;
  net.compute.mstopk_b = 1e-11;
  net.compute.scatter_a = 5 * US;
  net.compute.scatter_b = 1e-9;
  cost_ctx *c = ctx(2, 1);
  /* topk, 1e6 elements, k = 10000: select 10 + 1000 us; pairs copied (0.2 + 0.2 us), one
   * ring step each of 40000 bytes (10 + 4 us); zero 10 us, scatter-add 5 + 20 us; skew 10 */
  const double tk[] = {1010, 0.4 + 28 + 10, 35};
  expect(c, "topk", 4000000, 1083.4, tk, 3);
  cost_ctx_free(c);
  c = ctx(2, 2);
  /* hitopk, 2 nodes x 2: shard 500000, k = 5000. intra-rs 2 + 20 us and a 20 us sum;
   * MSTopK 100 + 20 us; pairs copied 0.2 us, two inter steps of 20000 bytes with both ranks
   * of a node on its NIC (10 + 4 us each), union: zero 5 + scatter 15 + compaction 5;
   * unions of 10000 pairs: 3 intra steps (2.00004 + 2.4 + 2.4 us), zero 10, 2 scatters 15 */
  const double ht[] = {42 + 2, 120, 0.2 + 28 + 25 + 8, 6.80004 + 10 + 30};
  expect(c, "hitopk", 4000000, 272.00004, ht, 4);
  cost_ctx_free(c);
}
END_TEST

START_TEST(two_node_platforms_use_their_routes_as_they_are)
{
  build(2);
  cost_ctx *c = ctx(2, 2);
  const double ph[] = {20 + 430 + 22 + 10, 410 + 12};
  expect(c, "rhd", 4000000, 904, ph, 2);
  cost_ctx_free(c);
  c = ctx(1, 2); /* one node: intra only, a 2 us skew */
  const double r1[] = {(2 + 20) + 20 + 2, 22};
  expect(c, "ring", 4000000, 66, r1, 2);
  cost_ctx_free(c);
}
END_TEST

START_TEST(one_rank_copies_and_no_model_for_mpi)
{
  build(3);
  cost_ctx *c = ctx(1, 1);
  const double ph[] = {20};
  expect(c, "ring", 4000000, 20, ph, 1);
  cost_result r;
  ck_assert_int_eq(cost_predict(c, "mpi", 4096, &r), SA_ENOMODEL);
  ck_assert(!cost_has_model("mpi") && cost_has_model("hitopk"));
  ck_assert_int_eq(cost_predict(c, "tree", 0, &r), 0);
  ck_assert(r.time_s == 0);
  cost_ctx_free(c);
}
END_TEST

START_TEST(sharing_follows_the_weighted_max_min)
{
  build(3);
  cost_ctx *c = ctx(2, 2);
  /* three messages into rank 0: node 0's NIC holds the two remote ones to 5 GB/s each, the
   * local one takes the 90 GB/s left of rank 0's link, then finishes first */
  cost_flow f[] = {{1, 0}, {2, 0}, {3, 0}};
  cost_hop each[3];
  ck_assert_int_eq(cost_pattern(c, f, 3, each, NULL), 0);
  ck_assert_double_eq_tol(each[0].kappa, 1 / 90e9, 1e-22);
  ck_assert_double_eq_tol(each[1].kappa, 1 / 5e9, 1e-20);
  ck_assert_double_eq_tol(each[2].kappa, 1 / 5e9, 1e-20);
  cost_ctx_free(c);
  /* with weight-S, a NIC shared by a short and a long route splits by their penalties */
  net.weight_s = 8775;
  c = ctx(2, 2);
  cost_flow g[] = {{0, 2}, {1, 3}};
  ck_assert_int_eq(cost_pattern(c, g, 2, each, NULL), 0);
  ck_assert_double_eq_tol(each[0].kappa, each[1].kappa, 1e-22); /* alike routes: alike shares */
  cost_ctx_free(c);
}
END_TEST

START_TEST(smpi_settings_follow_simgrid)
{
  sa_piecewise pw;
  ck_assert_int_eq(sa_piecewise_parse("1000:2;0:1", SA_PIECE_FACTOR, &pw), 0);
  ck_assert(sa_piecewise_at(&pw, 999) == 1);
  ck_assert(sa_piecewise_at(&pw, 1000) == 2); /* a factor holds from its threshold */
  ck_assert_int_eq(sa_piecewise_parse("4:2;100:3", SA_PIECE_FACTOR, &pw), 0);
  ck_assert(sa_piecewise_at(&pw, 0) == 2); /* the first piece also below its threshold */
  ck_assert_int_eq(sa_piecewise_parse("0:1e-6:2e-9;1000:5e-6:0", SA_PIECE_OVERHEAD, &pw), 0);
  ck_assert_double_eq_tol(sa_piecewise_at(&pw, 1000), 1e-6 + 2e-6, 1e-15); /* an overhead only above it */
  ck_assert_double_eq_tol(sa_piecewise_at(&pw, 1001), 5e-6, 1e-15);
  ck_assert_int_eq(sa_piecewise_parse("0.97", SA_PIECE_FACTOR, &pw), 0);
  ck_assert(pw.n == 0 && sa_piecewise_at(&pw, 5) == 0.97);
  char buf[128];
  ck_assert_int_eq(sa_piecewise_parse("0:1;65536:0.5", SA_PIECE_FACTOR, &pw), 0);
  sa_piecewise_format(&pw, buf, sizeof buf);
  ck_assert_str_eq(buf, "0:1;65536:0.5");
  const char *bad[] = {"", "x", "0:", "0:1;;", "0:1:", "1:2;3", "0:nan"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    ck_assert_int_eq(sa_piecewise_parse(bad[i], SA_PIECE_FACTOR, &pw), SA_EPARSE);

  /* factors and overhead reach the hop: 2000 bytes over 10 us and 10 GB/s */
  build(3);
  sa_piecewise_parse("0:1;1000:3", SA_PIECE_FACTOR, &net.lat_factor);
  sa_piecewise_parse("0:1;1000:2", SA_PIECE_FACTOR, &net.bw_factor);
  sa_piecewise_parse("0:1e-6:0", SA_PIECE_OVERHEAD, &net.recv_overhead);
  cost_ctx *c = ctx(2, 1);
  cost_hop h = {10 * US, 1 / 10e9};
  ck_assert_double_eq_tol(cost_hop_time(c, h, 2000), 30 * US + 0.1 * US + 1 * US, 1e-15);
  ck_assert_double_eq_tol(cost_hop_time(c, h, 70000), 30 * US + 3.5 * US, 1e-15); /* rendezvous: no overhead */
  cost_ctx_free(c);
}
END_TEST

START_TEST(nccl_model_by_hand)
{
  /* 16 nodes x 1 GPU over 2.9375 GB/s, 64 MiB: Simple wins both; ring latency 8.4 + 30 x 9.6
   * us, times 1.9 past the plateau size; tree: 0.9 x bw, times 0.5, corrected by 0.8 at
   * 2^20 x 64 bytes, latency 2 x 4 x 50 us */
  cost_nccl_shape s = {16, 16, 2.9375e9, 2.9375e9, 0, 2, nccl_version_find("2.7.5"), NCCL_ARCH_VOLTA, 0, 0};
  cost_nccl_pred p;
  double bytes = 67108864;
  cost_nccl_predict(&s, bytes, &p);
  ck_assert_int_eq(p.ring_proto, COST_NCCL_SIMPLE);
  ck_assert_double_eq_tol(p.ring_s, (296.4 * 1.9 + bytes / (1000 * 2.9375 * 16 / 30)) * 1e-6, 1e-12);
  ck_assert_double_eq_tol(p.tree_s, (400 + bytes / (1000 * 2.9375 * 0.9 * 0.5 * 0.8)) * 1e-6, 1e-12);
  ck_assert(isnan(p.time_s[COST_NCCL_RING][COST_NCCL_LL128])); /* LL128 off across nodes */
  /* small messages go LL: ring latency 3.6 + 30 x 2.7 us */
  cost_nccl_predict(&s, 1024, &p);
  ck_assert_int_eq(p.ring_proto, COST_NCCL_LL);
  ck_assert_double_eq_tol(p.time_s[COST_NCCL_RING][COST_NCCL_LL], (84.6 + 1024 / (1000 * 2.9375 / 4 * 16 / 30)) * 1e-6,
                          1e-12);
  s.ranks = 1;
  cost_nccl_predict(&s, 1024, &p);
  ck_assert(isnan(p.ring_s) && isnan(p.tree_s));
}
END_TEST

START_TEST(nccl_2_26_model_and_choice_by_hand)
{
  /* one node of 8 Ampere GPUs, 24 channels carrying 240 GB/s over NVLink (v2.26.2 tables):
   * ring LL latency 6.6 + 14 x 0.6 us, bandwidth min(llMaxBw 87.7, 240 / 2) x 8 / 14; ring
   * Simple 8.4 + 14 x 3.4 us at 240 x 8 / 14 GB/s; tree LL 6.8 + 2 x 7 x 0.6 us, no size
   * correction below 64 bytes (log2 of 0 is -1 for NCCL) */
  cost_nccl_shape s = {8, 1, 240e9, 0, 1, 24, NULL, NCCL_ARCH_AMPERE, 0, 0};
  cost_nccl_pred p;
  cost_nccl_predict(&s, 8, &p);
  ck_assert_double_eq_tol(p.time_s[COST_NCCL_RING][COST_NCCL_LL], (15.0 + 8 / (1000 * 87.7 * 8 / 14)) * 1e-6, 1e-12);
  ck_assert_double_eq_tol(p.time_s[COST_NCCL_TREE][COST_NCCL_LL],
                          (15.2 + 8 / (1000 * fmin(240 * .92, 24 * 24.0) / 3.8 * 0.5)) * 1e-6, 1e-12);
  double gib = 1073741824;
  cost_nccl_predict(&s, gib, &p);
  ck_assert_double_eq_tol(p.time_s[COST_NCCL_RING][COST_NCCL_SIMPLE], (56.0 + gib / (1000 * 240.0 * 8 / 14)) * 1e-6,
                          1e-12);
  cost_nccl_choice c;
  cost_nccl_choose(&s, 8, 0, 0, 0, &c);
  ck_assert(c.algo == COST_NCCL_RING && c.proto == COST_NCCL_LL && c.channels == 1);
  cost_nccl_choose(&s, gib, 0, 0, 0, &c);
  ck_assert(c.algo == COST_NCCL_RING && c.proto == COST_NCCL_SIMPLE && c.channels == 24);
  /* 64 KiB of LL over 24 channels of 512 threads: 8 x 8 bytes a thread keeps 2 */
  cost_nccl_choose(&s, 65536, NCCL_BIT(COST_NCCL_RING), NCCL_BIT(COST_NCCL_LL), 0, &c);
  ck_assert_int_eq(c.channels, 2);
  /* forced: LL128 across nodes without a NIC next to the GPU is off by default, on if asked */
  s.nodes = 2;
  s.inter_bw = 100e9;
  cost_nccl_predict(&s, gib, &p);
  ck_assert(isnan(p.time_s[COST_NCCL_RING][COST_NCCL_LL128]));
  cost_nccl_choose(&s, gib, NCCL_BIT(COST_NCCL_RING), NCCL_BIT(COST_NCCL_LL128), 7, &c);
  ck_assert(c.proto == COST_NCCL_LL128 && c.channels == 7 && c.time_s > 0);
}
END_TEST

START_TEST(best_picks_the_smallest_prediction)
{
  /* 3 candidates x 5 sizes; NaN is no prediction; ties go to the first */
  const double t[] = {1, 2, 9, 9, NAN, /* a */
                      2, 1, 1, 9, NAN, /* b */
                      3, 3, 1, 1, NAN};
  int w[5];
  ck_assert_int_eq(cost_best_pick(t, 3, 5, w), 4);
  const int want[] = {0, 1, 1, 2, -1};
  for (int i = 0; i < 5; i++)
    ck_assert_int_eq(w[i], want[i]);
  const uint64_t sizes[] = {8, 16, 32, 64, 128};
  cost_range r[5];
  ck_assert_int_eq(cost_best_ranges(sizes, w, 5, r), 3);
  ck_assert(r[0].lo == 8 && r[0].hi == 8 && r[0].algo == 0);
  ck_assert(r[1].lo == 16 && r[1].hi == 32 && r[1].algo == 1);
  ck_assert(r[2].lo == 64 && r[2].hi == 64 && r[2].algo == 2);
}
END_TEST

START_TEST(bad_layouts_are_refused)
{
  build(3);
  cost_ctx *c = NULL;
  cost_shape s = {.nodes = 4, .rpn = 2, .elem = 4, .segment_bytes = 1 << 20, .channels = 1, .density = 0.01,
                   .timing = COST_TIMING_BARRIER};
  ck_assert_int_eq(cost_ctx_new(&net, &s, &c), SA_ELAYOUT); /* more nodes than the platform */
  s.nodes = 2;
  s.rpn = 3;
  ck_assert_int_eq(cost_ctx_new(&net, &s, &c), SA_ELAYOUT);
  s.rpn = 0;
  ck_assert_int_eq(cost_ctx_new(&net, &s, &c), SA_EINVAL);
  ck_assert_ptr_null(c);
  ck_assert_str_eq(sa_strerror(SA_ENOMODEL), "no cost model for this algorithm");
}
END_TEST

/* models/cost_cover.c on the hand platform: alike nodes and private NICs hold the models'
 * assumptions; a node whose GPUs are 3x farther apart, then a spine every node's messages
 * cross, break them, by the factors worked out here. */
START_TEST(coverage_says_where_the_assumptions_break)
{
  build(3);
  net.rt.intra[1] = table(1, 1);
  net.rt.intra[2] = table(2, 2);
  net.rt.inter[TOPO_R12] = table(1, 2);
  net.rt.inter[TOPO_R21] = table(2, 1);
  cost_shape shape = {.nodes = 3, .rpn = 2, .elem = 4, .segment_bytes = 1 << 20, .channels = 1, .density = 0.01,
                   .timing = COST_TIMING_BARRIER};
  cost_cover w;
  cost_cover_check(&net, &shape, &w);
  ck_assert_int_eq(w.n, 0);
  /* node 2's GPUs: 6 us apart instead of 2 */
  for (int i = 0; i < G * G; i++)
    net.rt.intra[2][i].lat *= 3;
  cost_cover_check(&net, &shape, &w);
  ck_assert_int_eq(w.n, 1);
  ck_assert_double_eq_tol(w.factor[0], 3.0, 1e-12);
  ck_assert_ptr_nonnull(strstr(w.text[0], "node 2's routes between its GPUs differ from node 0's by up to 3.00x in latency"));
  for (int i = 0; i < G * G; i++)
    net.rt.intra[2][i].lat /= 3;
  /* a spine of 10 GB/s on every route between nodes: 3 nodes at 10 GB/s each need 3x it */
  int spine = net.rt.nlinks++;
  net.rt.links = realloc(net.rt.links, sizeof *net.rt.links * (size_t)net.rt.nlinks);
  net.rt.links[spine] = (topo_link){10e9, 1 * US, 1};
  for (int t = 0; t < TOPO_NPAIRS; t++)
    for (int i = 0; i < G * G; i++) {
      topo_route *r = &net.rt.inter[t][i];
      int l[5] = {r->link[0], r->link[1], spine, r->link[2], r->link[3]};
      ck_assert_int_eq(topo_route_set(r, l, 5, r->lat, r->bw), 0);
    }
  cost_cover_check(&net, &shape, &w);
  ck_assert_int_eq(w.n, 1);
  ck_assert_double_eq_tol(w.factor[0], 3.0, 1e-12);
  ck_assert_ptr_nonnull(strstr(w.text[0], "share a link between them (10 GB/s)"));
  shape.nodes = 2; /* two of the three nodes: still a copy each, twice what the spine carries */
  cost_cover_check(&net, &shape, &w);
  ck_assert_int_eq(w.n, 1);
  ck_assert_double_eq_tol(w.factor[0], 2.0, 1e-12);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("models");
  TCase *tc = tcase_create("by hand");
  tcase_add_checked_fixture(tc, NULL, teardown);
  const TTest *tests[] = {ring_is_the_slowest_hop_2p_minus_2_times,
                          hier_shares_the_nic_between_a_nodes_rings,
                          rhd_counts_the_messages_on_each_nic,
                          naive_funnels_everything_through_rank_0,
                          trees_pipeline_their_segments,
                          topk_models_charge_selection_and_pairs,
                          two_node_platforms_use_their_routes_as_they_are,
                          one_rank_copies_and_no_model_for_mpi,
                          sharing_follows_the_weighted_max_min,
                          smpi_settings_follow_simgrid,
                          coverage_says_where_the_assumptions_break,
                          bad_layouts_are_refused};
  for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++)
    tcase_add_test(tc, tests[i]);
  suite_add_tcase(s, tc);
  CHECK_CASE(s, "nccl and best", 10, nccl_model_by_hand, nccl_2_26_model_and_choice_by_hand,
             best_picks_the_smallest_prediction);
  return check_run(s);
}
