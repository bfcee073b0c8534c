/* check_stream.c: rows as their points finish. Under a pseudo-terminal (script -qc) the
 * first row comes before the second point starts and the progress line is redrawn at least
 * every 2 s during a long point, then cleared; with stdout and stderr to files there is no
 * progress line and the rows are the same. A sweep killed after 3 points and resumed from its
 * --jsonl gives the same results, bit for bit, as one that was never interrupted. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check_util.h"
#include "cli_run.h"

static const char *bin(void)
{
  const char *b = getenv("SIMALLREDUCE_BIN");
  return b ? b : "bin/simallreduce";
}

static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* What a terminal showed, cut where the program moved the cursor back (\r) or down (\n),
 * each piece with the time it arrived (its last byte's). */
typedef struct {
  char text[256];
  double at;
} piece;

static int read_pieces(FILE *in, piece *p, int max)
{
  int n = 0;
  size_t len = 0;
  char cur[256];
  for (int c; (c = fgetc(in)) != EOF;) {
    if (c == 0x1b) { /* an escape sequence (\033[K, clear to the end of the line): left out */
      while ((c = fgetc(in)) != EOF && !(c >= 'A' && c <= 'Z') && !(c >= 'a' && c <= 'z'))
        ;
      continue;
    }
    if (c == '\r' || c == '\n') {
      if (len && n < max) {
        cur[len] = '\0';
        snprintf(p[n].text, sizeof p[n].text, "%s", cur);
        p[n++].at = now();
      }
      len = 0;
    } else if (len < sizeof cur - 1) {
      cur[len++] = (char)c;
    }
  }
  return n;
}

static int is_row(const char *s) { return strncmp(s, "  ", 2) == 0 && strstr(s, "fp32"); }

/* 19 small sizes, then a long one: tree at 768M on the 128 ranks of tencent16 (5 to 15 s on a
 * 2-core machine; 256M took 1.7 s on a slower one, 512M 1.8 s on a faster one: too short to
 * watch the line's cadence) */
#define SWEEP                                            \
  "--platform tencent16 --algo tree --mode sim --sizes " \
  "1K,2K,3K,4K,5K,6K,7K,8K,9K,10K,11K,12K,13K,14K,15K,16K,17K,18K,19K,768M"

START_TEST(rows_stream_and_progress_shows_on_a_terminal)
{
  static piece p[4096];
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "script -qc '%s %s' /dev/null", bin(), SWEEP);
  FILE *in = popen(cmd, "r");
  ck_assert_ptr_nonnull(in);
  int n = read_pieces(in, p, 4096);
  ck_assert_int_eq(pclose(in), 0);
  int first_row = -1, second_point = -1, last_point = -1, rows = 0, draws = 0;
  double last_draw = -1, widest = 0, long_start = -1, long_end = -1;
  for (int i = 0; i < n; i++) {
    if (is_row(p[i].text)) {
      rows++;
      if (first_row < 0)
        first_row = i;
      if (strstr(p[i].text, "805306368"))
        long_end = p[i].at;
    }
    if (strncmp(p[i].text, "[point ", 7) == 0) {
      draws++;
      if (second_point < 0 && strncmp(p[i].text, "[point 2 of 20]", 15) == 0)
        second_point = i;
      if (strncmp(p[i].text, "[point 20 of 20]", 16) == 0) {
        if (long_start < 0)
          long_start = p[i].at;
        last_point = i;
      }
      if (last_draw >= 0 && p[i].at - last_draw > widest)
        widest = p[i].at - last_draw;
      last_draw = p[i].at;
    }
  }
  ck_assert_int_eq(rows, 20);
  /* the first row is out before the line says the second point runs, and long before the last */
  ck_assert_msg(first_row >= 0 && second_point > first_row, "first row at %d, point 2 at %d", first_row, second_point);
  ck_assert(last_point > first_row);
  /* the long point: redrawn often, never left 2 s without a redraw */
  ck_assert_msg(long_end - long_start > 2, "the long point took %.1f s", long_end - long_start);
  ck_assert_msg(widest <= 2.0, "no redraw for %.2f s", widest);
  ck_assert_int_ge(draws, 22);
  /* the line was taken away: what the terminal shows last is the wall-time line */
  ck_assert_ptr_nonnull(strstr(p[n - 1].text, "of wall time"));
}
END_TEST

