/* check_import_real.c: every real log of tests/data/measured (nccl-tests and OSU output from
 * public clusters, see its README) imports with all its rows, its runs' shapes, versions and
 * parameters; the ones that must be refused or split are. The expected numbers were read off
 * the files by hand, not taken from the importer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/sa_error.h"
#include "fit/collfit.h"
#include "import/import.h"
#include "check_util.h"

#define DIR "tests/data/measured/"

static char err[512];
static imp_report rep;

static int import(const char *file, int nccl, const imp_opts *o, md_data *d)
{
  char path[256];
  snprintf(path, sizeof path, DIR "%s", file);
  FILE *f = fopen(path, "r");
  ck_assert_msg(f != NULL, "cannot open %s", path);
  int rc = nccl ? imp_nccl(f, file, o, d, &rep, err, sizeof err)
                : imp_osu(f, file, o, d, &rep, err, sizeof err);
  fclose(f);
  return rc;
}

static const imp_opts inter = {"inter", 0, 0, 0};

/* One single-run log: what it holds, read off the file. */
typedef struct {
  const char *file;
  int rows;                  /* data rows: nccl-tests gives two points (out-of-place, in-place) each */
  int ranks, nodes, gpn;     /* from the device lines; -1 where the log does not say */
  const char *nccl, *tool_version, *gpu;
  int nthreads, ngpus, warmup, iters;
  double min_bytes, max_bytes;
  long skipped, inside, first_inside;
  double first_bytes, first_us, last_bytes, last_us; /* first row's out-of-place, last row's in-place */
} nccl_log;

/* one log to a row */
/* clang-format off */
static const nccl_log nccl_logs[] = {
    {"L01_h100_2node16_ztan.log", 31, 16, 2, 8, "", "", "NVIDIA H100 80GB HBM3", 1, 1, 5, 20, 8, 8589934592.0, 5, 0,
     0, 8, 135.8, 8589934592.0, 47743},
    {"L02_a100x8_superbench.log", 34, 8, 1, 8, "", "", "A100-SXM4-40GB", 1, 8, 5, 20, 1, 8589934592.0, 0, 0, 0, 0,
     35.20, 8589934592.0, 63959},
    {"L03_a100x2_nccl2205_info.log", 3, 2, 1, 2, "2.20.5+cuda12.4", "", "NVIDIA A100-SXM4-80GB", 1, 2, 5, 20,
     134217728, 536870912, 26, 2, 38, 134217728, 857.6, 536870912, 2793.6},
    {"L04_2node16_nccl2303_ompiwarn.log", 24, 16, 2, 8, "2.30.3+cuda13.0", "2.18.3", "NVIDIA Graphics Device", 1, 1,
     1, 20, 1024, 8589934592.0, 11, 0, 0, 1024, 35.49, 8589934592.0, 323213},
    {"L05_dgx2_v100x12_errmag.log", 31, 12, 1, 12, "", "", "Tesla V100-SXM3-32GB", 1, 12, 5, 20, 8, 10737418240.0, 0,
     0, 0, 8, 61.03, 8589934592.0, 127443},
    {"L06_efa_2node_v100_nccl264.log", 29, 2, 2, 1, "2.6.4+cuda10.2", "", "Tesla V100-SXM2-32GB", 1, 1, 5, 1000, 8,
     2147483648.0, 16, 0, 0, 8, 52.16, 2147483648.0, 828420},
    {"L07_hgx_h100_2node16_nccl2262_xpmem.log", 32, 16, 2, 8, "2.26.2+cuda12.8", "", "NVIDIA H100 80GB HBM3", 1, 1, 5,
     20, 8, 17179869184.0, 10, 0, 0, 8, 68.52, 17179869184.0, 68668},
    {"L08_hgx_h100_4node32_nccl2262_runline.log", 32, 32, 4, 8, "2.26.2+cuda12.8", "", "NVIDIA H100 80GB HBM3", 1, 1,
     5, 20, 8, 17179869184.0, 1, 0, 0, 8, 83.42, 17179869184.0, 91081},
    {"L09_gjaion_h100_2node16.log", 14, 16, 2, 8, "", "", "NVIDIA H100 80GB HBM3", 1, 1, 5, 20, 1048576,
     8589934592.0, 0, 0, 0, 1048576, 93.25, 8589934592.0, 34514},
    {"L12_gjaion_h100_2node16_ring.log", 14, 16, 2, 8, "", "", "NVIDIA H100 80GB HBM3", 1, 1, 5, 20, 1048576,
     8589934592.0, 0, 0, 0, 1048576, 156.9, 8589934592.0, 41056},
    {"L13_k80x4_azureml_errmag.log", 7, 4, 1, 4, "", "", "Tesla K80", 1, 1, 5, 20, 33554432, 8589934592.0, 0, 0, 0,
     33554432, 19902, 2147483648.0, 1258876},
    {"L14_rccl_mi100x2_versionline.log", 25, 2, 1, 2, "", "develop:3f7f785", "AMD Instinct MI100", 1, 2, 5, 20, 8,
     134217728, 0, 0, 0, 8, 13.10, 134217728, 5762.7},
};
/* clang-format on */

