/* check_outside_fit.c: a fitted platform says what its fit saw ("Fit covers:" in its header
 * comment, topo/fit_cover.h), and simallreduce warns of a run that goes past it: one line on
 * stderr, and per point in the JSON with how far (sim/outside_fit.c). The platform is the
 * fit of L12 (2 x 8 H100, NCCL_ALGO=Ring, 1 MiB to 8 GiB) drawn at 4 nodes
 * (simcalib platform --from-nccl-tests L12 --nccl-algo Ring --nodes 4) in tests/data/platforms/. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_util.h"
#include "cli_run.h"
#include "topo/fit_cover.h"

#define L12 "--platform " PLAT "l12_nccl_ring_fit4.xml --mode model"

START_TEST(cover_line_reads_back)
{
  topo_cover c = {.algo = "nccl", .min_bytes = 1 << 20, .max_bytes = 17179869184.0}, back;
  ck_assert_int_eq(topo_cover_add_shape(&c, 4, 8), 0);
  ck_assert_int_eq(topo_cover_add_shape(&c, 2, 8), 0);
  ck_assert_int_eq(topo_cover_add_shape(&c, 2, 8), 0); /* a repeat is listed once */
  char line[256], file[512];
  topo_cover_format(&c, line, sizeof line);
  ck_assert_str_eq(line, "Fit covers: nccl; nodes 2,4; GPUs per node 8; bytes per rank 1048576 to 17179869184");
  snprintf(file, sizeof file, "<?xml version=\"1.0\"?>\n<!-- x: notes\n     %s\n     more -->\n<platform/>\n", line);
  ck_assert_int_eq(topo_cover_of_file(file, strlen(file), &back), 1);
  ck_assert_str_eq(back.algo, "nccl");
  ck_assert_int_eq(back.nnodes, 2);
  ck_assert_int_eq(back.nodes[0], 2);
  ck_assert_int_eq(back.nodes[1], 4);
  ck_assert_int_eq(back.ngpus, 1);
  ck_assert(back.min_bytes == 1048576 && back.max_bytes == 17179869184.0);
  snprintf(file, sizeof file, "<!-- %s -->", line); /* the line last in its comment */
  ck_assert_int_eq(topo_cover_of_file(file, strlen(file), &back), 1);
  ck_assert(back.max_bytes == 17179869184.0);
  /* not a cover: none, outside the first comment, a broken list, sizes the wrong way round */
  static const char *const bad[] = {
      "<!-- x: no fit -->\n<platform/>",
      "<!-- x -->\n<!-- Fit covers: nccl; nodes 2; GPUs per node 8; bytes per rank 1 to 2 -->",
      "<!-- Fit covers: nccl; nodes 2,,4; GPUs per node 8; bytes per rank 1 to 2 -->",
      "<!-- Fit covers: nccl; nodes 0; GPUs per node 8; bytes per rank 1 to 2 -->",
      "<!-- Fit covers: nccl; nodes 2; GPUs per node 8; bytes per rank 4 to 2 -->",
      "<!-- Fit covers: nccl; nodes 2; GPUs per node 8; bytes per rank 1 to 2 and more -->",
      "<!-- Fit covers: nccl; nodes 2; GPUs per node 8",
      "<!-- Fit covers: nccl; nodes 2; GPUs per node 8; bytes per rank 1 to 2; NCCL x -->",
      "<!-- Fit covers: nccl; nodes 2; GPUs per node 8; bytes per rank 1 to 2; NCCL_PROTO LL; NCCL_ALGO Ring -->"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    ck_assert_msg(topo_cover_of_file(bad[i], strlen(bad[i]), &back) == 0, "%s", bad[i]);
  /* what NCCL_ALGO and NCCL_PROTO left NCCL, where the runs left it less than all, and the
   * NCCL release whose choice the fit modelled: each written after the sizes, read back */
  static const struct {
    const char *algo, *proto, *version, *tail;
  } more[] = {{"Tree,Ring", "LL,Simple", "", "; NCCL_ALGO Tree,Ring; NCCL_PROTO LL,Simple"},
              {"", "LL,Simple", "", "; NCCL_PROTO LL,Simple"},
              {"", "", "2.7.5-1", "; NCCL 2.7.5-1"},
              {"Ring", "^LL128", "2.26.2-1", "; NCCL_ALGO Ring; NCCL_PROTO ^LL128; NCCL 2.26.2-1"}};
  for (size_t i = 0; i < sizeof more / sizeof more[0]; i++) {
    snprintf(c.nccl_algo, sizeof c.nccl_algo, "%s", more[i].algo);
    snprintf(c.nccl_proto, sizeof c.nccl_proto, "%s", more[i].proto);
    snprintf(c.nccl_version, sizeof c.nccl_version, "%s", more[i].version);
    char want[256];
    snprintf(want, sizeof want, "Fit covers: nccl; nodes 2,4; GPUs per node 8; bytes per rank 1048576 to 17179869184%s",
             more[i].tail);
    topo_cover_format(&c, line, sizeof line);
    ck_assert_str_eq(line, want);
    snprintf(file, sizeof file, "<!-- %s -->", line);
    ck_assert_int_eq(topo_cover_of_file(file, strlen(file), &back), 1);
    ck_assert_str_eq(back.nccl_algo, more[i].algo);
    ck_assert_str_eq(back.nccl_proto, more[i].proto);
    ck_assert_str_eq(back.nccl_version, more[i].version);
  }
}
END_TEST

