/* check_hardening.c: the bad-input matrix (every case exits 2 with one line naming the
 * problem), a simulation that fails inside SMPI (exit 1 with SimGrid's own error line),
 * bit-identical repeated runs for every algorithm, a sweep too long for the command line,
 * and the private temporary directory: gone after success, failure, Ctrl-C and SIGKILL,
 * with no process left; a dead run's directory removed by the next; two runs at once not
 * colliding; simcalib measure's the same. */
#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check_util.h"
#include "cli_run.h"
#include "util/textfile.h"

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
/* Hosts a, b and c, nodes 0, 1 and 2, with a route from a to b only. */
#define NOPATH_PLATFORM                                                                                             \
  HEAD "<zone id=\"w\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\"><prop id=\"node\" value=\"0\"/></host>"       \
       "<host id=\"b\" speed=\"1Gf\"><prop id=\"node\" value=\"1\"/></host><host id=\"c\" speed=\"1Gf\">"            \
       "<prop id=\"node\" value=\"2\"/></host><link id=\"l\" bandwidth=\"1GBps\" latency=\"1us\"/>"                    \
       "<route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route></zone></platform>\n"
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
  const char *badprop[] = {
      file("p0.xml", PROP_PLATFORM("reduce_bw", "0")),      file("p1.xml", PROP_PLATFORM("reduce_bw", "abc")),
      file("p2.xml", PROP_PLATFORM("reduce_bw", "-5")),     file("p3.xml", PROP_PLATFORM("reduce_bw", "nan")),
      file("p4.xml", PROP_PLATFORM("reduce_bw", "1e-300")), file("p5.xml", PROP_PLATFORM("copy_bw", "inf")),
      file("p6.xml", PROP_PLATFORM("topk_b", "2")),         file("p7.xml", PROP_PLATFORM("scatter_a", "1e9 s")),
      file("p8.xml", PROP_PLATFORM("reduce_lat", "-1")),    file("p9.xml", PROP_PLATFORM("mstopk_b", "1e400")),
      file("p10.xml", PROP_PLATFORM("copy_bw", "-inf")),    file("p11.xml", PROP_PLATFORM("nvls_copy_bw", "-5"))};
  /* one node of 200 GPUs: more than the models read a node's routes for */
  const char *bignode = file("bignode.xml", HEAD "<zone id=\"w\" routing=\"Full\"><cluster id=\"c\" prefix=\"g\" "
                                                 "suffix=\"\" radical=\"0-199\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\">"
                                                 "<prop id=\"node\" value=\"0\"/></cluster></zone></platform>\n");
  const char *nopath = file("nopath.xml", NOPATH_PLATFORM);
  const char *nodeabc = file("nodeabc.xml", HEAD "<zone id=\"w\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\">"
                                                 "<prop id=\"node\" value=\"abc\"/></host></zone></platform>\n");
  const char *nodeneg = file("nodeneg.xml", HEAD "<zone id=\"w\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\">"
                                                 "<prop id=\"node\" value=\"-1\"/></host></zone></platform>\n");
  const char *nohost = file("nohost.xml", HEAD "<zone id=\"w\" routing=\"Full\"></zone></platform>\n");
  /* a latency factor that does not parse, where the runner applies it (the root zone's) */
  const char *badlat = file("badlat.xml", HEAD "<zone id=\"w\" routing=\"Full\"><prop id=\"simallreduce/lat-factor\" "
                                                "value=\"0:abc\"/><host id=\"node0-gpu0\" speed=\"1Tf\"><prop id=\"node\" "
                                                "value=\"0\"/></host><host id=\"node0-gpu1\" speed=\"1Tf\"><prop id=\"node\" "
                                                "value=\"0\"/></host><link id=\"l\" bandwidth=\"1GBps\" latency=\"1us\"/>"
                                                "<route src=\"node0-gpu0\" dst=\"node0-gpu1\"><link_ctn id=\"l\"/></route>"
                                                "</zone></platform>\n");
  static char c[128][512];
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
  CASE("--sizes 1K:");
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
  CASE("--sizes 4:2G:1.0000001");                       /* 2e8 sizes: took minutes to make */
  CASE("--algo tree --segment 1 --size 1M");            /* 262144 segments: a run that never ends */
  CASE("--algo twotree --segment 4 --sizes 1K:1M");
  CASE("--platform %s --mode model --size 1K", bignode); /* the probe took 200^2 routes */
  CASE("--platform %s --algo best --size 1K", bignode);
  CASE("--platform %s --mode model --size 1K", nopath); /* c has no route from a */
  CASE("--platform %s --size 1K", nopath);              /* refused before a simulation that fails */
  CASE("--platform %s", nodeabc);
  CASE("--platform %s", nodeneg);
  CASE("--platform %s", nohost);
  CASE("--platform %s --algo nccl-ring --mode sim", badlat);
  CASE("--platform %s --algo nccl-ring --mode model", badlat);
  CASE("--cfg smpi/bw-factor:0:0");
  CASE("--cfg smpi/lat-factor:abc");
  CASE("--cfg surf/precision:2");
  CASE("--cfg network/TCP-gamma:-1");
  CASE("--cfg smpi/send-is-detached-thresh:1.5");
  CASE("--cfg network/crosstraffic:");
  CASE("--sizes 1K,,2K");
  CASE("--segment 0");
  CASE("--channels 65");
  CASE("--density nan");
  CASE("--overlap inf");
  CASE("--links 0");
  CASE("--links --mode model");
  CASE("--trace-ranks 0");                              /* without --trace */
  CASE("--trace %s/t.json --trace-ranks 0-128 --size 1K", dir); /* tencent16 has ranks 0-127 */
  CASE("--trace %s/t.json --trace-ranks 3-1 --size 1K", dir);
  CASE("--trace %s/no/such/dir/t.json --size 1K", dir);
  for (size_t i = 0; i < sizeof badprop / sizeof badprop[0]; i++)
    CASE("--platform %s --mode %s", badprop[i], i % 2 ? "model" : "sim");
  /* outputs: two on one file (through a link too), one on an input, one that is no regular
   * file; inputs that are no regular file (a FIFO would hang the reader, /dev/zero never end) */
  char out[100], link[100], fifo[100], plat[100], res[100];
  snprintf(out, sizeof out, "%s/out", dir);
  snprintf(link, sizeof link, "%s/link", dir);
  snprintf(fifo, sizeof fifo, "%s/fifo", dir);
  snprintf(res, sizeof res, "%s/r.jsonl", dir);
  ck_assert_int_eq(symlink("out", link), 0);
  ck_assert_int_eq(mkfifo(fifo, 0600), 0);
  snprintf(plat, sizeof plat, "%s", file("t16.xml", "<?xml version=\"1.0\"?>\n"));
  CASE("--size 1K --json %s --csv %s", out, out);
  CASE("--size 1K --csv %s --jsonl %s", out, out);
  CASE("--size 1K --trace %s --csv %s", out, out);
  CASE("--size 1K --json %s --csv %s", link, out); /* a link to the same file */
  CASE("--size 1K --platform %s --json %s", plat, plat);
  CASE("--size 1K --resume %s --csv %s", res, res);
  CASE("--algo nccl --size 1K --export-tuner %s --csv %s", out, out);
  CASE("--size 1K --json /dev/full");
  CASE("--size 1K --trace /dev/full");
  CASE("--size 1K --csv %s", fifo);
  CASE("--size 1K --json %s", dir);
  CASE("--size 1K --json -");
  CASE("--platform %s", fifo);
  CASE("--platform /dev/zero");
  CASE("--size 1K --resume %s", fifo);
  /* --resume of files with impossible values (made below from a run of the same sweep) */
  static const char *const bad_values[][2] = {{"\"time_s\":", "\"time_s\":-1,\"x\":"},
                                              {"\"time_s\":", "\"time_s\":1e999,\"x\":"},
                                              {"\"next_clock_s\":", "\"next_clock_s\":-1,\"x\":"},
                                              {"\"next_clock_s\":", "\"next_clock_s\":1e300,\"x\":"},
                                              {"\"next_clock_s\":", "\"next_clock_s\":1e9,\"x\":"},
                                              {"\"next_clock_s\":", "\"next_clock_s\":\"x\",\"x\":"},
                                              {"\"next_clock_s\":", "\"next_clock_s\":null,\"x\":"}};
  char run[400];
  snprintf(run, sizeof run, "--nodes 2 --sizes 1K,4K --jsonl %s", res);
  cli_result made = cli_run(run, 0);
  ck_assert_msg(made.status == 0, "%s: %s", run, made.err);
  cli_result_free(&made);
  char *good = util_read_text(res);
  ck_assert_ptr_nonnull(good);
  for (size_t i = 0; i < sizeof bad_values / sizeof bad_values[0]; i++) {
    char name[32], *at = strstr(good, bad_values[i][0]), text[8192];
    ck_assert_ptr_nonnull(at);
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - good), good, bad_values[i][1], at + strlen(bad_values[i][0]));
    snprintf(name, sizeof name, "bad%zu.jsonl", i);
    CASE("--nodes 2 --sizes 1K,4K --resume %s", file(name, text));
  }
  free(good);
  for (int i = 0; i < n; i++) {
    time_t t0 = time(NULL);
    cli_result r = cli_run(c[i], 0);
    ck_assert_msg(time(NULL) - t0 < 5, "'%s' took %ld s", c[i], (long)(time(NULL) - t0));
    ck_assert_msg(r.status == 2, "'%s' exited %d: %s", c[i], r.status, r.err);
    ck_assert_msg(cli_lines(r.err) == 1 && strncmp(r.err, "simallreduce: ", 14) == 0, "'%s': %s", c[i], r.err);
    ck_assert_msg(r.out && r.out[0] == '\0', "'%s' printed a result", c[i]);
    cli_result_free(&r);
  }
  char trace[300];
  snprintf(trace, sizeof trace, "%s/t.json", dir);
  ck_assert_msg(access(trace, F_OK) != 0, "a refused --trace left %s behind", trace);
  struct stat full;
  ck_assert_msg(stat("/dev/full", &full) == 0 && S_ISCHR(full.st_mode), "/dev/full is gone or replaced");
  ck_assert_msg(access(out, F_OK) != 0, "a refused output left %s behind", out);
  /* simcalib: a JSON file of the wrong shape, a garbage log, inputs that are no regular file,
   * an output on its input */
  const char *bin = getenv("SIMCALIB_BIN") ? getenv("SIMCALIB_BIN") : "bin/simcalib";
  int m = 0;
  snprintf(c[m++], sizeof c[0], "platform --calib %s --nodes 2 --gpus-per-node 2 -o %s/x.xml", notjson, dir);
  snprintf(c[m++], sizeof c[0], "fit %s -o %s/c.json", notjson, dir);
  snprintf(c[m++], sizeof c[0], "import nccl-tests %s -o %s/m.json", ncclgarbage, dir);
  snprintf(c[m++], sizeof c[0], "import nccl-tests %s", fifo);
  snprintf(c[m++], sizeof c[0], "import nccl-tests %s -o %s", ncclgarbage, ncclgarbage);
  snprintf(c[m++], sizeof c[0], "fit %s", fifo);
  snprintf(c[m++], sizeof c[0], "platform --from-nccl-tests %s --nodes 2 -o %s/x.xml", fifo, dir);
  snprintf(c[m++], sizeof c[0], "import nccl-tests %s -o %s", ncclgarbage, dir);
  for (int i = 0; i < m; i++) {
    time_t t0 = time(NULL);
    cli_result r = cli_run_bin(bin, c[i], 0);
    ck_assert_msg(time(NULL) - t0 < 5, "simcalib %s took %ld s", c[i], (long)(time(NULL) - t0));
    ck_assert_msg(r.status == 2 && cli_lines(r.err) == 1, "simcalib %s: exit %d: %s", c[i], r.status, r.err);
    cli_result_free(&r);
  }
  ck_assert_int_eq(n + m, 110); /* the cases above, counted: none dropped by accident */
}
END_TEST

