/* check_calib_cli.c: simcalib end to end: fit recovers the laws of a synthetic measurement,
 * the generated platforms run simallreduce --verify, the simulated ping-pong reproduces the
 * measured one, measure and kernels produce real points, bad input exits 2. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measured/measured.h"
#include "util/textfile.h"
#include "check_util.h"
#include "cli_run.h"

static char dir[64], path[5][128];
enum { PP, CALIB, XML, XML2, OUT };

static void setup(void)
{
  strcpy(dir, "/tmp/check_calib.XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(dir));
  const char *names[] = {"pp.json", "calib.json", "x.xml", "x2.xml", "out.json"};
  for (int i = 0; i < 5; i++)
    snprintf(path[i], sizeof path[i], "%s/%s", dir, names[i]);
}

static void teardown(void)
{
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  ck_assert_int_eq(system(cmd), 0);
}

static cJSON *load(const char *p)
{
  cJSON *j = cli_load_json(p);
  ck_assert_msg(j != NULL, "cannot read %s", p);
  return j;
}

/* Runs "simcalib <args> -o out", which must succeed, and returns the points it wrote. */
static cJSON *points_of(const char *args, const char *out, cJSON **doc)
{
  cli_result r = cli_simcalib("%s -o %s", args, out);
  ck_assert_msg(r.status == 0, "%s", r.err);
  cli_result_free(&r);
  *doc = load(out);
  return cJSON_GetObjectItemCaseSensitive(*doc, "points");
}

static double num(const cJSON *o, const char *key)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  ck_assert_msg(cJSON_IsNumber(v), "no number %s", key);
  return v->valuedouble;
}

/* Known laws: intra 0.5 us + S / 8 GB/s below 4 KiB, 3 us + S / 5 GB/s from there; inter
 * 4 us + S / 2 GB/s below 4 KiB, 12 us + S / 1.2 GB/s from there. Kernels: sum at 100 GB/s
 * + 5 us, copy at 200 GB/s, MSTopK 20 us + 0.5 ns per element. */
static double law(int inter, double s)
{
  if (inter)
    return s < 4096 ? 4e-6 + s / 2e9 : 12e-6 + s / 1.2e9;
  return s < 4096 ? 0.5e-6 + s / 8e9 : 3e-6 + s / 5e9;
}

static void write_measurement(const char *p)
{
  md_data d = {0};
  snprintf(d.source, sizeof d.source, "synthetic");
  for (int c = 0; c < 2; c++)
    for (double s = 1; s <= 64 << 20; s *= 4) {
      md_point pt = md_point_blank("pingpong", "synthetic");
      snprintf(pt.path, sizeof pt.path, "%s", c ? "inter" : "intra");
      pt.bytes = s;
      pt.ranks = 2;
      pt.time_s = law(c, s);
      ck_assert_int_eq(md_data_add(&d, &pt), 0);
    }
  for (double s = 4096; s <= 64 << 20; s *= 4) {
    /* MSTopK per input byte, exact top-k per element, scatter-add per pair (k = s / 400) */
    md_point k[5] = {md_point_blank("reduce", "synthetic"), md_point_blank("memcpy", "synthetic"),
                      md_point_blank("mstopk", "synthetic"), md_point_blank("topk_exact", "synthetic"),
                      md_point_blank("scatter_add", "synthetic")};
    double t[5] = {5e-6 + s / 100e9, s / 200e9, 20e-6 + 0.125e-9 * s, 10e-6 + 2e-9 * s / 4, 1e-6 + 3e-9 * s / 400};
    for (int i = 0; i < 5; i++) {
      snprintf(k[i].device, sizeof k[i].device, "cpu");
      snprintf(k[i].dtype, sizeof k[i].dtype, "%s", i == 1 ? "" : "fp32");
      k[i].bytes = i == 4 ? s / 400 * 8 : s;
      k[i].count = i == 1 ? s : i == 4 ? s / 400 : s / 4;
      k[i].time_s = t[i];
      ck_assert_int_eq(md_data_add(&d, &k[i]), 0);
    }
  }
  ck_assert_int_eq(md_data_write(&d, p), 0);
  md_data_free(&d);
}

