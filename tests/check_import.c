/* check_import.c: nccl-tests and OSU logs into the measured-data schema: every row,
 * the right numbers, and a clear error naming the line for garbage and truncated logs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/sa_error.h"
#include "import/import.h"
#include "check_util.h"

#define NCCL_LOG "tests/data/calib/nccl_allreduce_8gpu.log"

static char err[512];
static imp_report rep;

static int import_len(int nccl, const char *text, size_t len, const imp_opts *o, md_data *d)
{
  FILE *f = fmemopen((void *)text, len, "r");
  ck_assert_ptr_nonnull(f);
  int rc = nccl ? imp_nccl(f, "LOG", o, d, &rep, err, sizeof err)
                : imp_osu(f, "LOG", o, d, &rep, err, sizeof err);
  fclose(f);
  return rc;
}

static int import_text(int nccl, const char *text, const imp_opts *o, md_data *d)
{
  return import_len(nccl, text, strlen(text), o, d);
}

static char *read_file(const char *path)
{
  FILE *f = fopen(path, "r");
  ck_assert_ptr_nonnull(f);
  char *buf = calloc(1 << 16, 1);
  size_t n = fread(buf, 1, (1 << 16) - 1, f);
  fclose(f);
  ck_assert_uint_gt(n, 0);
  return buf;
}

static const imp_opts defaults = {"inter", 0, 0, 0};

START_TEST(nccl_tests_log_imports_every_row)
{
  md_data d = {0};
  FILE *f = fopen(NCCL_LOG, "r");
  ck_assert_ptr_nonnull(f);
  ck_assert_int_eq(imp_nccl(f, NCCL_LOG, &defaults, &d, &rep, err, sizeof err), 0);
  fclose(f);
  ck_assert_uint_eq(d.n, 26); /* 13 sizes, out-of-place and in-place */
  ck_assert_str_eq(d.source, "nccl-tests");
  const md_point *a = &d.p[0], *b = &d.p[1], *z = &d.p[25];
  ck_assert_str_eq(a->op, "allreduce");
  ck_assert_str_eq(a->dtype, "fp32");
  ck_assert_int_eq(a->ranks, 8);
  ck_assert_int_eq(a->inplace, 0);
  ck_assert_int_eq(b->inplace, 1);
  ck_assert_double_eq(a->bytes, 8);
  ck_assert_double_eq(a->count, 2);
  ck_assert_double_eq_tol(a->time_s, 18.00e-6, 1e-12);
  ck_assert_double_eq_tol(b->time_s, 17.50e-6, 1e-12);
  ck_assert_int_eq(a->errors, 0);
  ck_assert_double_eq(z->bytes, 134217728);
  ck_assert_double_eq_tol(z->time_s, 1215.87e-6, 1e-12);
  ck_assert_double_eq_tol(z->algbw_GBps, 110.39, 1e-9);
  ck_assert_double_eq_tol(z->busbw_GBps, 193.18, 1e-9);
  md_data_free(&d);
}
END_TEST

START_TEST(older_nccl_tests_formats_and_chatter)
{
  /* no root column, error magnitudes instead of #wrong, NCCL's own INFO lines between */
  const char *log = "#  Rank  0 Pid 1 on a device 0\n#  Rank  1 Pid 2 on b device 0\n"
                    "#       size         count      type   redop     time   algbw   busbw  error     time   algbw   busbw  error\n"
                    "a:1:1 [0] NCCL INFO Channel 00/02 :    0   1\n"
                    "     1048576        262144     float     sum    210.5    4.98    4.98  0e+00    209.9    5.00    5.00  0e+00\n"
                    "     2097152       1048576      half     sum    400.0    5.24    5.24    N/A    401.0    5.23    5.23    N/A\n"
                    "# Avg bus bandwidth    : 5.11\n";
  md_data d = {0};
  ck_assert_int_eq(import_text(1, log, &defaults, &d), 0);
  ck_assert_uint_eq(d.n, 4);
  ck_assert_int_eq(d.p[0].ranks, 2);
  ck_assert_double_eq_tol(d.p[1].time_s, 209.9e-6, 1e-12);
  ck_assert_str_eq(d.p[2].dtype, "fp16");
  ck_assert_int_eq(d.p[2].errors, -1);
  md_data_free(&d);
}
END_TEST

/* Inside the table a line that starts like a row must be one; any other line there (a
 * crash message, MPI's or NCCL's output) is not part of the table: skipped and counted. */
