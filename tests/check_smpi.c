/* check_smpi.c: the real binary end to end: verified results for many rank counts and
 * counts, the acceptance numbers, bad input, failed simulations, determinism. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_util.h"
#include "cli_run.h"

/* Every result of a --verify run is verified with zero error, and there are n of them. */
static void assert_all_verified(const cli_result *r, int n, const char *what)
{
  ck_assert_msg(r->status == 0, "%s: exit %d: %s", what, r->status, r->err ? r->err : "");
  ck_assert_msg(r->json != NULL, "%s: no JSON", what);
  const cJSON *res = cJSON_GetObjectItemCaseSensitive(r->json, "results");
  ck_assert_int_eq(cJSON_GetArraySize(res), n);
  for (int i = 0; i < n; i++) {
    const cJSON *p = cli_point(r, i);
    ck_assert_msg(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "verified")), "%s: point %d (%s, %g bytes) wrong",
                  what, i, cJSON_GetObjectItemCaseSensitive(p, "algo")->valuestring, cli_num(p, "bytes"));
    ck_assert(cli_num(p, "max_abs_err") == 0);
    ck_assert(cli_num(p, "time_s") > 0 || cli_num(p, "count") == 0);
  }
}

/* Every dense algorithm on 1..17 ranks one per node (mn1), and on several GPUs per node
 * (tencent16): counts 1, 3, 9, ... (odd, and below the rank count) up to 1024 elements, with
 * segments small enough that the trees pipeline. */
static const struct {
  const char *platform;
  int nodes, rpn;
} shapes[] = {{"mn1", 1, 1},  {"mn1", 2, 1},  {"mn1", 3, 1},  {"mn1", 4, 1},       {"mn1", 5, 1},
              {"mn1", 6, 1},  {"mn1", 7, 1},  {"mn1", 8, 1},  {"mn1", 9, 1},       {"mn1", 10, 1},
              {"mn1", 11, 1}, {"mn1", 12, 1}, {"mn1", 13, 1}, {"mn1", 14, 1},      {"mn1", 15, 1},
              {"mn1", 16, 1}, {"mn1", 17, 1}, {"tencent16", 1, 8}, {"tencent16", 3, 5}, {"tencent16", 2, 8},
              {"tencent16", 3, 3}, {"mn1", 3, 6}};
#define NSHAPES ((int)(sizeof shapes / sizeof shapes[0]))
#define NDENSE 7 /* ring tree twotree hier rhd naive mpi */

static void verify_shape(int i, const char *dtype, const char *sweep)
{
  char args[256], what[64];
  snprintf(args, sizeof args, "--platform %s --algo all --sizes %s --dtype %s --segment 64 --verify --nodes %d --ranks-per-node %d",
           shapes[i].platform, sweep, dtype, shapes[i].nodes, shapes[i].rpn);
  snprintf(what, sizeof what, "%s %s %dx%d", dtype, shapes[i].platform, shapes[i].nodes, shapes[i].rpn);
  cli_result r = cli_run(args, 1);
  assert_all_verified(&r, NDENSE * 8, what);
  ck_assert_int_eq((int)cli_num(r.json, "ranks"), shapes[i].nodes * shapes[i].rpn);
  cli_result_free(&r);
}

START_TEST(dense_algorithms_verify_fp32) { verify_shape(_i, "fp32", "4:4K:3"); }
END_TEST

/* fp16 on every other shape keeps the suite short; the sums stay exact in half precision. */
START_TEST(dense_algorithms_verify_fp16) { verify_shape(2 * _i + 1, "fp16", "2:2K:3"); }
END_TEST

/* The top-k algorithms against their own sparse semantics, on the same shapes in both
 * types; at density 1 they must return the dense sum itself. */
START_TEST(sparse_algorithms_verify)
{
  char args[256], what[64];
  const char *dtype = _i % 2 ? "fp16" : "fp32", *sweep = _i % 2 ? "2:2K:3" : "4:4K:3";
  int sh = 2 * (_i / 2) + 1; /* odd shapes: 2..18 ranks, several per node */
  snprintf(args, sizeof args, "--platform %s --algo topk,hitopk --sizes %s --dtype %s --density 0.05 --verify --nodes %d --ranks-per-node %d",
           shapes[sh].platform, sweep, dtype, shapes[sh].nodes, shapes[sh].rpn);
  snprintf(what, sizeof what, "sparse %s %s %dx%d", dtype, shapes[sh].platform, shapes[sh].nodes, shapes[sh].rpn);
  cli_result r = cli_run(args, 1);
  assert_all_verified(&r, 2 * 8, what);
  ck_assert(cli_num(cli_point(&r, 0), "density") == 0.05);
  ck_assert(cli_num(cli_point(&r, 0), "k") >= 1);
  cli_result_free(&r);
}
END_TEST