START_TEST(fit_recovers_the_laws)
{
  write_measurement(path[PP]);
  cli_result r = cli_simcalib("fit %s -o %s", path[PP], path[CALIB]);
  ck_assert_msg(r.status == 0, "%s", r.err);
  /* the kernels measured the selections: the summary gives them */
  ck_assert_msg(strstr(r.out, "# compute (cpu): reduce 100 GB/s + 5 us, copy 200 GB/s, top-k 10 us + 2 ns/element, "
                              "MSTopK 20 us + 0.125 ns/byte, scatter-add 1 us + 3 ns/pair\n"),
                "%s", r.out);
  cli_result_free(&r);
  cJSON *c = load(path[CALIB]);
  const double alpha[2][2] = {{0.5e-6, 3e-6}, {4e-6, 12e-6}}, bw[2][2] = {{8e9, 5e9}, {2e9, 1.2e9}};
  for (int k = 0; k < 2; k++) {
    const cJSON *cls = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(c, "network"), k ? "inter" : "intra");
    const cJSON *segs = cJSON_GetObjectItemCaseSensitive(cls, "segments");
    ck_assert_int_eq(cJSON_GetArraySize(segs), 2);
    ck_assert_double_eq(num(cJSON_GetArrayItem(segs, 1), "from_bytes"), 4096);
    for (int s = 0; s < 2; s++) {
      const cJSON *seg = cJSON_GetArrayItem(segs, s);
      ck_assert_double_eq_tol(num(seg, "alpha_s"), alpha[k][s], alpha[k][s] * 1e-3);
      ck_assert_double_eq_tol(num(seg, "bandwidth_Bps"), bw[k][s], bw[k][s] * 1e-3);
      ck_assert_double_eq_tol(num(seg, "r2"), 1.0, 1e-6);
      ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(seg, "points")), (int)num(seg, "points_used"));
    }
  }
  /* factors from the inter class: latency of its first segment, bandwidth of its last */
  const cJSON *smpi = cJSON_GetObjectItemCaseSensitive(c, "smpi");
  ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(smpi, "reference")->valuestring, "inter");
  double t[3], f[3];
  ck_assert_int_eq(sscanf(cJSON_GetObjectItemCaseSensitive(smpi, "lat_factor")->valuestring, "%lf:%lf;%lf:%lf;%lf:%lf",
                          &t[0], &f[0], &t[1], &f[1], &t[2], &f[2]),
                   6);
  /* segments from the breakpoint at 4 KiB and SMPI's detached-send threshold at 64 KiB */
  ck_assert_double_eq(t[1], 4096);
  ck_assert_double_eq(t[2], 65536);
  ck_assert_double_eq_tol(f[0], 1.0, 1e-6);
  ck_assert_double_eq_tol(f[2], 3.0, 1e-6); /* 12 us over the 4 us route latency */
  ck_assert_int_eq(sscanf(cJSON_GetObjectItemCaseSensitive(smpi, "bw_factor")->valuestring, "%lf:%lf;%lf:%lf;%lf:%lf",
                          &t[0], &f[0], &t[1], &f[1], &t[2], &f[2]),
                   6);
  /* 1 / bw_f = (b_intra - b_inter) / (1/B_intra - 1/B_inter) below 64 KiB, 1 at the top */
  double bi = num(cJSON_GetObjectItemCaseSensitive(smpi, "intra"), "bandwidth_Bps");
  ck_assert_double_eq_tol(num(cJSON_GetObjectItemCaseSensitive(smpi, "inter"), "bandwidth_Bps"), 1.2e9, 1e3);
  ck_assert_double_eq_tol(f[0], (1 / bi - 1 / 1.2e9) / (1 / 8e9 - 1 / 2e9), 1e-6);
  ck_assert_double_eq_tol(f[2], 1.0, 1e-6);
  /* below 64 KiB both classes are met exactly; the intra route latency is held at 0.5 us,
   * where the first segment needs no overhead: lat_f = (4 - 0.5) / (4 - 0.5) = 1 there, and
   * (12 - 3) / 3.5 with an overhead of 3 - 0.5 x 9 / 3.5 us in the second */
  ck_assert_double_eq_tol(num(cJSON_GetObjectItemCaseSensitive(smpi, "intra"), "latency_s"), 0.5e-6, 1e-12);
  ck_assert_int_eq(sscanf(cJSON_GetObjectItemCaseSensitive(smpi, "lat_factor")->valuestring, "%lf:%lf;%lf:%lf", &t[0],
                          &f[0], &t[1], &f[1]),
                   4);
  ck_assert_double_eq_tol(f[1], 9.0 / 3.5, 1e-6);
  double o0, p0, o1, p1, th;
  ck_assert_int_eq(sscanf(cJSON_GetObjectItemCaseSensitive(smpi, "or")->valuestring, "0:%lf:%lf;%lf:%lf:%lf", &o0, &p0,
                          &th, &o1, &p1),
                   5);
  ck_assert_double_eq(th, 4095);
  ck_assert_double_eq_tol(o0, 0, 1e-12);
  ck_assert_double_eq_tol(o1, 3e-6 - 0.5e-6 * 9.0 / 3.5, 1e-12);
  const cJSON *plat = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(c, "compute"), "platform");
  ck_assert_double_eq_tol(num(plat, "reduce_bw"), 100e9, 100e9 * 1e-6);
  ck_assert_double_eq_tol(num(plat, "reduce_lat"), 5e-6, 5e-12);
  ck_assert_double_eq_tol(num(plat, "copy_bw"), 200e9, 200e9 * 1e-6);
  ck_assert_double_eq_tol(num(plat, "topk_a"), 10e-6, 10e-12);
  ck_assert_double_eq_tol(num(plat, "topk_b"), 2e-9, 2e-15);
  ck_assert_double_eq_tol(num(plat, "mstopk_a"), 20e-6, 20e-12);
  ck_assert_double_eq_tol(num(plat, "mstopk_b"), 0.125e-9, 0.125e-15);
  ck_assert_double_eq_tol(num(plat, "scatter_a"), 1e-6, 1e-12);
  ck_assert_double_eq_tol(num(plat, "scatter_b"), 3e-9, 3e-15);
  cJSON_Delete(c);
}
END_TEST