START_TEST(nccl_tests_garbage_names_the_line)
{
  char *log = read_file(NCCL_LOG);
  /* a foreign line right after the 14th line of the log */
  char *p = log;
  for (int i = 0; i < 14; i++)
    p = strchr(p, '\n') + 1;
  size_t at = (size_t)(p - log);
  char *bad = malloc(strlen(log) + 128);
  sprintf(bad, "%.*s    8  2  float  sum  -1  18.00  0.00  garbage  0  17.50  0.00  0.00  0\n%s", (int)at, log,
          log + at);
  md_data d = {0};
  ck_assert_int_eq(import_text(1, bad, &defaults, &d), SA_EPARSE);
  ck_assert_msg(strstr(err, "LOG:15: not an all_reduce_perf data row") != NULL, "%s", err);
  ck_assert_uint_eq(d.n, 0); /* nothing of a refused log */
  ck_assert_uint_eq(d.nruns, 0);
  sprintf(bad, "%.*sSegmentation fault (core dumped)\n%s", (int)at, log, log + at);
  ck_assert_int_eq(import_text(1, bad, &defaults, &d), 0);
  ck_assert_uint_eq(d.n, 26);
  ck_assert_int_eq(rep.skipped, 1);
  ck_assert_int_eq(rep.skipped_inside, 1);
  ck_assert_int_eq(rep.first_inside, 15);
  md_data_free(&d);
  ck_assert_int_eq(import_text(1, "", &defaults, &d), SA_EPARSE);
  ck_assert_ptr_nonnull(strstr(err, "no all_reduce_perf table"));
  md_data_free(&d);
  free(bad);
  free(log);
}
END_TEST

START_TEST(truncated_nccl_tests_logs)
{
  char *log = read_file(NCCL_LOG);
  /* cut in the middle of the 3rd data row (line 18) */
  char *row = strstr(log, "\n          128 ");
  ck_assert_ptr_nonnull(row);
  row[40] = '\0';
  md_data d = {0};
  ck_assert_int_eq(import_text(1, log, &defaults, &d), SA_EPARSE);
  ck_assert_msg(strstr(err, "LOG:18:") != NULL, "%s", err);
  md_data_free(&d);
  /* cut at a line end before the summary: refused, unless --partial */
  row[1] = '\0';
  ck_assert_int_eq(import_text(1, log, &defaults, &d), SA_EPARSE);
  ck_assert_ptr_nonnull(strstr(err, "cut short"));
  md_data_free(&d);
  imp_opts partial = {"inter", 0, 0, 1};
  ck_assert_int_eq(import_text(1, log, &partial, &d), 0);
  ck_assert_uint_eq(d.n, 4); /* two rows */
  md_data_free(&d);
  free(log);
}
END_TEST

START_TEST(osu_latency_and_bw)
{
  md_data d = {0};
  imp_opts intra = {"intra", 0, 0, 0};
  char *lat = read_file("tests/data/calib/osu_latency.log"), *bw = read_file("tests/data/calib/osu_bw.log");
  ck_assert_int_eq(import_text(0, lat, &intra, &d), 0);
  ck_assert_uint_eq(d.n, 24); /* 0 and 1 .. 4 MiB */
  ck_assert_str_eq(d.source, "osu_latency");
  ck_assert_str_eq(d.p[0].op, "pingpong");
  ck_assert_str_eq(d.p[0].path, "intra");
  ck_assert_double_eq(d.p[0].bytes, 0);
  ck_assert_double_eq_tol(d.p[0].time_s, 1.50e-6, 1e-15);
  ck_assert_double_eq_tol(d.p[23].time_s, 420.93e-6, 1e-12);
  md_data_free(&d);
  ck_assert_int_eq(import_text(0, bw, &defaults, &d), 0);
  ck_assert_uint_eq(d.n, 23);
  ck_assert_str_eq(d.p[22].op, "stream");
  ck_assert_str_eq(d.p[22].path, "inter");
  /* 4 MiB at 10991.... MB/s, MB = 1e6 bytes */
  ck_assert_double_eq_tol(d.p[22].algbw_GBps, 10.99, 0.005);
  ck_assert_double_eq_tol(d.p[22].time_s, 4194304.0 / (d.p[22].algbw_GBps * 1e9), 1e-15);
  md_data_free(&d);
  free(lat);
  free(bw);
}
END_TEST

