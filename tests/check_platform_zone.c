/* check_platform_zone.c: a generated platform built from the shape it carries (topo/shape.h,
 * topo/zone.cpp) is the platform its XML describes: every route's links in the
 * same order and the same latency to the last bit, on every node and fabric kind; the same
 * simulated times, to the last bit, for every algorithm; a file edited by hand is read as
 * SimGrid reads it; shape lines read back bit for bit and bad ones are not read. */
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <simgrid/zone.h>
#include <xbt/dynar.h>

#include "topo/shape.h"
#include "check_util.h"
#include "cli_run.h"
#include "common/sa_error.h"
#include "sim/whatif_nics.h"

static char dir[128];
static void setup(void) { ck_assert_int_eq(cli_tmpdir(dir, "check_platform_zone"), 0); }
static void teardown(void) { cli_rmtree(dir); }

/* The loader beside the driver under test. */
static void loader_path(char *buf, size_t len)
{
  const char *bin = getenv("SIMALLREDUCE_BIN") ? getenv("SIMALLREDUCE_BIN") : "bin/simallreduce";
  const char *slash = strrchr(bin, '/');
  snprintf(buf, len, "%.*s/platform_zone.so", slash ? (int)(slash - bin) : 1, slash ? bin : ".");
}

/* The routes, written from an actor: SimGrid seals the platform, and readies its routing,
 * before its actors run. */
static const char *dump_out;
static int dump_status = 1;

static void dump(int argc, char **argv)
{
  (void)argc;
  (void)argv;
  FILE *f = fopen(dump_out, "w");
  if (!f)
    return;
  size_t n = sg_host_count();
  sg_host_t *hosts = sg_host_list();
  xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
  for (size_t a = 0; a < n; a++)
    for (size_t b = 0; b < n; b++) {
      if (a == b)
        continue; /* no route in the file from a GPU to itself */
      xbt_dynar_reset(links);
      sg_host_get_route(hosts[a], hosts[b], links);
      fprintf(f, "%s %s %a %a:", sg_host_get_name(hosts[a]), sg_host_get_name(hosts[b]),
              sg_host_get_route_latency(hosts[a], hosts[b]), sg_host_get_route_bandwidth(hosts[a], hosts[b]));
      for (unsigned long i = 0; i < xbt_dynar_length(links); i++)
        fprintf(f, " %s", sg_link_get_name(xbt_dynar_get_as(links, i, sg_link_t)));
      fputc('\n', f);
    }
  xbt_dynar_free(&links);
  free(hosts);
  dump_status = fclose(f) == 0 ? 0 : 1;
}

/* In a child (SimGrid runs once per process): loads the platform, through the loader or as
 * SimGrid reads the file, and writes every route between two hosts (its links' names, its
 * latency and bandwidth in hexadecimal) to out. Exits 0, or 3 when the loader did not build
 * it as expected (want_flat: one zone; else the file's zones). */
static void dump_routes(const char *xml, int via_loader, int want_flat, const char *out)
{
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    char so[512], arg0[] = "check_platform_zone", log[] = "--log=root.thres:critical";
    char *argv[] = {arg0, log, NULL};
    int argc = 2;
    loader_path(so, sizeof so);
    setenv(TOPO_SHAPE_FILE_ENV, xml, 1);
    simgrid_init(&argc, argv);
    simgrid_load_platform(via_loader ? so : xml);
    if (via_loader && (sg_zone_get_by_name("leaf0") == NULL) != want_flat)
      _exit(3);
    dump_out = out;
    sg_actor_create("dump", sg_host_by_name("node0-gpu0"), dump, 0, NULL);
    simgrid_run();
    _exit(dump_status);
  }
  int status = 0;
  ck_assert_int_eq(waitpid(pid, &status, 0), pid);
  ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s via %s: status %d", xml,
                via_loader ? "the loader" : "SimGrid", status);
}

static int same_file(const char *a, const char *b)
{
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "cmp -s %s %s", a, b);
  return system(cmd) == 0;
}

