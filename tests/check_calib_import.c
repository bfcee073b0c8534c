/* check_calib_import.c: nccl-tests and OSU logs into the measured-data schema: every row,
 * the right numbers, and a clear error naming the line for garbage and truncated logs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/sa_error.h"
#include "calib/import.h"
#include "check_util.h"

#define NCCL_LOG "tests/data/calib/nccl_allreduce_8gpu.log"

static char err[512];

static int import_text(int nccl, const char *text, const cal_import_opts *o, cal_data *d)
{
  FILE *f = fmemopen((void *)text, strlen(text), "r");
  ck_assert_ptr_nonnull(f);
  int rc = nccl ? cal_import_nccl(f, "LOG", o, d, err, sizeof err) : cal_import_osu(f, "LOG", o, d, err, sizeof err);
  fclose(f);
  return rc;
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

static const cal_import_opts defaults = {"inter", 0, 0};

START_TEST(nccl_tests_log_imports_every_row)
{
  cal_data d = {0};
  FILE *f = fopen(NCCL_LOG, "r");
  ck_assert_ptr_nonnull(f);
  ck_assert_int_eq(cal_import_nccl(f, NCCL_LOG, &defaults, &d, err, sizeof err), 0);
  fclose(f);
  ck_assert_uint_eq(d.n, 26); /* 13 sizes, out-of-place and in-place */
  ck_assert_str_eq(d.source, "nccl-tests");
  const cal_point *a = &d.p[0], *b = &d.p[1], *z = &d.p[25];
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
  cal_data_free(&d);
}
END_TEST

START_TEST(older_nccl_tests_formats_and_chatter)
{
  /* no root column, error magnitudes instead of #wrong, NCCL's own INFO lines between */
  const char *log = "#  Rank  0 Pid 1 on a device 0\n#  Rank  1 Pid 2 on b device 0\n"
                    "#       size         count      type   redop     time   algbw   busbw  error     time   algbw   busbw  error\n"
                    "a:1:1 [0] NCCL INFO Channel 00/02 :    0   1\n"
                    "     1048576        262144     float     sum    210.5    4.98    4.98  0e+00    209.9    5.00    5.00  0e+00\n"
                    "     2097152        524288      half     sum    400.0    5.24    5.24    N/A    401.0    5.23    5.23    N/A\n"
                    "# Avg bus bandwidth    : 5.11\n";
  cal_data d = {0};
  ck_assert_int_eq(import_text(1, log, &defaults, &d), 0);
  ck_assert_uint_eq(d.n, 4);
  ck_assert_int_eq(d.p[0].ranks, 2);
  ck_assert_double_eq_tol(d.p[1].time_s, 209.9e-6, 1e-12);
  ck_assert_str_eq(d.p[2].dtype, "fp16");
  ck_assert_int_eq(d.p[2].errors, -1);
  cal_data_free(&d);
}
END_TEST

START_TEST(nccl_tests_garbage_names_the_line)
{
  char *log = read_file(NCCL_LOG);
  /* a foreign line right after the 14th line of the log */
  char *p = log;
  for (int i = 0; i < 14; i++)
    p = strchr(p, '\n') + 1;
  size_t at = (size_t)(p - log);
  char *bad = malloc(strlen(log) + 64);
  sprintf(bad, "%.*sSegmentation fault (core dumped)\n%s", (int)at, log, log + at);
  cal_data d = {0};
  ck_assert_int_eq(import_text(1, bad, &defaults, &d), SA_EPARSE);
  ck_assert_msg(strstr(err, "LOG:15:") != NULL, "%s", err);
  cal_data_free(&d);
  ck_assert_int_eq(import_text(1, "", &defaults, &d), SA_EPARSE);
  ck_assert_ptr_nonnull(strstr(err, "no all_reduce_perf table"));
  cal_data_free(&d);
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
  cal_data d = {0};
  ck_assert_int_eq(import_text(1, log, &defaults, &d), SA_EPARSE);
  ck_assert_msg(strstr(err, "LOG:18:") != NULL, "%s", err);
  cal_data_free(&d);
  /* cut at a line end before the summary: refused, unless --partial */
  row[1] = '\0';
  ck_assert_int_eq(import_text(1, log, &defaults, &d), SA_EPARSE);
  ck_assert_ptr_nonnull(strstr(err, "cut short"));
  cal_data_free(&d);
  cal_import_opts partial = {"inter", 0, 1};
  ck_assert_int_eq(import_text(1, log, &partial, &d), 0);
  ck_assert_uint_eq(d.n, 4); /* two rows */
  cal_data_free(&d);
  free(log);
}
END_TEST

