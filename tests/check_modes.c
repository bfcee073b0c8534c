/* check_modes.c: --mode sim|model|both and --algo best from the command line, and the cost
 * models against the simulation on shapes where nothing but the modelled sharing happens. */
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_util.h"
#include "topo/shape.h"
#include "cli_run.h"

static const char *str(const cJSON *o, const char *key)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsString(v) ? v->valuestring : "";
}

/* Every point's model-vs-simulation error; asserts each within max_err and the median
 * within med_err (relative). Returns the number of points. */
static int compare(const char *args, double max_err, double med_err)
{
  cli_result r = cli_run(args, 1);
  ck_assert_msg(r.status == 0 && r.json, "%s: status %d: %s", args, r.status, r.err ? r.err : "");
  const cJSON *p, *results = cJSON_GetObjectItemCaseSensitive(r.json, "results");
  int n = cJSON_GetArraySize(results), i = 0;
  double *err = calloc((size_t)n + 1, sizeof *err);
  cJSON_ArrayForEach(p, results)
  {
    double sim = cli_num(p, "time_s"), model = cli_num(p, "model_time_s");
    ck_assert_msg(sim > 0 && model > 0, "%s at %g: sim %g model %g", str(p, "algo"), cli_num(p, "bytes"), sim, model);
    err[i] = fabs(model - sim) / sim;
    ck_assert_msg(err[i] <= max_err, "%s at %g bytes: model %g s, simulated %g s (%.2f%%)", str(p, "algo"),
                  cli_num(p, "bytes"), model, sim, 100 * err[i]);
    i++;
  }
  gsl_sort(err, 1, (size_t)n);
  ck_assert_msg(gsl_stats_median_from_sorted_data(err, 1, (size_t)n) <= med_err, "%s: median error %.2f%%", args,
                100 * gsl_stats_median_from_sorted_data(err, 1, (size_t)n));
  free(err);
  cli_result_free(&r);
  return n;
}

/* The acceptance shapes: every hop across the network and nothing shared (16 x 1), and
 * hier and ring on the full 16 x 8, where a node's ranks share its NIC. */
START_TEST(models_follow_the_simulation_on_tencent16)
{
  ck_assert_int_eq(compare("--platform tencent16 --nodes 16 --ranks-per-node 1 --algo ring,rhd,tree,twotree,naive "
                           "--sizes 1K:64M:4",
                           0.10, 0.05),
                   45);
  ck_assert_int_eq(compare("--platform tencent16 --algo hier,ring --sizes 64K:64M:16", 0.10, 0.05), 8);
}
END_TEST

/* Other platforms, one rank per node or one node: the hops the models see are the routes. */
START_TEST(models_follow_the_simulation_elsewhere)
{
  compare("--platform mn1 --nodes 8 --ranks-per-node 1 --algo ring,rhd,tree,twotree,naive,hier --sizes 4K:16M:32",
          0.10, 0.05);
  compare("--platform dgx1 --algo ring,hier,tree,naive --sizes 4K:16M:32", 0.10, 0.05);
  compare("--platform tencent16 --nodes 2 --algo topk,hitopk --sizes 64K:16M:16", 0.10, 0.05);
  /* routes of no latency: SimGrid shares a link evenly among their messages, whatever weight-S
   * makes of their routes (models/cost_share.c); weighted, naive's gather into host 0 was
   * 13.3% slow */
  compare("--platform " PLAT "zerolat4.xml --algo naive,ring,rhd --sizes 1M:100M:10", 0.03, 0.01);
}
END_TEST

/* NCCL's ring and tree: their models (models/cost_nccl_ring.c, cost_nccl_tree.c: the
 * runner's pipeline replayed over a fluid network) against the simulation, from 1K to 1G, on
 * the NVLink mesh (12 channels, LL, LL128 and Simple by size), over 25 GbE (2 channels), and
 * on an odd shape with 3 GPUs a node. Every point within 3%, the median within 2% (the
 * acceptance; measured: 1.3% at most). */
