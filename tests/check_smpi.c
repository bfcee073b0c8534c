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

/* 1, 2, 3, 5, 8, 15 and 16 ranks, inside one node and across nodes; counts 1, 3, 9, ...
 * (odd, and below the rank count) up to 1024 elements. */
static const struct {
  int nodes, rpn;
} shapes[] = {{1, 1}, {2, 1}, {3, 1}, {5, 1}, {1, 8}, {3, 5}, {2, 8}};

START_TEST(ring_and_mpi_verify_fp32)
{
  char args[256], what[64];
  snprintf(args, sizeof args, "--platform tencent16 --algo ring,mpi --sizes 4:4K:3 --verify --nodes %d --ranks-per-node %d",
           shapes[_i].nodes, shapes[_i].rpn);
  snprintf(what, sizeof what, "fp32 %dx%d", shapes[_i].nodes, shapes[_i].rpn);
  cli_result r = cli_run(args, 1);
  assert_all_verified(&r, 2 * 8, what);
  ck_assert_int_eq((int)cli_num(r.json, "ranks"), shapes[_i].nodes * shapes[_i].rpn);
  cli_result_free(&r);
}
END_TEST

START_TEST(ring_and_mpi_verify_fp16)
{
  char args[256], what[64];
  snprintf(args, sizeof args,
           "--platform tencent16 --algo ring,mpi --sizes 2:2K:3 --dtype fp16 --verify --nodes %d --ranks-per-node %d",
           shapes[_i].nodes, shapes[_i].rpn);
  snprintf(what, sizeof what, "fp16 %dx%d", shapes[_i].nodes, shapes[_i].rpn);
  cli_result r = cli_run(args, 1);
  assert_all_verified(&r, 2 * 8, what);
  ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(cli_point(&r, 0), "dtype")->valuestring, "fp16");
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

START_TEST(bad_input_exits_2_with_one_line)
{
  FILE *f = fopen("/tmp/check_smpi_bad.xml", "w");
  fputs("<?xml version='1.0'?>\n<platform version=\"4.1\">\n<zone id=\"w\"", f);
  fclose(f);
  const char *cases[] = {
      "--algo bogus",
      "--platform nosuch",
      "--platform /tmp/check_smpi_bad.xml",
      "--size 0",
      "--size 12Z",
      "--nodes 17",
      "--platform dgx1 --nodes 2",
      "--ranks-per-node 9",
      "--density 0",
      "--density 1.5",
      "--sizes 1M:1K",
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cli_result r = cli_run(cases[i], 0);
    ck_assert_msg(r.status == 2, "'%s' exited %d", cases[i], r.status);
    ck_assert_msg(cli_lines(r.err) == 1, "'%s' printed %d lines: %s", cases[i], cli_lines(r.err), r.err);
    ck_assert_msg(strncmp(r.err, "simallreduce: ", 14) == 0, "'%s': %s", cases[i], r.err);
    ck_assert_msg(r.out && r.out[0] == '\0', "'%s' printed a result", cases[i]);
    cli_result_free(&r);
  }
  remove("/tmp/check_smpi_bad.xml");
}
END_TEST

START_TEST(failed_simulation_exits_1_with_simulator_lines)
{
  cli_result r = cli_run("--algo mpi --nodes 2 --ranks-per-node 2 --size 1K --cfg smpi/allreduce:bogus", 0);
  ck_assert_int_eq(r.status, 1);
  ck_assert_ptr_nonnull(strstr(r.err, "simulation failed"));
  ck_assert_ptr_nonnull(strstr(r.err, "has no algorithm 'bogus'"));
  cli_result_free(&r);
}
END_TEST

START_TEST(same_inputs_same_times)
{
  const char *args = "--algo ring,mpi --sizes 1K:4M:16 --nodes 4";
  cli_result a = cli_run(args, 1), b = cli_run(args, 1);
  ck_assert(a.status == 0 && b.status == 0);
  for (int i = 0; i < 8; i++) {
    double ta = cli_num(cli_point(&a, i), "time_s"), tb = cli_num(cli_point(&b, i), "time_s");
    ck_assert(ta > 0);
    ck_assert(memcmp(&ta, &tb, sizeof ta) == 0);
  }
  cli_result_free(&a);
  cli_result_free(&b);
}
END_TEST

START_TEST(csv_and_listings)
{
  cli_result r = cli_run("--algo ring --sizes 1K:4K --nodes 2 --csv /tmp/check_smpi.csv", 0);
  ck_assert_int_eq(r.status, 0);
  FILE *f = fopen("/tmp/check_smpi.csv", "r");
  char line[1024];
  int rows = 0;
  ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
  ck_assert_ptr_nonnull(strstr(line, "algo,bytes,count,dtype,time_s,algbw_GBps,busbw_GBps"));
  while (fgets(line, sizeof line, f))
    rows++;
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
  tcase_add_loop_test(tc, ring_and_mpi_verify_fp32, 0, (int)(sizeof shapes / sizeof shapes[0]));
  tcase_add_loop_test(tc, ring_and_mpi_verify_fp16, 0, (int)(sizeof shapes / sizeof shapes[0]));
  suite_add_tcase(s, tc);
  CHECK_CASE(s, "acceptance", 300, acceptance_15_ranks_1M_and_40_bytes, acceptance_ring_64M_on_tencent16);
  CHECK_CASE(s, "errors", 300, bad_input_exits_2_with_one_line, failed_simulation_exits_1_with_simulator_lines);
  CHECK_CASE(s, "output", 300, same_inputs_same_times, csv_and_listings);
  return check_run(s);
}
