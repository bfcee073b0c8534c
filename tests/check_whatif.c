/* check_whatif.c: --what-if end to end: a slow NIC, a late rank, a slow GPU, another job's
 * share of a link, jitter; each number computed below from the platform's own figures, the
 * healthy run beside each row the same as a run without faults, bad specs refused. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_util.h"
#include "cli_run.h"

static double healthy(const cli_result *r, int i) { return cli_num(cli_point(r, i), "healthy_time_s"); }
static double timed(const cli_result *r, int i) { return cli_num(cli_point(r, i), "time_s"); }

/* hgx-h100-rails: 4 nodes x 8 H100, NIC k of every node on leaf k, each NIC 49.1 GB/s of data
 * per direction (platforms/hgx-h100-rails.xml). The MPI ring over 32 ranks (node-major)
 * crosses the network from each node's GPU 7 (its NIC 7) to the next node's GPU 0 (its NIC
 * 0): every inter-node hop carries the same bytes, and a ring moves at its slowest hop. One
 * NIC at half rate (node1-nic0, both directions) must cost what halving every NIC costs:
 * within 5% (the bound; the simulation agrees far closer). */
START_TEST(one_slow_nic_slows_a_ring_as_all_would)
{
  cli_result one = cli_run("--platform hgx-h100-rails --algo ring,hier,nccl-tree --size 1G --mode sim "
                           "--what-if link:node1-nic0:x0.5 --links 40",
                           1);
  ck_assert_msg(one.status == 0, "%s", one.err);
  char all[4096] = "--platform hgx-h100-rails --algo ring --size 1G --mode sim";
  for (int n = 0; n < 4; n++)
    for (int k = 0; k < 8; k++)
      snprintf(all + strlen(all), sizeof all - strlen(all), " --what-if link:node%d-nic%d:x0.5", n, k);
  cli_result every = cli_run(all, 1);
  ck_assert_msg(every.status == 0, "%s", every.err);
  double t1 = timed(&one, 0), ta = timed(&every, 0), h = healthy(&one, 0);
  ck_assert_msg(fabs(t1 - ta) < 0.05 * ta, "one slow NIC %g s, every NIC slow %g s", t1, ta);
  ck_assert_msg(t1 > 1.9 * h, "a ring at half its NIC rate takes %g s, healthy %g s", t1, h);
  /* hier: a reduce-scatter in each node over NVLink, then GPU j of every node in a ring over
   * rail j, then an allgather in the node. Rail 0's ring of 4 nodes sends 2 x 3/4 of its
   * 1 GiB / 8 part through every NIC 0: B = 192 MiB, at 49.1 GB/s 4.100 ms; with node 1's NIC
   * at half rate that ring takes twice as long, the others wait for it: + B / 49.1 GB/s. */
  const double B = 2 * 0.75 * (1 << 30) / 8, R = 49.1e9;
  double hier = timed(&one, 1), hier_h = healthy(&one, 1);
  ck_assert_msg(fabs(hier - (hier_h + B / R)) < 0.02 * B / R, "hier %g s, healthy %g s + B/R %g s", hier, hier_h, B / R);
  /* NCCL's tree: 16 channels over the nodes' double binary tree, channel k on NIC k; each
   * channel's 1 GiB / 16 = 64 MiB goes up and down through every NIC on its path. The
   * channel through node 1's NIC 0 carries, as --links shows, D bytes each way through it;
   * at 24.55 GB/s its transfers alone take D / (R / 2), and the allreduce ends with it. */
  const cJSON *links = cJSON_GetObjectItemCaseSensitive(cli_point(&one, 2), "links"), *l;
  double D = 0, rate = 0;
  cJSON_ArrayForEach(l, links)
  {
    if (strcmp(cJSON_GetObjectItemCaseSensitive(l, "name")->valuestring, "node1-nic0_UP") == 0) {
      D = cli_num(l, "bytes");
      rate = cli_num(l, "rate_Bps");
    }
  }
  ck_assert_msg(fabs(rate - R / 2) < 1e-6 * R, "node1-nic0_UP runs at %g B/s", rate);
  ck_assert_msg(D > 0.99 * 256 * 1048576, "node1-nic0_UP carried %g bytes", D);
  double tree = timed(&one, 2), bound = D / (R / 2);
  ck_assert_msg(tree >= bound && tree < 1.05 * bound, "nccl-tree %g s, its slow NIC's bytes at its rate %g s", tree,
                bound);
  cli_result_free(&one);
  cli_result_free(&every);
}
END_TEST