START_TEST(osu_allreduce_with_ranks)
{
  md_data d = {0};
  imp_opts o = {"inter", 16, 0, 0};
  char *ar = read_file("tests/data/calib/osu_allreduce.log");
  ck_assert_int_eq(import_text(0, ar, &o, &d), 0);
  ck_assert_uint_eq(d.n, 19); /* 4 B .. 1 MiB */
  ck_assert_str_eq(d.p[0].op, "allreduce");
  ck_assert_int_eq(d.p[0].ranks, 16);
  ck_assert_double_eq_tol(d.p[18].time_s, 529.29e-6, 1e-12);
  ck_assert_double_eq_tol(d.p[18].busbw_GBps, d.p[18].algbw_GBps * 30.0 / 16.0, 1e-12);
  md_data_free(&d);
  /* -f output: average, min, max, iterations */
  const char *full = "# OSU MPI Allreduce Latency Test v7.3\n# Size Avg Latency(us) Min Latency(us) Max Latency(us) Iterations\n"
                     "8  3.10  2.90  3.50  1000\n";
  ck_assert_int_eq(import_text(0, full, &o, &d), 0);
  ck_assert_double_eq_tol(d.p[0].min_s, 2.90e-6, 1e-15);
  ck_assert_double_eq_tol(d.p[0].max_s, 3.50e-6, 1e-15);
  ck_assert_int_eq(d.p[0].reps, 1000);
  md_data_free(&d);
  free(ar);
}
END_TEST

/* Found by fuzzing: numbers too large for the integer fields they fill (nccl-tests' #wrong,
 * osu_allreduce's iterations) were converted anyway, which is undefined behaviour. They are
 * garbage lines now. */
START_TEST(numbers_out_of_integer_range)
{
  char *log = read_file(NCCL_LOG), *row = strstr(log, " float "), *bad = malloc(strlen(log) + 64);
  ck_assert_ptr_nonnull(row);
  while (row > log && row[-1] != '\n') /* back to the start of that first data row */
    row--;
  row--;
  /* the first data row with its out-of-place #wrong replaced by 6.7e110 */
  char *eol = strchr(row + 1, '\n'), line[512];
  snprintf(line, sizeof line, "%.*s", (int)(eol - row - 1), row + 1);
  char *tok[16], *save = NULL;
  int n = 0;
  for (char *t = strtok_r(line, " ", &save); t && n < 16; t = strtok_r(NULL, " ", &save))
    tok[n++] = t;
  ck_assert_int_ge(n, 12);
  tok[n == 13 ? 8 : 7] = "6.7e110"; /* the out-of-place #wrong */
  sprintf(bad, "%.*s\n", (int)(row - log), log);
  for (int i = 0; i < n; i++)
    sprintf(bad + strlen(bad), "%s ", tok[i]);
  strcat(bad, eol);
  md_data d = {0};
  ck_assert_int_eq(import_text(1, bad, &defaults, &d), SA_EPARSE);
  md_data_free(&d);
  ck_assert_int_eq(import_text(0, "# OSU MPI Allreduce Latency Test v7.3\n# Size Avg Latency(us) Min Max Iterations\n"
                                  "4 1.0 0.9 1.1 1e40\n",
                               &defaults, &d),
                   SA_EPARSE);
  md_data_free(&d);
  free(bad);
  free(log);
  /* the same in a measured-data file: counts an int cannot hold, or not whole, are refused */
  const char *counts[] = {"\"errors\": 8.9e55", "\"ranks\": 3e9", "\"reps\": 2.5"};
  for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
    char path[] = "/tmp/check_import_XXXXXX", why[256];
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "{\"schema\": \"simallreduce-measured-1\", \"points\": [{\"op\": \"allreduce\", \"bytes\": 8, "
               "\"time_s\": 1e-5, %s}]}", counts[i]);
    fclose(f);
    ck_assert_msg(md_data_read(&d, path, why, sizeof why) == SA_EPARSE, "%s accepted", counts[i]);
    md_data_free(&d);
    unlink(path);
  }
}
END_TEST

START_TEST(osu_garbage_and_truncation)
{
  md_data d = {0};
  ck_assert_int_eq(import_text(0, "1 2.0\n", &defaults, &d), SA_EPARSE);
  ck_assert_msg(strstr(err, "LOG:1: data before an OSU banner") != NULL, "%s", err);
  ck_assert_int_eq(import_text(0, "# OSU MPI Latency Test v7.3\n# Size Latency (us)\n0 1.5\n1 1.5\n2", &defaults, &d),
                   SA_EPARSE);
  ck_assert_msg(strstr(err, "LOG:5: not a osu_latency data row") != NULL, "%s", err);
  md_data_free(&d);
  ck_assert_int_eq(import_text(0, "# OSU MPI Bandwidth Test v7.3\n8 fast\n", &defaults, &d), SA_EPARSE);
  ck_assert_ptr_nonnull(strstr(err, "LOG:2:"));
  ck_assert_int_eq(import_text(0, "# OSU MPI Bi-Directional Bandwidth Test\n8 12.0\n", &defaults, &d), SA_EPARSE);
  ck_assert_msg(strstr(err, "LOG:1: '# OSU MPI Bi-Directional Bandwidth Test'") != NULL, "%s", err);
  ck_assert_int_eq(import_text(0, "# OSU MPI Latency Test v7.3\n", &defaults, &d), SA_EPARSE);
  ck_assert_ptr_nonnull(strstr(err, "no osu_latency"));
  md_data_free(&d);
}
END_TEST

