/* check_links.c: --links end to end: on tencent16 a 128-rank ring's busiest links are the
 * NICs, loaded as the bus bandwidth says, the NVLinks far less; --links and --trace change
 * no simulated time; the table block and the JSON fields. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_util.h"
#include "cli_run.h"

static const cJSON *field(const cJSON *o, const char *key) { return cJSON_GetObjectItemCaseSensitive(o, key); }

/* tencent16: 16 nodes x 8 V100, ranks node-major, one NIC per node of 23.5 Gbps of goodput,
 * R = 2.9375e9 B/s each way (split duplex: node<i>-eth_UP and node<i>-eth_DOWN); the GPUs'
 * links into the node are 150 GB/s (platforms/tencent16.xml).
 *
 * A ring over p = 128 ranks sends from rank r to r+1, so only the hop from a node's last GPU
 * to the next node's first crosses the network: each NIC direction carries exactly one of
 * the ring's p hops. A ring allreduce of n bytes sends 2(p-1) chunks of n/p over every hop:
 *   B = 2 (p-1)/p n = 2 x 127/128 x 64 MiB = 133169152 bytes per NIC direction.
 * Over the allreduce's time T its mean utilization is U = B / (R T). nccl-tests' bus
 * bandwidth is busbw = (n / T) 2(p-1)/p = B / T, so U = busbw / R: the NICs' mean
 * utilization is the bus bandwidth over their rate. One flow at a time crosses a NIC
 * direction, at its full rate, so its peak is R and it is busy B / R of the time. Each
 * GPU's NVLink carries the same B (its hop inside the node, or the way to the NIC) at a rate
 * 51 times higher, or shares the NIC's rate: far less loaded. */
START_TEST(ring_64M_loads_the_nics)
{
  const double n = 64.0 * 1048576, p = 128, B = 2 * (p - 1) / p * n, R = 23.5e9 / 8;
  cli_result r = cli_run("--platform tencent16.xml --algo ring --size 64M --mode sim --links 40", 1);
  ck_assert_msg(r.status == 0, "%s", r.err);
  const cJSON *pt = cli_point(&r, 0), *links = field(pt, "links");
  double busbw = cli_num(pt, "busbw_GBps") * 1e9, window = cli_num(pt, "links_window_s"), t = cli_num(pt, "time_s");
  ck_assert_msg(fabs(window - t) < 1e-6 * t, "window %g, time %g", window, t);
  ck_assert_int_eq(cJSON_GetArraySize(links), 16 * 2 + 16 * 8 * 2); /* every NIC and NVLink, both ways */
  double nic_util = 0;
  for (int i = 0; i < cJSON_GetArraySize(links); i++) {
    const cJSON *l = cJSON_GetArrayItem(links, i);
    const char *name = field(l, "name")->valuestring;
    double bytes = cli_num(l, "bytes"), rate = cli_num(l, "rate_Bps"), mean = cli_num(l, "mean_util");
    double peak = cli_num(l, "peak_util"), busy = cli_num(l, "busy_s");
    ck_assert_msg(fabs(bytes - B) < 1e-3 * B, "%s carried %.0f bytes, not %.0f", name, bytes, B);
    ck_assert(fabs(mean - bytes / (rate * window)) < 1e-12);
    if (i < 32) { /* the 32 busiest: the NICs, at busbw / R */
      ck_assert_msg(strstr(name, "-eth_") != NULL, "busiest link %d is %s", i, name);
      ck_assert(rate == R);
      ck_assert_msg(fabs(mean - busbw / R) < 1e-3 * mean, "%s: mean %g, busbw / rate %g", name, mean, busbw / R);
      ck_assert(mean > 0.8 && mean <= 1);
      ck_assert_msg(fabs(peak - 1) < 1e-6, "%s peak %g", name, peak);
      ck_assert_msg(fabs(busy - B / R) < 1e-3 * busy, "%s busy %g s, B/R %g s", name, busy, B / R);
      nic_util = mean;
    } else {
      ck_assert_msg(strstr(name, "_link_") != NULL && rate == 150e9, "link %d is %s", i, name);
      ck_assert_msg(mean < nic_util / 20, "%s mean %g next to the NICs' %g", name, mean, nic_util);
    }
  }
  /* the table: the block under the phases, its first row a NIC at the same utilization */
  const char *block = strstr(r.out, "# links of ring at 64M: the 40 busiest of 288");
  ck_assert_msg(block != NULL, "%s", r.out);
  const char *row = strstr(block, "\n#   node");
  char name[64];
  double rate_gbs, mb, busy_us, mean_pct, peak_pct;
  ck_assert(row &&
            sscanf(row, "\n#   %63s %lf %lf %lf %lf %lf", name, &rate_gbs, &mb, &busy_us, &mean_pct, &peak_pct) == 6);
  /* bytes in MiB, as the sizes: 2 x 127/128 x 64M = 127.0 MiB */
  ck_assert_ptr_nonnull(strstr(block, "bytes(MiB)"));
  ck_assert_msg(strstr(name, "-eth_") && fabs(rate_gbs - 2.9375) < 1e-3 && fabs(mb - B / 1048576) < 0.01, "%s: %g MiB",
                name, mb);
  ck_assert(fabs(mean_pct - 100 * busbw / R) < 0.06 && fabs(peak_pct - 100) < 0.06);
  cli_result_free(&r);
}
END_TEST