/* straggler:5:+10ms on tencent16 at 1 MiB: nothing ends before rank 5's data is in, and
 * nothing that waits for it can end earlier than its healthy course after it: every time
 * lies in [10 ms, healthy + 10 ms]. In a ring the others may run ahead until the chunk they
 * need has to pass rank 5, but from rank 5's arrival on its data still has every step of
 * the ring to travel, one rank after the other, as in the healthy run: the whole delay adds
 * (the MPI ring; hier's and hitopk's rings between the nodes), within 1%. Where work goes on
 * meanwhile that the healthy run had on its critical path, less, as the simulation finds:
 * NCCL's ring keeps 8 slices in flight per connection (2% to 4% less here), the other
 * branches of rhd and of the trees reduce, naive's master takes the other 126 messages.
 * The models add the delay whole. */
START_TEST(a_late_rank_delays_everyone)
{
  cli_result r = cli_run("--platform tencent16 --algo ring,hier,hitopk,nccl-ring,rhd,tree,twotree,naive --size 1M "
                         "--what-if straggler:5:+10ms",
                         1);
  ck_assert_msg(r.status == 0, "%s", r.err);
  for (int i = 0; i < 8; i++) {
    const cJSON *p = cli_point(&r, i);
    const char *algo = cJSON_GetObjectItemCaseSensitive(p, "algo")->valuestring;
    double t = timed(&r, i), h = healthy(&r, i), m = cli_num(p, "model_time_s");
    ck_assert_msg(t >= 10e-3 && t <= (h + 10e-3) * 1.0001, "%s: %g s, healthy %g s", algo, t, h);
    if (i < 3)
      ck_assert_msg(fabs(t - (h + 10e-3)) < 0.01 * (h + 10e-3), "%s: %g s, healthy %g s + 10 ms", algo, t, h);
    ck_assert_msg(strstr(r.out, "late rank 10000.00") != NULL || m > 10e-3, "%s: model %g s", algo, m);
  }
  cli_result_free(&r);
}
END_TEST

/* straggler:5:x4 on one node of hgx-h100-rails, ring at 1 GiB: a reduction-bound case. The
 * ring's reduce-scatter takes 7 steps, each a receive then a sum of one 128 MiB chunk at
 * reduce_bw = 926.301 GB/s plus reduce_lat = 6.4216 us (the platform's hosts); every rank's
 * next step waits for rank 5's sum, so a GPU four times slower adds 3 x 7 x (chunk / reduce_bw
 * + reduce_lat), and twice slower 1 x that. */
START_TEST(a_slow_gpu_slows_its_sums)
{
  const double sum = 134217728 / 926.301e9 + 6.4216e-6;
  for (int f = 2; f <= 4; f += 2) {
    char args[256];
    snprintf(args, sizeof args, "--platform hgx-h100-rails --nodes 1 --algo ring --size 1G --mode sim --what-if straggler:5:x%d", f);
    cli_result r = cli_run(args, 1);
    ck_assert_msg(r.status == 0, "%s", r.err);
    double want = healthy(&r, 0) + (f - 1) * 7 * sum;
    ck_assert_msg(fabs(timed(&r, 0) - want) < 1e-4 * want, "x%d: %g s, healthy + %d x 7 sums %g s", f, timed(&r, 0), f - 1,
                  want);
    cli_result_free(&r);
  }
}
END_TEST

