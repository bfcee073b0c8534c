/* check_nccl_versions.c: NCCL's tuning model at each release --nccl-version knows (2.7.5,
 * 2.12.12, 2.26.2 to 2.30.7): per release a figure its own tables or formulas give, worked out by hand
 * from NCCL's source at its tag (nccl/nccl_proto.c names the files and arrays); 2.26.2's and
 * 2.7.5's predictions over a grid of shapes as they were before the newer releases came; the
 * names a version goes by. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "models/cost_nccl.h"
#include "check_util.h"
#include "cli_run.h"

#define GIB 1073741824.0
#define MIB 1048576.0

/* One node of 8 H100 (18 NVLinks at NCCL's 20.6 GB/s: 370.8), 2 of them with 8 x 400G NICs,
 * one node of 8 B200 (18 x 40.1 = 721.8), 2 and 4 of them with 8 x 800G NICs. */
static cost_nccl_shape shape(const char *version, int nodes, int arch)
{
  double port = arch == NCCL_ARCH_HOPPER ? 370.8e9 : 721.8e9, nic = arch == NCCL_ARCH_HOPPER ? 400e9 : 800e9;
  return (cost_nccl_shape){8 * nodes, nodes, port, nodes > 1 ? nic : 0, 1, 16, nccl_version_find(version), arch,
                           nodes > 1, port};
}

/* NCCL's time (us) of algorithm a with Simple (or protocol p) at `bytes` */
static double t_us(const cost_nccl_shape *s, int a, int p, double bytes)
{
  cost_nccl_pred pred;
  cost_nccl_predict(s, bytes, &pred);
  return 1e6 * pred.time_s[a][p];
}

#define ck_us(got, want) ck_assert_msg(fabs((got) / (want) - 1) < 1e-9, "%.6f us, want %.6f", (got), (want))

/* 2.26.2 (and 2.27.7, whose allreduce model is 2.26.2's): 8 H100, each head 40 GB/s (370.8 /
 * 9 = 41.2 down to the sm90 steps), NVLS at 8 x 40 x 5/6 GB/s, 25 us; over 2 nodes the tree at
 * min(40, 400 / 8) x 8 x 5/6, 25 + 2 x 14 us. */
START_TEST(nvls_2_26_and_2_27)
{
  const char *v[] = {"2.26.2", "2.27.7"};
  for (int i = 0; i < 2; i++) {
    cost_nccl_shape h1 = shape(v[i], 1, NCCL_ARCH_HOPPER), h2 = shape(v[i], 2, NCCL_ARCH_HOPPER);
    ck_us(t_us(&h1, NCCL_ALGO_NVLS, NCCL_PROTO_SIMPLE, GIB), 25 + GIB / (1000 * 8 * 40 * 5.0 / 6));
    ck_us(t_us(&h2, NCCL_ALGO_NVLS_TREE, NCCL_PROTO_SIMPLE, GIB), 53 + GIB / (1000 * 8 * 40 * 5.0 / 6));
  }
}
END_TEST

/* 2.27.7 against 2.26.2: on Blackwell in one node NVLS opens 24 channels (nvls.cc
 * NVLS_NCHANNELS_SM100_NVL), 32 across nodes and before; Blackwell's one-node steps end in 18
 * (2.26.2: 19, the last). */
START_TEST(blackwell_2_27)
{
  cost_nccl_choice c;
  cost_nccl_shape b1 = shape("2.27.7", 1, NCCL_ARCH_BLACKWELL), b2 = shape("2.27.7", 2, NCCL_ARCH_BLACKWELL);
  cost_nccl_choose(&b1, GIB, NCCL_BIT(NCCL_ALGO_NVLS), 0, 0, &c);
  ck_assert_int_eq(c.channels, 24);
  cost_nccl_choose(&b2, GIB, NCCL_BIT(NCCL_ALGO_NVLS_TREE), 0, 0, &c);
  ck_assert_int_eq(c.channels, 32);
  b1.version = nccl_version_find("2.26.2");
  cost_nccl_choose(&b1, GIB, NCCL_BIT(NCCL_ALGO_NVLS), 0, 0, &c);
  ck_assert_int_eq(c.channels, 32);
  ck_assert(nccl_nvls_step(nccl_version_find("2.27.7"), NCCL_ARCH_BLACKWELL, 0, 18.5) == 18.0);
  ck_assert(nccl_nvls_step(nccl_version_find("2.26.2"), NCCL_ARCH_BLACKWELL, 0, 18.5) == 19.0);
}
END_TEST