/* The results of a run with --links and --trace are the same numbers, bit for bit, as
 * without them: dense and sparse algorithms, several points in one run. */
START_TEST(links_and_trace_change_no_time)
{
  const char *base = "--platform tencent16 --nodes 3 --ranks-per-node 4 --algo ring,tree,hier,naive,mpi,topk,hitopk "
                     "--sizes 64K,1M --mode sim";
  char with[512], trace[64];
  ck_assert(cli_tmpdir(trace, "check_links") == 0);
  snprintf(with, sizeof with, "%s --links 3 --trace %s/t.json", base, trace);
  cli_result a = cli_run(base, 1), b = cli_run(with, 1);
  ck_assert_msg(a.status == 0 && b.status == 0, "%s / %s", a.err, b.err);
  ck_assert_int_eq(cJSON_GetArraySize(field(a.json, "results")), 14);
  for (int i = 0; i < 14; i++) {
    const cJSON *x = cli_point(&a, i), *y = cli_point(&b, i), *ph;
    ck_assert(cli_num(x, "time_s") == cli_num(y, "time_s"));
    cJSON_ArrayForEach(ph, field(x, "phases")) ck_assert(ph->valuedouble == cli_num(field(y, "phases"), ph->string));
    ck_assert(field(x, "links") == NULL && cJSON_GetArraySize(field(y, "links")) > 0);
  }
  ck_assert(strstr(a.out, "# links of") == NULL);
  ck_assert(strstr(b.out, "# links of hitopk at 1M: the 3 busiest") != NULL);
  cli_result_free(&a);
  cli_result_free(&b);
  cli_rmtree(trace);
}
END_TEST

/* --timing nccl-tests: the allreduces run back to back and each rank is timed from its own
 * entry, while the window runs from the first entry to the last exit. One line under the
 * header says by how much it is longer than the row's time; barrier timing has none. */
START_TEST(steady_window_is_explained)
{
  cli_result r = cli_run("--nodes 2 --ranks-per-node 4 --algo ring --size 1M --mode sim --timing nccl-tests --links 2", 1);
  ck_assert_msg(r.status == 0, "%s", r.err);
  const cJSON *pt = cli_point(&r, 0);
  double window = cli_num(pt, "links_window_s"), t = cli_num(pt, "time_s"), said;
  ck_assert_msg(window > t, "window %g, time %g", window, t);
  const char *line = strstr(r.out, "#   (back to back, the ranks enter the timed allreduce apart: the window");
  ck_assert_msg(line && sscanf(strstr(line, ", is ") + 5, "%lf us longer than the row's time", &said) == 1, "%s",
                r.out);
  ck_assert_msg(fabs(said - (window - t) * 1e6) < 0.006, "said %g us, window - time %g us", said, (window - t) * 1e6);
  const char *head = strstr(r.out, "# links of ring at 1M");
  ck_assert(head && line > head && line == strchr(head, '\n') + 1); /* right under the block's header */
  cli_result_free(&r);
  r = cli_run("--nodes 2 --ranks-per-node 4 --algo ring --size 1M --mode sim --links 2", 1);
  ck_assert_msg(r.status == 0 && strstr(r.out, "# links of ring at 1M") && !strstr(r.out, "back to back, the ranks"),
                "%s", r.out);
  cli_result_free(&r);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("links");
  CHECK_CASE(s, "links", 300, ring_64M_loads_the_nics, links_and_trace_change_no_time, steady_window_is_explained);
  return check_run(s);
}
