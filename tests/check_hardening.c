/* check_hardening.c: the bad-input matrix (every case exits 2 with one line naming the
 * problem), a simulation that fails inside SMPI (exit 1 with the simulator's last lines),
 * bit-identical repeated runs for every algorithm, and the private temporary directory:
 * gone after success, failure and Ctrl-C, and two runs at once not colliding. */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_util.h"
#include "cli_run.h"

static char dir[] = "/tmp/check_hardening.XXXXXX";

static const char *file(const char *name, const char *text)
{
  static char path[32][256];
  static int next;
  char *p = path[next++ % 32];
  snprintf(p, 256, "%s/%s", dir, name);
  FILE *f = fopen(p, "w");
  fputs(text, f);
  fclose(f);
  return p;
}

#define HEAD "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n<platform version=\"4.1\">\n"
/* Two GPUs of one node, the first with a compute property of the given value. */
#define PROP_PLATFORM(prop, value)                                                                          \
  HEAD "<zone id=\"w\" routing=\"Full\"><host id=\"node0-gpu0\" speed=\"1Tf\"><prop id=\"node\" value=\"0\"/>" \
       "<prop id=\"" prop "\" value=\"" value "\"/></host><host id=\"node0-gpu1\" speed=\"1Tf\">"                  \
       "<prop id=\"node\" value=\"0\"/></host><link id=\"l\" bandwidth=\"1GBps\" latency=\"1us\"/>"             \
       "<route src=\"node0-gpu0\" dst=\"node0-gpu1\"><link_ctn id=\"l\"/></route></zone></platform>\n"
#define NODE(id, radical)                                                                                      \
  "<cluster id=\"node" #id "\" prefix=\"node" #id "-gpu\" suffix=\"\" radical=\"" radical "\" speed=\"1Tf\" "    \
  "bw=\"10GBps\" lat=\"1us\" router_id=\"node" #id "-nic\"><prop id=\"node\" value=\"" #id "\"/></cluster>\n"