/* 2.28.9: nvlsEfficiency in place of 5/6. 8 H100 in one node: a head 40 GB/s, the search's
 * bwInter raised 40 -> 50 -> 60 (each under twice 40), a channel min(40 x .85 x 7/8 x 2 = 59.5,
 * 60), algorithm bandwidth 8 x 59.5 x 8 / 14 = 272 GB/s, 25 us. Over 2 nodes: the multi-node
 * steps give the heads 40 too (min(41.2, 50)), bwInter 48 (42, 45, 48 under a NIC's 50), the
 * tree's channel min(59.5, 2 x 48, perChMaxNVLSTreeBws 57.7), 8 x 57.7 x 16 / 30 GB/s, 25 + 2 x
 * 20.9 us. 8 B200: a head 80 (80.2), bwInter 90, min(80 x .74 x 7/8 x 2 = 103.6, 90), 8 x 90 x
 * 8 / 14. */
START_TEST(nvls_2_28)
{
  cost_nccl_shape h1 = shape("2.28.9", 1, NCCL_ARCH_HOPPER), h2 = shape("2.28.9", 2, NCCL_ARCH_HOPPER);
  cost_nccl_shape b1 = shape("2.28.9", 1, NCCL_ARCH_BLACKWELL);
  ck_us(t_us(&h1, NCCL_ALGO_NVLS, NCCL_PROTO_SIMPLE, GIB), 25 + GIB / (1000 * 272.0));
  ck_us(t_us(&h2, NCCL_ALGO_NVLS_TREE, NCCL_PROTO_SIMPLE, GIB), 66.8 + GIB / (1000 * 8 * 57.7 * 16 / 30));
  ck_us(t_us(&b1, NCCL_ALGO_NVLS, NCCL_PROTO_SIMPLE, GIB), 25 + GIB / (1000 * 8 * 90 * 8.0 / 14));
}
END_TEST

/* Blackwell over 2 nodes with 800G NICs (100 GB/s a head), NVLS tree at 64 MiB (2^20 x 64 B).
 * 2.28.9: the multi-node sm100 steps have no 80: a head 48, bwInter 96, a channel min(48 x .74
 * x 7/8 x 2 = 62.16, 192, 96), no size correction. 2.29.7: a head 80, min(103.6, 192, 96) = 96,
 * times the tree's correction .8 (Simple, 2^20). Both 25 + 2 x 20.9 us. */
START_TEST(nvls_tree_blackwell_2_28_2_29)
{
  cost_nccl_shape b28 = shape("2.28.9", 2, NCCL_ARCH_BLACKWELL), b29 = shape("2.29.7", 2, NCCL_ARCH_BLACKWELL);
  double bytes = 64 * MIB;
  ck_us(t_us(&b28, NCCL_ALGO_NVLS_TREE, NCCL_PROTO_SIMPLE, bytes), 66.8 + bytes / (1000 * 8 * 62.16 * 16 / 30));
  ck_us(t_us(&b29, NCCL_ALGO_NVLS_TREE, NCCL_PROTO_SIMPLE, bytes), 66.8 + bytes / (1000 * 8 * 96 * 16 / 30 * .8));
}
END_TEST

/* perChMaxRingLL128Bws of Blackwell in one node: 2.28.9 2 x 36.7, 2.29.7 40. 8 B200, 16
 * channels, 8 in NCCL's search graph, which the cap counts: min(721.8 x .92, 8 x cap), x 8 /
 * 14; 14 + 14 x 1.9 us. */
START_TEST(ring_ll128_blackwell)
{
  cost_nccl_shape b28 = shape("2.28.9", 1, NCCL_ARCH_BLACKWELL), b29 = shape("2.29.7", 1, NCCL_ARCH_BLACKWELL);
  ck_us(t_us(&b28, NCCL_ALGO_RING, NCCL_PROTO_LL128, 64 * MIB), 40.6 + 64 * MIB / (1000 * 8 * 73.4 * 8 / 14));
  ck_us(t_us(&b29, NCCL_ALGO_RING, NCCL_PROTO_LL128, 64 * MIB), 40.6 + 64 * MIB / (1000 * 8 * 40.0 * 8 / 14));
}
END_TEST

/* perChMaxNVLSTreeBws of Blackwell over 4 nodes or more: 2.29.7 43.8, 2.30.7 80. 4 x 8 B200 at
 * 1 GiB (past the correction's 24 entries): a head 80, bwInter 96 (2.30.7 through 86), not
 * doubled beyond 2 nodes; a channel min(103.6, 96, cap), x 8 x 32 / 62; 25 + 4 x 20.9 us. */
