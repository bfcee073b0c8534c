/* check_topo.c: the node and fabric kinds simcalib draws: the routes SimGrid finds in the
 * generated files are the ones the topology means (NVSwitch, PCIe switches, the DGX-1 mesh,
 * rails, a fat-tree's oversubscribed uplinks), the cost models' description made without
 * SimGrid (topo/routes.c) is the same network, the shipped HGX H100 file is what the
 * generator writes, and every dense algorithm verifies on a 4 x 8 rail-optimized cluster. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_fit.h>
#include <gsl/gsl_statistics_double.h>
#include <gsl/gsl_sort.h>

#include "fit/platform_base.h"
#include "measured/measured.h"
#include "topo/presets.h"
#include "topo/routes.h"
#include "common/sa_error.h"
#include "platform/platform.h"
#include "check_util.h"
#include "cli_run.h"

static char dir[128];
static void setup(void) { ck_assert_int_eq(cli_tmpdir(dir, "check_topo"), 0); }
static void teardown(void) { cli_rmtree(dir); }

/* Writes t as a platform file and loads it as the driver does, routes probed. */
static void load(const topo_cluster *t, const char *name, plat_file *pf)
{
  char path[256], err[512];
  snprintf(path, sizeof path, "%s/%s.xml", dir, name);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  topo_platform_spec s = {.name = name, .notes = "     a test"};
  ck_assert_int_eq(topo_platform_xml(f, t, &s), 0);
  fclose(f);
  ck_assert_msg(plat_load_ex(path, PLAT_LOAD_NET, 0, 0, pf, err, sizeof err) == 0, "%s: %s", name, err);
  ck_assert_int_eq(pf->nnodes, t->nodes);
  ck_assert_int_eq(pf->node_size[0], t->gpus);
}

/* A link's signature: its rate and the routes that cross it ((table * g + j) * g + k). */
typedef struct {
  double bw, lat;
  int n;
  int route[4096];
} sig;

static int by_sig(const void *a, const void *b)
{
  const sig *x = a, *y = b;
  if (x->n != y->n)
    return x->n - y->n;
  for (int i = 0; i < x->n; i++)
    if (x->route[i] != y->route[i])
      return x->route[i] - y->route[i];
  if (fabs(x->bw - y->bw) <= 1e-9 * fmax(x->bw, y->bw)) /* the file holds 12 digits */
    return 0;
  return (x->bw > y->bw) - (x->bw < y->bw);
}

/* Every route table of a network: within nodes 0..2, then between the pairs of nodes. */
#define NTABLES (TOPO_NINTRA + TOPO_NPAIRS)
static void all_tables(const topo_routes *rt, const topo_route **t)
{
  for (int k = 0; k < TOPO_NINTRA; k++)
    t[k] = rt->intra[k];
  for (int k = 0; k < TOPO_NPAIRS; k++)
    t[TOPO_NINTRA + k] = rt->inter[k];
}

static sig *signatures(const topo_routes *rt)
{
  sig *s = calloc((size_t)rt->nlinks, sizeof *s);
  const topo_route *tables[NTABLES];
  all_tables(rt, tables);
  int g = rt->gpus;
  for (int l = 0; l < rt->nlinks; l++) {
    s[l].bw = rt->links[l].bw;
    s[l].lat = rt->links[l].lat;
  }
  for (int k = 0; k < NTABLES; k++)
    for (int r = 0; tables[k] && r < g * g; r++)
      for (int i = 0; i < tables[k][r].n; i++) {
        sig *x = &s[tables[k][r].link[i]];
        ck_assert_int_lt(x->n, 4096);
        x->route[x->n++] = k * g * g + r;
      }
  qsort(s, (size_t)rt->nlinks, sizeof *s, by_sig);
  return s;
}

/* SimGrid's network of the file and the one routes.c makes are the same: every route's
 * latency and bandwidth, and the same links, each crossed by the same routes. */