/* The first line says why in SimGrid's own words; the last lines stop at SimGrid's error,
 * without the backtrace's frames or the list of every setting that follow it. */
static void says_why(const char *args, const char *words)
{
  cli_result r = cli_run(args, 0);
  ck_assert_int_eq(r.status, 1);
  const char *eol = strchr(r.err, '\n');
  ck_assert_msg(eol && strstr(r.err, words) && strstr(r.err, words) < eol, "%s: %s", args, r.err);
  ck_assert_ptr_nonnull(strstr(r.err, "the simulator's last lines"));
  ck_assert_ptr_nonnull(strstr(r.err, "  | "));
  ck_assert_msg(!strstr(r.err, "  ->") && !strstr(r.err, "Backtrace") && !strstr(r.err, "Existing config keys"), "%s",
                r.err);
  cli_result_free(&r);
}

START_TEST(failure_inside_smpi_shows_its_last_lines)
{
  says_why("--algo mpi --nodes 2 --ranks-per-node 2 --size 1K --cfg smpi/allreduce:nosuch",
           "has no algorithm 'nosuch'");
  says_why("--nodes 2 --size 1K --mode sim --cfg foo:bar", "Bad config key: foo");
  /* a platform with no path between two hosts, simulated without the models' probe */
  char args[512];
  snprintf(args, sizeof args, "--platform %s --size 1K --mode sim", file("nopath_sim.xml", NOPATH_PLATFORM));
  says_why(args, "there is no connecting path between these two hosts");
}
END_TEST