START_TEST(nccl_ring_model_follows_the_simulation)
{
  ck_assert_int_eq(compare("--platform dgx1 --algo nccl-ring --sizes 1K:1G:4", 0.03, 0.02), 11);
  ck_assert_int_eq(compare("--platform tencent16 --nodes 4 --algo nccl-ring --sizes 1K:1G:8", 0.03, 0.02), 8);
  compare("--platform tencent16 --nodes 3 --ranks-per-node 3 --algo nccl-ring --proto Simple --sizes 4K:16M:16", 0.03,
          0.02);
}
END_TEST

START_TEST(nccl_tree_model_follows_the_simulation)
{
  ck_assert_int_eq(compare("--platform dgx1 --algo nccl-tree --sizes 1K:1G:4", 0.03, 0.02), 11);
  ck_assert_int_eq(compare("--platform tencent16 --nodes 4 --algo nccl-tree --sizes 1K:1G:8", 0.03, 0.02), 8);
  compare("--platform tencent16 --nodes 3 --ranks-per-node 3 --algo nccl-tree --proto LL128 --sizes 4K:16M:16", 0.03,
          0.02);
  /* baidu40's head GPUs' links carry slices from their node and from the other at once: back
   * to back, SimGrid shares a link evenly among them (cost_nccl_des.c connect); weighted by
   * their routes, the model was 26% slow at 256 MiB */
  ck_assert_int_eq(
      compare("--platform baidu40 --nodes 2 --ranks-per-node 2 --algo nccl-tree,nccl-ring --sizes 1M:256M:16", 0.03,
              0.02),
      6);
  /* timed as nccl-tests times it, on the shipped 4 x 8 H100: the runner's warm-ups leave the
   * steady state the model gives (one left the first allreduce's skew: 7.0% at 64 KiB) */
  ck_assert_int_eq(
      compare("--platform hgx-h100-rails --algo nccl-tree --timing nccl-tests --sizes 64K:4M:8", 0.03, 0.02), 3);
}
END_TEST

/* NVLS on one H100 node and NVLS tree over 3 nodes of 4 (models/cost_nccl_nvls.c replays the
 * runner's streams): every point within 3%, the median within 2% (measured: 0.1% at most). */
START_TEST(nvls_model_follows_the_simulation)
{
  ck_assert_int_eq(compare("--platform hgx-h100-rails --nodes 1 --algo nvls --sizes 1K:256M:8", 0.03, 0.02), 7);
  ck_assert_int_eq(
      compare("--platform hgx-h100-rails --nodes 3 --ranks-per-node 4 --algo nvls-tree --sizes 1K:256M:8", 0.03, 0.02),
      7);
}
END_TEST

/* --timing nccl-tests: back-to-back allreduces without the barrier's start skew, as
 * all_reduce_perf times them. The 2-rank ring at 8 B: one empty message's delivery (15 us
 * across tencent16's network) less than from a barrier, its phases adding up to its time;
 * the models without skew follow the simulation for every dense algorithm. */
START_TEST(nccl_tests_timing_has_no_start_skew)
{
  const char *base = "--platform tencent16 --nodes 2 --ranks-per-node 1 --algo ring --size 8 --mode sim";
  char args[256];
  snprintf(args, sizeof args, "%s --timing nccl-tests", base);
  cli_result b = cli_run(base, 1), n = cli_run(args, 1);
  ck_assert(b.status == 0 && n.status == 0);
  ck_assert_str_eq(str(b.json, "timing"), "barrier");
  ck_assert_str_eq(str(n.json, "timing"), "nccl-tests");
  const cJSON *pb = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(b.json, "results"), 0),
              *pn = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(n.json, "results"), 0), *ph;
  double tb = cli_num(pb, "time_s"), tn = cli_num(pn, "time_s"), sum = 0;
  ck_assert_msg(fabs(tb - tn - 15e-6) < 0.1e-6, "barrier %g s, nccl-tests %g s", tb, tn);
  cJSON_ArrayForEach(ph, cJSON_GetObjectItemCaseSensitive(pn, "phases")) sum += ph->valuedouble;
  ck_assert_msg(fabs(sum - tn) < 0.1e-6, "phases %g s, time %g s", sum, tn); /* SMPI: 10 ns per MPI_Wtime */
  cli_result_free(&b);
  cli_result_free(&n);
  ck_assert_int_eq(compare("--platform tencent16 --nodes 3 --ranks-per-node 4 --algo ring,hier,rhd,tree,twotree,naive "
                           "--sizes 1K:16M:64 "
                           "--timing nccl-tests",
                           0.02, 0.005),
                   6 * 4);
}
END_TEST

