/* check_validate.c: simcalib validate: error statistics, reading measured runner
 * results, pairing with simulated points, the JSON, CSV and headroom it writes, and one line
 * plus exit 2 for every kind of bad input. No MPI and no root: the inputs are written here. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/sa_error.h"
#include "util/textfile.h"
#include "validate/validation.h"
#include "check_util.h"
#include "cli_run.h"

static char dir[64];

static void setup(void) { ck_assert_int_eq(cli_tmpdir(dir, "check_validate"), 0); }

static void teardown(void) { ck_assert_int_eq(cli_rmtree(dir), 0); }

/* Writes text into dir/name, whose path goes into the caller's buffer. */
static void put(char *path, size_t len, const char *name, const char *text)
{
  snprintf(path, len, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs(text, f);
  ck_assert_int_eq(fclose(f), 0);
}

static cJSON *load(const char *p)
{
  cJSON *j = cli_load_json(p);
  ck_assert_msg(j != NULL, "cannot read %s", p);
  return j;
}

static double num(const cJSON *o, const char *key)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  ck_assert_msg(cJSON_IsNumber(v), "no number %s", key);
  return v->valuedouble;
}

/* A measured run of 4 hosts x 2 ranks: ring at 1 KiB (five repetitions) and 1 MiB (none
 * listed, as an older runner wrote), hier at 1 KiB. */
static const char *measured =
    "{\"mode\": \"measured\", \"ranks\": 8, \"ranks_per_node\": 2, \"iters\": 5, \"points\": ["
    "{\"algo\": \"ring\", \"bytes\": 1024, \"time_s\": 0.003, \"time_min_s\": 0.001, \"time_max_s\": 0.009,"
    " \"times_s\": [0.009, 0.001, 0.003, 0.002, 0.004]},"
    "{\"algo\": \"ring\", \"bytes\": 1048576, \"time_s\": 0.1, \"time_min_s\": 0.09, \"time_max_s\": 0.12},"
    "{\"algo\": \"hier\", \"bytes\": 1024, \"time_s\": 0.002, \"times_s\": [0.002]}]}";

/* Their simulation: ring 10% slow at 1 KiB and 20% fast at 1 MiB, hier exact; a cost model
 * for ring only. */
static const char *simulated =
    "{\"platform\": \"testbed\", \"nodes\": 4, \"ranks_per_node\": 2, \"results\": ["
    "{\"algo\": \"ring\", \"bytes\": 1024, \"time_s\": 0.0033, \"model_time_s\": 0.0031},"
    "{\"algo\": \"ring\", \"bytes\": 1048576, \"time_s\": 0.08, \"model_time_s\": 0.095},"
    "{\"algo\": \"hier\", \"bytes\": 1024, \"time_s\": 0.002}]}";

START_TEST(errors_and_their_summary)
{
  ck_assert_double_eq_tol(val_error(1.1, 1.0), 0.1, 1e-12);
  ck_assert_double_eq_tol(val_error(0.5, 1.0), -0.5, 1e-12);
  ck_assert_double_eq(val_range_error(0.09, 0.08, 0.1), 0.0);
  ck_assert_double_eq_tol(val_range_error(0.072, 0.08, 0.1), -0.1, 1e-12);
  ck_assert_double_eq_tol(val_range_error(0.44, 0.4, 0.4), 0.1, 1e-12);

  val_point p[4] = {{.error = 0.1}, {.error = -0.4}, {.error = 0.0}, {.error = 0.2}};
  val_summary s;
  ck_assert_int_eq(val_summarize(p, 4, &s), 0);
  ck_assert_uint_eq(s.n, 4);
  ck_assert_double_eq_tol(s.median_abs, 0.15, 1e-12);
  ck_assert_double_eq_tol(s.max_abs, 0.4, 1e-12);
  ck_assert_uint_eq(s.worst, 1);
  /* the exact match counts as the floor, not as zero */
  ck_assert_double_eq_tol(s.geomean_abs, pow(0.1 * 0.4 * VAL_GEOMEAN_FLOOR * 0.2, 0.25), 1e-12);
  ck_assert_int_eq(val_summarize(p, 0, &s), SA_ENODATA);
}
END_TEST