/* A sweep whose sizes, written out, are longer than one argument may be (128 KiB): the
 * runner reads them from a file (it used to fail with "Argument list too long"). */
START_TEST(long_sweeps_reach_the_runner)
{
  cli_result r = cli_run("--sizes 1M:2G:1.0004 --nodes 1 --ranks-per-node 1 --algo naive --mode sim", 1);
  ck_assert_msg(r.status == 0, "%s", r.err);
  int n = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(r.json, "results"));
  ck_assert_int_gt(n, 19000);
  ck_assert_int_eq(cli_num(cli_point(&r, n - 1), "bytes"), 2147483648.0);
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

/* Processes whose command line names something under path (the simulation's do: smpirun's
 * hostfile, smpimain's smpi/tmpdir). */
static int processes_under(const char *path)
{
  DIR *d = opendir("/proc");
  int n = 0;
  for (struct dirent *e; d && (e = readdir(d));) {
    char f[300], buf[8192];
    if (e->d_name[0] < '1' || e->d_name[0] > '9' || atoi(e->d_name) == getpid())
      continue;
    snprintf(f, sizeof f, "/proc/%s/cmdline", e->d_name);
    FILE *in = fopen(f, "r");
    size_t got = in ? fread(buf, 1, sizeof buf - 1, in) : 0;
    if (in)
      fclose(in);
    for (size_t i = 0; i < got; i++)
      buf[i] = buf[i] ? buf[i] : ' ';
    buf[got] = '\0';
    n += strstr(buf, path) != NULL;
  }
  if (d)
    closedir(d);
  return n;
}