/* jitter draws the same skews for the same seed, others for another; another job holding
 * half a link is that link at half its rate; the healthy time beside a row is what a run
 * without faults gives, bit for bit. */
START_TEST(jitter_background_and_the_healthy_column)
{
  const char *base = "--platform tencent16 --nodes 4 --algo ring,tree --sizes 64K,4M --mode sim";
  char a[512];
  snprintf(a, sizeof a, "%s --what-if jitter:20us:42", base);
  cli_result j1 = cli_run(a, 1), j2 = cli_run(a, 1);
  snprintf(a, sizeof a, "%s --what-if jitter:20us:43", base);
  cli_result j3 = cli_run(a, 1), plain = cli_run(base, 1);
  ck_assert_msg(j1.status == 0 && j2.status == 0 && j3.status == 0 && plain.status == 0, "%s", j1.err);
  int differ = 0;
  for (int i = 0; i < 4; i++) {
    ck_assert(timed(&j1, i) == timed(&j2, i));
    ck_assert(healthy(&j1, i) == timed(&plain, i));
    ck_assert(timed(&j1, i) > timed(&plain, i));
    differ |= timed(&j3, i) != timed(&j1, i);
  }
  ck_assert_msg(differ, "seeds 42 and 43 gave the same times");
  snprintf(a, sizeof a, "%s --what-if background:node1-eth:0.5", base);
  cli_result bg = cli_run(a, 1);
  snprintf(a, sizeof a, "%s --what-if link:node1-eth:x0.5", base);
  cli_result half = cli_run(a, 1);
  ck_assert_msg(bg.status == 0 && half.status == 0, "%s%s", bg.err, half.err);
  for (int i = 0; i < 4; i++)
    ck_assert(timed(&bg, i) == timed(&half, i));
  ck_assert(timed(&half, 1) > 1.5 * healthy(&half, 1)); /* the ring at 4M: NIC-bound */
  ck_assert_ptr_nonnull(strstr(half.out, "# what-if: node1-eth bandwidth x0.5; healthy:"));
  ck_assert_ptr_nonnull(strstr(half.out, "healthy(us)  slowdown"));
  cli_result_free(&j1);
  cli_result_free(&j2);
  cli_result_free(&j3);
  cli_result_free(&plain);
  cli_result_free(&bg);
  cli_result_free(&half);
}
END_TEST

/* A spec that cannot apply is one line on stderr and exit status 2, before anything runs. */
START_TEST(bad_specs_are_refused)
{
  static const char *bad[] = {
      "straggler:32:+1ms",          /* rank out of range (32 ranks) */
      "straggler:1:+10",            /* a time without its unit */
      "straggler:x:+1ms",           /* not a rank */
      "link:nosuch:x0.5",           /* no such link */
      "link:node0-nic0:x0",         /* factor 0 */
      "link:node0-nic0:x-1",        /* negative */
      "link:node0-nic0:0.5",        /* neither xF nor +LAT */
      "background:node0-nic0:1",    /* share outside (0, 1) */
      "background:node0-nic0:0",
      "jitter:0us",                 /* sigma 0 */
      "jitter:5us:-1",              /* a bad seed */
      "bogus:1",                    /* unknown kind */
      "straggler",                  /* no colon */
      "nic-down:9-0",               /* no node 9 (4 nodes) */
      "nic-down:1-9",               /* no NIC 9 (8 per node) */
      "rail-down:8",
      "rail-down:x",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char args[256];
    snprintf(args, sizeof args, "--platform hgx-h100-rails --algo ring --size 1M --what-if %s", bad[i]);
    cli_result r = cli_run(args, 0);
    ck_assert_msg(r.status == 2, "%s: status %d", bad[i], r.status);
    ck_assert_msg(cli_lines(r.err) == 1 && strstr(r.err, "--what-if") != NULL, "%s: %s", bad[i], r.err);
    ck_assert_msg(r.out[0] == '\0', "%s printed %s", bad[i], r.out);
    cli_result_free(&r);
  }
  cli_result r = cli_run("--platform hgx-h100-rails --algo ring --size 1M --what-if straggler:1:+1ms --resume x.json", 0);
  ck_assert(r.status == 2 && cli_lines(r.err) == 1);
  cli_result_free(&r);
  /* a platform the generator did not write cannot be drawn again without a NIC */
  r = cli_run("--platform tencent16 --algo ring --size 1M --what-if rail-down:0", 0);
  ck_assert_msg(r.status == 2 && cli_lines(r.err) == 1 && strstr(r.err, "no shape line"), "%s", r.err);
  cli_result_free(&r);
}
END_TEST

