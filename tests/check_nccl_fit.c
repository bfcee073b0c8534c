/* check_nccl_fit.c: NCCL's algorithms on platforms fitted to real nccl-tests logs (simcalib
 * platform --from-nccl-tests LOG --fit-algo nccl|nccl-ring, written into
 * tests/data/platforms/) reproduce those logs, size by size, in the cost model and in the
 * simulation: on L02 (1 x 8 A100, NCCL's own choice) from 8 B to 8 GiB, on L12 (2 x 8 H100,
 * NCCL_ALGO=Ring) from 1 MiB, where the log starts, to 1 GiB (beyond, the model's straight
 * line through its steady state: seconds more for nothing new). The bounds are the acceptance of the fit:
 * median |error| at most 10%, none above 25%. The fit itself takes 15-50 s: not here; the
 * platforms are what it wrote (docs/nccl-tests.md says how to write them again). */
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"
#include "check_util.h"
#include "cli_run.h"

#define MEDIAN_MAX 0.10
#define WORST_MAX 0.25

typedef struct {
  const char *log, *platform, *algo, *sizes, *sim_sizes;
  int points; /* sizes of the log the sweep meets */
} fitted;

static const fitted fits[] = {
    {"tests/data/measured/L02_a100x8_superbench.log", "tests/data/platforms/l02_nccl_fit.xml", "nccl", "8:8G:2",
     "8,256K,4M,64M", 31},
    {"tests/data/measured/L12_gjaion_h100_2node16_ring.log", "tests/data/platforms/l12_nccl_ring_fit.xml", "nccl-ring",
     "1M:1G:2", "1M,32M", 11},
};

/* The log's out-of-place time of one allreduce of `bytes`, or -1. */
static double measured(const md_data *d, double bytes)
{
  const md_point *p;
  for (size_t i = 0; (p = md_run_next(d, 0, "allreduce", &i));)
    if (p->bytes == bytes && p->inplace == 0)
      return p->time_s;
  return -1;
}

static void load(const char *path, md_data *d)
{
  static const imp_opts inter = {"inter", 0, 0, 0};
  char err[512];
  imp_report rep;
  FILE *f = fopen(path, "r");
  ck_assert_msg(f != NULL, "cannot open %s", path);
  memset(d, 0, sizeof *d);
  ck_assert_msg(imp_nccl(f, path, &inter, d, &rep, err, sizeof err) == 0, "%s: %s", path, err);
  fclose(f);
}

/* Runs the sweep in `mode` at `sizes` and checks every size the log holds against it: the
 * number of sizes compared, and the median and largest |error|. */
static void against_log(const fitted *x, const char *mode, const char *sizes, int want_points, double median_max)
{
  md_data d;
  load(x->log, &d);
  char args[512];
  snprintf(args, sizeof args, "--platform %s --algo %s --sizes %s --timing nccl-tests --mode %s", x->platform, x->algo,
           sizes, mode);
  cli_result r = cli_run(args, 1);
  ck_assert_msg(r.status == 0, "%s: %s", args, r.err);
  double err[64];
  int n = 0;
  for (int i = 0; cli_point(&r, i) && n < 64; i++) {
    const cJSON *pt = cli_point(&r, i);
    double bytes = cli_num(pt, "bytes"), want = measured(&d, bytes);
    double got = cli_num(pt, strcmp(mode, "model") == 0 ? "model_time_s" : "time_s");
    if (want <= 0)
      continue;
    ck_assert_msg(got > 0, "%s at %.0f B: no time", x->platform, bytes);
    err[n++] = fabs(got - want) / want;
    ck_assert_msg(err[n - 1] <= WORST_MAX, "%s, %s at %.0f B: %.2f us where the log has %.2f us", x->platform, mode,
                  bytes, got * 1e6, want * 1e6);
  }
  ck_assert_int_eq(n, want_points);
  gsl_sort(err, 1, (size_t)n);
  double med = gsl_stats_median_from_sorted_data(err, 1, (size_t)n);
  ck_assert_msg(med <= median_max, "%s, %s: median |error| %.2f%%", x->platform, mode, 100 * med);
  cli_result_free(&r);
  md_data_free(&d);
}

START_TEST(model_follows_the_log_at_every_size)
{
  against_log(&fits[_i], "model", fits[_i].sizes, fits[_i].points, MEDIAN_MAX);
}
END_TEST

/* A few sizes, one per protocol or so: every one within the bound (their median too). */
START_TEST(simulation_follows_the_log)
{
  int n = 1;
  for (const char *c = fits[_i].sim_sizes; *c; c++)
    n += *c == ',';
  against_log(&fits[_i], "sim", fits[_i].sim_sizes, n, MEDIAN_MAX);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("nccl_fit");
  TCase *tc = tcase_create("fitted platforms");
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, model_follows_the_log_at_every_size, 0, sizeof fits / sizeof fits[0]);
  tcase_add_loop_test(tc, simulation_follows_the_log, 0, sizeof fits / sizeof fits[0]);
  suite_add_tcase(s, tc);
  return check_run(s);
}