/* The logs with NCCL's "Launch mode Parallel" line, printed by NCCL 2.3.5 to 2.12.12 alone: the
 * releases the run is dated to (its "Launch mode" line no longer counted as skipped). */
static int dated(const char *file)
{
  static const char *const logs[] = {"L02_a100x8_superbench.log", "L06_efa_2node_v100_nccl264.log",
                                     "L13_k80x4_azureml_errmag.log"};
  for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++)
    if (strcmp(file, logs[i]) == 0)
      return 1;
  return 0;
}

START_TEST(nccl_tests_logs_import_every_row)
{
  const nccl_log *l = &nccl_logs[_i];
  md_data d = {0};
  ck_assert_msg(import(l->file, 1, &inter, &d) == 0, "%s: %s", l->file, err);
  ck_assert_uint_eq(d.n, 2 * (size_t)l->rows);
  ck_assert_uint_eq(d.nruns, 1);
  const md_run *r = md_data_run(&d, 0);
  ck_assert_str_eq(r->test, "all_reduce_perf");
  ck_assert_str_eq(r->tool, l->file[1] == '1' && l->file[2] == '4' ? "rccl-tests" : "nccl-tests");
  ck_assert_str_eq(r->op, "allreduce");
  ck_assert_str_eq(r->dtype, "fp32");
  ck_assert_str_eq(r->redop, "sum");
  ck_assert_int_eq(r->ranks, l->ranks);
  ck_assert_int_eq(r->nodes, l->nodes);
  ck_assert_int_eq(r->gpus_per_node, l->gpn);
  ck_assert_int_eq(r->nhosts, l->nodes);
  ck_assert_str_eq(r->nccl_version, l->nccl);
  ck_assert_str_eq(r->nccl_dated, dated(l->file) ? "2.3.5 to 2.12.12" : "");
  ck_assert_str_eq(r->tool_version, l->tool_version);
  ck_assert_int_eq(r->ngpu_models, 1);
  ck_assert_str_eq(r->gpu_models[0], l->gpu);
  ck_assert_int_eq(r->params.nthreads, l->nthreads);
  ck_assert_int_eq(r->params.ngpus, l->ngpus);
  ck_assert_int_eq(r->params.warmup_iters, l->warmup);
  ck_assert_int_eq(r->params.iterations, l->iters);
  ck_assert_double_eq(r->params.minimum_bytes, l->min_bytes);
  ck_assert_double_eq(r->params.maximum_bytes, l->max_bytes);
  ck_assert_double_eq(r->params.step_factor, 2);
  /* ranks are laid out node after node: the first gpn on the first host, the last on the last */
  ck_assert_int_eq(r->rank_node[0], 0);
  ck_assert_int_eq(r->rank_node[l->gpn - 1], 0);
  ck_assert_int_eq(r->rank_node[l->ranks - 1], l->nodes - 1);
  ck_assert_int_eq(rep.skipped, l->skipped);
  ck_assert_int_eq(rep.skipped_inside, l->inside);
  ck_assert_int_eq(rep.first_inside, l->first_inside);
  const md_point *a = &d.p[0], *z = &d.p[d.n - 1];
  ck_assert_double_eq(a->bytes, l->first_bytes);
  ck_assert_double_eq_tol(a->time_s, l->first_us * 1e-6, 1e-12 * l->first_us);
  ck_assert_int_eq(a->inplace, 0);
  ck_assert_double_eq(z->bytes, l->last_bytes);
  ck_assert_double_eq_tol(z->time_s, l->last_us * 1e-6, 1e-12 * l->last_us);
  ck_assert_int_eq(z->inplace, 1);
  for (size_t i = 0; i < d.n; i++) {
    ck_assert_int_eq(d.p[i].run, 0);
    ck_assert_int_eq(d.p[i].ranks, l->ranks);
    ck_assert_double_eq(d.p[i].count * 4, d.p[i].bytes);
  }
  md_data_free(&d);
}
END_TEST