START_TEST(measured_points_and_their_spread)
{
  cJSON *doc = cJSON_Parse(measured);
  val_point *p = NULL;
  size_t n = 0, cap = 0;
  int ranks, rpn;
  char err[128];
  ck_assert_int_eq(val_read_measured(doc, &p, &n, &cap, &ranks, &rpn, err, sizeof err), 0);
  ck_assert_uint_eq(n, 3);
  ck_assert_int_eq(ranks, 8);
  ck_assert_int_eq(rpn, 2);
  ck_assert_str_eq(p[0].algo, "ring");
  ck_assert_int_eq(p[0].reps, 5);
  ck_assert_double_eq_tol(p[0].q1_s, 0.002, 1e-12); /* sorted 1 2 3 4 9 ms */
  ck_assert_double_eq_tol(p[0].q3_s, 0.004, 1e-12);
  ck_assert_double_eq_tol(p[0].max_s, 0.009, 1e-12);
  /* without the list: no quartiles to give, min and max as the runner wrote them */
  ck_assert_int_eq(p[1].reps, 1);
  ck_assert_double_eq(p[1].q1_s, p[1].q3_s);
  ck_assert_double_eq_tol(p[1].min_s, 0.09, 1e-12);
  ck_assert(isnan(p[1].model_s));
  free(p);
  cJSON_Delete(doc);

  const char *bad[] = {
      "{\"mode\": \"simulated\", \"ranks\": 8, \"ranks_per_node\": 2, \"points\": [{}]}",
      "{\"mode\": \"measured\", \"ranks\": 7, \"ranks_per_node\": 2, \"points\": [{}]}",
      "{\"mode\": \"measured\", \"ranks\": 8, \"ranks_per_node\": 2, \"points\": []}",
      "{\"mode\": \"measured\", \"ranks\": 8, \"ranks_per_node\": 2, \"points\": [{\"algo\": \"ring\", \"bytes\": 8}]}",
      "{\"mode\": \"measured\", \"ranks\": 8, \"ranks_per_node\": 2, \"points\": [{\"algo\": \"ring\", \"bytes\": 8,"
      " \"time_s\": 1, \"times_s\": [1, \"x\"]}]}",
      "{\"mode\": \"measured\", \"ranks\": 8, \"ranks_per_node\": 2, \"points\": [{\"algo\": \"ring\", \"bytes\": 8,"
      " \"time_s\": 1, \"error\": \"MPI call failed\"}]}",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    doc = cJSON_Parse(bad[i]);
    ck_assert_ptr_nonnull(doc);
    p = NULL;
    n = cap = 0;
    ck_assert_msg(val_read_measured(doc, &p, &n, &cap, &ranks, &rpn, err, sizeof err) == SA_EPARSE, "%s",
                  bad[i]);
    ck_assert(err[0] != '\0');
    free(p);
    cJSON_Delete(doc);
  }
}
END_TEST

START_TEST(lookup_of_simulated_and_model_times)
{
  cJSON *doc = cJSON_Parse(simulated);
  ck_assert_double_eq(val_lookup(doc, "ring", 1024, 0), 0.0033);
  ck_assert_double_eq(val_lookup(doc, "ring", 1024, 1), 0.0031);
  ck_assert(val_lookup(doc, "hier", 1024, 1) < 0); /* no model time there */
  ck_assert(val_lookup(doc, "rhd", 1024, 0) < 0);
  ck_assert(val_lookup(doc, "ring", 2048, 0) < 0);
  cJSON_Delete(doc);
  doc = cJSON_Parse("{\"mode\": \"model\", \"results\": [{\"algo\": \"hier\", \"bytes\": 1024, \"time_s\": 0.0021}]}");
  ck_assert_double_eq(val_lookup(doc, "hier", 1024, 1), 0.0021);
  cJSON_Delete(doc);
}
END_TEST