START_TEST(nvls_tree_blackwell_2_29_2_30)
{
  cost_nccl_shape b29 = shape("2.29.7", 4, NCCL_ARCH_BLACKWELL), b30 = shape("2.30.7", 4, NCCL_ARCH_BLACKWELL);
  ck_us(t_us(&b29, NCCL_ALGO_NVLS_TREE, NCCL_PROTO_SIMPLE, GIB), 108.6 + GIB / (1000 * 8 * 43.8 * 32 / 62));
  ck_us(t_us(&b30, NCCL_ALGO_NVLS_TREE, NCCL_PROTO_SIMPLE, GIB), 108.6 + GIB / (1000 * 8 * 80.0 * 32 / 62));
  ck_assert(nccl_nvls_raised(b30.version, NCCL_ARCH_BLACKWELL, 1, 80, 85) == 80.0); /* 86 above the NIC */
  ck_assert(nccl_nvls_raised(b30.version, NCCL_ARCH_BLACKWELL, 1, 80, 90) == 86.0);
}
END_TEST

/* FNV-1a over "%.12g" of every prediction on a grid of shapes, sizes, algorithms, protocols */
static uint64_t grid_digest(const nccl_version *v)
{
  static const cost_nccl_shape shapes[] = {
      /* ranks, nodes, intra_bw, inter_bw, nvlink, channels, version, arch, ll128_net, nvls_bw */
      {8, 1, 120e9, 0, 1, 12, NULL, NCCL_ARCH_VOLTA, 0, 0},          /* DGX-1 */
      {8, 1, 240e9, 0, 1, 24, NULL, NCCL_ARCH_AMPERE, 0, 0},         /* A100 */
      {16, 16, 2.9375e9, 2.9375e9, 0, 2, NULL, NCCL_ARCH_VOLTA, 0, 0},
      {32, 4, 240e9, 100e9, 1, 8, NULL, NCCL_ARCH_AMPERE, 1, 0},
      {8, 1, 370.8e9, 0, 1, 16, NULL, NCCL_ARCH_HOPPER, 0, 370.8e9}, /* HGX H100 */
      {16, 2, 370.8e9, 400e9, 1, 16, NULL, NCCL_ARCH_HOPPER, 1, 370.8e9},
      {64, 8, 370.8e9, 400e9, 1, 16, NULL, NCCL_ARCH_HOPPER, 1, 370.8e9},
      {4, 1, 721.8e9, 0, 1, 16, NULL, NCCL_ARCH_BLACKWELL, 0, 721.8e9}, /* B200 */
      {8, 1, 721.8e9, 0, 1, 16, NULL, NCCL_ARCH_BLACKWELL, 0, 721.8e9},
      {16, 2, 721.8e9, 800e9, 1, 16, NULL, NCCL_ARCH_BLACKWELL, 1, 721.8e9},
      {32, 4, 721.8e9, 800e9, 1, 16, NULL, NCCL_ARCH_BLACKWELL, 1, 721.8e9},
  };
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
    for (double bytes = 8; bytes <= 16.0 * (1 << 30); bytes *= 8) {
      cost_nccl_shape s = shapes[i];
      s.version = v;
      cost_nccl_pred p;
      cost_nccl_predict(&s, bytes, &p);
      for (int a = 0; a < COST_NCCL_NALGO; a++)
        for (int q = 0; q < COST_NCCL_NPROTO; q++) {
          char text[40];
          snprintf(text, sizeof text, "%.12g;", p.time_s[a][q]);
          for (const char *c = text; *c; c++)
            h = (h ^ (unsigned char)*c) * 1099511628211ull;
        }
      cost_nccl_choice ch;
      cost_nccl_choose(&s, bytes, 0, 0, 0, &ch);
      char text[64];
      snprintf(text, sizeof text, "%d/%d/%d/%.12g;", ch.algo, ch.proto, ch.channels, ch.time_s);
      for (const char *c = text; *c; c++)
        h = (h ^ (unsigned char)*c) * 1099511628211ull;
    }
  return h;
}