/* The #wrong column counts wrong elements; old versions' "error" column holds a magnitude
 * (2e-07), which is not a count; N/A where validation was off. */
START_TEST(error_columns_of_old_and_new_versions)
{
  md_data d = {0};
  ck_assert_int_eq(import("L05_dgx2_v100x12_errmag.log", 1, &inter, &d), 0);
  for (size_t i = 0; i < d.n; i++)
    ck_assert_int_eq(d.p[i].errors, -1);
  md_data_free(&d);
  ck_assert_int_eq(import("L02_a100x8_superbench.log", 1, &inter, &d), 0);
  ck_assert_int_eq(d.runs[0].params.validation, 0);
  ck_assert_double_eq(d.p[0].bytes, 0); /* the size-0 rows are rows */
  ck_assert_double_eq(d.p[2].bytes, 0);
  ck_assert_int_eq(d.p[0].errors, -1);
  md_data_free(&d);
  ck_assert_int_eq(import("L07_hgx_h100_2node16_nccl2262_xpmem.log", 1, &inter, &d), 0);
  ck_assert_int_eq(d.p[0].errors, 0);
  ck_assert_str_eq(d.runs[0].hosts[0], "bm-h100-01");
  ck_assert_str_eq(d.runs[0].hosts[1], "bm-h100-02");
  md_data_free(&d);
}
END_TEST

START_TEST(another_collective_is_refused_naming_it)
{
  md_data d = {0};
  ck_assert_int_eq(import("X01_allgather_gb10_2node_wrongcoll.log", 1, &inter, &d), SA_EPARSE);
  ck_assert_msg(strstr(err, "X01_allgather_gb10_2node_wrongcoll.log:2: all_gather_perf") != NULL, "%s", err);
  ck_assert_msg(strstr(err, "holds allgather, not allreduce") != NULL, "%s", err);
  ck_assert_uint_eq(d.n, 0);
  ck_assert_uint_eq(d.nruns, 0);
  md_data_free(&d);
}
END_TEST