/* A law that holds for two sizes only (8M and 16M between a cached and an uncached regime):
 * no three-point segment meets them, two-point segments do, exactly. */
START_TEST(fit_follows_a_law_of_two_sizes)
{
  md_data d = {0};
  for (double s = 1; s <= 256 << 20; s *= 2) {
    md_point pt = md_point_blank("pingpong", "synthetic");
    snprintf(pt.path, sizeof pt.path, "intra");
    pt.bytes = s;
    pt.ranks = 2;
    pt.time_s = s <= 4 << 20 ? 0.5e-6 + s / 10e9 : s <= 16 << 20 ? 300e-6 + s / 8e9 : s / 5e9;
    ck_assert_int_eq(md_data_add(&d, &pt), 0);
  }
  ck_assert_int_eq(md_data_write(&d, path[PP]), 0);
  md_data_free(&d);
  cli_result r = cli_simcalib("fit %s -o %s", path[PP], path[CALIB]);
  ck_assert_msg(r.status == 0, "%s", r.err);
  cli_result_free(&r);
  cJSON *c = load(path[CALIB]);
  const cJSON *intra = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(c, "network"), "intra");
  const cJSON *segs = cJSON_GetObjectItemCaseSensitive(intra, "segments");
  ck_assert_int_eq(cJSON_GetArraySize(segs), 3);
  const cJSON *mid = cJSON_GetArrayItem(segs, 1);
  ck_assert_double_eq(num(mid, "from_bytes"), 8 << 20);
  ck_assert_double_eq_tol(num(mid, "alpha_s"), 300e-6, 1e-9);
  ck_assert_double_eq_tol(num(mid, "bandwidth_Bps"), 8e9, 8e3);
  ck_assert(num(intra, "max_rel_err") < 1e-6);
  cJSON_Delete(c);
}
END_TEST