/* A run's header, device lines and a one-row table, as nccl-tests 2.18 prints them. */
#define RUN_HEAD(ranks_lines)                                                                                      \
  "# nccl-tests version 2.18.3 nccl-headers=22809 nccl-library=22809\n"                                            \
  "# Collective test starting: all_reduce_perf\n"                                                                  \
  "# nThread 1 nGpus 1 minBytes 1024 maxBytes 2048 step: 1024(bytes) warmup iters: 2 iters: 7 agg iters: 1 "     \
  "validation: 1 graph: 0 unalign: 0\n#\n# Using devices\n" ranks_lines                                            \
  "#\n#       size    count   type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong\n"
#define ROW_1K "        1024      256     float     sum      -1    35.49    0.03    0.05       0    33.42    0.03    0.06       0\n"
#define SUMMARY "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 0.05\n#\n"
#define TWO_RANKS "#  Rank  0 Group  0 Pid 1 on a device  0 [0000:06:00] GPU X\n#  Rank  1 Group  0 Pid 2 on b device  0 [0000:06:00] GPU Y\n"

START_TEST(nccl_tests_header_details)
{
  md_data d = {0};
  ck_assert_msg(import_text(1, RUN_HEAD(TWO_RANKS) ROW_1K SUMMARY, &defaults, &d) == 0, "%s", err);
  const md_run *r = &d.runs[0];
  /* NCCL_VERSION_CODE 22809 = 2.28.9 where no "NCCL version" line says it */
  ck_assert_str_eq(r->nccl_version, "2.28.9");
  ck_assert_str_eq(r->tool_version, "2.18.3");
  ck_assert_double_eq(r->params.step_bytes, 1024);
  ck_assert_double_eq(r->params.step_factor, -1);
  ck_assert_int_eq(r->params.iterations, 7);
  ck_assert_int_eq(r->params.warmup_iters, 2);
  ck_assert_int_eq(r->params.aggregated_iterations, 1);
  ck_assert_int_eq(r->params.graph, 0);
  ck_assert_int_eq(r->nodes, 2);
  ck_assert_int_eq(r->gpus_per_node, 1);
  ck_assert_int_eq(r->ngpu_models, 2); /* a mixed job lists both */
  ck_assert_str_eq(r->gpu_models[1], "GPU Y");
  md_data_free(&d);
  /* NCCL's own version line wins; nodes of unequal GPU counts have no gpus_per_node */
  ck_assert_int_eq(import_text(1, RUN_HEAD(TWO_RANKS "#  Rank  2 Group  0 Pid 3 on b device  1 [0000:07:00] GPU Y\n"
                                           "NCCL version 2.28.9+cuda13.0\n") ROW_1K SUMMARY,
                               &defaults, &d),
                   0);
  ck_assert_str_eq(d.runs[0].nccl_version, "2.28.9+cuda13.0");
  ck_assert_int_eq(d.runs[0].ranks, 3);
  ck_assert_int_eq(d.runs[0].nodes, 2);
  ck_assert_int_eq(d.runs[0].gpus_per_node, -1);
  ck_assert_int_eq(d.runs[0].rank_node[2], 1);
  md_data_free(&d);
  /* device lines out of order */
  ck_assert_int_eq(import_text(1, RUN_HEAD("#  Rank  1 Group  0 Pid 1 on a device 0 [0:0:0] G\n") ROW_1K SUMMARY,
                               &defaults, &d),
                   SA_EPARSE);
  ck_assert_msg(strstr(err, "LOG:6: rank 1 where rank 0 was due") != NULL, "%s", err);
  md_data_free(&d);
}
END_TEST

