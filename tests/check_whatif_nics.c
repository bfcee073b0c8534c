/* check_whatif_nics.c: --what-if nic-down and rail-down as a platform drawn again
 * (sim/whatif_nics.c): bad specs refused in one line; nothing down draws what it always drew;
 * rail 3 down on the shipped 4 x 8 H100 leaves NCCL 14 channels over 7 NICs, its ring's
 * bytes spread on them and nothing on NIC 3; one NIC down on a node still runs and verifies. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_util.h"
#include "cli_run.h"
#include "common/sa_error.h"
#include "sim/whatif_nics.h"
#include "topo/shape.h"
#include "util/textfile.h"

#define RAILS "platforms/hgx-h100-rails.xml"

static char dir[128];
static void setup(void) { ck_assert_int_eq(cli_tmpdir(dir, "check_whatif_nics"), 0); }
static void teardown(void) { cli_rmtree(dir); }

/* The platform of RAILS with the specs given (text, space separated) taken down, into path. */
static int degrade(const char *platform, const char *specs, char *path, size_t len, char *err, size_t errlen)
{
  sa_whatif w[8];
  int n = 0;
  char copy[256];
  snprintf(copy, sizeof copy, "%s", specs);
  for (char *s = strtok(copy, " "); s && n < 8; s = strtok(NULL, " "))
    ck_assert_msg(sa_whatif_parse(s, &w[n++], err, errlen) == 0, "%s: %s", s, err);
  return sim_whatif_nics_platform(platform, w, n, dir, path, len, err, errlen);
}