static void same_network(const topo_cluster *t, const char *name)
{
  plat_file pf;
  topo_routes rt;
  topo_hop *hops;
  load(t, name, &pf);
  ck_assert_int_eq(topo_routes_of(t, &rt, &hops), 0);
  const topo_routes *a = &pf.net.rt, *b = &rt;
  ck_assert_msg(a->nlinks == b->nlinks, "%s: SimGrid %d links, topo %d", name, a->nlinks, b->nlinks);
  const topo_route *ta[NTABLES], *tb[NTABLES];
  all_tables(a, ta);
  all_tables(b, tb);
  for (int k = 0; k < NTABLES; k++) {
    ck_assert_msg(!ta[k] == !tb[k], "%s: table %d", name, k);
    for (int r = 0; ta[k] && r < t->gpus * t->gpus; r++) {
      ck_assert_int_eq(ta[k][r].n, tb[k][r].n);
      if ((k < TOPO_NINTRA && r / t->gpus == r % t->gpus) || ta[k][r].n == 0)
        continue; /* a GPU to itself, or a pair a sampled table leaves out: no route */
      ck_assert_msg(fabs(ta[k][r].lat - tb[k][r].lat) <= 1e-12 && fabs(ta[k][r].bw / tb[k][r].bw - 1) < 1e-9,
                    "%s: table %d route %d: %g s %g B/s vs %g s %g B/s", name, k, r, ta[k][r].lat, ta[k][r].bw,
                    tb[k][r].lat, tb[k][r].bw);
    }
  }
  sig *sa = signatures(a), *sb = signatures(b);
  for (int l = 0; l < a->nlinks; l++)
    ck_assert_msg(by_sig(&sa[l], &sb[l]) == 0 && fabs(sa[l].lat - sb[l].lat) < 1e-12,
                  "%s: link %d differs: %d routes (first %d), %g B/s, %g s vs %d routes (first %d), %g B/s, %g s", name, l,
                  sa[l].n, sa[l].route[0], sa[l].bw, sa[l].lat, sb[l].n, sb[l].route[0], sb[l].bw, sb[l].lat);
  free(sa);
  free(sb);
  topo_routes_free(&rt);
  free(hops);
  plat_free(&pf);
}

static topo_cluster rails(int nodes, double oversub)
{
  topo_cluster t = {.node = TOPO_NODE_NVSWITCH, .nodes = nodes, .gpus = 8, .gpu_bw = 450e9, .gpu_lat = 1e-6, .nics = 8,
                .nic_bw = 50e9, .nic_lat = 2e-6, .rails = 1, .fabric = TOPO_FABRIC_FATTREE, .oversub = oversub};
  topo_defaults(&t);
  return t;
}

START_TEST(models_see_the_network_simgrid_routes)
{
  topo_cluster t = rails(3, 2);
  same_network(&t, "rails3");
  t = rails(2, 1);
  same_network(&t, "rails2");
  t = rails(5, 2);
  t.nodes_per_leaf = 2; /* each rail's leaf in units of 2, 2 and 1 nodes */
  same_network(&t, "rails5units");
  topo_cluster pcie = {.node = TOPO_NODE_PCIE, .nodes = 3, .gpus = 8, .gpu_bw = 26e9, .gpu_lat = 1e-6, .nics = 2,
                   .nic_bw = 25e9, .nic_lat = 2e-6, .fabric = TOPO_FABRIC_FATTREE, .nodes_per_leaf = 2, .oversub = 3};
  topo_defaults(&pcie);
  same_network(&pcie, "pcie");
  topo_cluster dgx1 = {.node = TOPO_NODE_DGX1, .nodes = 2, .gpus = 8, .gpu_bw = 25e9, .gpu_lat = 2e-6, .nics = 4,
                   .nic_bw = 12.5e9, .nic_lat = 2e-6};
  topo_defaults(&dgx1);
  same_network(&dgx1, "dgx1");
  topo_cluster one = {.node = TOPO_NODE_CLUSTER, .nodes = 1, .gpus = 5, .gpu_bw = 150e9, .gpu_lat = 1e-6, .nics = 1,
                  .nic_bw = 3e9, .nic_lat = 6e-6};
  topo_defaults(&one);
  same_network(&one, "cluster1");
}
END_TEST