/* A log quoted in markdown ("> " before every line), with CRLF line ends, imports. */
START_TEST(quoted_and_crlf_logs)
{
  const char *text = RUN_HEAD(TWO_RANKS) ROW_1K SUMMARY;
  char *quoted = malloc(2 * strlen(text) + 64), *q = quoted;
  for (const char *p = text; *p; p++) {
    if (p == text || p[-1] == '\n')
      q += sprintf(q, "> ");
    if (*p == '\n')
      *q++ = '\r';
    *q++ = *p;
  }
  *q = '\0';
  md_data d = {0};
  ck_assert_msg(import_text(1, quoted, &defaults, &d) == 0, "%s", err);
  ck_assert_uint_eq(d.n, 2);
  ck_assert_int_eq(d.runs[0].ranks, 2);
  ck_assert_str_eq(d.runs[0].hosts[1], "b");
  md_data_free(&d);
  free(quoted);
}
END_TEST

/* A file of several runs: each must be whole unless --partial, which drops one without rows
 * and keeps the rows of one cut short. */
START_TEST(several_runs_cut_short_or_empty)
{
  md_data d = {0};
  imp_opts partial = {"inter", 0, 0, 1};
  const char *cut = RUN_HEAD(TWO_RANKS) ROW_1K RUN_HEAD(TWO_RANKS) ROW_1K SUMMARY;
  ck_assert_int_eq(import_text(1, cut, &defaults, &d), SA_EPARSE);
  ck_assert_msg(strstr(err, "LOG:11: the run that begins at line 1 ends before") != NULL, "%s", err);
  ck_assert_int_eq(import_text(1, cut, &partial, &d), 0);
  ck_assert_uint_eq(d.nruns, 2);
  ck_assert_uint_eq(d.n, 4);
  ck_assert_int_eq(d.p[3].run, 1);
  md_data_free(&d);
  const char *empty = RUN_HEAD(TWO_RANKS) RUN_HEAD(TWO_RANKS) ROW_1K SUMMARY;
  ck_assert_int_eq(import_text(1, empty, &defaults, &d), SA_EPARSE);
  ck_assert_msg(strstr(err, "the run that begins at line 1 has no all_reduce_perf rows") != NULL, "%s", err);
  ck_assert_int_eq(import_text(1, empty, &partial, &d), 0);
  ck_assert_uint_eq(d.nruns, 1);
  ck_assert_int_eq(d.p[0].run, 0);
  ck_assert_int_eq(d.runs[0].line, 10);
  md_data_free(&d);
}
END_TEST

/* Without the "Collective test starting" line, the rows of other collectives are refused by
 * what allreduce rows never have. */
START_TEST(rows_of_other_collectives)
{
  static const char *const rows[][2] = {
      {"        1024      256     float    none      -1    35.49    0.03    0.05       0    33.42    0.03    0.06       0\n",
       "reduction 'none'"},
      {"        1024      256     float     sum       0    35.49    0.03    0.05       0    33.42    0.03    0.06       0\n",
       "a root other than -1"},
      {"        1024      128     float     sum      -1    35.49    0.03    0.05       0    33.42    0.03    0.06       0\n",
       "1024 bytes are not 128 elements of float"},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    char text[2048];
    snprintf(text, sizeof text, "%s%s%s",
             "#  Rank  0 Group  0 Pid 1 on a device 0 [0:0:0] G\n"
             "#       size    count   type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong\n",
             rows[i][0], SUMMARY);
    md_data d = {0};
    ck_assert_int_eq(import_text(1, text, &defaults, &d), SA_EPARSE);
    ck_assert_msg(strstr(err, "LOG:3: ") && strstr(err, rows[i][1]), "%s", err);
    md_data_free(&d);
  }
  /* a half-precision run: 2 bytes an element */
  md_data d = {0};
  ck_assert_int_eq(import_text(1, "#  size count type redop root time algbw busbw #wrong time algbw busbw #wrong\n"
                                  "1024 512 half sum -1 10.0 0.1 0.1 0 10.0 0.1 0.1 0\n" SUMMARY,
                               &defaults, &d),
                   0);
  ck_assert_str_eq(d.runs[0].dtype, "fp16");
  ck_assert_double_eq(d.p[0].count, 512);
  md_data_free(&d);
}
END_TEST