/* tencent16 with SMPI settings of its own: factors switching at 4096 bytes, SimGrid's cross
 * traffic on, a receive overhead on every host; the latency factor as the file's root zone
 * property, which the runner applies (own), or as smpi/lat-factor, which SMPI applies and
 * which keeps NCCL's slices paying their latency first (docs/platforms.md); written to path. */
static void settings_platform(const char *path, int own)
{
  static const char *const factor = "0:1.5;4096:3";
  FILE *in = fopen("platforms/tencent16.xml", "r"), *out = fopen(path, "w");
  ck_assert(in && out);
  char line[4096];
  int lat = 0;
  while (fgets(line, sizeof line, in)) {
    char *at;
    if (strstr(line, TOPO_LAT_FACTOR_PROP)) {
      if (own)
        fprintf(out, "    <prop id=\"%s\" value=\"%s\"/>\n", TOPO_LAT_FACTOR_PROP, factor);
      lat = 1;
    } else if (strstr(line, "smpi/bw-factor")) {
      fputs("    <prop id=\"smpi/bw-factor\" value=\"0:0.8;4096:0.5\"/>\n", out);
      if (!own)
        fprintf(out, "    <prop id=\"smpi/lat-factor\" value=\"%s\"/>\n", factor);
    } else if (strstr(line, "network/crosstraffic"))
      continue;
    else if ((at = strstr(line, "<prop id=\"node\"")) != NULL) {
      fwrite(line, 1, (size_t)(at - line), out);
      fprintf(out, "<prop id=\"smpi/or\" value=\"0:1e-6:1e-10;1023:3e-6:0\"/>%s", at);
    } else
      fputs(line, out);
  }
  fclose(in);
  fclose(out);
  ck_assert_msg(lat, "platforms/tencent16.xml gives no %s", TOPO_LAT_FACTOR_PROP);
}

START_TEST(models_follow_smpi_settings)
{
  char path[] = "/tmp/check_modes.XXXXXX.xml", args[256];
  int fd = mkstemps(path, 4);
  ck_assert_int_ge(fd, 0);
  close(fd);
  snprintf(args, sizeof args,
           "--platform %s --nodes 4 --ranks-per-node 2 --algo ring,rhd,hier,naive,tree,nccl-ring --sizes 512:1M:8", path);
  for (int own = 0; own <= 1; own++) {
    settings_platform(path, own);
    compare(args, 0.10, 0.05);
    /* the run says which way the slices crossed */
    cli_result r = cli_run(args, 1);
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(r.json, "model");
    const char *how = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m, "nccl_slices"));
    ck_assert_msg(how && strcmp(how, own ? "back to back" : "one at a time") == 0, "nccl_slices %s", how ? how : "none");
    cli_result_free(&r);
  }
  unlink(path);
}
END_TEST

/* A boolean setting spelled any way SimGrid accepts reaches the simulation and the models
 * alike: cross traffic off costs the ring 2% less on 4 x 8, and the model follows either way
 * (it once read "off" as on). */