/* What the routes say: inside a node, GPU a's NVLink up then GPU b's down; between nodes on
 * one rail, NIC up and NIC down; across rails, the two leaves' uplinks between them, each
 * carrying its leaf's NICs (one per node) over the oversubscription, here the narrowest. */
START_TEST(rails_and_the_fat_tree_show_in_the_routes)
{
  topo_cluster t = rails(4, 8);
  plat_file pf;
  load(&t, "r4", &pf);
  const topo_routes *n = &pf.net.rt;
  int g = 8;
  const topo_route *in = &n->intra[0][1 * g + 6], *same = &n->inter[TOPO_R01][3 * g + 3],
                   *cross = &n->inter[TOPO_R01][3 * g + 5];
  ck_assert_int_eq(in->n, 2);
  ck_assert_double_eq_tol(in->bw, 450e9, 1);
  ck_assert_double_eq_tol(in->lat, 2e-6, 1e-12);
  ck_assert_int_eq(same->n, 2);
  ck_assert_double_eq_tol(same->bw, 50e9, 1);
  ck_assert_int_eq(cross->n, 4);
  ck_assert_double_eq_tol(cross->lat, 4e-6 + 2 * 0.3e-6, 1e-12);
  ck_assert_double_eq_tol(cross->bw, 4 * 50e9 / 8, 1); /* a leaf's uplink: 4 nodes' NICs over 8:1 */
  plat_free(&pf);
}
END_TEST

/* A rail's leaf over more nodes than nodes_per_leaf, built of units: between units a message
 * also crosses its units' links, which carry what their NICs can and add no latency, so the
 * route's latency and narrowest rate are the one-switch leaf's. */
START_TEST(rail_units_delay_and_limit_as_one_switch)
{
  topo_cluster t = rails(5, 1);
  t.nodes_per_leaf = 2;
  ck_assert_int_eq(topo_units(&t), 3);
  ck_assert_int_eq(topo_unit_of(&t, 4), 2);
  plat_file pf;
  load(&t, "u5", &pf);
  const topo_routes *n = &pf.net.rt;
  int g = 8;
  const topo_route *unit = &n->inter[TOPO_R01][2 * g + 2], *units = &n->inter[TOPO_R02][3 * g + 3],
                   *cross = &n->inter[TOPO_R02][3 * g + 5];
  ck_assert_int_eq(unit->n, 2); /* nodes 0 and 1: one unit */
  ck_assert_int_eq(units->n, 4); /* nodes 0 and 2: NIC, unit 0 up, unit 1 down, NIC */
  ck_assert_double_eq_tol(units->lat, 4e-6, 1e-12);
  ck_assert_double_eq_tol(units->bw, 50e9, 1);
  ck_assert_int_eq(cross->n, 6);
  ck_assert_double_eq_tol(cross->lat, 4e-6 + 2 * 0.3e-6, 1e-12);
  plat_free(&pf);
}
END_TEST

/* A preset's NIC moves data at 98.2% of its line rate, and its comment says so with the
 * numbers; a --nic-rate over it is the rate data moves at, used as given (25 Gb/s: 3.125
 * GB/s), and the comment says that instead, never the preset's 98.2% of a line rate. */