/* NVSwitch nodes, which the loader builds in one zone, first: rails in units of 2 nodes, rails
 * in one leaf each, NICs shared by 2 GPUs under a fat-tree by node with oversubscribed
 * uplinks, 16 GPUs on one switch. Then the kinds it leaves to SimGrid: PCIe switches under a
 * fat-tree, the DGX-1 mesh on one switch, a private link per GPU with a NIC shared by 5. */
static const char *const shapes[] = {
    "--preset hgx-h100 --nodes 5 --gpus-per-node 4 --nics 4 --nodes-per-leaf 2",
    "--preset hgx-a100 --nodes 3",
    "--node nvswitch --gpu-bw 300GBps --nic-rate 25GBps --nodes 5 --gpus-per-node 4 --nics 2 --fabric fattree "
    "--nodes-per-leaf 2 --oversubscription 2",
    "--node nvswitch --gpu-bw 150GBps --nic-rate 12.5GBps --nodes 3 --gpus-per-node 16 --nics 8",
    "--node pcie --gpu-bw 26GBps --nic-rate 25GBps --nodes 3 --gpus-per-node 8 --nics 2 --fabric fattree "
    "--nodes-per-leaf 2 --oversubscription 3",
    "--preset dgx1-v100 --nodes 2",
    "--node cluster --gpu-bw 150GBps --nic-rate 3GBps --nodes 2 --gpus-per-node 5 --nics 1",
};
#define NSHAPES (sizeof shapes / sizeof shapes[0])
#define NFLAT 4 /* the first NFLAT shapes are built in one zone */

static void generate(int i, char *path, size_t len)
{
  snprintf(path, len, "%s/shape%d.xml", dir, i);
  cli_result r = cli_simcalib("platform %s -o %s", shapes[i], path);
  ck_assert_msg(r.status == 0, "%s: %s", shapes[i], r.err);
  cli_result_free(&r);
}

/* The first shape generated into xml, and into other the same file with a comment added
 * after its end: no longer what the generator writes, so SimGrid reads it. */
static void both_ways(char *xml, size_t xlen, char *other, size_t olen)
{
  char cmd[1024];
  generate(0, xml, xlen);
  snprintf(other, olen, "%s/commented.xml", dir);
  snprintf(cmd, sizeof cmd, "cp %s %s && echo '<!-- read by SimGrid -->' >> %s", xml, other, other);
  ck_assert_int_eq(system(cmd), 0);
}

START_TEST(loader_routes_are_the_files_routes)
{
  for (size_t i = 0; i < NSHAPES; i++) {
    char xml[256], a[400], b[400];
    generate((int)i, xml, sizeof xml);
    snprintf(a, sizeof a, "%s.xml-routes", xml);
    snprintf(b, sizeof b, "%s.zone-routes", xml);
    dump_routes(xml, 0, 0, a);
    dump_routes(xml, 1, i < NFLAT, b);
    ck_assert_msg(same_file(a, b), "%s: the loader's routes differ from the file's", shapes[i]);
  }
  /* NICs down (--what-if): GPUs 1 of every node and 3 of node 2 reach another NIC over
   * NVLink, a longer way out of the node that SimGrid gives in an order of its own */
  sa_whatif w[2];
  char xml[256], degraded[300], err[256], a[400], b[400];
  generate(0, xml, sizeof xml);
  ck_assert(sa_whatif_parse("rail-down:1", &w[0], err, sizeof err) == 0 &&
            sa_whatif_parse("nic-down:2-3", &w[1], err, sizeof err) == 0);
  ck_assert_msg(sim_whatif_nics_platform(xml, w, 2, dir, degraded, sizeof degraded, err, sizeof err) == 0, "%s", err);
  snprintf(a, sizeof a, "%s.xml-routes", degraded);
  snprintf(b, sizeof b, "%s.zone-routes", degraded);
  dump_routes(degraded, 0, 0, a);
  dump_routes(degraded, 1, 1, b);
  ck_assert_msg(same_file(a, b), "%s: the loader's routes differ from the file's", degraded);
}
END_TEST

/* A generated file with one link's rate changed by hand is no longer what its shape says:
 * the loader hands it to SimGrid, and the changed rate is what the routes carry. */