/* stdout to a file, stderr to another: the same rows, and nothing of a progress line */
START_TEST(no_progress_off_a_terminal)
{
  cli_result r = cli_run(SWEEP, 0);
  ck_assert_int_eq(r.status, 0);
  ck_assert_ptr_null(strchr(r.out, '\r'));
  ck_assert_ptr_null(strstr(r.err, "[point"));
  ck_assert_str_eq(r.err, "");
  int rows = 0;
  for (const char *s = r.out; (s = strstr(s, "\n  ")); s++)
    rows++;
  ck_assert_int_eq(rows, 20);
  /* rows in the order of the sweep, each complete */
  ck_assert_ptr_nonnull(strstr(r.out, "          1024          256   fp32       tree"));
  ck_assert(strstr(r.out, "  805306368") > strstr(r.out, "  19456"));
  cli_result_free(&r);
}
END_TEST

static int count(const char *path, const char *what)
{
  FILE *f = fopen(path, "r");
  char line[65536];
  int n = 0;
  while (f && fgets(line, sizeof line, f))
    n += strstr(line, what) != NULL;
  if (f)
    fclose(f);
  return n;
}

#define RESUMED "--platform tencent16 --algo tree,ring --sizes 64K:64M:4"

/* Starts a sweep writing --jsonl, kills it (SIGTERM) once 3 points are in the file. */
static void interrupted(const char *jsonl)
{
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "exec %s %s --jsonl %s >/dev/null 2>&1", bin(), RESUMED, jsonl);
    execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
    _exit(127);
  }
  const struct timespec nap = {0, 10000000};
  while (count(jsonl, "\"record\":\"result\"") < 3 && waitpid(pid, NULL, WNOHANG) == 0)
    nanosleep(&nap, NULL);
  kill(pid, SIGTERM);
  int st;
  waitpid(pid, &st, 0);
  ck_assert_msg(WIFSIGNALED(st), "the sweep ended before it was killed (status %d)", st);
}

START_TEST(resume_gives_the_uninterrupted_results)
{
  char dir[64], jsonl[128], args[512];
  ck_assert_int_eq(cli_tmpdir(dir, "check_stream"), 0);
  snprintf(jsonl, sizeof jsonl, "%s/r.jsonl", dir);
  interrupted(jsonl);
  int done = count(jsonl, "\"record\":\"result\"");
  ck_assert_msg(done >= 3 && done < 12, "%d points before the kill", done);
  ck_assert_int_eq(count(jsonl, "\"record\":\"end\""), 0);

  cli_result whole = cli_run(RESUMED, 1);
  snprintf(args, sizeof args, "%s --resume %s --jsonl %s", RESUMED, jsonl, jsonl);
  cli_result resumed = cli_run(args, 1);
  ck_assert_msg(resumed.status == 0, "%s", resumed.err);
  const cJSON *a = cJSON_GetObjectItemCaseSensitive(whole.json, "results");
  const cJSON *b = cJSON_GetObjectItemCaseSensitive(resumed.json, "results");
  ck_assert_int_eq(cJSON_GetArraySize(a), 12);
  ck_assert_int_eq(cJSON_GetArraySize(b), 12);
  for (int i = 0; i < 12; i++) {
    const cJSON *x = cJSON_GetArrayItem(a, i), *y = cJSON_GetArrayItem(b, i);
    ck_assert_str_eq(cJSON_GetObjectItem(x, "algo")->valuestring, cJSON_GetObjectItem(y, "algo")->valuestring);
    ck_assert(cli_num(x, "bytes") == cli_num(y, "bytes"));
    ck_assert_msg(cli_num(x, "time_s") == cli_num(y, "time_s"), "point %d: %.17g against %.17g", i,
                  cli_num(x, "time_s"), cli_num(y, "time_s"));
    ck_assert(cJSON_Compare(cJSON_GetObjectItem(x, "phases"), cJSON_GetObjectItem(y, "phases"), 1));
  }
  /* the table is the same but for the wall time */
  char *cut_w = strstr(whole.out, "# simulated in"), *cut_r = strstr(resumed.out, "# simulated in");
  ck_assert(cut_w && cut_r);
  *cut_w = *cut_r = '\0';
  ck_assert_str_eq(whole.out, resumed.out);
  /* the JSON Lines file now holds every point once, and its end */
  ck_assert_int_eq(count(jsonl, "\"record\":\"result\""), 12);
  ck_assert_int_eq(count(jsonl, "\"record\":\"end\""), 1);
  /* resuming a finished sweep simulates nothing */
  snprintf(args, sizeof args, "%s --resume %s", RESUMED, jsonl);
  cli_result again = cli_run(args, 1);
  ck_assert_int_eq(again.status, 0);
  ck_assert_ptr_nonnull(strstr(again.out, "simulated in 0.00 s"));
  ck_assert(cJSON_Compare(cJSON_GetObjectItem(again.json, "results"), b, 1));
  cli_result_free(&again);
  cli_result_free(&whole);
  cli_result_free(&resumed);
  cli_rmtree(dir);
}
END_TEST