START_TEST(nic_rate_note_is_true)
{
  cli_result r = cli_simcalib("platform --preset hgx-h100 --nodes 2 -o -");
  ck_assert_msg(r.status == 0, "%s", r.err);
  ck_assert_msg(strstr(r.out, "NIC rate: data at 49.1 GB/s, 98.2% of the 400 Gb/s line rate") &&
                    strstr(r.out, "bandwidth=\"49100000000Bps\""),
                "%.2000s", r.out);
  ck_assert_ptr_null(strstr(r.out, "from --nic-rate"));
  cli_result_free(&r);
  r = cli_simcalib("platform --preset hgx-h100 --nics 1 --nic-rate 25Gbps --nodes 2 -o -");
  ck_assert_msg(r.status == 0, "%s", r.err);
  ck_assert_msg(strstr(r.out, "NIC rate: 3.125 GB/s (25 Gb/s) from --nic-rate, the rate data moves at, used as given") &&
                    strstr(r.out, "bandwidth=\"3125000000Bps\"") && !strstr(r.out, "NIC rate: data at") &&
                    !strstr(r.out, "of the 400 Gb/s line rate"),
                "%.2000s", r.out);
  cli_result_free(&r);
  /* from the options alone the rate is as given too, and needs no note */
  r = cli_simcalib("platform --node nvswitch --gpu-bw 450GBps --nic-rate 25Gbps --nodes 2 --gpus-per-node 8 -o -");
  ck_assert_msg(r.status == 0 && strstr(r.out, "bandwidth=\"3125000000Bps\"") && !strstr(r.out, "98.2"), "%s", r.err);
  cli_result_free(&r);
}
END_TEST

/* Fewer GPUs than the preset's server: its first GPUs with the NICs they are on (GPU j on NIC
 * floor(j K / G)): 2 of hgx-a100's 8 GPUs (a NIC each) on 2 NICs; --nics given wins; a DGX-1
 * mesh of 2 GPUs is refused before any note. */
static int nic_links(const char *xml)
{
  int n = 0;
  for (const char *p = xml; (p = strstr(p, "<link id=\"node0-nic")); p++)
    n++;
  return n;
}

START_TEST(fewer_gpus_keep_their_nics)
{
  static const struct {
    int gpus, nics;
  } want[] = {{1, 1}, {2, 2}, {5, 5}, {8, 8}};
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    cli_result r = cli_simcalib("platform --preset hgx-a100 --nodes 1 --gpus-per-node %d -o -", want[i].gpus);
    ck_assert_msg(r.status == 0, "%d GPUs: %s", want[i].gpus, r.err);
    ck_assert_msg(nic_links(r.out) == want[i].nics, "%d GPUs: %d NICs, want %d", want[i].gpus, nic_links(r.out),
                  want[i].nics);
    ck_assert_msg((want[i].gpus < 8) == (strstr(r.err, "of the server's 8 GPUs a node") != NULL), "%s", r.err);
    cli_result_free(&r);
  }
  cli_result r = cli_simcalib("platform --preset hgx-h100 --nodes 2 --gpus-per-node 4 --nics 1 -o -");
  ck_assert_msg(r.status == 0 && nic_links(r.out) == 1 && !strstr(r.err, "server's"), "%s", r.err);
  cli_result_free(&r);
  r = cli_simcalib("platform --preset dgx1-v100 --nodes 2 --gpus-per-node 2 -o -");
  ck_assert_msg(r.status == 2 && strstr(r.err, "a dgx1-mesh node has 8 GPUs") && !strstr(r.err, "note"), "%s", r.err);
  cli_result_free(&r);
}
END_TEST

/* A preset's rings across nodes wait on NCCL's proxy figure for its reference server's host
 * (nccl_host_proxy): the DGX A100's AMD EPYC 2 us a step, 6 for Simple; the DGX H100's Intel
 * Xeon 1 and 3. */
START_TEST(presets_carry_their_hosts_proxy)
{
  static const struct {
    const char *preset, *props;
  } want[] = {{"hgx-a100", "<prop id=\"proxy_lat\" value=\"2e-06\"/><prop id=\"proxy_simple_lat\" value=\"6e-06\"/>"},
              {"hgx-h100", "<prop id=\"proxy_lat\" value=\"1e-06\"/><prop id=\"proxy_simple_lat\" value=\"3e-06\"/>"}};
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    cli_result r = cli_simcalib("platform --preset %s --nodes 2 -o -", want[i].preset);
    ck_assert_msg(r.status == 0 && strstr(r.out, want[i].props), "%s: %s", want[i].preset, r.err);
    cli_result_free(&r);
  }
}
END_TEST