START_TEST(edited_file_is_read_as_simgrid_reads_it)
{
  char xml[256], edited[300], a[400], b[400], cmd[1024];
  generate(0, xml, sizeof xml);
  snprintf(edited, sizeof edited, "%s/edited.xml", dir);
  snprintf(cmd, sizeof cmd, "sed '0,/bandwidth=\"[^\"]*\"/s//bandwidth=\"1e9Bps\"/' %s > %s", xml, edited);
  ck_assert_int_eq(system(cmd), 0);
  ck_assert(!same_file(xml, edited));
  snprintf(a, sizeof a, "%s.xml-routes", edited);
  snprintf(b, sizeof b, "%s.zone-routes", edited);
  dump_routes(edited, 0, 0, a);
  dump_routes(edited, 1, 0, b);
  ck_assert_msg(same_file(a, b), "an edited file through the loader differs from SimGrid's own reading");
  char orig[400];
  snprintf(orig, sizeof orig, "%s.xml-routes", xml);
  dump_routes(xml, 0, 0, orig);
  ck_assert_msg(!same_file(orig, a), "the edit changed no route");
}
END_TEST

/* Every algorithm, with real data, fp32 and fp16, at sizes below and above the eager limit
 * and below the rank count: the same simulated time to the last bit whether the loader
 * builds the platform or SimGrid reads it (the file with a comment added after its end). */
START_TEST(simulations_are_the_same_to_the_last_bit)
{
  char xml[256], other[300];
  both_ways(xml, sizeof xml, other, sizeof other);
  const char *algos = "ring,hier,rhd,tree,twotree,nccl,hitopk";
  const char *dtypes[] = {"fp32", "fp16"};
  for (int d = 0; d < 2; d++) {
    cli_result r[2];
    const char *files[2] = {xml, other};
    for (int k = 0; k < 2; k++) {
      char args[1024];
      snprintf(args, sizeof args, "--platform %s --algo %s --sizes 8,4K,300K --dtype %s --verify", files[k], algos,
               dtypes[d]);
      r[k] = cli_run(args, 1);
      ck_assert_msg(r[k].status == 0 && r[k].json, "%s: %s", args, r[k].err);
    }
    int n = cJSON_GetArraySize(cJSON_GetObjectItem(r[0].json, "results"));
    ck_assert_int_eq(n, 21);
    ck_assert_int_eq(n, cJSON_GetArraySize(cJSON_GetObjectItem(r[1].json, "results")));
    for (int i = 0; i < n; i++) {
      double a = cli_num(cli_point(&r[0], i), "time_s"), b = cli_num(cli_point(&r[1], i), "time_s");
      ck_assert_msg(a > 0 && a == b, "%s point %d: %a s through the loader, %a s read by SimGrid", dtypes[d], i, a, b);
    }
    cli_result_free(&r[0]);
    cli_result_free(&r[1]);
  }
}
END_TEST

/* The file's SMPI settings give way to a user's own, through the loader as when SimGrid
 * reads the file: halving every message's rate moves the time, the same on both ways. */
START_TEST(a_users_setting_wins_over_the_files)
{
  char xml[256], other[300];
  both_ways(xml, sizeof xml, other, sizeof other);
  double t[2][2];
  const char *files[2] = {xml, other}, *cfg[2] = {"", "--cfg smpi/bw-factor:0:0.5"};
  for (int k = 0; k < 2; k++)
    for (int c = 0; c < 2; c++) {
      char args[1024];
      snprintf(args, sizeof args, "--platform %s --algo ring --size 64M %s", files[k], cfg[c]);
      cli_result r = cli_run(args, 1);
      ck_assert_msg(r.status == 0 && r.json, "%s: %s", args, r.err);
      t[k][c] = cli_time(&r, "ring", 64 << 20);
      cli_result_free(&r);
    }
  ck_assert_msg(t[0][1] > 1.5 * t[0][0], "the user's factor did not apply: %g s, %g s", t[0][0], t[0][1]);
  ck_assert_msg(t[0][0] == t[1][0] && t[0][1] == t[1][1], "loader %a %a, SimGrid %a %a", t[0][0], t[0][1], t[1][0],
                t[1][1]);
}
END_TEST

