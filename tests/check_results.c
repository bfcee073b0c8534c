/* check_results.c: reading the runner's result file back: a point that did not verify with
 * a non-finite error (which JSON can only write as null) is a failed verification, not a
 * malformed file; a file missing a field the driver relies on is refused. */
#include <math.h>

#include "check_util.h"
#include "sim/results.h"

#define COMPUTE                                                                                                   \
  "\"compute\": {\"reduce_bw\": 1e9, \"reduce_lat\": 0, \"copy_bw\": 1e9, \"topk_a\": 0, \"topk_b\": 0, "          \
  "\"mstopk_a\": 0, \"mstopk_b\": 0, \"scatter_a\": 0, \"scatter_b\": 0}"
#define POINT(verified, err)                                                                                      \
  "{\"algo\": \"ring\", \"bytes\": 1024, \"count\": 256, \"dtype\": \"fp32\", \"time_s\": 1e-5, "                  \
  "\"time_min_s\": 1e-5, \"time_max_s\": 1e-5, \"verified\": " verified ", \"max_abs_err\": " err ", \"phases\": {}}"
#define FILE_OF(point) "{\"mode\": \"simulated\", \"ranks\": 4, \"ranks_per_node\": 2, " COMPUTE ", \"points\": [" point "]}"

START_TEST(non_finite_error_did_not_verify)
{
  sim_results r;
  char err[256];
  ck_assert_int_eq(sim_results_parse(FILE_OF(POINT("false", "null")), &r, err, sizeof err), 0);
  ck_assert_int_eq(r.npoints, 1);
  ck_assert_int_eq(r.points[0].verified, 0);
  ck_assert(isinf(r.points[0].max_abs_err));
  ck_assert_double_eq(r.compute.reduce_bw, 1e9);
  sim_results_free(&r);
  ck_assert_int_eq(sim_results_parse(FILE_OF(POINT("false", "3")), &r, err, sizeof err), 0);
  ck_assert_double_eq(r.points[0].max_abs_err, 3);
  sim_results_free(&r);
}
END_TEST

START_TEST(missing_fields_are_refused)
{
  sim_results r;
  char err[256];
  /* a verified point needs its error; a number is not a string */
  ck_assert_int_ne(sim_results_parse(FILE_OF(POINT("true", "null")), &r, err, sizeof err), 0);
  ck_assert_int_ne(sim_results_parse(FILE_OF(POINT("null", "\"x\"")), &r, err, sizeof err), 0);
  ck_assert_int_ne(sim_results_parse("{\"points\": []}", &r, err, sizeof err), 0);
}
END_TEST

/* --links: a point's links are read in order with their numbers; a malformed entry, or
 * links without their window, make the file malformed. */
#define LINKED(links, window)                                                                                     \
  "{\"algo\": \"ring\", \"bytes\": 1024, \"count\": 256, \"dtype\": \"fp32\", \"time_s\": 1e-5, "                  \
  "\"time_min_s\": 1e-5, \"time_max_s\": 1e-5, \"verified\": null, \"max_abs_err\": 0, \"phases\": {}, "             \
  "\"links\": [" links "]" window "}"
#define LINK(name, bytes) "{\"name\": \"" name "\", \"rate_Bps\": 1e9, \"bytes\": " bytes ", \"busy_s\": 1e-6, \"peak_Bps\": 1e9}"

START_TEST(links_are_read)
{
  sim_results r;
  char err[256];
  ck_assert_int_eq(sim_results_parse(FILE_OF(LINKED(LINK("nic_UP", "5000") "," LINK("gpu_UP", "10"), ", \"links_window_s\": 1e-5")),
                                     &r, err, sizeof err),
                   0);
  ck_assert_int_eq(r.points[0].links.n, 2);
  ck_assert_str_eq(r.points[0].links.v[1].name, "gpu_UP");
  ck_assert_double_eq(r.points[0].links.v[0].bytes, 5000);
  ck_assert_double_eq(sim_link_mean_util(&r.points[0].links.v[0], r.points[0].links.window_s), 0.5);
  sim_results_free(&r);
  ck_assert_int_eq(sim_results_parse(FILE_OF(POINT("null", "0")), &r, err, sizeof err), 0);
  ck_assert_int_eq(r.points[0].links.n, 0); /* without --links: none */
  sim_results_free(&r);
  ck_assert_int_ne(sim_results_parse(FILE_OF(LINKED(LINK("nic_UP", "5000"), "")), &r, err, sizeof err), 0);
  ck_assert_int_ne(sim_results_parse(FILE_OF(LINKED(LINK("nic_UP", "-1"), ", \"links_window_s\": 1")), &r, err, sizeof err),
                   0);
  ck_assert_int_ne(sim_results_parse(FILE_OF(LINKED("3", ", \"links_window_s\": 1")), &r, err, sizeof err), 0);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("results");
  CHECK_CASE(s, "parse", 10, non_finite_error_did_not_verify, missing_fields_are_refused, links_are_read);
  return check_run(s);
}