START_TEST(shipped_hgx_h100_is_what_the_generator_writes)
{
  char path[256];
  snprintf(path, sizeof path, "%s/hgx.xml", dir);
  cli_result r = cli_simcalib("platform --preset hgx-h100 --nodes 4 --name hgx-h100-rails -o %s", path);
  ck_assert_msg(r.status == 0, "%s", r.err);
  cli_result_free(&r);
  char cmd[512];
  snprintf(cmd, sizeof cmd, "cmp -s %s platforms/hgx-h100-rails.xml", path);
  ck_assert_msg(system(cmd) == 0, "platforms/hgx-h100-rails.xml differs from simcalib platform --preset hgx-h100");
}
END_TEST

/* The presets whose GPU we measured (experiments/gpu/) */
static const char *const measured_presets[] = {"hgx-h100", "hgx-h200"};
#define NMEASURED (sizeof measured_presets / sizeof measured_presets[0])

/* The compute a preset takes from a measurement is what simcalib fit makes of that
 * measurement's file (experiments/gpu/): one number written twice must not drift. */
START_TEST(measured_preset_compute_is_the_fit_of_its_file)
{
  const topo_preset *p = topo_preset_find(measured_presets[_i]);
  const char *file = topo_preset_measured(p);
  ck_assert_ptr_nonnull(file);
  char out[256];
  snprintf(out, sizeof out, "%s/%s-calib.json", dir, p->name);
  cli_result r = cli_simcalib("fit %s -o %s", file, out);
  ck_assert_msg(r.status == 0, "%s", r.err);
  cli_result_free(&r);
  cJSON *doc = cli_load_json(out);
  const cJSON *fitted = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "compute"), "platform");
  ck_assert_ptr_nonnull(fitted);
  sa_compute c;
  topo_preset_compute(p, &c);
  for (int i = 0; i < SA_COMPUTE_N; i++) {
    if (!sa_compute_written(&c, i)) { /* none (NCCL's own): left out of the fit too */
      ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(fitted, sa_compute_name(i)));
      continue;
    }
    double want = cli_num(fitted, sa_compute_name(i)), got = sa_compute_get(&c, i);
    ck_assert_msg(fabs(got - want) <= 1e-5 * want, "%s %s: preset %g, fit of %s %g", p->name, sa_compute_name(i), got,
                  file, want);
  }
  cJSON_Delete(doc);
}
END_TEST

/* The fixed part of one step of protocol `op` on a ring of `ranks` multiprocessors: the
 * intercept of time per step against its size, least squares over the file's points. */
static double step_fixed(const md_data *d, const char *op, int ranks)
{
  double x[16], y[16], c0, c1, c00, c01, c11, ss;
  size_t n = 0;
  for (size_t i = 0; i < d->n && n < 16; i++)
    if (strcmp(d->p[i].op, op) == 0 && d->p[i].ranks == ranks) {
      x[n] = d->p[i].bytes;
      y[n++] = d->p[i].time_s / d->p[i].count;
    }
  ck_assert_msg(n >= 3, "%s on %d: %zu points", op, ranks, n);
  gsl_fit_linear(x, 1, y, 1, n, &c0, &c1, &c00, &c01, &c11, &ss);
  return c0;
}

/* The floors a fit keeps NCCL's figures above are what the files measured on the GPU say
 * (experiments/gpu/README.md): a step beyond LL's, the lesser of a ring of 2 and of 8, and an
 * NCCL call on one GPU, the median of its sizes up to 64 KiB. One number written twice
 * must not drift; and each lies under NCCL's own per-hop figure on NVLink. */