/* 2.12.12 (the 2.7 formulas with 2.8's caps), 8 A100 in one node at 240 GB/s, 24 channels: the
 * A100's 235 cap; the ring's LL at min(87.7, 235 / 4), x 8 / 14, 3.6 + 14 x .47 us; LL128 at
 * min(235 x .92, 24 x 20), 10 + 14 x 1.9 us; the tree's Simple at min(235 x .92, 24 x 24.0) / 2
 * x the correction at 1 MiB (2^14 x 64 B: .5), 2 x 7 x 28 us. 4 x 8 A100 with 100 GB/s
 * between nodes, 8 channels: the Simple ring's 8.4 + (62 - 2 x 4) x 3.4 + 2 x 4 x 28 us (NCCL
 * counts 2 x nodes network steps), x 1.9 past 32 / 16 x 64 KiB. 8 H100: no LL128 (compute
 * capability 7.0 and 8.0 only). */
START_TEST(ampere_2_12)
{
  cost_nccl_shape a = {8, 1, 240e9, 0, 1, 24, nccl_version_find("2.12"), NCCL_ARCH_AMPERE, 0, 0};
  ck_us(t_us(&a, NCCL_ALGO_RING, NCCL_PROTO_LL, MIB), 10.18 + MIB / (1000 * 58.75 * 8 / 14));
  ck_us(t_us(&a, NCCL_ALGO_RING, NCCL_PROTO_LL128, MIB), 36.6 + MIB / (1000 * 235 * .92 * 8 / 14));
  ck_us(t_us(&a, NCCL_ALGO_TREE, NCCL_PROTO_SIMPLE, MIB), 392 + MIB / (1000 * 235 * .92 / 2 * .5));
  cost_nccl_shape m = {32, 4, 240e9, 100e9, 1, 8, nccl_version_find("2.12"), NCCL_ARCH_AMPERE, 1, 0};
  ck_us(t_us(&m, NCCL_ALGO_RING, NCCL_PROTO_SIMPLE, 65536), 416 + 65536 / (1000 * 100 * 32.0 / 62));
  ck_us(t_us(&m, NCCL_ALGO_RING, NCCL_PROTO_SIMPLE, GIB), 416 * 1.9 + GIB / (1000 * 100 * 32.0 / 62));
  cost_nccl_shape h = shape("2.12.12", 1, NCCL_ARCH_HOPPER);
  ck_assert(isnan(t_us(&h, NCCL_ALGO_RING, NCCL_PROTO_LL128, MIB)));
  ck_assert(!isnan(t_us(&h, NCCL_ALGO_RING, NCCL_PROTO_SIMPLE, MIB)));
  ck_assert(isnan(t_us(&h, NCCL_ALGO_NVLS, NCCL_PROTO_SIMPLE, MIB))); /* no NVLS before 2.17 */
}
END_TEST

/* 2.26.2, one V100 a node on 4 nodes of 100 Gb/s (12.5 GB/s), 2 channels (1 in NCCL's search
 * graph): NCCL's tree search takes its simple pattern with one GPU a node, and the tuning then
 * takes 15% off the tree (maxTreePattern): Simple at min(12.5 x .92, 1 x 10.0 (Volta, 4 nodes))
 * x .85, x 1/2; 8.4 + 2 x 2 x 14 us. Two GPUs a node (PCIe between them) keep the balanced
 * pattern: 10.0 x 1/2, 8.4 + 2 x (4.0 + 2 x 14) us. */
START_TEST(tree_one_gpu_a_node)
{
  cost_nccl_shape one = {4, 4, 12.5e9, 12.5e9, 0, 2, nccl_version_find("2.26.2"), NCCL_ARCH_VOLTA, 0, 0};
  cost_nccl_shape two = {8, 4, 24e9, 12.5e9, 0, 2, nccl_version_find("2.26.2"), NCCL_ARCH_VOLTA, 0, 0};
  ck_us(t_us(&one, NCCL_ALGO_TREE, NCCL_PROTO_SIMPLE, GIB), 64.4 + GIB / (1000 * 10.0 * .85 / 2));
  ck_us(t_us(&two, NCCL_ALGO_TREE, NCCL_PROTO_SIMPLE, GIB), 72.4 + GIB / (1000 * 10.0 / 2));
}
END_TEST

/* 2.26.2's and 2.7.5's predictions and choices over the grid, as the code before 2.27.7 to
 * 2.30.7 came gave them (its digest then, both taken again once the per-channel caps
 * counted the search graph's channels, 2.26.2's once the tree with one GPU a node lost 15%);
 * the grid sees a release's change (2.28.9's). */