/* The point of r at algo and bytes. */
static const cJSON *point(const cli_result *r, const char *algo, double bytes)
{
  for (int i = 0; cli_point(r, i); i++) {
    const cJSON *p = cli_point(r, i);
    if (!strcmp(cJSON_GetObjectItem(p, "algo")->valuestring, algo) && cli_num(p, "bytes") == bytes)
      return p;
  }
  ck_abort_msg("no %s at %.0f", algo, bytes);
  return NULL;
}

/* The factor of the point's reason `what`, or 0 when it has none. */
static double factor(const cJSON *p, const char *what)
{
  const cJSON *w, *list = cJSON_GetObjectItem(p, "outside_fit");
  cJSON_ArrayForEach(w, list) if (!strcmp(cJSON_GetObjectItem(w, "what")->valuestring, what)) return cli_num(w, "factor");
  return 0;
}

START_TEST(inside_the_fit_nothing_is_said)
{
  cli_result r = cli_run(L12 " --nodes 2 --algo nccl-ring,nccl --sizes 1M:8G:8", 1);
  ck_assert_msg(r.status == 0, "%s", r.err);
  ck_assert_msg(!strstr(r.err, "past what"), "%s", r.err);
  for (int i = 0; cli_point(&r, i); i++)
    ck_assert(cJSON_GetObjectItem(cli_point(&r, i), "outside_fit") == NULL);
  const cJSON *cover = cJSON_GetObjectItem(r.json, "fit_cover");
  ck_assert(cover != NULL);
  ck_assert_str_eq(cJSON_GetObjectItem(cover, "algo")->valuestring, "nccl-ring");
  ck_assert(cli_num(cover, "min_bytes") == 1048576 && cli_num(cover, "max_bytes") == 8589934592.0);
  cli_result_free(&r);
  /* a platform not written by a fit has no cover and no warning */
  r = cli_run("--platform tencent16 --mode model --algo ring --sizes 8,1G", 1);
  ck_assert_msg(r.status == 0 && !strstr(r.err, "past what"), "%s", r.err);
  ck_assert(cJSON_GetObjectItem(r.json, "fit_cover") == NULL);
  cli_result_free(&r);
}
END_TEST

/* 4 nodes from a 2-node fit, 64 KiB and 16 GiB past 1 MiB..8 GiB, an MPI ring from an NCCL
 * one: each said once on stderr, and per point with its factor. */
START_TEST(outside_the_fit_each_way_is_said_with_how_far)
{
  cli_result r = cli_run(L12 " --nodes 4 --algo ring,nccl --sizes 64K,1M,16G", 1);
  ck_assert_msg(r.status == 0, "%s", r.err);
  ck_assert_msg(cli_lines(r.err) == 1, "%s", r.err);
  static const char *const said[] = {
      "4 nodes, x2 more than the nearest it saw (2)", "size 16G, x2 past the largest it fitted (8G)",
      "size 64K, x16 below the smallest it fitted (1M)", "ring, of another family than the nccl-ring it fitted"};
  for (size_t i = 0; i < sizeof said / sizeof said[0]; i++)
    ck_assert_msg(strstr(r.err, said[i]), "no '%s' in: %s", said[i], r.err);
  ck_assert_msg(!strstr(r.err, "nccl,") && !strstr(r.err, "nccl, of"), "NCCL's choice is of the fit's family: %s", r.err);
  const cJSON *p = point(&r, "nccl", 1048576);
  ck_assert(factor(p, "nodes") == 2 && factor(p, "size") == 0 && factor(p, "algorithm") == 0);
  p = point(&r, "ring", 65536);
  ck_assert(factor(p, "nodes") == 2 && factor(p, "size") == 16 && factor(p, "algorithm") == 1);
  p = point(&r, "nccl", 17179869184.0);
  ck_assert(factor(p, "size") == 2 && factor(p, "gpus_per_node") == 0);
  cli_result_free(&r);
  /* fewer GPUs per node than the fit saw */
  r = cli_run(L12 " --nodes 2 --ranks-per-node 4 --algo nccl --sizes 1M", 1);
  ck_assert_msg(r.status == 0 && strstr(r.err, "4 GPUs per node, x2 fewer than the nearest it saw (8)"), "%s", r.err);
  ck_assert(factor(point(&r, "nccl", 1048576), "gpus_per_node") == 2);
  cli_result_free(&r);
}
END_TEST