START_TEST(settings_reach_run_and_model_alike)
{
  const char *words[] = {"off", "no", "0", "false", "on", "yes", "1", "true"};
  double sim[8];
  for (int i = 0; i < 8; i++) {
    char args[256];
    snprintf(args, sizeof args, "--platform tencent16 --nodes 4 --algo ring --size 1M --cfg network/crosstraffic:%s",
             words[i]);
    cli_result r = cli_run(args, 1);
    ck_assert_msg(r.status == 0, "%s: %s", args, r.err);
    sim[i] = cli_num(cli_point(&r, 0), "time_s");
    double model = cli_num(cli_point(&r, 0), "model_time_s");
    ck_assert_msg(fabs(model - sim[i]) / sim[i] < 0.005, "%s: model %g, simulated %g", words[i], model, sim[i]);
    ck_assert_double_eq(sim[i], sim[i < 4 ? 0 : 4]);
    cli_result_free(&r);
  }
  ck_assert_msg(sim[0] < 0.99 * sim[4], "cross traffic off %g, on %g", sim[0], sim[4]);
}
END_TEST

/* --mode model must not start the simulator: a stand-in smpirun first on PATH leaves a mark
 * when anything runs it. */
START_TEST(model_mode_never_starts_smpi)
{
  char dir[] = "/tmp/check_modes.XXXXXX", file[128], mark[128], *path = strdup(getenv("PATH"));
  ck_assert_ptr_nonnull(mkdtemp(dir));
  snprintf(file, sizeof file, "%s/smpirun", dir);
  snprintf(mark, sizeof mark, "%s/started", dir);
  FILE *f = fopen(file, "w");
  fprintf(f, "#!/bin/sh\ntouch %s\nexit 1\n", mark);
  fclose(f);
  chmod(file, 0755);
  size_t n = strlen(dir) + strlen(path) + 2;
  char *fake = malloc(n);
  snprintf(fake, n, "%s:%s", dir, path);
  setenv("PATH", fake, 1);
  cli_result m = cli_run("--mode model --algo all --sizes 1K:1M:4", 1);
  int started_by_model = access(mark, F_OK) == 0;
  cli_result s = cli_run("--mode sim --algo ring --size 1K", 0);
  int started_by_sim = access(mark, F_OK) == 0;
  setenv("PATH", path, 1);
  unlink(mark);
  unlink(file);
  rmdir(dir);
  free(fake);
  free(path);
  ck_assert_msg(m.status == 0 && m.json, "model mode: %s", m.err);
  ck_assert(!started_by_model && started_by_sim);
  ck_assert_int_ne(s.status, 0);
  ck_assert_str_eq(str(m.json, "mode"), "model");
  const cJSON *p = cli_point(&m, 0);
  ck_assert(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(p, "time_s")));
  ck_assert(cli_num(p, "model_time_s") > 0 && cli_num(p, "busbw_GBps") > 0);
  ck_assert(cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(m.json, "model")));
  ck_assert_ptr_nonnull(strstr(m.out, "model(us)"));
  ck_assert_ptr_null(strstr(m.out, "verified"));
  cli_result_free(&m);
  cli_result_free(&s);
}
END_TEST

START_TEST(both_mode_adds_the_model_beside_the_simulation)
{
  cli_result r = cli_run("--algo ring,mpi --size 1M --nodes 2", 1);
  ck_assert_int_eq(r.status, 0);
  ck_assert_str_eq(str(r.json, "run_mode"), "both");
  const cJSON *ring = cli_point(&r, 0), *mpi = cli_point(&r, 1);
  ck_assert(cli_num(ring, "time_s") > 0 && cli_num(ring, "model_time_s") > 0 && cli_num(ring, "nccl_ring_s") > 0);
  ck_assert(cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(ring, "model_phases")));
  ck_assert(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(mpi, "model_time_s"))); /* no model for the library */
  ck_assert_ptr_nonnull(strstr(r.out, "diff%"));
  ck_assert_ptr_nonnull(strstr(r.out, "NCCL 2.26.2-1"));
  cli_result_free(&r);
  r = cli_run("--algo ring --size 1M --nodes 2 --nccl-version 2.7.5", 1);
  ck_assert_ptr_nonnull(strstr(r.out, "NCCL 2.7.5-1"));
  ck_assert_str_eq(str(cJSON_GetObjectItemCaseSensitive(r.json, "model"), "nccl_version"), "2.7.5-1");
  cli_result_free(&r);
  r = cli_run("--mode sim --algo ring --size 1M --nodes 2", 1);
  ck_assert_int_eq(r.status, 0);
  ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(cli_point(&r, 0), "model_time_s"));
  ck_assert_ptr_null(strstr(r.out, "diff%"));
  cli_result_free(&r);
}
END_TEST