START_TEST(sparse_at_density_1_is_dense)
{
  cli_result r = cli_run("--algo topk,hitopk --size 4K --nodes 2 --ranks-per-node 4 --density 1 --verify", 1);
  assert_all_verified(&r, 2, "density 1");
  for (int i = 0; i < 2; i++) {
    ck_assert(cli_num(cli_point(&r, i), "sparse_rel_err") == 0);
    ck_assert(cli_num(cli_point(&r, i), "k") > 0);
  }
  cli_result_free(&r);
  r = cli_run("--algo topk,hitopk --size 4K --nodes 2 --ranks-per-node 4 --density 0.01 --verify", 1);
  assert_all_verified(&r, 2, "density 0.01");
  ck_assert(cli_num(cli_point(&r, 0), "sparse_rel_err") > 0.1);
  cli_result_free(&r);
}
END_TEST

/* Fig. 7 of [Shi21] at 64 MiB, fp16, rho = 0.01 on the 16 x 8 cloud: HiTopKComm below 2DTAR
 * below NCCL's tree, and NaiveAG several times slower than HiTopKComm. */
START_TEST(sparse_ordering_of_fig7)
{
  cli_result r = cli_run("--algo hitopk,hier,twotree,topk --size 64M --dtype fp16 --density 0.01 --phases", 1);
  ck_assert_msg(r.status == 0, "%s", r.err);
  double b = 64 << 20, hit = cli_time(&r, "hitopk", b), hier = cli_time(&r, "hier", b);
  double tree = cli_time(&r, "twotree", b), naive = cli_time(&r, "topk", b);
  ck_assert_msg(hit > 0 && hit < hier && hier < tree, "hitopk %g hier %g twotree %g", hit, hier, tree);
  ck_assert_msg(naive > 3 * hit, "topk %g hitopk %g", naive, hit);
  const cJSON *ph = cJSON_GetObjectItemCaseSensitive(cli_point(&r, 0), "phases");
  const char *four[] = {"intra-rs", "mstopk", "inter-ag", "intra-ag"};
  for (int i = 0; i < 4; i++)
    ck_assert_msg(cli_num(ph, four[i]) > 0, "hitopk phase %s missing", four[i]);
  /* the inter-node allgather dominates, MSTopK is small (Fig. 8) */
  ck_assert(cli_num(ph, "inter-ag") > 0.5 * hit && cli_num(ph, "mstopk") < 0.1 * hit);
  cli_result_free(&r);
}
END_TEST

/* The mission's own command line: one result with its four phases. */
START_TEST(mission_command_line)
{
  cli_result r = cli_run("--platform tencent16.xml --algo hitopk", 0);
  ck_assert_msg(r.status == 0, "%s", r.err);
  const char *four[] = {"intra-rs", "mstopk", "inter-ag", "intra-ag", "hitopk", "104857600"};
  for (int i = 0; i < 6; i++)
    ck_assert_msg(strstr(r.out, four[i]) != NULL, "no '%s' in: %s", four[i], r.out);
  cli_result_free(&r);
}
END_TEST

START_TEST(ring_channels_verify)
{
  cli_result r = cli_run("--platform dgx1 --algo ring --channels 4 --sizes 4:4K:3 --verify", 1);
  assert_all_verified(&r, 8, "dgx1 4 channels");
  cli_result_free(&r);
  r = cli_run("--platform tencent16 --nodes 3 --ranks-per-node 3 --algo ring --channels 3 --sizes 2:2K:3 --dtype fp16 --verify", 1);
  assert_all_verified(&r, 8, "3x3 3 channels fp16");
  cli_result_free(&r);
}
END_TEST