START_TEST(old_versions_unchanged)
{
  ck_assert_uint_eq(grid_digest(nccl_version_find("2.26.2")), 0xabf7df5a6757a281ull);
  ck_assert_uint_eq(grid_digest(nccl_version_find("2.7.5")), 0xf5ee7beea4ee8750ull);
  ck_assert_uint_ne(grid_digest(nccl_version_find("2.28.9")), 0xabf7df5a6757a281ull);
}
END_TEST

/* Names: with or without the release suffix, a series for its latest known release; a
 * version without tables, or a bare major, is none. */
START_TEST(version_names)
{
  ck_assert_str_eq(nccl_version_find("2.30")->name, "2.30.7-1");
  ck_assert_str_eq(nccl_version_find("2.28")->name, "2.28.9-1");
  ck_assert_str_eq(nccl_version_find("2.7")->name, "2.7.5-1");
  ck_assert_str_eq(nccl_version_find("2.27.7-1")->name, "2.27.7-1");
  ck_assert_str_eq(nccl_version_find("2.29.7")->commit, "b91894bd");
  ck_assert_ptr_null(nccl_version_find("2.30.3"));
  ck_assert_ptr_null(nccl_version_find("2.31"));
  ck_assert_ptr_null(nccl_version_find("2"));
  ck_assert_ptr_null(nccl_version_find("2.2"));
  ck_assert_str_eq(nccl_version_default()->name, "2.26.2-1");
  /* the releases a log's lines date it to: the latest modelled among them, else the nearest */
  int inside;
  ck_assert_str_eq(nccl_version_between("2.3.5", "2.12.12", &inside)->name, "2.12.12-1");
  ck_assert_int_eq(inside, 1);
  const nccl_version *among[4];
  ck_assert_int_eq(nccl_versions_between("2.3.5", "2.12.12", among, 4), 2);
  ck_assert_str_eq(among[0]->name, "2.12.12-1");
  ck_assert_str_eq(among[1]->name, "2.7.5-1");
  ck_assert_int_eq(nccl_versions_between("2.3.5", "2.12.12", among, 1), 1);
  ck_assert_str_eq(nccl_version_between("2.26.0", "2.29.9", &inside)->name, "2.29.7-1");
  ck_assert_int_eq(inside, 1);
  ck_assert_str_eq(nccl_version_between("2.13.4", "2.19.4", &inside)->name, "2.12.12-1"); /* 1 series below, 7 above */
  ck_assert_int_eq(inside, 0);
  ck_assert_str_eq(nccl_version_between("2.14.3", "2.24.3", &inside)->name, "2.12.12-1");
  ck_assert_int_eq(inside, 0);
  ck_assert_str_eq(nccl_version_between("2.17.1", "2.25.1", &inside)->name, "2.26.2-1");
  ck_assert_int_eq(inside, 0);
  ck_assert_ptr_null(nccl_version_between("2.12.12", "2.3.5", &inside));
  ck_assert_ptr_null(nccl_version_between("two", "2.3.5", &inside));
  ck_assert_str_eq(nccl_version_list(), "2.30.7, 2.29.7, 2.28.9, 2.27.7, 2.26.2 (default), 2.12.12, 2.7.5");
  ck_assert_str_eq(nccl_version_find("2.12")->name, "2.12.12-1");
  cli_result h = cli_run("--help", 0); /* the help names every release known */
  char list[160];
  snprintf(list, sizeof list, "%s", nccl_version_list());
  for (char *v = strtok(list, ", "); v; v = strtok(NULL, ", "))
    if (v[0] != '(')
      ck_assert_msg(h.out && strstr(h.out, v), "--help does not name %s", v);
  cli_result_free(&h);
  cli_result r = cli_run("--platform hgx-h100-rails --nodes 1 --algo nccl --size 1G --mode model --nccl-version 2.30", 1);
  ck_assert_msg(r.status == 0 && r.json, "exit %d: %s", r.status, r.err ? r.err : "");
  const cJSON *m = cJSON_GetObjectItemCaseSensitive(r.json, "model");
  ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(m, "nccl_version")->valuestring, "2.30.7-1");
  cli_result_free(&r);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("nccl_versions");
  CHECK_CASE(s, "model", 60, tree_one_gpu_a_node, nvls_2_26_and_2_27, blackwell_2_27, nvls_2_28,
             nvls_tree_blackwell_2_28_2_29, ring_ll128_blackwell, nvls_tree_blackwell_2_29_2_30, ampere_2_12,
             old_versions_unchanged);
  CHECK_CASE(s, "names", 60, version_names);
  return check_run(s);
}