START_TEST(bad_input_matrix)
{
  const char *trunc = file("trunc.xml", HEAD "<zone id=\"w\" routing=\"Full\">\n<host id=\"node0-gpu0\" spe");
  const char *garbage = file("garbage.xml", "\x01\x02 not a platform at all \xff\n");
  const char *nonode = file("nonode.xml", HEAD "<zone id=\"w\" routing=\"Full\"><host id=\"g0\" speed=\"1f\"/>"
                                               "<host id=\"g1\" speed=\"1f\"/></zone></platform>\n");
  const char *uneven = file("uneven.xml", HEAD "<zone id=\"w\" routing=\"Floyd\">\n" NODE(0, "0-7") NODE(1, "0-3")
                                               "<zone id=\"fabric\" routing=\"None\"><router id=\"sw\"/></zone>\n"
                                               "<link id=\"l0\" bandwidth=\"1GBps\" latency=\"1us\"/>"
                                               "<link id=\"l1\" bandwidth=\"1GBps\" latency=\"1us\"/>\n"
                                               "<zoneRoute src=\"node0\" dst=\"fabric\" gw_src=\"node0-nic\" gw_dst=\"sw\">"
                                               "<link_ctn id=\"l0\"/></zoneRoute>\n"
                                               "<zoneRoute src=\"node1\" dst=\"fabric\" gw_src=\"node1-nic\" gw_dst=\"sw\">"
                                               "<link_ctn id=\"l1\"/></zoneRoute>\n</zone></platform>\n");
  const char *notjson = file("calib.json", "{\"schema\": \"something else\", \"points\": 3}\n");
  const char *ncclgarbage = file("nccl.log", "#  size count type\nthis is not a row\n");
  /* compute properties out of their ranges (common/compute.h) */
  const char *badprop[] = {file("p0.xml", PROP_PLATFORM("reduce_bw", "0")),
                           file("p1.xml", PROP_PLATFORM("reduce_bw", "abc")),
                           file("p2.xml", PROP_PLATFORM("reduce_bw", "-5")),
                           file("p3.xml", PROP_PLATFORM("reduce_bw", "nan")),
                           file("p4.xml", PROP_PLATFORM("reduce_bw", "1e-300")),
                           file("p5.xml", PROP_PLATFORM("copy_bw", "inf")),
                           file("p6.xml", PROP_PLATFORM("topk_b", "2")),
                           file("p7.xml", PROP_PLATFORM("scatter_a", "1e9 s"))};
  static char c[64][512];
  int n = 0;
#define CASE(...) snprintf(c[n++], sizeof c[0], __VA_ARGS__)
  CASE("--platform %s", trunc);
  CASE("--platform %s", garbage);
  CASE("--platform %s", nonode);
  CASE("--platform %s --algo hier", uneven);           /* nodes of 8 and 4 GPUs, no --ranks-per-node */
  CASE("--platform %s --ranks-per-node 6", uneven);    /* more than the smaller node has */
  CASE("--platform %s/missing.xml", dir);
  CASE("--platform %s", dir);                           /* a directory */
  CASE("--platform nosuchplatform");
  CASE("--size -5");
  CASE("--size 99999999999999999999");
  CASE("--size 17G");
  CASE("--timing fast");
  CASE("--size 12Q");
  CASE("--size 0");
  CASE("--size 6");                                     /* not a whole number of fp32 */
  CASE("--sizes 1M:1K");
  CASE("--sizes 1K:1M:1");
  CASE("--sizes 1K:1M:0.5");
  CASE("--sizes 1K");
  CASE("--dtype fp64");
  CASE("--ranks-per-node 0");
  CASE("--nodes 0");
  CASE("--nodes 17");
  CASE("--density 0");
  CASE("--density 1.5");
  CASE("--density -1");
  CASE("--overlap 2");
  CASE("--channels 0");
  CASE("--algo bogus");
  CASE("--algo best,ring");
  CASE("--mode fast");
  CASE("--cfg nocolon");
  CASE("--cfg network/crosstraffic:maybe");
  CASE("--cfg smpi/lat-factor:-1");
  CASE("--cfg surf/precision:0");
  CASE("--cfg smpi/or:abc");
  CASE("--frobnicate");
  CASE("--json %s/no/such/dir/out.json --size 1K", dir);
  CASE("--verify --size 1G");                           /* 128 ranks of real 1G buffers */
  for (size_t i = 0; i < sizeof badprop / sizeof badprop[0]; i++)
    CASE("--platform %s --mode %s", badprop[i], i % 2 ? "model" : "sim");
  for (int i = 0; i < n; i++) {
    cli_result r = cli_run(c[i], 0);
    ck_assert_msg(r.status == 2, "'%s' exited %d: %s", c[i], r.status, r.err);
    ck_assert_msg(cli_lines(r.err) == 1 && strncmp(r.err, "simallreduce: ", 14) == 0, "'%s': %s", c[i], r.err);
    ck_assert_msg(r.out && r.out[0] == '\0', "'%s' printed a result", c[i]);
    cli_result_free(&r);
  }
  /* simcalib: a JSON file of the wrong shape, a garbage log */
  const char *bin = getenv("SIMCALIB_BIN") ? getenv("SIMCALIB_BIN") : "bin/simcalib";
  snprintf(c[0], sizeof c[0], "platform --calib %s --nodes 2 --gpus-per-node 2 -o %s/x.xml", notjson, dir);
  snprintf(c[1], sizeof c[1], "fit %s -o %s/c.json", notjson, dir);
  snprintf(c[2], sizeof c[2], "import nccl-tests %s -o %s/m.json", ncclgarbage, dir);
  for (int i = 0; i < 3; i++) {
    cli_result r = cli_run_bin(bin, c[i], 0);
    ck_assert_msg(r.status == 2 && cli_lines(r.err) == 1, "simcalib %s: exit %d: %s", c[i], r.status, r.err);
    cli_result_free(&r);
  }
  ck_assert_int_eq(n + 3, 50); /* the cases above, counted: none dropped by accident */
}
END_TEST

START_TEST(failure_inside_smpi_shows_its_last_lines)
{
  cli_result r = cli_run("--algo mpi --nodes 2 --ranks-per-node 2 --size 1K --cfg smpi/allreduce:nosuch", 0);
  ck_assert_int_eq(r.status, 1);
  ck_assert_ptr_nonnull(strstr(r.err, "the simulator's last lines"));
  ck_assert_ptr_nonnull(strstr(r.err, "  | "));
  ck_assert_ptr_nonnull(strstr(r.err, "has no algorithm 'nosuch'")); /* SimGrid's own words */
  cli_result_free(&r);
}
END_TEST