START_TEST(acceptance_15_ranks_1M_and_40_bytes)
{
  cli_result r = cli_run("--platform tencent16.xml --algo ring,mpi --size 1M --nodes 3 --ranks-per-node 5 --verify", 1);
  assert_all_verified(&r, 2, "1M on 3x5");
  cli_result_free(&r);
  r = cli_run("--platform tencent16.xml --algo ring,mpi --size 40 --nodes 3 --ranks-per-node 5 --verify", 1);
  assert_all_verified(&r, 2, "40 bytes on 3x5");
  ck_assert(cli_num(cli_point(&r, 0), "count") == 10);
  cli_result_free(&r);
}
END_TEST

/* 128 ranks over 25 GbE: a ring's bus bandwidth is what one NIC moves, 23.5 Gbps of
 * goodput less the 254 latencies: 2.5 to 3.1 GB/s, and the columns agree with the time. */
START_TEST(acceptance_ring_64M_on_tencent16)
{
  cli_result r = cli_run("--platform tencent16.xml --algo ring --size 64M --phases", 1);
  ck_assert_msg(r.status == 0, "%s", r.err);
  ck_assert_int_eq((int)cli_num(r.json, "ranks"), 128);
  const cJSON *p = cli_point(&r, 0);
  double t = cli_num(p, "time_s"), alg = cli_num(p, "algbw_GBps"), bus = cli_num(p, "busbw_GBps");
  ck_assert_msg(bus > 2.5 && bus < 3.1, "busbw %g", bus);
  ck_assert(fabs(alg - 67108864 / t / 1e9) < 1e-9 * alg);
  ck_assert(fabs(bus - alg * 2 * 127 / 128) < 1e-9 * bus);
  /* the two phases add up to the whole */
  const cJSON *ph = cJSON_GetObjectItemCaseSensitive(p, "phases");
  double rs = cli_num(ph, "reduce-scatter"), ag = cli_num(ph, "allgather");
  ck_assert(rs > 0 && ag > 0 && fabs(rs + ag - t) < 1e-6 * t); /* MPI_Wtime itself costs 10 ns in SMPI */
  ck_assert_ptr_nonnull(strstr(r.out, "reduce-scatter"));
  cli_result_free(&r);
}
END_TEST

/* On 16 nodes x 8 V100 over 25 GbE the algorithms must rank as their costs say. */
START_TEST(dense_algorithms_rank_sensibly_on_tencent16)
{
  cli_result r = cli_run("--algo ring,hier --sizes 1M:64M:64", 1);
  ck_assert_msg(r.status == 0, "%s", r.err);
  double ring1 = cli_time(&r, "ring", 1 << 20), hier1 = cli_time(&r, "hier", 1 << 20);
  double ring64 = cli_time(&r, "ring", 64 << 20), hier64 = cli_time(&r, "hier", 64 << 20);
  ck_assert_msg(hier1 > 0 && hier1 < ring1, "1M: hier %g, ring %g", hier1, ring1);
  ck_assert_msg(hier64 > 0 && hier64 <= ring64, "64M: hier %g, ring %g", hier64, ring64);
  cli_result_free(&r);
  /* logarithmic against linear step counts at a latency-bound size */
  r = cli_run("--algo ring,twotree,rhd --size 8K", 1);
  double ring8 = cli_time(&r, "ring", 8192);
  ck_assert(ring8 > 0);
  ck_assert_msg(cli_time(&r, "twotree", 8192) * 4 < ring8, "twotree not several times faster at 8K");
  ck_assert_msg(cli_time(&r, "rhd", 8192) * 4 < ring8, "rhd not several times faster at 8K");
  cli_result_free(&r);
  /* the master's link carries everything */
  r = cli_run("--algo ring,naive --size 16M", 1);
  ck_assert(cli_time(&r, "naive", 16 << 20) > 20 * cli_time(&r, "ring", 16 << 20));
  cli_result_free(&r);
}
END_TEST

/* Rings in several orders drive several NVLinks of each V100 at once. */
START_TEST(channels_use_the_nvlinks_of_a_dgx1)
{
  cli_result one = cli_run("--platform dgx1 --algo ring --channels 1 --size 64M", 1);
  cli_result four = cli_run("--platform dgx1 --algo ring --channels 4 --size 64M", 1);
  ck_assert(one.status == 0 && four.status == 0);
  double b1 = cli_num(cli_point(&one, 0), "busbw_GBps"), b4 = cli_num(cli_point(&four, 0), "busbw_GBps");
  ck_assert_msg(b4 > 2 * b1 && b4 > 50, "busbw 1 channel %g, 4 channels %g GB/s", b1, b4);
  cli_result_free(&one);
  cli_result_free(&four);
}
END_TEST