START_TEST(measured_floors_are_their_files)
{
  const topo_preset *p = topo_preset_find(measured_presets[_i]);
  topo_floors f;
  topo_preset_floors(p, &f);
  md_data d = {0};
  char err[256];
  const char *steps = topo_preset_floor_file(p, 1), *call = topo_preset_floor_file(p, 0);
  ck_assert_ptr_nonnull(steps);
  ck_assert_ptr_nonnull(call);
  ck_assert_msg(md_data_read(&d, steps, err, sizeof err) == 0, "%s", err);
  double ll128 = 1, simple = 1, least = 1;
  for (int r = 2; r <= 8; r += 6) {
    double ll = step_fixed(&d, "step_ll", r);
    least = fmin(least, ll);
    ll128 = fmin(ll128, step_fixed(&d, "step_ll128", r) - ll);
    simple = fmin(simple, step_fixed(&d, "step_simple", r) - ll);
  }
  md_data_free(&d);
  ck_assert_msg(fabs(f.ll128_lat - ll128) <= 0.01 * ll128, "%s LL128: preset %g s, file %g", p->name, f.ll128_lat, ll128);
  ck_assert_msg(fabs(f.simple_lat - simple) <= 0.01 * simple, "%s Simple: preset %g s, file %g", p->name, f.simple_lat,
                simple);
  ck_assert_msg(fabs(f.ll_lat - least) <= 0.01 * least, "%s LL: preset %g s, file %g", p->name, f.ll_lat, least);
  ck_assert(f.ll_lat < 0.6e-6 && f.ll128_lat < 1.9e-6 - 0.6e-6 && f.simple_lat < 3.4e-6 - 0.6e-6);

  memset(&d, 0, sizeof d);
  ck_assert_msg(md_data_read(&d, call, err, sizeof err) == 0, "%s", err);
  double t[64];
  size_t n = 0;
  for (size_t i = 0; i < d.n && n < 64; i++)
    if (strcmp(d.p[i].op, "allreduce") == 0 && d.p[i].inplace == 0 && d.p[i].bytes <= 65536)
      t[n++] = d.p[i].time_s;
  md_data_free(&d);
  ck_assert_uint_ge(n, 10);
  gsl_sort(t, 1, n);
  double launch = gsl_stats_median_from_sorted_data(t, 1, n);
  ck_assert_msg(fabs(f.launch - launch) <= 0.01 * launch, "%s launch: preset %g s, file %g", p->name, f.launch, launch);
}
END_TEST

/* Where the GPU was not measured there is no floor and no file to read one from. */
START_TEST(unmeasured_presets_have_no_floor)
{
  topo_floors f;
  const topo_preset *p = topo_preset_find("hgx-a100");
  topo_preset_floors(p, &f);
  ck_assert(f.launch == 0 && f.ll128_lat == 0 && f.simple_lat == 0);
  ck_assert_ptr_null(topo_preset_floor_file(p, 0));
  ck_assert_ptr_null(topo_preset_measured(p));
}
END_TEST

START_TEST(every_dense_algorithm_verifies_on_4x8_rails)
{
  char path[256], args[512];
  snprintf(path, sizeof path, "%s/r48.xml", dir);
  cli_result r = cli_simcalib("platform --node nvswitch --gpu-bw 450GBps --nics 8 --nic-rate 400Gbps --rails "
                              "--oversubscription 2 --nodes 4 --gpus-per-node 8 -o %s",
                              path);
  ck_assert_msg(r.status == 0, "%s", r.err);
  cli_result_free(&r);
  snprintf(args, sizeof args, "--platform %s --algo all --verify --sizes 1000,1M --mode sim", path);
  r = cli_run(args, 1);
  ck_assert_msg(r.status == 0, "%s", r.err);
  const cJSON *p, *res = cJSON_GetObjectItemCaseSensitive(r.json, "results");
  ck_assert_int_eq(cJSON_GetArraySize(res), 7 * 2);
  cJSON_ArrayForEach(p, res) ck_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "verified")));
  cli_result_free(&r);
}
END_TEST