/* nic-down:1-3 on hgx-h100-rails: node 1 keeps 7 NICs. NCCL takes the fewest channels any
 * node's search finds (2 per NIC: 14) and node 1 lays them over the NICs it has, so its
 * NIC 3 carries nothing and the ring runs 14 channels where it ran 16 (the channels laid
 * from node 0 alone would have put 4 of them on node 1's NIC 4: x1.90 against x1.37). */
START_TEST(a_nic_down_on_one_node_rebuilds_every_channel)
{
  cli_result r = cli_run("--platform hgx-h100-rails --algo nccl-ring --size 1G --mode sim --what-if nic-down:1-3 --links 200",
                         1);
  ck_assert_msg(r.status == 0, "%s", r.err);
  const cJSON *p = cli_point(&r, 0), *l;
  ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(p, "nccl")->valuestring, "ring/Simple/14");
  double most = 0, least = 1e30;
  cJSON_ArrayForEach(l, cJSON_GetObjectItemCaseSensitive(p, "links"))
  {
    const char *name = cJSON_GetObjectItemCaseSensitive(l, "name")->valuestring;
    ck_assert_msg(strncmp(name, "node1-nic3", 10) != 0, "%s carried %g bytes", name, cli_num(l, "bytes"));
    if (strncmp(name, "node1-nic", 9) == 0 && strstr(name, "_UP")) {
      most = fmax(most, cli_num(l, "bytes"));
      least = fmin(least, cli_num(l, "bytes"));
    }
  }
  /* node 1's 7 NICs alike: 2 channels each, none with 4 */
  ck_assert_msg(most < 1.1 * least, "node 1's NICs carried %g to %g bytes", least, most);
  ck_assert(timed(&r, 0) < 1.5 * healthy(&r, 0));
  cli_result_free(&r);
}
END_TEST

/* --list-links names what --links prints and --what-if takes. */
START_TEST(links_are_listed)
{
  cli_result r = cli_run("--platform hgx-h100-rails --list-links", 0);
  ck_assert_msg(r.status == 0, "%s", r.err);
  ck_assert_ptr_nonnull(strstr(r.out, "# platform hgx-h100-rails: 145 links"));
  ck_assert_ptr_nonnull(strstr(r.out, "\n  node3-nic2_UP "));
  ck_assert_ptr_nonnull(strstr(r.out, "\n  leaf0-up_DOWN "));
  cli_result_free(&r);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("whatif");
  TCase *t = tcase_create("whatif");
  tcase_set_timeout(t, 600);
  tcase_add_test(t, one_slow_nic_slows_a_ring_as_all_would);
  tcase_add_test(t, a_late_rank_delays_everyone);
  tcase_add_test(t, a_slow_gpu_slows_its_sums);
  tcase_add_test(t, jitter_background_and_the_healthy_column);
  tcase_add_test(t, bad_specs_are_refused);
  tcase_add_test(t, links_are_listed);
  tcase_add_test(t, a_nic_down_on_one_node_rebuilds_every_channel);
  suite_add_tcase(s, t);
  return check_run(s);
}
