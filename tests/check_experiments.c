/* check_experiments.c: the experiment runner end to end on a small experiment: its runs,
 * the merged CSV and JSON, the comparison with the source, the Slurm array's script, bad
 * names. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "check_util.h"

static char dir[] = "/tmp/check_experiments.XXXXXX";

/* Runs a shell command with RESULTS_DIR pointing at the test's directory; returns the exit
 * status and, if out is not NULL, what it printed (stdout and stderr). */
static int sh(const char *cmd, char *out, size_t len)
{
  char full[1024];
  /* never a real cluster's sbatch: the array is written, not submitted */
  snprintf(full, sizeof full, "RESULTS_DIR=%s SBATCH=/nonexistent/sbatch %s 2>&1", dir, cmd);
  FILE *p = popen(full, "r");
  size_t n = 0;
  if (out) {
    while (n + 1 < len && fgets(out + n, (int)(len - n), p))
      n += strlen(out + n);
    out[n] = '\0';
  } else {
    char buf[4096];
    while (fgets(buf, sizeof buf, p))
      ;
  }
  int st = pclose(p);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Lines, less the comments ("# ...": how each run was made, and its closing line). */
static int count_lines(const char *path)
{
  FILE *f = fopen(path, "r");
  int n = 0, start = 1, comment = 0;
  for (int c; f && (c = fgetc(f)) != EOF; start = c == '\n') {
    if (start)
      comment = c == '#';
    n += c == '\n' && !comment;
  }
  if (f)
    fclose(f);
  return n;
}

START_TEST(pfn_runs_merges_and_compares)
{
  static char out[65536];
  ck_assert_ptr_nonnull(mkdtemp(dir));
  ck_assert_int_eq(sh("experiments/run.sh -j 2 pfn", out, sizeof out), 0);
  char path[256];
  snprintf(path, sizeof path, "%s/pfn.csv", dir);
  ck_assert_int_eq(count_lines(path), 1 + 6); /* header and six algorithms */
  snprintf(path, sizeof path, "%s/pfn.json", dir);
  ck_assert_int_gt(count_lines(path), 6);
  ck_assert_msg(strstr(out, "[6/6]") != NULL, "no progress: %s", out);
  ck_assert_msg(strstr(out, "ring at 268435456 bytes on 8 nodes: ours 0.078 s, source 0.09") != NULL, "%s", out);
  /* the same runs as a Slurm array */
  ck_assert_int_eq(sh("experiments/run.sh --slurm pfn", out, sizeof out), 0);
  snprintf(path, sizeof path, "%s/pfn/slurm.sbatch", dir);
  FILE *f = fopen(path, "r");
  ck_assert_ptr_nonnull(f);
  char text[4096] = "";
  size_t got = fread(text, 1, sizeof text - 1, f);
  text[got] = '\0';
  fclose(f);
  ck_assert_ptr_nonnull(strstr(text, "#SBATCH --array=1-6"));
  /* not submitted (no sbatch here, or not run yet): nothing to merge, and the local run's
   * merged results stay as they were (tests/test_slurm.sh covers submissions) */
  ck_assert_int_eq(sh("experiments/run.sh --merge pfn", out, sizeof out), 1);
  ck_assert_msg(strstr(out, "left no result") || strstr(out, "still in squeue"), "%s", out);
  snprintf(path, sizeof path, "%s/pfn.csv", dir);
  ck_assert_int_eq(count_lines(path), 1 + 6);
  /* bad input */
  ck_assert_int_eq(sh("experiments/run.sh nosuch", out, sizeof out), 2);
  ck_assert_ptr_nonnull(strstr(out, "unknown experiment 'nosuch'"));
  ck_assert_int_eq(sh("experiments/run.sh -j 0 pfn", NULL, 0), 2);
  ck_assert_int_eq(sh("experiments/run.sh", NULL, 0), 2);
  snprintf(path, sizeof path, "rm -rf %s", dir);
  ck_assert_int_eq(system(path), 0);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("experiments");
  CHECK_CASE(s, "experiments", 300, pfn_runs_merges_and_compares);
  return check_run(s);
}