/* Binary data, endless lines: refused at once, whatever the importer. */
START_TEST(input_is_bounded)
{
  static char big[IMP_LINE_MAX + 16];
  memset(big, 'x', sizeof big);
  const char nul[] = "job started\n\nab\0cd\n";
  for (int nccl = 0; nccl < 2; nccl++) {
    md_data d = {0};
    ck_assert_int_eq(import_len(nccl, nul, sizeof nul - 1, &defaults, &d), SA_EPARSE);
    ck_assert_msg(strstr(err, "LOG:3: a NUL byte") != NULL, "%s", err);
    ck_assert_uint_eq(d.n, 0);
    ck_assert_int_eq(import_len(nccl, big, sizeof big, &defaults, &d), SA_EPARSE);
    ck_assert_msg(strstr(err, "LOG:1: a line longer than 64 KiB") != NULL, "%s", err);
    FILE *f = fopen("/dev/zero", "r");
    ck_assert_ptr_nonnull(f);
    int rc = nccl ? imp_nccl(f, "zero", &defaults, &d, &rep, err, sizeof err)
                  : imp_osu(f, "zero", &defaults, &d, &rep, err, sizeof err);
    fclose(f);
    ck_assert_int_eq(rc, SA_EPARSE);
    ck_assert_str_eq(err, "zero:1: a NUL byte: binary data, not a text log");
    md_data_free(&d);
  }
  /* lines of text that never become a log */
  size_t n = 12 * (IMP_PREAMBLE_MAX + 10);
  char *chatter = malloc(n + 1);
  for (size_t i = 0; i < n; i += 12)
    memcpy(chatter + i, "job started\n", 12);
  chatter[n] = '\0';
  md_data d = {0};
  ck_assert_int_eq(import_text(1, chatter, &defaults, &d), SA_EPARSE);
  ck_assert_msg(strstr(err, "no nccl-tests output in its first 10000 lines") != NULL, "%s", err);
  ck_assert_int_eq(import_text(0, chatter, &defaults, &d), SA_EPARSE);
  ck_assert_msg(strstr(err, "no OSU output in its first 10000 lines") != NULL, "%s", err);
  md_data_free(&d);
  free(chatter);
  /* numbers no benchmark prints: a time of 1e30 us, a size past 2^53 (said so, not as an
   * unknown row) */
  static const char *const rows[][2] = {
      {"     1048576        262144     float     sum      -1   1e30   0.01   0.02      0   74.78   14.02   24.54      0\n",
       "LOG:5: time 1e30 us: more than an hour for one allreduce"},
      {"  18014398509481984  4503599627370496  float  sum  -1  74.78  14.02  24.54  0  74.78  14.02  24.54  0\n",
       "LOG:5: size 18014398509481984 bytes: past 2^53"}};
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    char log[1024];
    snprintf(log, sizeof log,
             "# nThread 1 nGpus 8 minBytes 8 maxBytes 1048576 step: 2(factor) warmup iters: 5 iters: 20\n"
             "#                                                              out-of-place                       "
             "in-place\n"
             "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   "
             "algbw   busbw #wrong\n"
             "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  "
             "(GB/s)\n%s",
             rows[i][0]);
    md_data bad = {0};
    ck_assert_int_eq(import_text(1, log, &defaults, &bad), SA_EPARSE);
    ck_assert_msg(strstr(err, rows[i][1]) != NULL, "%s", err);
    md_data_free(&bad);
  }
}
END_TEST

START_TEST(launcher_lines)
{
  char a[] = "+ mpirun --allow-run-as-root -np 144 --map-by ppr:36:node -x UCX_NET_DEVICES ./osu_allreduce -n 9";
  char b[] = "srun --ntasks=16 -N 2 /opt/nccl-tests/build/all_reduce_perf -b 8 -n 50";
  char c[] = "mpirun -n 8 -npernode 4 hostname", e[] = "Run-1 Starting command at 2025-05-22 07:36:17";
  imp_launch l;
  ck_assert_int_eq(imp_launch_line(a, &l), 1);
  ck_assert_int_eq(l.ranks, 144); /* not osu_allreduce's own -n */
  ck_assert_int_eq(l.per_node, 36);
  ck_assert_int_eq(imp_launch_line(b, &l), 1);
  ck_assert_int_eq(l.ranks, 16);
  ck_assert_int_eq(l.nodes, 2);
  ck_assert_int_eq(l.per_node, -1);
  ck_assert_int_eq(imp_launch_line(c, &l), 1);
  ck_assert_int_eq(l.ranks, 8);
  ck_assert_int_eq(l.per_node, 4);
  ck_assert_int_eq(imp_launch_line(e, &l), 0);
  /* an OSU log with its launcher line: the shape from it, and --ranks must agree */
  const char *log = "$ mpirun -np 144 -npernode 36 osu_allreduce\n# OSU MPI Allreduce Latency Test v7.5\n"
                    "# Datatype: MPI_FLOAT.\n# Size       Avg Latency(us)\n4  11.69\n8  15.34\n";
  md_data d = {0};
  ck_assert_msg(import_text(0, log, &defaults, &d) == 0, "%s", err);
  ck_assert_int_eq(d.runs[0].ranks, 144);
  ck_assert_int_eq(d.runs[0].nodes, 4);
  ck_assert_int_eq(d.runs[0].gpus_per_node, 36);
  ck_assert_int_eq(d.p[1].ranks, 144);
  ck_assert_int_eq(rep.skipped, 1);
  md_data_free(&d);
  imp_opts other = {"inter", 16, 0, 0};
  ck_assert_int_eq(import_text(0, log, &other, &d), SA_EPARSE);
  ck_assert_msg(strstr(err, "LOG:2: --ranks 16, but the launcher at line 1 starts 144") != NULL, "%s", err);
  md_data_free(&d);
}
END_TEST