/* A file of another sweep is refused with one line, exit status 2, before anything runs. */
/* The points of two results, algorithm, size and time, equal to the last bit. */
static void same_points(const cli_result *x, const cli_result *y, const char *what)
{
  const cJSON *a = cJSON_GetObjectItemCaseSensitive(x->json, "results");
  const cJSON *b = cJSON_GetObjectItemCaseSensitive(y->json, "results");
  ck_assert_msg(cJSON_GetArraySize(a) == cJSON_GetArraySize(b), "%s: %d points against %d", what,
                cJSON_GetArraySize(a), cJSON_GetArraySize(b));
  for (int i = 0; i < cJSON_GetArraySize(a); i++) {
    const cJSON *p = cJSON_GetArrayItem(a, i), *q = cJSON_GetArrayItem(b, i);
    ck_assert_str_eq(cJSON_GetObjectItem(p, "algo")->valuestring, cJSON_GetObjectItem(q, "algo")->valuestring);
    ck_assert(cli_num(p, "bytes") == cli_num(q, "bytes"));
    ck_assert_msg(cli_num(p, "time_s") == cli_num(q, "time_s"), "%s: point %d: %.17g against %.17g", what, i,
                  cli_num(p, "time_s"), cli_num(q, "time_s"));
    const cJSON *lp = cJSON_GetObjectItem(p, "links"), *lq = cJSON_GetObjectItem(q, "links");
    ck_assert_msg((!lp && !lq) || cJSON_Compare(lp, lq, 1), "%s: point %d's links differ", what, i);
  }
}

/* What --resume allows beyond an interruption gives what an uninterrupted run does: a
 * finished sweep given another algorithm after its own, or extended to larger sizes; with
 * --links (its files read back) and with --trace (its points at the times they ran). */
START_TEST(resume_extends_a_sweep_bit_for_bit)
{
  static const struct {
    const char *first, *then;
  } cases[] = {{"--algo ring --sizes 64K:1M:4", "--algo ring,hier --sizes 64K:1M:4"},
               {"--algo ring --sizes 64K:256K:4", "--algo ring --sizes 64K:4M:4"},
               {"--algo ring --sizes 64K:256K:4 --links 2", "--algo ring --sizes 64K:4M:4 --links 2"},
               {"--algo ring --sizes 64K:256K:4", "--algo ring --sizes 64K:4M:4 --trace %s/t.json"}};
  char dir[64], first[512], then[512], args[1024];
  ck_assert_int_eq(cli_tmpdir(dir, "check_stream"), 0);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    snprintf(first, sizeof first, "--nodes 2 %s --jsonl %s/f.jsonl", cases[i].first, dir);
    cli_result f = cli_run(first, 0);
    ck_assert_msg(f.status == 0, "%s: %s", first, f.err);
    snprintf(then, sizeof then, cases[i].then, dir);
    snprintf(args, sizeof args, "--nodes 2 %s --resume %s/f.jsonl", then, dir);
    cli_result resumed = cli_run(args, 1);
    ck_assert_msg(resumed.status == 0 && !strstr(resumed.err, "not this sweep's first"), "%s: %s", args,
                  resumed.err);
    snprintf(args, sizeof args, "--nodes 2 %s", then);
    cli_result whole = cli_run(args, 1);
    ck_assert_msg(whole.status == 0, "%s: %s", args, whole.err);
    same_points(&whole, &resumed, then);
    cli_result_free(&f);
    cli_result_free(&resumed);
    cli_result_free(&whole);
  }
  /* a file of another order is used, and said to be so */
  snprintf(first, sizeof first, "--nodes 2 --algo hier --sizes 64K:256K:4 --jsonl %s/h.jsonl", dir);
  cli_result f = cli_run(first, 0);
  snprintf(args, sizeof args, "--nodes 2 --algo ring,hier --sizes 64K:256K:4 --resume %s/h.jsonl", dir);
  cli_result r = cli_run(args, 1);
  ck_assert_msg(r.status == 0 && cli_lines(r.err) == 1 && strstr(r.err, "not this sweep's first ones"), "%s",
                r.err);
  cli_result_free(&f);
  cli_result_free(&r);
  cli_rmtree(dir);
}
END_TEST