START_TEST(two_runs_in_one_file)
{
  md_data d = {0};
  ck_assert_msg(import("X02_concat_L07_L08_two_runs.log", 1, &inter, &d) == 0, "%s", err);
  ck_assert_uint_eq(d.n, 128);
  ck_assert_uint_eq(d.nruns, 2);
  ck_assert_int_eq(rep.skipped, 11); /* L07's 10 lines of MPI warnings, L08's wrapper line */
  const int ranks[] = {16, 32}, nodes[] = {2, 4};
  const long line[] = {11, 73};
  for (int r = 0; r < 2; r++) {
    const md_run *run = md_data_run(&d, r);
    ck_assert_int_eq(run->ranks, ranks[r]);
    ck_assert_int_eq(run->nodes, nodes[r]);
    ck_assert_int_eq(run->gpus_per_node, 8);
    ck_assert_int_eq(run->line, line[r]);
    ck_assert_str_eq(run->nccl_version, "2.26.2+cuda12.8");
    /* what the fit asks: the allreduce points of run r */
    size_t i = 0, n = 0;
    const md_point *p;
    while ((p = md_run_next(&d, r, "allreduce", &i))) {
      ck_assert_int_eq(p->ranks, ranks[r]);
      ck_assert_str_eq(p->dtype, "fp32");
      n++;
    }
    ck_assert_uint_eq(n, 64);
  }
  ck_assert_ptr_null(md_data_run(&d, 2));
  ck_assert_str_eq(d.runs[1].hosts[3], "pt02");
  /* L08's 8 B out-of-place time is the second run's first point */
  ck_assert_double_eq_tol(d.p[64].time_s, 83.42e-6, 1e-12);
  /* each run fits on its own: two runs x out-of-place/in-place */
  cJSON *fits = fit_coll_json(&d);
  ck_assert_int_eq(cJSON_GetArraySize(fits), 4);
  cJSON_Delete(fits);
  md_data_free(&d);
}
END_TEST

/* One OSU log: test, rows, datatype. */
typedef struct {
  const char *file;
  const char *test, *version, *dtype;
  int rows, assumed;
  long skipped;
  double first_bytes, first, last_bytes, last; /* us, or MB/s for osu_bw */
} osu_log;

static const osu_log osu_logs[] = {
    {"O01_osu_bw_inter_uibk.log", "osu_bw", "5.8", "", 23, 0, 0, 1, 0.19, 4194304, 2151.57},
    {"O02_osu_latency_inter_uibk.log", "osu_latency", "5.8", "", 24, 0, 0, 0, 95.50, 4194304, 2377.84},
    {"O03_osu_latency_intra_uibk.log", "osu_latency", "5.8", "", 24, 0, 0, 0, 0.19, 4194304, 880.00},
    {"O04_osu_allreduce_full_v7_nwtnni.log", "osu_allreduce", "7.0", "fp32", 19, 1, 0, 4, 85.16, 1048576, 5700.06},
    {"O05_osu_allreduce_v75_144rank_oci.log", "osu_allreduce", "7.5", "int32", 27, 0, 1, 4, 11.69, 268435456,
     496306.98},
};

START_TEST(osu_logs_import_every_row)
{
  const osu_log *l = &osu_logs[_i];
  md_data d = {0};
  int bw = strcmp(l->test, "osu_bw") == 0, ar = strcmp(l->test, "osu_allreduce") == 0;
  ck_assert_msg(import(l->file, 0, &inter, &d) == 0, "%s: %s", l->file, err);
  ck_assert_uint_eq(d.n, (size_t)l->rows);
  ck_assert_uint_eq(d.nruns, 1);
  const md_run *r = &d.runs[0];
  ck_assert_str_eq(r->tool, "osu");
  ck_assert_str_eq(r->test, l->test);
  ck_assert_str_eq(r->tool_version, l->version);
  ck_assert_str_eq(r->dtype, l->dtype);
  ck_assert_int_eq(r->dtype_assumed, l->assumed);
  ck_assert_int_eq(r->ranks, ar ? -1 : 2); /* OSU does not print how many processes ran */
  ck_assert_int_eq(rep.skipped, l->skipped);
  const md_point *a = &d.p[0], *z = &d.p[d.n - 1];
  ck_assert_double_eq(a->bytes, l->first_bytes);
  ck_assert_double_eq(z->bytes, l->last_bytes);
  if (bw) {
    ck_assert_double_eq_tol(a->algbw_GBps, l->first * 1e-3, 1e-12);
    ck_assert_double_eq_tol(z->algbw_GBps, l->last * 1e-3, 1e-9);
  } else {
    ck_assert_double_eq_tol(a->time_s, l->first * 1e-6, 1e-12 * l->first);
    ck_assert_double_eq_tol(z->time_s, l->last * 1e-6, 1e-12 * l->last);
  }
  if (ar)
    ck_assert_double_eq(z->count, z->bytes / 4); /* fp32 and int32 alike */
  md_data_free(&d);
}
END_TEST