START_TEST(generated_platform_runs_and_reproduces_the_ping_pong)
{
  write_measurement(path[PP]);
  cli_result r = cli_simcalib("fit %s -o %s", path[PP], path[CALIB]);
  ck_assert_int_eq(r.status, 0);
  cli_result_free(&r);
  r = cli_simcalib("platform --calib %s --nodes 4 --gpus-per-node 2 -o %s", path[CALIB], path[XML]);
  ck_assert_msg(r.status == 0, "%s", r.err);
  cli_result_free(&r);
  char args[512];
  snprintf(args, sizeof args, "--platform %s --algo ring --verify --sizes 4K:1M:16", path[XML]);
  r = cli_run(args, 1);
  ck_assert_msg(r.status == 0, "%s", r.err);
  ck_assert_int_eq((int)cli_num(r.json, "ranks"), 8);
  ck_assert_int_eq((int)cli_num(r.json, "nodes"), 4);
  for (int i = 0; i < 3; i++)
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cli_point(&r, i), "verified")));
  /* the calibrated compute reaches the runner, the top-k algorithms' kernels too */
  const cJSON *comp = cJSON_GetObjectItemCaseSensitive(r.json, "compute");
  ck_assert_double_eq_tol(cli_num(comp, "reduce_bw"), 100e9, 1e3);
  ck_assert_double_eq_tol(cli_num(comp, "topk_b"), 2e-9, 2e-15);
  ck_assert_double_eq_tol(cli_num(comp, "mstopk_b"), 0.125e-9, 0.125e-15);
  ck_assert_double_eq_tol(cli_num(comp, "scatter_b"), 3e-9, 3e-15);
  cli_result_free(&r);

  r = cli_simcalib("check --platform %s --measured %s -o %s", path[XML], path[PP], path[OUT]);
  ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
  cli_result_free(&r);
  cJSON *c = load(path[OUT]);
  const cJSON *pts = cJSON_GetObjectItemCaseSensitive(c, "points"), *p;
  ck_assert_int_eq(cJSON_GetArraySize(pts), 2 * 14); /* both classes, every size */
  cJSON_ArrayForEach(p, pts)
  {
    /* the reference class (inter) is reproduced everywhere, intra exactly below 64 KiB and
     * through its best route above */
    double e = fabs(num(p, "error"));
    int exact = strcmp(cJSON_GetObjectItemCaseSensitive(p, "path")->valuestring, "inter") == 0 || num(p, "bytes") < 65536;
    ck_assert_msg(e < (exact ? 0.01 : 0.10), "%s %.0f B off by %.3f", cJSON_GetObjectItemCaseSensitive(p, "path")->valuestring,
                  num(p, "bytes"), e);
  }
  cJSON_Delete(c);
}
END_TEST