START_TEST(bad_specs_are_refused_in_one_line)
{
  static const struct {
    const char *platform, *specs, *says;
  } cases[] = {
      {RAILS, "nic-down:4-2", "nodes 0 to 3"},
      {RAILS, "rail-down:8", "NICs 0 to 7"},
      {RAILS, "nic-down:1-8", "NICs 0 to 7"},
      {"platforms/dgx1.xml", "rail-down:0", "has no shape line"},
      {RAILS, "nic-down:1-0 nic-down:1-1 nic-down:1-2 nic-down:1-3 rail-down:4 rail-down:5 rail-down:6 nic-down:1-7",
       "node 1 would have no NIC left"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char path[512] = "x", err[512] = "";
    int rc = degrade(cases[i].platform, cases[i].specs, path, sizeof path, err, sizeof err);
    ck_assert_msg(rc == SA_EINVAL && strstr(err, cases[i].says) && !strchr(err, '\n') && path[0] == '\0',
                  "%s: %d %s", cases[i].specs, rc, err);
    ck_assert_msg(strncmp(err, "--what-if ", 10) == 0, "%s", err);
  }
  /* a file edited after the generator wrote it */
  char edited[256], cmd[600], path[512], err[512];
  snprintf(edited, sizeof edited, "%s/edited.xml", dir);
  snprintf(cmd, sizeof cmd, "sed 's/49100000000Bps/40000000000Bps/' %s > %s", RAILS, edited);
  ck_assert_int_eq(system(cmd), 0);
  ck_assert_int_eq(degrade(edited, "rail-down:3", path, sizeof path, err, sizeof err), SA_EINVAL);
  ck_assert_msg(strstr(err, "edited") && !strchr(err, '\n'), "%s", err);
  /* no NIC fault: nothing to do */
  ck_assert_int_eq(degrade(RAILS, "straggler:3:+1ms jitter:1us", path, sizeof path, err, sizeof err), 0);
  ck_assert_str_eq(path, "");
}
END_TEST

/* A line without the NICs down (every line written before them) reads as none down, and a
 * healthy topology writes the line it always wrote; a degraded one reads back the same. */
START_TEST(lines_read_back_and_healthy_ones_are_unchanged)
{
  char *text = util_read_text(RAILS);
  ck_assert_ptr_nonnull(text);
  const char *tag = "<prop id=\"" TOPO_SHAPE_PROP "\" value=\"", *at = strstr(text, tag) + strlen(tag);
  char *line = strndup(at, (size_t)(strchr(at, '"') - at)), again[TOPO_SHAPE_LINE];
  topo_shape *s = malloc(sizeof *s), *back = malloc(sizeof *back);
  ck_assert_int_eq(topo_shape_parse(line, s), 0);
  ck_assert(s->topo.rails_down == 0 && s->topo.ndown == 0);
  ck_assert_int_eq(topo_shape_format(&s->topo, &s->spec, again, sizeof again), 0);
  ck_assert_str_eq(again, line);
  s->topo.rails_down = 1u << 3;
  s->topo.down[0].node = 1, s->topo.down[0].nic = 2, s->topo.ndown = 1;
  ck_assert_int_eq(topo_shape_format(&s->topo, &s->spec, again, sizeof again), 0);
  ck_assert_msg(strstr(again, " rails_down=3 nics_down=1-2") != NULL, "%s", again);
  ck_assert_int_eq(topo_shape_parse(again, back), 0);
  ck_assert(back->topo.rails_down == 1u << 3 && back->topo.ndown == 1 && back->topo.down[0].node == 1 &&
            back->topo.down[0].nic == 2);
  static const char *const bad[] = {" rails_down=", " rails_down=3,", " nics_down=1", " nics_down=1-2,x",
                                    " rails_down=64", " nics_down=1-2 rails_down=3"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    snprintf(again, sizeof again, "%s%s", line, bad[i]);
    ck_assert_msg(topo_shape_parse(again, back) == SA_EPARSE, "%s read", bad[i]);
  }
  free(s);
  free(back);
  free(line);
  free(text);
}
END_TEST

/* The bytes each NIC link of run r carried, [node * 8 + nic] up (dir 0) or down (1); -1 where
 * the run lists none. Every link is listed (--links 1000). */
static void nic_bytes(const cli_result *r, double bytes[2][32])
{
  for (int d = 0; d < 2; d++)
    for (int i = 0; i < 32; i++)
      bytes[d][i] = -1;
  const cJSON *l, *links = cJSON_GetObjectItemCaseSensitive(cli_point(r, 0), "links");
  cJSON_ArrayForEach(l, links)
  {
    int node, nic;
    char way[8];
    const char *name = cJSON_GetObjectItemCaseSensitive(l, "name")->valuestring;
    if (sscanf(name, "node%d-nic%d_%7s", &node, &nic, way) == 3 && node < 4 && nic < 8)
      bytes[strcmp(way, "UP") != 0][node * 8 + nic] = cli_num(l, "bytes");
  }
}

/* Rail 3 down on 4 nodes of 8 H100 with 8 rails. NCCL keeps 2 channels per NIC across nodes:
 * 16 healthy, 14 over the 7 NICs left (docs/nccl.md "Channels"). A ring allreduce of S bytes
 * over p = 32 ranks moves 2 (p - 1) / p S through every hop, S / C of it per channel; each NIC
 * carries 2 channels each way: 2 x 2 x 31/32 x 1 GiB / 16 = 248 MiB healthy, / 14 = 283.4 MiB
 * with rail 3 down, 8/7 as much, and NIC 3's links are gone. The busbw is 2 channels' share
 * of a NIC each, x 14 instead of x 16: at most 7/8 of the healthy one (341.9 of 390.8 GB/s).
 * It gets 340.6 (0.87): GPU 3's channels reach NIC 4 over two NVLinks more each way, and a
 * saturated link's share is smaller for a flow whose route has more latency (weighted
 * max-min: docs/cost-models.md), but each connection's slices cross back to back
 * (docs/nccl.md), so NIC 4 stays busy (0.66 when each slice paid its latency first). */
START_TEST(rail_down_leaves_14_channels_over_7_nics)
{
  char path[512], err[512], args[1000], edited[600], cmd[2000];
  ck_assert_int_eq(degrade(RAILS, "rail-down:3", path, sizeof path, err, sizeof err), 0);
  ck_assert_msg(strstr(path, "hgx-h100-rails-rail3-down.xml") != NULL, "%s", path);
  char what[512];
  ck_assert_int_eq(sim_whatif_nics_describe(path, what, sizeof what), 0);
  ck_assert_str_eq(what, "rail 3 down: GPU 3 of every node reaches NIC 4 over NVLink (PXN); 7 NICs per node");
  cli_result h = cli_run("--platform " RAILS " --algo nccl-ring --size 1G --mode sim --links 1000", 1);
  snprintf(args, sizeof args, "--platform %s --algo nccl-ring --size 1G --mode sim --links 1000", path);
  cli_result d = cli_run(args, 1);
  ck_assert_msg(h.status == 0 && d.status == 0, "%s %s", h.err, d.err);
  const cJSON *hp = cli_point(&h, 0), *dp = cli_point(&d, 0);
  ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(hp, "nccl")->valuestring, "ring/Simple/16");
  ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(dp, "nccl")->valuestring, "ring/Simple/14");
  double hb = cli_num(hp, "busbw_GBps"), db = cli_num(dp, "busbw_GBps");
  ck_assert_msg(db <= hb * 7 / 8 * 1.001 && db > hb * 0.8, "busbw %.2f healthy, %.2f rail 3 down", hb, db);
  double hbytes[2][32], dbytes[2][32], S = 1073741824.0, moved = 2 * 31.0 / 32 * S;
  nic_bytes(&h, hbytes);
  nic_bytes(&d, dbytes);
  for (int w = 0; w < 2; w++)
    for (int i = 0; i < 32; i++) {
      ck_assert_msg(fabs(hbytes[w][i] - 2 * moved / 16) < 1e-6 * moved, "healthy nic %d: %g", i, hbytes[w][i]);
      if (i % 8 == 3)
        ck_assert_msg(dbytes[w][i] < 0, "node%d-nic3 is listed", i / 8);
      else
        ck_assert_msg(fabs(dbytes[w][i] - 2 * moved / 14) < 1e-6 * moved, "nic %d: %g", i, dbytes[w][i]);
    }
  /* the loader (one flat zone) and SimGrid's reading of the XML give the same run */
  snprintf(edited, sizeof edited, "%s/edited-rail3.xml", dir);
  snprintf(cmd, sizeof cmd, "cp %s %s && echo '<!-- read by SimGrid -->' >> %s", path, edited, edited);
  ck_assert_int_eq(system(cmd), 0);
  snprintf(args, sizeof args, "--platform %s --algo nccl-ring --size 1G --mode sim", edited);
  cli_result e = cli_run(args, 1);
  ck_assert_msg(e.status == 0, "%s", e.err);
  ck_assert(cli_num(cli_point(&e, 0), "time_s") == cli_num(dp, "time_s"));
  cli_result_free(&e);
  cli_result_free(&h);
  cli_result_free(&d);
}
END_TEST