START_TEST(validate_writes_table_json_csv_and_headroom)
{
  char m[128], s[128], h[128], pub[128], out[128], csv[128];
  put(m, sizeof m, "m.json", measured);
  put(s, sizeof s, "s.json", simulated);
  put(h, sizeof h, "h.json",
      "{\"mode\": \"measured\", \"ranks\": 8, \"ranks_per_node\": 2, \"points\": ["
      "{\"algo\": \"ring\", \"bytes\": 1048576, \"time_s\": 0.05}]}");
  put(pub, sizeof pub, "pub.json", "{\"nodes\": 8, \"ranks_per_node\": 1, \"results\": [{\"time_s\": 0.078}]}");
  snprintf(out, sizeof out, "%s/v.json", dir);
  snprintf(csv, sizeof csv, "%s/v.csv", dir);
  cli_result r = cli_simcalib("validate --measured %s --simulated %s --link-rate 200mbit --headroom %s "
                          "--published 'MN-1, 8 x 1, 256 MB=0.08:0.1:%s' -o %s --csv %s",
                          m, s, h, pub, out, csv);
  ck_assert_msg(r.status == 0, "%s", r.err);
  ck_assert_ptr_nonnull(strstr(r.out, "3 points: median |error| 10.0%"));
  ck_assert_ptr_nonnull(strstr(r.out, "max 20.0% (ring at 1M)"));
  ck_assert_ptr_nonnull(strstr(r.out, "2.00x as fast"));
  ck_assert_ptr_nonnull(strstr(r.out, "per algorithm, median / max |error|: ring 15.0% / 20.0%; hier 0.0% / 0.0%\n"));
  ck_assert_ptr_nonnull(strstr(r.out, "published figures"));
  cli_result_free(&r);

  cJSON *v = load(out);
  ck_assert_int_eq((int)num(v, "hosts"), 4);
  ck_assert_int_eq((int)num(v, "ranks_per_host"), 2);
  ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(v, "link_rate")->valuestring, "200mbit");
  const cJSON *pts = cJSON_GetObjectItemCaseSensitive(v, "points");
  ck_assert_int_eq(cJSON_GetArraySize(pts), 3);
  const cJSON *p0 = cJSON_GetArrayItem(pts, 0), *p2 = cJSON_GetArrayItem(pts, 2);
  ck_assert_double_eq_tol(num(p0, "error"), 0.1, 1e-9);
  ck_assert_double_eq_tol(num(p0, "measured_spread"), 0.002, 1e-12);
  ck_assert_double_eq_tol(num(p0, "model_s"), 0.0031, 1e-12);
  ck_assert(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(p2, "model_s")));
  const cJSON *sum = cJSON_GetObjectItemCaseSensitive(v, "summary");
  ck_assert_double_eq_tol(num(sum, "median_abs_err"), 0.1, 1e-9);
  ck_assert_double_eq_tol(num(sum, "max_abs_err"), 0.2, 1e-9);
  ck_assert_double_eq_tol(num(sum, "geomean_abs_err"), cbrt(0.1 * 0.2 * VAL_GEOMEAN_FLOOR), 1e-9);
  ck_assert(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(sum, "model"))); /* hier has none */
  const cJSON *by = cJSON_GetObjectItemCaseSensitive(sum, "by_algo");
  ck_assert_double_eq_tol(num(cJSON_GetObjectItemCaseSensitive(by, "ring"), "median_abs_err"), 0.15, 1e-9);
  ck_assert_double_eq_tol(num(cJSON_GetObjectItemCaseSensitive(by, "ring"), "max_abs_err"), 0.2, 1e-9);
  ck_assert_double_eq_tol(num(cJSON_GetObjectItemCaseSensitive(by, "hier"), "max_abs_err"), 0, 1e-9);
  const cJSON *head = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(v, "cpu_headroom"), 0);
  ck_assert_double_eq_tol(num(head, "speedup"), 2.0, 1e-9);
  const cJSON *pb = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(v, "published"), 0);
  ck_assert_double_eq_tol(num(pb, "error"), -0.025, 1e-9);
  cJSON_Delete(v);

  /* with a model time at every point, the model gets its own summary */
  char s2[128];
  put(s2, sizeof s2, "s2.json",
      "{\"nodes\": 4, \"ranks_per_node\": 2, \"results\": ["
      "{\"algo\": \"ring\", \"bytes\": 1024, \"time_s\": 0.0033, \"model_time_s\": 0.0036},"
      "{\"algo\": \"ring\", \"bytes\": 1048576, \"time_s\": 0.08, \"model_time_s\": 0.1},"
      "{\"algo\": \"hier\", \"bytes\": 1024, \"time_s\": 0.002, \"model_time_s\": 0.0021}]}");
  r = cli_simcalib("validate --measured %s --simulated %s -o %s", m, s2, out);
  ck_assert_msg(r.status == 0, "%s", r.err);
  ck_assert_ptr_nonnull(strstr(r.out, "cost model against the measurement: median |error| 5.0%, geometric mean"));
  cli_result_free(&r);
  v = load(out);
  const cJSON *msum = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(v, "summary"), "model");
  ck_assert_double_eq_tol(num(msum, "max_abs_err"), 0.2, 1e-9);
  cJSON_Delete(v);

  char *text = util_read_text(csv);
  ck_assert_ptr_nonnull(text);
  ck_assert_ptr_nonnull(strstr(text, "algo,bytes,measured_s,q1_s,q3_s,min_s,max_s,simulated_s,model_s,error\n"));
  ck_assert_ptr_nonnull(strstr(text, "\nhier,1024,0.002,0.002,0.002,0.002,0.002,0.002,,0.000000\n"));
  free(text);
}
END_TEST