START_TEST(osu_allreduce_shapes)
{
  md_data d = {0};
  /* O04: -f columns */
  ck_assert_int_eq(import("O04_osu_allreduce_full_v7_nwtnni.log", 0, &inter, &d), 0);
  ck_assert_double_eq_tol(d.p[0].min_s, 78.46e-6, 1e-12);
  ck_assert_double_eq_tol(d.p[0].max_s, 95.03e-6, 1e-12);
  ck_assert_int_eq(d.p[0].reps, 1000);
  ck_assert_int_eq(d.p[18].reps, 100);
  md_data_free(&d);
  /* O05: 4 nodes x 36 ranks, which its log does not say */
  imp_opts shape = {"inter", 144, 4, 0};
  ck_assert_int_eq(import("O05_osu_allreduce_v75_144rank_oci.log", 0, &shape, &d), 0);
  ck_assert_int_eq(d.runs[0].ranks, 144);
  ck_assert_int_eq(d.runs[0].nodes, 4);
  ck_assert_int_eq(d.runs[0].gpus_per_node, 36);
  ck_assert_int_eq(d.p[0].ranks, 144);
  ck_assert_double_eq_tol(d.p[26].busbw_GBps, d.p[26].algbw_GBps * 2 * 143 / 144, 1e-12);
  md_data_free(&d);
  /* O03 with --path intra: a pair on one node */
  imp_opts intra = {"intra", 0, 0, 0};
  ck_assert_int_eq(import("O03_osu_latency_intra_uibk.log", 0, &intra, &d), 0);
  ck_assert_int_eq(d.runs[0].nodes, 1);
  ck_assert_int_eq(d.runs[0].gpus_per_node, 2);
  ck_assert_str_eq(d.p[0].path, "intra");
  md_data_free(&d);
}
END_TEST

START_TEST(two_osu_tests_in_one_file)
{
  md_data d = {0};
  ck_assert_msg(import("X03_concat_osu_latency_then_allreduce.log", 0, &inter, &d) == 0, "%s", err);
  ck_assert_uint_eq(d.n, 24 + 27);
  ck_assert_uint_eq(d.nruns, 2);
  ck_assert_str_eq(d.source, "osu");
  ck_assert_str_eq(d.runs[0].test, "osu_latency");
  ck_assert_str_eq(d.runs[0].op, "pingpong");
  ck_assert_str_eq(d.runs[1].test, "osu_allreduce");
  ck_assert_str_eq(d.runs[1].dtype, "int32");
  ck_assert_int_eq(d.runs[1].dtype_assumed, 0);
  ck_assert_str_eq(d.p[23].op, "pingpong");
  ck_assert_int_eq(d.p[23].run, 0);
  ck_assert_str_eq(d.p[24].op, "allreduce");
  ck_assert_str_eq(d.p[24].dtype, "int32");
  ck_assert_int_eq(d.p[24].run, 1);
  ck_assert_double_eq_tol(d.p[24].time_s, 11.69e-6, 1e-12);
  md_data_free(&d);
}
END_TEST