/* time of algo at bytes in a model-mode JSON, or NaN */
static double model_time(const cli_result *r, const char *algo, double bytes)
{
  const cJSON *p;
  cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(r->json, "results"))
  if (strcmp(str(p, "algo"), algo) == 0 && cli_num(p, "bytes") == bytes)
    return cli_num(p, "model_time_s");
  return NAN;
}

START_TEST(best_is_the_fastest_dense_prediction_per_size)
{
  const char *shape = "--mode model --sizes 8:1G:1.5 --platform tencent16";
  char args[256];
  snprintf(args, sizeof args, "%s --algo all", shape);
  cli_result all = cli_run(args, 1);
  snprintf(args, sizeof args, "%s --algo best", shape);
  cli_result best = cli_run(args, 1);
  ck_assert_int_eq(all.status, 0);
  ck_assert_int_eq(best.status, 0);
  const cJSON *p, *results = cJSON_GetObjectItemCaseSensitive(best.json, "results");
  int n = 0;
  cJSON_ArrayForEach(p, results)
  {
    double bytes = cli_num(p, "bytes"), chosen = cli_num(p, "model_time_s");
    const char *dense[] = {"ring", "tree", "twotree", "hier", "rhd", "naive"};
    for (size_t a = 0; a < sizeof dense / sizeof dense[0]; a++)
      ck_assert_msg(chosen <= model_time(&all, dense[a], bytes), "at %g: %s (%g) slower than %s (%g)", bytes,
                    str(p, "algo"), chosen, dense[a], model_time(&all, dense[a], bytes));
    ck_assert(strcmp(str(p, "algo"), "topk") && strcmp(str(p, "algo"), "hitopk"));
    ck_assert(n == 0 || bytes > cli_num(cJSON_GetArrayItem(results, n - 1), "bytes")); /* size order */
    n++;
  }
  ck_assert_int_gt(n, 40);
  /* the decision table covers the sweep without gaps, in order */
  const cJSON *ranges = cJSON_GetObjectItemCaseSensitive(best.json, "best");
  ck_assert_int_ge(cJSON_GetArraySize(ranges), 2);
  ck_assert(cli_num(cJSON_GetArrayItem(ranges, 0), "min_bytes") == 8);
  ck_assert(cli_num(cJSON_GetArrayItem(ranges, cJSON_GetArraySize(ranges) - 1), "max_bytes") == 1 << 30);
  ck_assert_ptr_nonnull(strstr(best.out, "--algo best"));
  cli_result_free(&all);
  cli_result_free(&best);
}
END_TEST

START_TEST(best_with_sparse_and_simulated)
{
  /* top-k algorithms only when asked for: hitopk wins at large sizes on tencent16 */
  cli_result r = cli_run("--mode model --algo best --allow-sparse --size 64M", 1);
  ck_assert_int_eq(r.status, 0);
  ck_assert_str_eq(str(cli_point(&r, 0), "algo"), "hitopk");
  cli_result_free(&r);
  /* simulated: only the chosen algorithm runs at each size, sizes in order */
  r = cli_run("--algo best --sizes 1K:16M:64 --nodes 4", 1);
  ck_assert_int_eq(r.status, 0);
  int n = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(r.json, "results"));
  ck_assert_int_eq(n, 4); /* 1K, 64K, 4M and the sweep's end, 16M */
  for (int i = 0; i < n; i++) {
    ck_assert(cli_num(cli_point(&r, i), "time_s") > 0);
    ck_assert(i == 0 || cli_num(cli_point(&r, i), "bytes") > cli_num(cli_point(&r, i - 1), "bytes"));
  }
  cli_result_free(&r);
}
END_TEST