/* osu_allreduce -T runs one table per datatype (each a run); -c adds a Validation column. */
START_TEST(osu_datatypes_and_validation)
{
  const char *log = "# OSU MPI Allreduce Latency Test v7.4\n# Datatype: MPI_CHAR.\n# Size       Avg Latency(us)\n"
                    "1  2.0\n2  2.1\n# Datatype: MPI_INT.\n# Size       Avg Latency(us)\n4  2.2\n8  2.3\n"
                    "# Datatype: MPI_FLOAT.\n# Size       Avg Latency(us)\n4  2.4\n";
  md_data d = {0};
  ck_assert_msg(import_text(0, log, &defaults, &d) == 0, "%s", err);
  ck_assert_uint_eq(d.nruns, 3);
  ck_assert_uint_eq(d.n, 5);
  ck_assert_str_eq(d.runs[0].dtype, "int8");
  ck_assert_str_eq(d.runs[1].dtype, "int32");
  ck_assert_str_eq(d.runs[2].dtype, "fp32");
  ck_assert_int_eq(d.runs[1].line, 6);
  ck_assert_double_eq(d.p[1].count, 2); /* MPI_CHAR: a byte an element */
  ck_assert_double_eq(d.p[3].count, 2);
  ck_assert_int_eq(d.p[4].run, 2);
  md_data_free(&d);
  const char *checked = "# OSU MPI Allreduce Latency Test v7.4\n# Datatype: MPI_INT.\n"
                        "# Size       Avg Latency(us)        Validation\n4  2.2  Pass\n8  2.3  Fail\n";
  ck_assert_int_eq(import_text(0, checked, &defaults, &d), SA_EPARSE);
  ck_assert_msg(strstr(err, "LOG:5: OSU's validation failed") != NULL, "%s", err);
  ck_assert_int_eq(import_text(0, "# OSU MPI Allreduce Latency Test v7.4\n# Datatype: MPI_LONG_DOUBLE.\n4 2.0\n",
                               &defaults, &d),
                   SA_EPARSE);
  ck_assert_msg(strstr(err, "LOG:2: datatype MPI_LONG_DOUBLE") != NULL, "%s", err);
  md_data_free(&d);
}
END_TEST

/* The out-of-place point of `bytes` in d, which must be there. */
static const md_point *point_at(const md_data *d, double bytes)
{
  for (size_t i = 0; i < d->n; i++)
    if (d->p[i].bytes == bytes && d->p[i].inplace == 0)
      return &d->p[i];
  ck_abort_msg("no point of %.0f bytes", bytes);
  return NULL;
}

/* NCCL's tuning lines (NCCL_DEBUG_SUBSYS=TUNING) give each size what NCCL ran it with, in
 * all three of their forms; other collectives' lines, indices NCCL does not have and sizes
 * whose lines disagree give nothing; and a written file reads back the same. */