/* The exchanges the runner makes on SimGrid's mailboxes (algos/ar_native.c) take the times
 * SMPI gives the same exchanges through MPI, bit for bit: an SMPI overhead set to its own
 * default value sends every exchange through MPI (ar_native_sg.cpp). Sizes below and above
 * SMPI's eager limit, counts below the rank count, a node communicator (hier) and 15 ranks;
 * the results verified both ways. */
START_TEST(exchanges_on_mailboxes_time_as_through_mpi)
{
  const char *run = "--platform tencent16 --nodes 3 --ranks-per-node 5 --algo ring,hier,rhd --sizes 4:1M:16 --verify";
  char args[256];
  cli_result native = cli_run(run, 1);
  snprintf(args, sizeof args, "%s --cfg smpi/ois:0:0:0:0:0", run);
  cli_result mpi = cli_run(args, 1);
  assert_all_verified(&native, 18, "on mailboxes");
  assert_all_verified(&mpi, 18, "through MPI");
  for (int i = 0; i < 18; i++) {
    double a = cli_num(cli_point(&native, i), "time_s"), b = cli_num(cli_point(&mpi, i), "time_s");
    ck_assert_msg(a == b, "point %d: %.17g s on mailboxes, %.17g s through MPI", i, a, b);
  }
  cli_result_free(&native);
  cli_result_free(&mpi);
}
END_TEST

START_TEST(csv_and_listings)
{
  cli_result r = cli_run("--algo ring --sizes 1K:4K --nodes 2 --csv /tmp/check_smpi.csv", 0);
  ck_assert_int_eq(r.status, 0);
  FILE *f = fopen("/tmp/check_smpi.csv", "r");
  char line[4096];
  int rows = 0, comments = 0;
  ck_assert_ptr_nonnull(fgets(line, sizeof line, f)); /* how it was made, then the columns */
  ck_assert_msg(strncmp(line, "# simallreduce ", 15) == 0 && strstr(line, "platform sha256 "), "%s", line);
  ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
  ck_assert_ptr_nonnull(strstr(line, "algo,bytes,count,dtype,time_s,algbw_GBps,busbw_GBps"));
  while (fgets(line, sizeof line, f))
    line[0] == '#' ? comments++ : rows++;
  ck_assert_int_eq(comments, 1); /* the closing line: results and wall time */
  fclose(f);
  remove("/tmp/check_smpi.csv");
  ck_assert_int_eq(rows, 3);
  cli_result_free(&r);
  r = cli_run("--list-algos", 0);
  ck_assert(r.status == 0 && strstr(r.out, "ring") && strstr(r.out, "mpi"));
  cli_result_free(&r);
  r = cli_run("--list-platforms", 0);
  ck_assert(r.status == 0 && strstr(r.out, "tencent16") && strstr(r.out, "128 nodes"));
  cli_result_free(&r);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("smpi");
  TCase *tc = tcase_create("verify");
  tcase_set_timeout(tc, 300);
  tcase_add_loop_test(tc, dense_algorithms_verify_fp32, 0, NSHAPES);
  tcase_add_loop_test(tc, dense_algorithms_verify_fp16, 0, NSHAPES / 2);
  tcase_add_test(tc, ring_channels_verify);
  tcase_add_test(tc, exchanges_on_mailboxes_time_as_through_mpi);
  tcase_add_loop_test(tc, sparse_algorithms_verify, 0, 2 * (NSHAPES / 2));
  tcase_add_test(tc, sparse_at_density_1_is_dense);
  suite_add_tcase(s, tc);
  CHECK_CASE(s, "acceptance", 300, acceptance_15_ranks_1M_and_40_bytes, acceptance_ring_64M_on_tencent16,
             dense_algorithms_rank_sensibly_on_tencent16, channels_use_the_nvlinks_of_a_dgx1, sparse_ordering_of_fig7,
             mission_command_line);
  CHECK_CASE(s, "output", 300, csv_and_listings);
  return check_run(s);
}