/* Every algorithm, dense and sparse, twice: the same simulated times to the bit. */
START_TEST(repeated_runs_are_bit_identical)
{
  const char *args = "--algo all,topk,hitopk --sizes 1K:4M:16 --nodes 3 --ranks-per-node 2 --mode sim";
  cli_result a = cli_run(args, 1), b = cli_run(args, 1);
  ck_assert(a.status == 0 && b.status == 0);
  int n = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(a.json, "results"));
  ck_assert_int_eq(n, 9 * 4);
  for (int i = 0; i < n; i++) {
    double ta = cli_num(cli_point(&a, i), "time_s"), tb = cli_num(cli_point(&b, i), "time_s");
    ck_assert_msg(ta > 0 && memcmp(&ta, &tb, sizeof ta) == 0, "point %d: %.17g vs %.17g", i, ta, tb);
  }
  cli_result_free(&a);
  cli_result_free(&b);
}
END_TEST

static int entries(const char *path)
{
  DIR *d = opendir(path);
  int n = 0;
  for (struct dirent *e; d && (e = readdir(d));)
    n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
  if (d)
    closedir(d);
  return n;
}

/* The driver with TMPDIR pointing at a directory of the test's own. */
static pid_t start(const char *tmp, const char *args, const char *out)
{
  pid_t pid = fork();
  if (pid == 0) {
    char cmd[1024];
    const char *bin = getenv("SIMALLREDUCE_BIN") ? getenv("SIMALLREDUCE_BIN") : "bin/simallreduce";
    setenv("TMPDIR", tmp, 1);
    snprintf(cmd, sizeof cmd, "exec %s %s >%s 2>&1", bin, args, out);
    execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
    _exit(127);
  }
  return pid;
}

START_TEST(temporary_files_never_stay_behind)
{
  char tmp[300], out[300];
  snprintf(tmp, sizeof tmp, "%s/tmp", dir);
  snprintf(out, sizeof out, "%s/out", dir);
  mkdir(tmp, 0700);
  int st;
  /* success and failure */
  waitpid(start(tmp, "--algo ring --size 1K --nodes 2", out), &st, 0);
  ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  waitpid(start(tmp, "--algo mpi --size 1K --nodes 2 --cfg smpi/allreduce:nosuch", out), &st, 0);
  ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 1);
  ck_assert_int_eq(entries(tmp), 0);
  /* Ctrl-C in the middle of a long simulation: the simulation stops and its files go */
  pid_t pid = start(tmp, "--platform mn1 --algo ring --size 256M --mode sim", out); /* a minute of work */
  for (int i = 0; i < 100 && entries(tmp) == 0; i++)
    usleep(50000);
  usleep(500000);
  ck_assert_int_eq(entries(tmp), 1); /* running: its private directory exists */
  kill(pid, SIGINT);
  waitpid(pid, &st, 0);
  ck_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGINT);
  ck_assert_int_eq(entries(tmp), 0);
  /* two runs at once, each with its own directory and the right answer */
  char out2[300];
  snprintf(out2, sizeof out2, "%s/out2", dir);
  pid_t a = start(tmp, "--algo ring --size 1M --nodes 2 --verify", out);
  pid_t b = start(tmp, "--algo hier --size 1M --nodes 2 --verify", out2);
  int sa, sb;
  waitpid(a, &sa, 0);
  waitpid(b, &sb, 0);
  ck_assert(WIFEXITED(sa) && WEXITSTATUS(sa) == 0 && WIFEXITED(sb) && WEXITSTATUS(sb) == 0);
  ck_assert_int_eq(entries(tmp), 0);
}
END_TEST

int main(void)
{
  if (!mkdtemp(dir))
    return 1;
  Suite *s = suite_create("hardening");
  CHECK_CASE(s, "hardening", 300, bad_input_matrix, failure_inside_smpi_shows_its_last_lines,
             repeated_runs_are_bit_identical, temporary_files_never_stay_behind);
  int rc = check_run(s);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  return system(cmd) == 0 ? rc : 1;
}