START_TEST(shape_reads_back_bit_for_bit)
{
  topo_cluster t = {.node = TOPO_NODE_PCIE,
                .nodes = 7,
                .gpus = 8,
                .gpu_bw = 1.0 / 3 * 1e11,
                .gpu_lat = 1.1e-6,
                .nics = 2,
                .nic_bw = 50e9 * 0.982,
                .nic_lat = 2e-6,
                .fabric = TOPO_FABRIC_FATTREE,
                .oversub = 3};
  topo_defaults(&t);
  topo_platform_spec s = {.has_compute = 1,
                         .lat_factor = "0:1.5;65536:1",
                         .bw_factor = "0:0.25;1048576:0.9",
                         .recv_overhead = "0:1e-06",
                         .host_speed = 6.7e13};
  s.compute.reduce_bw = 926.301e9;
  s.compute.topk_b = 5.63489e-11;
  char line[TOPO_SHAPE_LINE], again[TOPO_SHAPE_LINE];
  ck_assert_int_eq(topo_shape_format(&t, &s, line, sizeof line), 0);
  topo_shape back;
  ck_assert_int_eq(topo_shape_parse(line, &back), 0);
  ck_assert_int_eq(topo_shape_format(&back.topo, &back.spec, again, sizeof again), 0);
  ck_assert_str_eq(line, again);
  ck_assert(memcmp(&back.topo, &t, sizeof t) == 0);
  ck_assert(back.spec.host_speed == s.host_speed && back.spec.compute.topk_b == s.compute.topk_b);
  ck_assert_str_eq(back.spec.bw_factor, s.bw_factor);
  ck_assert_str_eq(back.spec.recv_overhead, s.recv_overhead);
  /* a fit's ramp: 40 points of 25 characters, as simcalib fits them from nccl-tests logs */
  char ramp[TOPO_SHAPE_TEXT];
  size_t n = 0;
  for (int k = 0; k < 40; k++)
    n += (size_t)snprintf(ramp + n, sizeof ramp - n, "%s%ld:%.9g", k ? ";" : "", 64L << k >> 6, 1.0 / (k + 3));
  s.bw_factor = ramp;
  ck_assert_int_eq(topo_shape_format(&t, &s, line, sizeof line), 0);
  ck_assert_int_eq(topo_shape_parse(line, &back), 0);
  ck_assert_str_eq(back.spec.bw_factor, ramp);
  /* no overhead set: none read back */
  s.recv_overhead = NULL;
  ck_assert_int_eq(topo_shape_format(&t, &s, line, sizeof line), 0);
  ck_assert_int_eq(topo_shape_parse(line, &back), 0);
  ck_assert_ptr_null(back.spec.recv_overhead);
}
END_TEST

START_TEST(bad_shapes_are_not_read)
{
  topo_cluster t = {.node = TOPO_NODE_NVSWITCH,
                .nodes = 2,
                .gpus = 8,
                .gpu_bw = 450e9,
                .gpu_lat = 1e-6,
                .nics = 8,
                .nic_bw = 49.1e9,
                .nic_lat = 2e-6,
                .rails = 1,
                .fabric = TOPO_FABRIC_FATTREE};
  topo_defaults(&t);
  topo_platform_spec s = {.host_speed = 1e12};
  char line[TOPO_SHAPE_LINE], bad[TOPO_SHAPE_LINE + 64];
  ck_assert_int_eq(topo_shape_format(&t, &s, line, sizeof line), 0);
  topo_shape back;
  const char *cuts[] = {"", "v2", "v1 node=nvswitch", "v1 node=tpu fabric=switch"};
  for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++)
    ck_assert_int_eq(topo_shape_parse(cuts[i], &back), SA_EPARSE);
  snprintf(bad, sizeof bad, "%s extra=1", line);
  ck_assert_int_eq(topo_shape_parse(bad, &back), SA_EPARSE);
  snprintf(bad, sizeof bad, "%.*s", (int)(strstr(line, " bw_factor") - line), line); /* cut short */
  ck_assert_int_eq(topo_shape_parse(bad, &back), SA_EPARSE);
  snprintf(bad, sizeof bad, "%s", line);
  char *gpus = strstr(bad, "gpus=8");
  gpus[5] = 'x'; /* not a number */
  ck_assert_int_eq(topo_shape_parse(bad, &back), SA_EPARSE);
  /* a setting that cannot be one word of the line: no line, and the file carries none */
  s.bw_factor = "0:1; 65536:0.9";
  ck_assert_int_eq(topo_shape_format(&t, &s, line, sizeof line), SA_EINVAL);
  s.bw_factor = "0:1\"";
  ck_assert_int_eq(topo_shape_format(&t, &s, line, sizeof line), SA_EINVAL);
  s.bw_factor = NULL;
  ck_assert_int_eq(topo_shape_format(&t, &s, line, 40), SA_EINVAL); /* too short a buffer */
}
END_TEST