START_TEST(nccl_tuning_lines_say_what_ran)
{
  static const struct {
    const char *log;
    double bytes;
    const char *ran;
  } cases[] = {
      {"tests/data/calib/nccl_tuning_numeric.log", 8, "Tree/LL"},     /* 2.20-2.22: no collective named */
      {"tests/data/calib/nccl_tuning_numeric.log", 32, "Ring/LL128"}, /* 2.23: indices */
      {"tests/data/calib/nccl_tuning_numeric.log", 128, ""},          /* "Algo 9": none NCCL has */
      {"tests/data/calib/nccl_tuning_numeric.log", 512, "CollNetDirect/Simple"},
      {"tests/data/calib/nccl_tuning_numeric.log", 2048, ""},          /* a ReduceScatter's line */
      {"tests/data/calib/nccl_tuning_2node16.log", 8, ""},             /* two lines that disagree */
      {"tests/data/calib/nccl_tuning_2node16.log", 1024, "Tree/LL/1"}, /* a Broadcast's line beside */
      {"tests/data/calib/nccl_tuning_2node16.log", 262144, "Ring/LL128/8"},
      {"tests/data/calib/nccl_tuning_2node16.log", 17179869184.0, "NVLSTree/Simple/16"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    md_data d = {0};
    FILE *f = fopen(cases[i].log, "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(imp_nccl(f, cases[i].log, &defaults, &d, &rep, err, sizeof err), 0);
    fclose(f);
    ck_assert_msg(strcmp(point_at(&d, cases[i].bytes)->nccl_ran, cases[i].ran) == 0, "%s %.0f: '%s', not '%s'",
                  cases[i].log, cases[i].bytes, point_at(&d, cases[i].bytes)->nccl_ran, cases[i].ran);
    char path[] = "/tmp/check_import_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert_int_eq(md_data_write(&d, path), 0);
    md_data back = {0};
    ck_assert_int_eq(md_data_read(&back, path, err, sizeof err), 0);
    unlink(path);
    ck_assert_str_eq(point_at(&back, cases[i].bytes)->nccl_ran, cases[i].ran);
    md_data_free(&back);
    md_data_free(&d);
  }
}
END_TEST

static int read_json(const char *json, md_data *d)
{
  char path[] = "/tmp/check_import_XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  FILE *f = fdopen(fd, "w");
  fputs(json, f);
  fclose(f);
  int rc = md_data_read(d, path, err, sizeof err);
  unlink(path);
  return rc;
}

/* Version 1 files (no runs) still read; runs that contradict themselves are refused. */
START_TEST(measured_schema_versions)
{
  md_data d = {0};
  ck_assert_int_eq(read_json("{\"schema\": \"simallreduce-measured-1\", \"points\": [{\"op\": \"allreduce\", "
                             "\"bytes\": 8, \"time_s\": 1e-5, \"ranks\": 4}]}",
                             &d),
                   0);
  ck_assert_uint_eq(d.n, 1);
  ck_assert_uint_eq(d.nruns, 0);
  ck_assert_int_eq(d.p[0].run, -1);
  md_data_free(&d);
  const char *run_ok = "{\"schema\": \"simallreduce-measured-2\", \"runs\": [{\"test\": \"all_reduce_perf\", "
                       "\"ranks\": 2, \"nodes\": 2, \"hosts\": [\"a\", \"b\"], \"rank_node\": [0, 1]}], \"points\": "
                       "[{\"op\": \"allreduce\", \"bytes\": 8, \"time_s\": 1e-5, \"run\": 0}]}";
  ck_assert_msg(read_json(run_ok, &d) == 0, "%s", err);
  ck_assert_int_eq(d.runs[0].rank_node[1], 1);
  md_data_free(&d);
  static const char *const broken[][2] = {
      {"\"runs\": [{\"ranks\": 2, \"hosts\": [\"a\"], \"rank_node\": [0, 1]}], \"points\": []", "run 0:"},
      {"\"runs\": [{\"ranks\": 3, \"hosts\": [\"a\"], \"rank_node\": [0, 0]}], \"points\": []", "run 0:"},
      {"\"runs\": [{\"hosts\": [\"a\", 7]}], \"points\": []", "run 0:"},
      {"\"runs\": [{\"params\": {\"iterations\": 2.5}}], \"points\": []", "run 0:"},
      {"\"runs\": {}, \"points\": []", "not an array"},
      {"\"runs\": [{}], \"points\": [{\"op\": \"allreduce\", \"bytes\": 8, \"time_s\": 1e-5, \"run\": 1}]",
       "names run 1"},
  };
  for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++) {
    char json[512];
    snprintf(json, sizeof json, "{\"schema\": \"simallreduce-measured-2\", %s}", broken[i][0]);
    ck_assert_int_eq(read_json(json, &d), SA_EPARSE);
    ck_assert_msg(strstr(err, broken[i][1]) != NULL, "%s: %s", broken[i][0], err);
    md_data_free(&d);
  }
}
END_TEST

int main(void)
{
  Suite *s = suite_create("calib_import");
  CHECK_CASE(s, "nccl-tests", 10, nccl_tests_log_imports_every_row, older_nccl_tests_formats_and_chatter,
             nccl_tests_garbage_names_the_line, truncated_nccl_tests_logs, nccl_tests_header_details,
             quoted_and_crlf_logs, several_runs_cut_short_or_empty, rows_of_other_collectives,
             nccl_tuning_lines_say_what_ran);
  CHECK_CASE(s, "osu", 10, osu_latency_and_bw, osu_allreduce_with_ranks, osu_garbage_and_truncation,
             numbers_out_of_integer_range, launcher_lines, osu_datatypes_and_validation);
  CHECK_CASE(s, "bounds and schema", 20, input_is_bounded, measured_schema_versions);
  return check_run(s);
}