/* Each tool's output given to the other importer: refused at its first line of its own. */
START_TEST(the_other_tool_is_refused)
{
  md_data d = {0};
  ck_assert_int_eq(import("O02_osu_latency_inter_uibk.log", 1, &inter, &d), SA_EPARSE);
  ck_assert_msg(strstr(err, "O02_osu_latency_inter_uibk.log:1: OSU output") != NULL, "%s", err);
  ck_assert_int_eq(import("L09_gjaion_h100_2node16.log", 0, &inter, &d), SA_EPARSE);
  ck_assert_msg(strstr(err, "L09_gjaion_h100_2node16.log:1: nccl-tests output") != NULL, "%s", err);
  ck_assert_uint_eq(d.n, 0);
  md_data_free(&d);
}
END_TEST

/* The runs survive the JSON file; two files read into one keep their runs apart. */
START_TEST(runs_round_trip_through_json)
{
  md_data d = {0}, back = {0};
  ck_assert_int_eq(import("X02_concat_L07_L08_two_runs.log", 1, &inter, &d), 0);
  char path[] = "/tmp/check_real_XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  close(fd);
  ck_assert_int_eq(md_data_write(&d, path), 0);
  ck_assert_int_eq(md_data_read(&back, path, err, sizeof err), 0);
  ck_assert_int_eq(md_data_read(&back, path, err, sizeof err), 0);
  unlink(path);
  ck_assert_uint_eq(back.n, 256);
  ck_assert_uint_eq(back.nruns, 4);
  for (int r = 0; r < 4; r++) {
    const md_run *a = &d.runs[r % 2], *b = &back.runs[r];
    ck_assert_int_eq(b->ranks, a->ranks);
    ck_assert_int_eq(b->nodes, a->nodes);
    ck_assert_int_eq(b->gpus_per_node, a->gpus_per_node);
    ck_assert_int_eq(b->nhosts, a->nhosts);
    for (int h = 0; h < a->nhosts; h++)
      ck_assert_str_eq(b->hosts[h], a->hosts[h]);
    for (int k = 0; k < a->ranks; k++)
      ck_assert_int_eq(b->rank_node[k], a->rank_node[k]);
    ck_assert_str_eq(b->gpu_models[0], a->gpu_models[0]);
    ck_assert_str_eq(b->nccl_version, a->nccl_version);
    ck_assert_int_eq(b->params.iterations, 20);
    ck_assert_double_eq(b->params.maximum_bytes, 17179869184.0);
    ck_assert_double_eq(b->params.step_bytes, -1);
    ck_assert_int_eq(b->line, a->line);
  }
  /* the second file's points name its own runs, 2 and 3 */
  ck_assert_int_eq(back.p[0].run, 0);
  ck_assert_int_eq(back.p[127].run, 1);
  ck_assert_int_eq(back.p[128].run, 2);
  ck_assert_int_eq(back.p[255].run, 3);
  /* keeping one run */
  ck_assert_int_eq(md_data_keep_run(&back, 3), 0);
  ck_assert_uint_eq(back.nruns, 1);
  ck_assert_uint_eq(back.n, 64);
  ck_assert_int_eq(back.runs[0].ranks, 32);
  ck_assert_int_eq(back.p[63].run, 0);
  ck_assert_int_eq(md_data_keep_run(&back, 1), SA_EINVAL);
  md_data_free(&back);
  md_data_free(&d);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("calib_real");
  TCase *tc = tcase_create("nccl-tests logs");
  tcase_add_loop_test(tc, nccl_tests_logs_import_every_row, 0, sizeof nccl_logs / sizeof nccl_logs[0]);
  tcase_add_loop_test(tc, osu_logs_import_every_row, 0, sizeof osu_logs / sizeof osu_logs[0]);
  suite_add_tcase(s, tc);
  CHECK_CASE(s, "cases", 10, error_columns_of_old_and_new_versions, another_collective_is_refused_naming_it,
             two_runs_in_one_file, osu_allreduce_shapes, two_osu_tests_in_one_file, the_other_tool_is_refused,
             runs_round_trip_through_json);
  return check_run(s);
}