/* A file whose shape line the generator could not have written (counts out of its limits, a
 * fat-tree leaf of no nodes) is no generated file: the loader leaves it to SimGrid, at once
 * (the file is not written again), and the simulation is the file's. Whatever comes before
 * "<platform" must be the generator's frame: a file that also is one and a junk prolog, or an
 * unclosed comment, is SimGrid's to refuse, in one line. */
START_TEST(a_shape_out_of_the_generators_limits_is_the_files)
{
  char xml[256], edited[300], cmd[1024];
  generate(0, xml, sizeof xml); /* nodes=5 nodes_per_leaf=2 */
  static const char *const edits[] = {"s/ nodes=5 / nodes=1000000000 /", "s/ nodes=5 / nodes=20000 /",
                                      "s/ nodes_per_leaf=2 / nodes_per_leaf=0 /", "s/ gpus=4 / gpus=0 /"};
  char args[600];
  snprintf(args, sizeof args, "--platform %s --algo ring --size 64K --nodes 2", xml);
  cli_result base = cli_run(args, 1);
  ck_assert_msg(base.status == 0, "%s", base.err);
  for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
    snprintf(edited, sizeof edited, "%s/limits%zu.xml", dir, i);
    snprintf(cmd, sizeof cmd, "sed '%s' %s > %s", edits[i], xml, edited);
    ck_assert_int_eq(system(cmd), 0);
    ck_assert_msg(!same_file(xml, edited), "%s changed nothing", edits[i]);
    snprintf(args, sizeof args, "--platform %s --algo ring --size 64K --nodes 2", edited);
    time_t t0 = time(NULL);
    cli_result r = cli_run(args, 1);
    ck_assert_msg(time(NULL) - t0 < 10, "%s: %ld s", edits[i], (long)(time(NULL) - t0));
    ck_assert_msg(r.status == 0, "%s: %s", edits[i], r.err);
    ck_assert_msg(cli_time(&r, "ring", 65536) == cli_time(&base, "ring", 65536), "%s: another time", edits[i]);
    cli_result_free(&r);
  }
  static const char *const frames[] = {"1s/^/junk /", "3s/^<!--/<!-- <!-- unclosed/; s/ -->$/ - ->/"};
  for (size_t i = 0; i < sizeof frames / sizeof frames[0]; i++) {
    snprintf(edited, sizeof edited, "%s/frame%zu.xml", dir, i);
    snprintf(cmd, sizeof cmd, "sed '%s' %s > %s", frames[i], xml, edited);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(args, sizeof args, "--platform %s --algo ring --size 64K --nodes 2", edited);
    cli_result r = cli_run(args, 0);
    ck_assert_msg(r.status == 2 && cli_lines(r.err) == 1 && strstr(r.err, "malformed platform"), "%s: %d %s",
                  frames[i], r.status, r.err);
    cli_result_free(&r);
  }
  cli_result_free(&base);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("platform_zone");
  CHECK_CASE(s, "shape lines", 10, shape_reads_back_bit_for_bit, bad_shapes_are_not_read);
  CHECK_CASE_FIXTURE(s, "the loader", 300, setup, teardown, loader_routes_are_the_files_routes,
                     edited_file_is_read_as_simgrid_reads_it, simulations_are_the_same_to_the_last_bit,
                     a_users_setting_wins_over_the_files, a_shape_out_of_the_generators_limits_is_the_files);
  return check_run(s);
}