/* 16 GiB per rank, timed as nccl-tests does, on the shipped 4 x 8 H100: every ring hop
 * between nodes crosses one NIC (49.1 GB/s) and each step sums its chunk (949 GB/s), so the
 * bus bandwidth is 1 / (1/49.1 + 1/(2 x 949)) GB/s; simulation and model agree. */
START_TEST(ring_at_16g_on_rails)
{
  cli_result r = cli_run("--platform hgx-h100-rails --algo ring --size 16G --timing nccl-tests --mode both", 1);
  ck_assert_msg(r.status == 0, "%s", r.err);
  const cJSON *p = cli_point(&r, 0);
  double busbw = cli_num(p, "busbw_GBps"), want = 1 / (1 / 49.1 + 1 / (2 * 0.85 * 3350 / 3));
  ck_assert_msg(fabs(busbw / want - 1) < 0.002, "busbw %g GB/s, %g expected", busbw, want);
  ck_assert_double_eq_tol(cli_num(p, "model_time_s"), cli_num(p, "time_s"), 1e-4 * cli_num(p, "time_s"));
  cli_result_free(&r);
}
END_TEST

START_TEST(bad_shapes_are_refused)
{
  static const struct {
    const char *args, *why;
  } cases[] = {
      {"--preset hgx-h999 --nodes 2", "unknown --preset"},
      {"--preset hgx-h100 --nodes 64 --nodes-per-leaf 0", "--nodes-per-leaf needs"},
      {"--node dgx1-mesh --gpu-bw 25GBps --nic-rate 100Gbps --nodes 2 --gpus-per-node 4", "8 GPUs"},
      {"--node nvswitch --gpu-bw 450GBps --nic-rate 400Gbps --nodes 2 --gpus-per-node 8 --rails --fabric switch",
       "fat-tree"},
      {"--node nvswitch --gpu-bw 450GBps --nic-rate 400Gbps --nodes 2 --gpus-per-node 8 --nics 9", "more NICs"},
      {"--node nvswitch --gpu-bw fast --nic-rate 400Gbps --nodes 2 --gpus-per-node 8", "needs a rate"},
      {"--node nvswitch --gpu-bw 450GBps --nic-rate 400Gbps --nodes 2 --gpus-per-node 8 --nic-lat 2", "needs a time"},
      {"--node nvswitch --gpu-bw 450GBps --nic-rate 400Gbps --nodes 2 --gpus-per-node 8 --oversubscription 0.5",
       "oversubscription"},
      {"--node torus --gpu-bw 450GBps --nic-rate 400Gbps --nodes 2 --gpus-per-node 8", "--node is"},
      {"--node nvswitch --nic-rate 400Gbps --nodes 2 --gpus-per-node 8", "--gpu-bw"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cli_result r = cli_simcalib("platform %s -o %s/bad.xml", cases[i].args, dir);
    ck_assert_msg(r.status == 2 && cli_lines(r.err) == 1 && strstr(r.err, cases[i].why), "%s: %d %s", cases[i].args,
                  r.status, r.err);
    cli_result_free(&r);
  }
}
END_TEST

int main(void)
{
  Suite *s = suite_create("topo");
  CHECK_CASE_FIXTURE(s, "generated platforms", 120, setup, teardown, models_see_the_network_simgrid_routes,
                     rails_and_the_fat_tree_show_in_the_routes, presets_carry_their_hosts_proxy,
                     shipped_hgx_h100_is_what_the_generator_writes, nic_rate_note_is_true,
                     unmeasured_presets_have_no_floor, rail_units_delay_and_limit_as_one_switch,
                     every_dense_algorithm_verifies_on_4x8_rails, ring_at_16g_on_rails, bad_shapes_are_refused,
                     fewer_gpus_keep_their_nics);
  TCase *tc = tcase_create("measured GPUs"); /* each preset whose GPU we measured */
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, measured_preset_compute_is_the_fit_of_its_file, 0, (int)NMEASURED);
  tcase_add_loop_test(tc, measured_floors_are_their_files, 0, (int)NMEASURED);
  suite_add_tcase(s, tc);
  return check_run(s);
}