/* A point's time is its own, whatever ran before it in the sweep: NCCL's 4 GiB ring on the
 * L02 platform (a few hundred thousand slices, ties between the ranks everywhere) came out
 * 34930.15 us alone and 34935.16 us after an 8-byte point when each point started at
 * another place on the clock, SimGrid's sums rounding differently there (runner_clock.c). */
START_TEST(a_point_does_not_depend_on_the_points_before_it)
{
  const char *base = "--platform " PLAT "l02_nccl_fit.xml --nodes 1 --algo nccl";
  const char *sizes[] = {"4G", "8,4G"};
  double t[2];
  char args[256];
  for (int i = 0; i < 2; i++) {
    snprintf(args, sizeof args, "%s --sizes %s", base, sizes[i]);
    cli_result r = cli_run(args, 1);
    ck_assert_msg(r.status == 0, "%s: %s", args, r.err);
    const cJSON *pts = cJSON_GetObjectItemCaseSensitive(r.json, "results");
    t[i] = cli_num(cJSON_GetArrayItem(pts, cJSON_GetArraySize(pts) - 1), "time_s");
    cli_result_free(&r);
  }
  ck_assert_msg(t[0] == t[1], "4 GiB alone %.17g s, after 8 B %.17g s", t[0], t[1]);
}
END_TEST

START_TEST(resume_refuses_another_sweep)
{
  char dir[64], path[128], args[512];
  ck_assert_int_eq(cli_tmpdir(dir, "check_stream"), 0);
  snprintf(path, sizeof path, "%s/r.json", dir);
  snprintf(args, sizeof args, "--platform dgx1 --algo ring --sizes 4K,8K --json %s", path);
  cli_result r = cli_run(args, 0);
  ck_assert_int_eq(r.status, 0);
  cli_result_free(&r);
  const char *other[] = {"--platform dgx1 --segment 512K", "--platform dgx1 --ranks-per-node 4",
                         "--platform tencent16 --nodes 1", "--platform dgx1 --dtype fp16",
                         "--platform dgx1 --cfg network/crosstraffic:0"};
  for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
    snprintf(args, sizeof args, "%s --algo ring --sizes 4K:16K --resume %s", other[i], path);
    r = cli_run(args, 0);
    ck_assert_msg(r.status == 2 && cli_lines(r.err) == 1 && strstr(r.err, "--resume"), "%s: %d %s", other[i],
                  r.status, r.err);
    ck_assert_str_eq(r.out, "");
    cli_result_free(&r);
  }
  const char *bad[] = {"--mode model --resume %s", "--resume %s.missing", "--resume /dev/null"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char a[256];
    snprintf(a, sizeof a, bad[i], path);
    snprintf(args, sizeof args, "--platform dgx1 --algo ring --size 4K %s", a);
    r = cli_run(args, 0);
    ck_assert_msg(r.status == 2 && cli_lines(r.err) == 1, "%s: %d %s", args, r.status, r.err);
    cli_result_free(&r);
  }
  /* the same sweep, one size more: the two points are taken, the third simulated */
  snprintf(args, sizeof args, "--platform dgx1 --algo ring --sizes 4K:16K --resume %s", path);
  r = cli_run(args, 1);
  ck_assert_int_eq(r.status, 0);
  ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(r.json, "results")), 3);
  cli_result_free(&r);
  cli_rmtree(dir);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("stream");
  CHECK_CASE(s, "terminal", 120, rows_stream_and_progress_shows_on_a_terminal, no_progress_off_a_terminal);
  CHECK_CASE(s, "resume", 180, resume_gives_the_uninterrupted_results, resume_extends_a_sweep_bit_for_bit,
             resume_refuses_another_sweep, a_point_does_not_depend_on_the_points_before_it);
  return check_run(s);
}