/* Waits up to 5 s for no process to be left under path; returns how many are. */
static int left_under(const char *path)
{
  int n = processes_under(path);
  for (int i = 0; i < 100 && n > 0; i++, n = processes_under(path))
    usleep(50000);
  return n;
}

/* A program with TMPDIR pointing at a directory of the test's own. */
static pid_t start_bin(const char *bin, const char *tmp, const char *args, const char *out)
{
  pid_t pid = fork();
  if (pid == 0) {
    char cmd[1024];
    setenv("TMPDIR", tmp, 1);
    snprintf(cmd, sizeof cmd, "exec %s %s >%s 2>&1", bin, args, out);
    execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
    _exit(127);
  }
  return pid;
}

static pid_t start(const char *tmp, const char *args, const char *out)
{
  const char *bin = getenv("SIMALLREDUCE_BIN") ? getenv("SIMALLREDUCE_BIN") : "bin/simallreduce";
  return start_bin(bin, tmp, args, out);
}

/* Starts a minute-long simulation and waits until it runs (its directory exists). */
static pid_t start_long(const char *tmp, const char *out)
{
  pid_t pid = start(tmp, "--platform mn1 --algo ring --size 256M --mode sim", out);
  for (int i = 0; i < 100 && entries(tmp) == 0; i++)
    usleep(50000);
  usleep(500000);
  ck_assert_int_eq(entries(tmp), 1); /* running: its private directory exists */
  ck_assert_int_gt(processes_under(tmp), 0);
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
  /* --algo best simulates once per chosen algorithm, in one directory */
  waitpid(start(tmp, "--algo best --sizes 1K:16M:16 --nodes 2", out), &st, 0);
  ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  ck_assert_int_eq(entries(tmp), 0);
  /* Ctrl-C in the middle of a long simulation: the simulation stops and its files go */
  pid_t pid = start_long(tmp, out);
  kill(pid, SIGINT);
  waitpid(pid, &st, 0);
  ck_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGINT);
  ck_assert_int_eq(entries(tmp), 0);
  ck_assert_int_eq(left_under(tmp), 0);
  /* SIGKILL: the driver cannot clean up, its supervisor does (smpirun and smpimain had run
   * on at 100% CPU, their directory left behind) */
  pid = start_long(tmp, out);
  kill(pid, SIGKILL);
  waitpid(pid, &st, 0);
  ck_assert_int_eq(left_under(tmp), 0);
  for (int i = 0; i < 100 && entries(tmp) > 0; i++)
    usleep(50000);
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