START_TEST(bad_input_exits_2)
{
  char m[128], s[128], s2[128], junk[128], m2[128];
  put(m, sizeof m, "m.json", measured);
  put(s, sizeof s, "s.json", simulated);
  put(s2, sizeof s2, "s2.json", "{\"nodes\": 2, \"ranks_per_node\": 2, \"results\": []}");
  put(junk, sizeof junk, "junk.json", "not json");
  put(m2, sizeof m2, "m2.json",
      "{\"mode\": \"measured\", \"ranks\": 8, \"ranks_per_node\": 2, \"points\": ["
      "{\"algo\": \"rhd\", \"bytes\": 4096, \"time_s\": 0.01}]}");
  char cases[12][1024];
  int k = 0;
  snprintf(cases[k++], 1024, "validate");
  snprintf(cases[k++], 1024, "validate --measured %s", m);
  snprintf(cases[k++], 1024, "validate --measured %s --simulated /nonexistent/s.json", m);
  snprintf(cases[k++], 1024, "validate --measured %s --simulated %s", m, s2);       /* other shape */
  snprintf(cases[k++], 1024, "validate --measured %s --simulated %s --simulated %s", m, s, junk);
  snprintf(cases[k++], 1024, "validate --measured %s --measured %s --simulated %s", m, m2, s); /* rhd not simulated */
  snprintf(cases[k++], 1024, "validate --measured %s --measured %s --simulated %s", m, m, s);  /* measured twice */
  snprintf(cases[k++], 1024, "validate --measured %s --simulated %s --published nothing", m, s);
  snprintf(cases[k++], 1024, "validate --measured %s --simulated %s --published 'x=0.2:0.1:%s'", m, s, s);
  snprintf(cases[k++], 1024, "validate --measured %s --simulated %s --headroom-factor 1", m, s);
  snprintf(cases[k++], 1024, "validate --measured %s --simulated %s --bogus", m, s);
  snprintf(cases[k++], 1024, "validate --measured %s --simulated %s --headroom %s", m, s, m2); /* not measured */
  for (int i = 0; i < k; i++) {
    cli_result r = cli_simcalib("%s -o %s/out.json", cases[i], dir);
    ck_assert_msg(r.status == 2, "'%s' exited %d", cases[i], r.status);
    ck_assert_msg(cli_lines(r.err) == 1, "'%s' said: %s", cases[i], r.err);
    cli_result_free(&r);
  }
}
END_TEST

int main(void)
{
  Suite *s = suite_create("calib_validate");
  CHECK_CASE(s, "statistics", 10, errors_and_their_summary, measured_points_and_their_spread,
             lookup_of_simulated_and_model_times);
  /* the command itself, on files written into a fresh directory each time */
  CHECK_CASE_FIXTURE(s, "command", 60, setup, teardown, validate_writes_table_json_csv_and_headroom,
                     bad_input_exits_2);
  return check_run(s);
}