/* L12's platform with its cover's line edited to text, in dir: the path in path. */
static void edited_l12(const char *dir, const char *text, char *path, size_t len)
{
  char line[1024];
  snprintf(path, len, "%s/l12_edited.xml", dir);
  FILE *in = fopen("tests/data/platforms/l12_nccl_ring_fit4.xml", "r"), *out = fopen(path, "w");
  ck_assert(in && out);
  while (fgets(line, sizeof line, in)) {
    char *cover = strstr(line, "bytes per rank 1048576 to 8589934592");
    if (cover)
      snprintf(cover, sizeof line - (size_t)(cover - line), "bytes per rank 1048576 to 8589934592%s\n", text);
    fputs(line, out);
  }
  fclose(in);
  fclose(out);
}

/* L12's fit as if it had modelled NCCL 2.7.5's choice: --algo nccl takes 2.7.5's (at 1 MiB on 2
 * x 8 H100 the ring with LL, where 2.26.2 runs NVLS tree) unless --nccl-version says otherwise,
 * and then the run is told that the fit modelled another release. */
START_TEST(the_fits_nccl_release_is_the_runs)
{
  char dir[64], path[128];
  ck_assert_int_eq(cli_tmpdir(dir, "check_outside_fit"), 0);
  edited_l12(dir, "; NCCL 2.7.5-1", path, sizeof path);
  static const struct {
    const char *version, *release, *choice;
    int told;
  } runs[] = {{"", "2.7.5-1", "ring/LL/16", 0},
              {"--nccl-version 2.7.5", "2.7.5-1", "ring/LL/16", 0},
              {"--nccl-version 2.26.2", "2.26.2-1", "nvlstree/Simple/16", 1}};
  for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
    char args[512];
    snprintf(args, sizeof args,
             "--platform %s --mode model --nodes 2 --algo nccl --nccl-algo Ring,Tree,NVLSTree "
             "--sizes 1M %s",
             path, runs[i].version);
    cli_result r = cli_run(args, 1);
    ck_assert_msg(r.status == 0, "%s: %s", args, r.err);
    const cJSON *p = point(&r, "nccl", 1048576);
    ck_assert_str_eq(cJSON_GetObjectItem(p, "nccl")->valuestring, runs[i].choice);
    ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(r.json, "options"), "nccl_version")->valuestring,
                     runs[i].release);
    ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(r.json, "fit_cover"), "nccl_version")->valuestring,
                     "2.7.5-1");
    ck_assert_msg(!strstr(r.err, "the fit modelled NCCL 2.7.5-1's choice") == !runs[i].told, "%s: %s", args, r.err);
    ck_assert(factor(p, "nccl_version") == runs[i].told);
    cli_result_free(&r);
    r = cli_run(args, 0); /* the table says whose choice it is where the fit's release was taken */
    ck_assert_msg(r.status == 0, "%s: %s", args, r.err);
    ck_assert_msg(!strstr(r.out, "# NCCL's choice: 2.7.5-1's, the release the platform's fit modelled") ==
                      (runs[i].version[0] != '\0'),
                  "%s:\n%s", args, r.out);
    cli_result_free(&r);
  }
  remove(path);
  remove(dir);
}
END_TEST

/* L12's fit as if its log had run with NCCL_PROTO=^LL128: its cover says so, and a run that
 * leaves NCCL another choice of protocol is told, in the line and per point. */
START_TEST(another_choice_of_nccl_is_said)
{
  char dir[64], path[128];
  ck_assert_int_eq(cli_tmpdir(dir, "check_outside_fit"), 0);
  edited_l12(dir, "; NCCL_PROTO LL,Simple", path, sizeof path);
  static const struct {
    const char *proto;
    int told;
  } runs[] = {{"", 1}, {"--proto LL,Simple", 0}, {"--proto ^LL128", 0}, {"--proto Simple", 1}};
  for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
    char args[512];
    snprintf(args, sizeof args, "--platform %s --mode model --nodes 2 --algo nccl-ring --sizes 1M,64M %s", path,
             runs[i].proto);
    cli_result r = cli_run(args, 1);
    ck_assert_msg(r.status == 0, "%s: %s", args, r.err);
    ck_assert_msg(!strstr(r.err, "left it all, LL,Simple") == !runs[i].told, "%s: %s", args, r.err);
    ck_assert(factor(point(&r, "nccl-ring", 1048576), "nccl_choice") == runs[i].told);
    cli_result_free(&r);
  }
  remove(path);
  remove(dir);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("outside_fit");
  CHECK_CASE(s, "cover", 10, cover_line_reads_back);
  CHECK_CASE(s, "warnings", 120, inside_the_fit_nothing_is_said, outside_the_fit_each_way_is_said_with_how_far,
             another_choice_of_nccl_is_said, the_fits_nccl_release_is_the_runs);
  return check_run(s);
}