/* makes TMP/NAME with a lock file in it, locked by this process when held; returns its fd */
static int dead_run(const char *tmp, const char *name, int with_lock, int held)
{
  char path[400];
  snprintf(path, sizeof path, "%s/%s", tmp, name);
  ck_assert_int_eq(mkdir(path, 0700), 0);
  snprintf(path, sizeof path, "%s/%s/hostfile", tmp, name);
  close(open(path, O_WRONLY | O_CREAT, 0600));
  if (!with_lock)
    return -1;
  snprintf(path, sizeof path, "%s/%s/lock", tmp, name);
  int fd = open(path, O_WRONLY | O_CREAT, 0600);
  ck_assert(fd >= 0 && (!held || flock(fd, LOCK_EX) == 0));
  if (!held) {
    close(fd);
    fd = -1;
  }
  return fd;
}

static int exists(const char *tmp, const char *name)
{
  char path[400];
  struct stat st;
  snprintf(path, sizeof path, "%s/%s", tmp, name);
  return stat(path, &st) == 0;
}

/* A run killed before its supervisor could clean up leaves its directory; the next run
 * removes it: ours by name, its lock held by nobody. A live run's (lock held), one without
 * a lock and someone else's name stay. */
START_TEST(the_next_run_removes_what_a_dead_one_left)
{
  char tmp[300], out[300];
  snprintf(tmp, sizeof tmp, "%s/stale", dir);
  snprintf(out, sizeof out, "%s/out", dir);
  mkdir(tmp, 0700);
  dead_run(tmp, "simallreduce.AbCdEf", 1, 0);
  dead_run(tmp, "simcalib-measure.AbCdEf", 1, 0);
  int live = dead_run(tmp, "simallreduce.LiVe01", 1, 1);
  dead_run(tmp, "simallreduce.NoLock", 0, 0);
  dead_run(tmp, "someone.AbCdEf", 1, 0);
  int st;
  waitpid(start(tmp, "--algo ring --size 1K --nodes 2", out), &st, 0);
  ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  ck_assert(!exists(tmp, "simallreduce.AbCdEf") && !exists(tmp, "simcalib-measure.AbCdEf"));
  ck_assert(exists(tmp, "simallreduce.LiVe01") && exists(tmp, "simallreduce.NoLock") && exists(tmp, "someone.AbCdEf"));
  ck_assert_int_eq(entries(tmp), 3);
  close(live);
}
END_TEST

/* simcalib measure keeps its files under $TMPDIR, and Ctrl-C or SIGKILL stops the launcher
 * and everything it started (a stand-in for mpirun that would run for a minute). */
START_TEST(simcalib_measure_leaves_nothing)
{
  char tmp[300], out[300], fake[300], args[700];
  snprintf(tmp, sizeof tmp, "%s/measure", dir);
  snprintf(out, sizeof out, "%s/out", dir);
  snprintf(fake, sizeof fake, "%s/fake-mpirun", dir);
  mkdir(tmp, 0700);
  FILE *f = fopen(fake, "w");
  fprintf(f, "#!/bin/sh\ncase $1 in --version) echo fake;; *) sleep 60 & wait;; esac\n");
  fclose(f);
  chmod(fake, 0700);
  const char *bin = getenv("SIMCALIB_BIN") ? getenv("SIMCALIB_BIN") : "bin/simcalib";
  snprintf(args, sizeof args, "measure --mpirun %s -o %s/m.json", fake, dir);
  int sigs[] = {SIGINT, SIGKILL};
  for (int i = 0; i < 2; i++) {
    pid_t pid = start_bin(bin, tmp, args, out);
    for (int k = 0; k < 100 && processes_under(tmp) == 0; k++) /* launched: its command names the directory */
      usleep(50000);
    ck_assert_int_eq(entries(tmp), 1); /* its directory is under $TMPDIR */
    kill(pid, sigs[i]);
    int st;
    waitpid(pid, &st, 0);
    ck_assert_int_eq(left_under(fake), 0);
    for (int k = 0; k < 100 && entries(tmp) > 0; k++)
      usleep(50000);
    ck_assert_int_eq(entries(tmp), 0);
  }
}
END_TEST

int main(void)
{
  if (!mkdtemp(dir))
    return 1;
  Suite *s = suite_create("hardening");
  CHECK_CASE(s, "hardening", 300, bad_input_matrix, failure_inside_smpi_shows_its_last_lines,
             repeated_runs_are_bit_identical, long_sweeps_reach_the_runner, temporary_files_never_stay_behind,
             the_next_run_removes_what_a_dead_one_left, simcalib_measure_leaves_nothing);
  int rc = check_run(s);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  return system(cmd) == 0 ? rc : 1;
}