/* --jobs: NCCL's models (replays) of a sweep dealt out to processes give the very points one
 * process gives, in the plan's order, whatever the number of processes (sim/model_batch.c);
 * a batch holds 8 slots a process, so 3 processes take this sweep's 44 in batches of 24, the
 * second not full, ring's closed form among them made in the parent */
START_TEST(model_jobs_give_the_same_points)
{
  const char *sweep = "--mode model --platform hgx-h100-rails --nodes 2 --algo nccl-ring,nccl-tree,nvls-tree,ring "
                      "--sizes 1K:1G:4 --timing nccl-tests";
  char args[256];
  snprintf(args, sizeof args, "%s --jobs 1", sweep);
  cli_result one = cli_run(args, 1);
  snprintf(args, sizeof args, "%s --jobs 3", sweep);
  cli_result three = cli_run(args, 1);
  ck_assert_msg(one.status == 0 && three.status == 0, "%s / %s", one.err, three.err);
  int n = 0;
  for (; cli_point(&one, n); n++) {
    const cJSON *a = cli_point(&one, n), *b = cli_point(&three, n);
    ck_assert_ptr_nonnull(b);
    ck_assert_str_eq(str(a, "algo"), str(b, "algo"));
    ck_assert_str_eq(str(a, "nccl"), str(b, "nccl"));
    ck_assert(cli_num(a, "bytes") == cli_num(b, "bytes"));
    ck_assert_msg(cli_num(a, "model_time_s") == cli_num(b, "model_time_s") && cli_num(a, "model_time_s") > 0,
                  "%s at %g: %.17g s in one process, %.17g in three", str(a, "algo"), cli_num(a, "bytes"),
                  cli_num(a, "model_time_s"), cli_num(b, "model_time_s"));
  }
  ck_assert_int_eq(n, 4 * 11);
  ck_assert_ptr_null(cli_point(&three, n));
  ck_assert_str_eq(one.out, three.out);
  cli_result_free(&one);
  cli_result_free(&three);
}
END_TEST

START_TEST(bad_input_exits_2_with_one_line)
{
  const char *bad[] = {"--mode fast",
                       "--mode",
                       "--algo best,ring",
                       "--algo ring,best",
                       "--allow-sparse --algo ring",
                       "--verify --mode model --nodes 2",
                       "--jobs 0 --mode model",
                       "--jobs 2"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    cli_result r = cli_run(bad[i], 0);
    ck_assert_msg(r.status == 2, "'%s' exited %d", bad[i], r.status);
    ck_assert_msg(cli_lines(r.err) == 1, "'%s' printed: %s", bad[i], r.err);
    cli_result_free(&r);
  }
}
END_TEST

int main(void)
{
  Suite *s = suite_create("modes");
  CHECK_CASE(s, "cli", 60, model_mode_never_starts_smpi, both_mode_adds_the_model_beside_the_simulation,
             best_is_the_fastest_dense_prediction_per_size, best_with_sparse_and_simulated,
             bad_input_exits_2_with_one_line, model_jobs_give_the_same_points);
  CHECK_CASE(s, "model vs simulation", 120, models_follow_the_simulation_on_tencent16,
             models_follow_the_simulation_elsewhere, models_follow_smpi_settings, settings_reach_run_and_model_alike,
             nccl_tests_timing_has_no_start_skew, nccl_ring_model_follows_the_simulation,
             nccl_tree_model_follows_the_simulation, nvls_model_follows_the_simulation);
  return check_run(s);
}