START_TEST(multi_rail_platform_runs)
{
  write_measurement(path[PP]);
  cli_result r = cli_simcalib("fit %s -o %s", path[PP], path[CALIB]);
  cli_result_free(&r);
  r = cli_simcalib("platform --calib %s --nodes 2 --gpus-per-node 4 --nics 2 -o %s", path[CALIB], path[XML2]);
  ck_assert_msg(r.status == 0, "%s", r.err);
  cli_result_free(&r);
  char *xml = util_read_text(path[XML2]);
  /* GPU j of a node reaches the fabric through its own link, then NIC floor(j * 2 / 4) */
  ck_assert_ptr_nonnull(strstr(xml, "<link id=\"node1-nic1\""));
  ck_assert_ptr_nonnull(strstr(xml, "gw_src=\"node1-gpu2\" gw_dst=\"leaf0-sw\"><link_ctn id=\"node1-gpu2-link\" "
                                    "direction=\"UP\"/><link_ctn id=\"node1-nic1\" direction=\"UP\"/>"));
  free(xml);
  char args[512];
  snprintf(args, sizeof args, "--platform %s --algo ring --verify --size 256K", path[XML2]);
  r = cli_run(args, 1);
  ck_assert_msg(r.status == 0, "%s", r.err);
  ck_assert_int_eq((int)cli_num(r.json, "ranks"), 8);
  ck_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cli_point(&r, 0), "verified")));
  cli_result_free(&r);
}
END_TEST

START_TEST(measure_runs_the_real_mpi)
{
  cJSON *m, *p, *pts = points_of("measure --np 2 --sizes 1:4K:8 --reps 5 --min-reps 2 --warmup 1 --no-stream", path[PP], &m);
  ck_assert_int_eq(cJSON_GetArraySize(pts), 5); /* 1, 8, 64, 512, 4096 */
  double want = 1;
  cJSON_ArrayForEach(p, pts)
  {
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(p, "op")->valuestring, "pingpong");
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(p, "path")->valuestring, "intra");
    ck_assert_double_eq(num(p, "bytes"), want);
    ck_assert(num(p, "time_s") > 0 && num(p, "time_s") < 0.1);
    ck_assert(num(p, "min_s") <= num(p, "time_s") && num(p, "time_s") <= num(p, "max_s"));
    want *= 8;
  }
  cJSON_Delete(m);
}
END_TEST

START_TEST(kernels_time_every_kernel)
{
  cJSON *k, *p, *pts = points_of("kernels --max-bytes 64K --max-elements 16K --reps 2 --min-reps 1", path[OUT], &k);
  int seen[5] = {0};
  const char *ops[] = {"reduce", "memcpy", "mstopk", "topk_exact", "scatter_add"};
  cJSON_ArrayForEach(p, pts)
  {
    const char *op = cJSON_GetObjectItemCaseSensitive(p, "op")->valuestring;
    for (int i = 0; i < 5; i++)
      if (strcmp(op, ops[i]) == 0)
        seen[i]++;
    ck_assert(num(p, "time_s") > 0);
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(p, "device")->valuestring, "cpu");
  }
  ck_assert_int_eq(seen[0], 2 * 3); /* fp32 and fp16 at 4K, 16K, 64K */
  ck_assert_int_eq(seen[1], 3);
  ck_assert_int_eq(seen[2], 2); /* 4096 and 16384 elements */
  ck_assert_int_eq(seen[3], 2);
  ck_assert_int_eq(seen[4], 2); /* k pairs of each selection */
  cJSON_Delete(k);
}
END_TEST