START_TEST(osu_latency_and_bw)
{
  cal_data d = {0};
  cal_import_opts intra = {"intra", 0, 0};
  char *lat = read_file("tests/data/calib/osu_latency.log"), *bw = read_file("tests/data/calib/osu_bw.log");
  ck_assert_int_eq(import_text(0, lat, &intra, &d), 0);
  ck_assert_uint_eq(d.n, 24); /* 0 and 1 .. 4 MiB */
  ck_assert_str_eq(d.source, "osu_latency");
  ck_assert_str_eq(d.p[0].op, "pingpong");
  ck_assert_str_eq(d.p[0].path, "intra");
  ck_assert_double_eq(d.p[0].bytes, 0);
  ck_assert_double_eq_tol(d.p[0].time_s, 1.50e-6, 1e-15);
  ck_assert_double_eq_tol(d.p[23].time_s, 420.93e-6, 1e-12);
  cal_data_free(&d);
  ck_assert_int_eq(import_text(0, bw, &defaults, &d), 0);
  ck_assert_uint_eq(d.n, 23);
  ck_assert_str_eq(d.p[22].op, "stream");
  ck_assert_str_eq(d.p[22].path, "inter");
  /* 4 MiB at 10991.... MB/s, MB = 1e6 bytes */
  ck_assert_double_eq_tol(d.p[22].algbw_GBps, 10.99, 0.005);
  ck_assert_double_eq_tol(d.p[22].time_s, 4194304.0 / (d.p[22].algbw_GBps * 1e9), 1e-15);
  cal_data_free(&d);
  free(lat);
  free(bw);
}
END_TEST

START_TEST(osu_allreduce_with_ranks)
{
  cal_data d = {0};
  cal_import_opts o = {"inter", 16, 0};
  char *ar = read_file("tests/data/calib/osu_allreduce.log");
  ck_assert_int_eq(import_text(0, ar, &o, &d), 0);
  ck_assert_uint_eq(d.n, 19); /* 4 B .. 1 MiB */
  ck_assert_str_eq(d.p[0].op, "allreduce");
  ck_assert_int_eq(d.p[0].ranks, 16);
  ck_assert_double_eq_tol(d.p[18].time_s, 529.29e-6, 1e-12);
  ck_assert_double_eq_tol(d.p[18].busbw_GBps, d.p[18].algbw_GBps * 30.0 / 16.0, 1e-12);
  cal_data_free(&d);
  /* -f output: average, min, max, iterations */
  const char *full = "# OSU MPI Allreduce Latency Test v7.3\n# Size Avg Latency(us) Min Latency(us) Max Latency(us) Iterations\n"
                     "8  3.10  2.90  3.50  1000\n";
  ck_assert_int_eq(import_text(0, full, &o, &d), 0);
  ck_assert_double_eq_tol(d.p[0].min_s, 2.90e-6, 1e-15);
  ck_assert_double_eq_tol(d.p[0].max_s, 3.50e-6, 1e-15);
  ck_assert_int_eq(d.p[0].reps, 1000);
  cal_data_free(&d);
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
  cal_data d = {0};
  ck_assert_int_eq(import_text(1, bad, &defaults, &d), SA_EPARSE);
  cal_data_free(&d);
  ck_assert_int_eq(import_text(0, "# OSU MPI Allreduce Latency Test v7.3\n# Size Avg Latency(us) Min Max Iterations\n"
                                  "4 1.0 0.9 1.1 1e40\n",
                               &defaults, &d),
                   SA_EPARSE);
  cal_data_free(&d);
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
    ck_assert_msg(cal_data_read(&d, path, why, sizeof why) == SA_EPARSE, "%s accepted", counts[i]);
    cal_data_free(&d);
    unlink(path);
  }
}
END_TEST

START_TEST(osu_garbage_and_truncation)
{
  cal_data d = {0};
  ck_assert_int_eq(import_text(0, "1 2.0\n", &defaults, &d), SA_EPARSE);
  ck_assert_msg(strstr(err, "LOG:1: data before an OSU banner") != NULL, "%s", err);
  ck_assert_int_eq(import_text(0, "# OSU MPI Latency Test v7.3\n# Size Latency (us)\n0 1.5\n1 1.5\n2", &defaults, &d),
                   SA_EPARSE);
  ck_assert_msg(strstr(err, "LOG:5: not a osu_latency data row") != NULL, "%s", err);
  cal_data_free(&d);
  ck_assert_int_eq(import_text(0, "# OSU MPI Bandwidth Test v7.3\n8 fast\n", &defaults, &d), SA_EPARSE);
  ck_assert_ptr_nonnull(strstr(err, "LOG:2:"));
  ck_assert_int_eq(import_text(0, "# OSU MPI Bi-Directional Bandwidth Test\n8 12.0\n", &defaults, &d), SA_EPARSE);
  ck_assert_ptr_nonnull(strstr(err, "LOG:2:"));
  ck_assert_int_eq(import_text(0, "# OSU MPI Latency Test v7.3\n", &defaults, &d), SA_EPARSE);
  ck_assert_ptr_nonnull(strstr(err, "no osu_latency"));
  cal_data_free(&d);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("calib_import");
  CHECK_CASE(s, "nccl-tests", 10, nccl_tests_log_imports_every_row, older_nccl_tests_formats_and_chatter,
             nccl_tests_garbage_names_the_line, truncated_nccl_tests_logs);
  CHECK_CASE(s, "osu", 10, osu_latency_and_bw, osu_allreduce_with_ranks, osu_garbage_and_truncation,
             numbers_out_of_integer_range);
  return check_run(s);
}