/* NIC 2 of node 1 down, on the first 2 nodes: GPU 2 of node 1 leaves through NIC 3; every
 * algorithm that crosses it still sums right. */
START_TEST(nic_down_runs_and_verifies)
{
  char path[512], err[512], args[700];
  ck_assert_int_eq(degrade(RAILS, "nic-down:1-2", path, sizeof path, err, sizeof err), 0);
  char what[512];
  ck_assert_int_eq(sim_whatif_nics_describe(path, what, sizeof what), 0);
  ck_assert_str_eq(what,
                   "node 1 NIC 2 down: GPU 2 reaches NIC 3 over NVLink (PXN); NICs: 7 on node 1, 8 on each other node");
  snprintf(args, sizeof args, "--platform %s --nodes 2 --algo ring,hier,nccl-ring --size 1M --verify --mode sim",
           path);
  cli_result r = cli_run(args, 1);
  ck_assert_msg(r.status == 0, "%s", r.err);
  const cJSON *p, *res = cJSON_GetObjectItemCaseSensitive(r.json, "results");
  ck_assert_int_eq(cJSON_GetArraySize(res), 3);
  cJSON_ArrayForEach(p, res) ck_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "verified")));
  cli_result_free(&r);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("whatif_nics");
  CHECK_CASE_FIXTURE(s, "specs", 60, setup, teardown, bad_specs_are_refused_in_one_line,
                     lines_read_back_and_healthy_ones_are_unchanged);
  CHECK_CASE_FIXTURE(s, "runs", 300, setup, teardown, rail_down_leaves_14_channels_over_7_nics,
                     nic_down_runs_and_verifies);
  return check_run(s);
}