START_TEST(bad_input_exits_2)
{
  const char *cases[][2] = {
      {"frobnicate", "unknown command"},
      {"fit /nonexistent.json", "cannot read /nonexistent.json"},
      {"fit tests/data/calib/osu_bw.log", "is not JSON"},
      {"fit", "at least one"},
      {"platform --nodes 2 --gpus-per-node 2", "give --calib, --from-nccl-tests, --preset, or --node"},
      {"platform --calib tests/data/calib/osu_bw.log --nodes 2 --gpus-per-node 2", "is not JSON"},
      {"import nccl-tests tests/data/calib/osu_latency.log", "osu_latency.log:1: OSU output"},
      {"import nccl-tests tests/data/measured/X01_allgather_gb10_2node_wrongcoll.log",
       "X01_allgather_gb10_2node_wrongcoll.log:2: all_gather_perf: this log holds allgather, not allreduce"},
      {"import nccl-tests tests/data/measured/X02_concat_L07_L08_two_runs.log --run 2", "holds 2 runs (0 to 1)"},
      {"import osu tests/data/measured/O05_osu_allreduce_v75_144rank_oci.log --nodes 0", "--nodes needs"},
      {"import osu tests/data/calib/nccl_allreduce_8gpu.log", "nccl_allreduce_8gpu.log:1"},
      {"import mpiperf x.log", "unknown tool"},
      {"check --platform platforms/dgx1.xml", "required"},
      {"check --platform platforms --measured tests/data/calib/osu_bw.log", "platforms: it is a directory"},
      {"check --platform /tmp --measured tests/data/calib/osu_bw.log", "/tmp: it is a directory"},
      {"platform --calib tests --nodes 2", "tests: it is a directory"},
      {"platform --from-nccl-tests /tmp --nodes 2", "/tmp: it is a directory"},
      {"measure --np 1", "--np"},
      {"kernels --device tpu", "bad value 'tpu'"},
      {"fit --tol", "missing value for '--tol'"},
      {"platform --bogus", "unknown option '--bogus'"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cli_result r = cli_simcalib("%s", cases[i][0]);
    ck_assert_msg(r.status == 2, "'%s' exited %d", cases[i][0], r.status);
    ck_assert_msg(r.err && strstr(r.err, cases[i][1]) && cli_lines(r.err) == 1, "'%s': %s", cases[i][0], r.err);
    cli_result_free(&r);
  }
}
END_TEST

/* A device is refused at once, unread: /dev/zero never ends, and would take this test to its
 * timeout were it read to the end. */
START_TEST(import_refuses_dev_zero)
{
  for (int osu = 0; osu < 2; osu++) {
    cli_result r = cli_simcalib("import %s /dev/zero", osu ? "osu" : "nccl-tests");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(r.err && strcmp(r.err, "simcalib: import: cannot read /dev/zero: it is a device (an input is a regular "
                                           "file, or - for stdin)\n") == 0,
                  "%s", r.err);
    cli_result_free(&r);
  }
}
END_TEST

/* A real log with two runs: --run picks one; what was skipped or assumed is said on stderr. */
START_TEST(import_real_logs)
{
  cJSON *doc;
  cli_result r = cli_simcalib("import nccl-tests tests/data/measured/X02_concat_L07_L08_two_runs.log --run 1 -o %s",
                              path[OUT]);
  ck_assert_msg(r.status == 0, "%s", r.err);
  ck_assert_msg(strstr(r.err, "simcalib: import: skipped 11 lines that are not part of the table\n") == r.err, "%s",
                r.err);
  /* with -o, one line on stdout says what went where */
  char wrote[256];
  snprintf(wrote, sizeof wrote, "wrote 64 points of 1 run to %s\n", path[OUT]);
  ck_assert_str_eq(r.out, wrote);
  cli_result_free(&r);
  /* without, the JSON takes stdout and the table goes to stderr */
  r = cli_simcalib("import nccl-tests tests/data/measured/X02_concat_L07_L08_two_runs.log --run 1");
  ck_assert_msg(r.status == 0 && strncmp(r.out, "{", 1) == 0, "%s", r.out);
  ck_assert_ptr_nonnull(strstr(r.err, "# run 0: all_reduce_perf (nccl-tests), NCCL 2.26.2+cuda12.8, 32 ranks = 4 "
                                      "nodes x 8 (NVIDIA H100 80GB HBM3), fp32 sum, from line 73"));
  cli_result_free(&r);
  doc = load(path[OUT]);
  const cJSON *runs = cJSON_GetObjectItemCaseSensitive(doc, "runs");
  const cJSON *pts = cJSON_GetObjectItemCaseSensitive(doc, "points");
  ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(doc, "schema")->valuestring, "simallreduce-measured-2");
  ck_assert_int_eq(cJSON_GetArraySize(runs), 1);
  ck_assert_int_eq(cJSON_GetArraySize(pts), 64);
  ck_assert_double_eq(num(cJSON_GetArrayItem(runs, 0), "ranks"), 32);
  ck_assert_double_eq(num(cJSON_GetArrayItem(runs, 0), "nodes"), 4);
  ck_assert_double_eq(num(cJSON_GetArrayItem(pts, 63), "run"), 0);
  cJSON_Delete(doc);
  r = cli_simcalib("import osu tests/data/measured/O04_osu_allreduce_full_v7_nwtnni.log -o %s", path[OUT]);
  ck_assert_msg(r.status == 0 && strstr(r.err, "does not name its datatype: fp32 assumed"), "%s", r.err);
  cli_result_free(&r);
  /* an NCCL version no release has had is kept, and said to be so */
  char cmd[1024], copy[512];
  snprintf(copy, sizeof copy, "%s.v999.log", path[OUT]);
  snprintf(cmd, sizeof cmd, "sed 's/NCCL version 2[.0-9]*/NCCL version 9.99/' "
                            "tests/data/measured/L07_hgx_h100_2node16_nccl2262_xpmem.log > %s", copy);
  ck_assert_int_eq(system(cmd), 0);
  r = cli_simcalib("import nccl-tests %s -o %s", copy, path[OUT]);
  ck_assert_msg(r.status == 0 && strstr(r.err, "names NCCL version 9.99+cuda12.8, which no release has been"), "%s",
                r.err);
  cli_result_free(&r);
  unlink(copy);
}
END_TEST

/* The summary of a fit of allreduce logs gives what the fit used: no selection costs (an
 * allreduce log says nothing of them), and only the GPU's writing rates that are charged (a
 * log across nodes leaves them to the NICs: "not charged", never "0 GB/s"). */
START_TEST(fit_summary_says_what_it_fitted)
{
  static const struct {
    const char *log, *nodes, *want;
  } cases[] = {
      {"L06_efa_2node_v100_nccl264.log", "2", "GPU writing not charged, per hop"},
      {"L03_a100x2_nccl2205_info.log", "1", "GPU writing LL 175 GB/s, LL128 "},
  };
  for (int i = 0; i < 2; i++) {
    cli_result r = cli_simcalib("platform --from-nccl-tests tests/data/measured/%s --nodes %s -o %s", cases[i].log,
                                cases[i].nodes, path[XML]);
    ck_assert_msg(r.status == 0, "%s", r.err);
    const char *dev = strstr(r.err, "# no ramp; device: reduce ");
    ck_assert_msg(dev != NULL, "%s", r.err);
    char line[1024];
    snprintf(line, sizeof line, "%.*s", (int)strcspn(dev, "\n"), dev);
    ck_assert_msg(strstr(line, cases[i].want) && !strstr(line, "top-k") && !strstr(line, "MSTopK") &&
                      !strstr(line, "scatter-add") && !strstr(line, " 0 GB/s"),
                  "%s", line);
    cli_result_free(&r);
  }
}
END_TEST

int main(void)
{
  Suite *s = suite_create("calib_cli");
  TCase *tc = tcase_create("cli");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, fit_recovers_the_laws);
  tcase_add_test(tc, fit_follows_a_law_of_two_sizes);
  tcase_add_test(tc, generated_platform_runs_and_reproduces_the_ping_pong);
  tcase_add_test(tc, multi_rail_platform_runs);
  tcase_add_test(tc, measure_runs_the_real_mpi);
  tcase_add_test(tc, kernels_time_every_kernel);
  tcase_add_test(tc, bad_input_exits_2);
  tcase_add_test(tc, import_refuses_dev_zero);
  tcase_add_test(tc, import_real_logs);
  tcase_add_test(tc, fit_summary_says_what_it_fitted);
  suite_add_tcase(s, tc);
  return check_run(s);
}
