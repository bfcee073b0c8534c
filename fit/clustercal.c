/* clustercal.c: measured runs -> a fitted cluster (clustercal.h). */
#include "clustercal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "clustereval.h"
#include "common/sa_error.h"
#include "models/cost.h"
#include "nccl/nccl_env.h"
#include "nccl/nccl_proto.h"
#include "topo/fit_cover.h"
#include "topo/fit_ran.h"
#include "util/forked.h"
#include "util/sizes.h"

int fit_cluster_option(fit_cluster_opts *o, const char *name, const char *value)
{
  char why[256];
  uint64_t b;
  if (strcmp(name, "fit-algo") == 0) {
    if (!cost_has_model(value)) {
      fprintf(stderr,
              "simcalib: --fit-algo %s: no cost model of that name (ring, hier, tree, twotree, rhd, naive, nccl, "
              "nccl-ring, nccl-tree, nvls, nvls-tree)\n",
              value);
      return SA_EINVAL;
    }
    o->algo = value;
  } else if (strcmp(name, "nccl-algo") == 0 || strcmp(name, "nccl-proto") == 0) {
    int proto = strcmp(name, "nccl-proto") == 0;
    unsigned set = nccl_env_parse(proto ? NCCL_ENV_PROTO : NCCL_ENV_ALGO, value, why, sizeof why);
    if (!set) {
      fprintf(stderr, "simcalib: --%s: %s\n", name, why);
      return SA_EINVAL;
    }
    *(proto ? &o->nccl_protos : &o->nccl_algos) = set;
  } else if (strcmp(name, "nccl-version") == 0) {
    if (!(o->nccl_version = nccl_version_find(value))) {
      fprintf(stderr, "simcalib: --nccl-version %s: not modelled (known: %s)\n", value, nccl_version_list());
      return SA_EINVAL;
    }
  } else if (strcmp(name, "holdout") == 0) {
    if (strcmp(value, "odd") != 0 && strcmp(value, "even") != 0) {
      fprintf(stderr, "simcalib: --holdout is odd or even, not '%s'\n", value);
      return SA_EINVAL;
    }
    o->holdout = strcmp(value, "odd") == 0 ? 1 : 2;
  } else if (strcmp(name, "min-bytes") == 0) {
    if (strcmp(value, "0") != 0 && util_parse_size(value, &b, why, sizeof why) != 0) {
      fprintf(stderr, "simcalib: --min-bytes: %s\n", why);
      return SA_EINVAL;
    }
    o->min_bytes = strcmp(value, "0") == 0 ? 0 : (double)b;
  } else if (strcmp(name, "inplace") == 0) {
    o->inplace = 1;
  } else if (strcmp(name, "preset") == 0) {
    o->preset = value;
  } else if (strcmp(name, "jobs") == 0) {
    char *end;
    long n = strtol(value, &end, 10);
    if (end == value || *end || n < 1 || n > 1024) {
      fprintf(stderr, "simcalib: --jobs is a count of processes from 1 to 1024, not '%s'\n", value);
      return SA_EINVAL;
    }
    o->jobs = (int)n;
  } else {
    return 0;
  }
  return 1;
}

/* What NCCL ran a point with, from md_point.nccl_ran ("NVLSTree/Simple/16"), into q. */
static void ran_of(const char *ran, fit_cpoint *q)
{
  if (ran[0] && !nccl_env_ran(ran, &q->ran_algos, &q->ran_protos, &q->ran_channels))
    q->unmodelled = 1;
}

static int by_bytes(const void *a, const void *b)
{
  const fit_cpoint *x = a, *y = b;
  return (x->bytes > y->bytes) - (x->bytes < y->bytes);
}

/* Run r's allreduce points of the chosen flavour into out (sorted by size); 0 when it has
 * none or no known shape. */
static int gather(const md_data *d, int r, const fit_cluster_opts *o, fit_crun *out)
{
  const md_run *run = md_data_run(d, r);
  if (!run || run->nodes < 1 || run->gpus_per_node < 1 || run->ranks != run->nodes * run->gpus_per_node)
    return 0;
  memset(out, 0, sizeof *out);
  out->pt = calloc(d->n + 1, sizeof *out->pt);
  if (!out->pt)
    return SA_ENOMEM;
  const md_point *p;
  for (size_t i = 0; (p = md_run_next(d, r, "allreduce", &i));) {
    if (p->bytes <= 0 || p->count <= 0 || p->time_s <= 0 || (p->inplace >= 0 && p->inplace != o->inplace))
      continue;
    out->elem = (int)(p->bytes / p->count);
    fit_cpoint *q = &out->pt[out->n++];
    *q = (fit_cpoint){.bytes = p->bytes,
                      .measured_s = p->time_s,
                      .used = p->bytes >= o->min_bytes,
                      .proto = -1,
                      .algo = -1,
                      .own_algo = -1,
                      .own_proto = -1};
    ran_of(p->nccl_ran, q);
  }
  qsort(out->pt, (size_t)out->n, sizeof *out->pt, by_bytes);
  for (int i = 0, k = 0; i < out->n && o->holdout; i++)
    if (out->pt[i].used && (k++ % 2 == 1) == (o->holdout == 1))
      out->pt[i].used = 0;
  out->nodes = run->nodes;
  out->gpus = run->gpus_per_node;
  snprintf(out->label, sizeof out->label, "%s run %d (%d x %d)", run->test[0] ? run->test : "allreduce", r, run->nodes,
           run->gpus_per_node);
  return out->n > 0 && out->elem > 0;
}

static void note(fit_cluster *c, const char *fmt, const char *a, const char *b)
{
  size_t n = strlen(c->assumed);
  snprintf(c->assumed + n, sizeof c->assumed - n, fmt, a, b);
}

static void ramp(fit_cluster *c, fit_cfit *f, int single, int multi);

/* What the logs' tuning lines say NCCL ran (fit_cpoint.ran_algos), into c->ran: how many
 * sizes, fitted as NCCL ran them; those of an algorithm not modelled; and where the model of
 * NCCL's tuning would have picked otherwise (a few named). */
static void ran_notes(fit_cluster *c)
{
  int said = 0, unmodelled = 0, other = 0;
  char list[512] = "";
  for (int r = 0; r < c->nruns; r++)
    for (int i = 0; i < c->runs[r].n; i++) {
      const fit_cpoint *p = &c->runs[r].pt[i];
      said += p->ran_algos != 0 || p->unmodelled;
      unmodelled += p->unmodelled;
      if (p->own_algo < 0 || p->algo < 0)
        continue;
      if (other++ < 4) {
        char size[32];
        size_t n = strlen(list);
        util_format_size((uint64_t)p->bytes, size, sizeof size);
        snprintf(list + n, sizeof list - n, "%s%s %s/%s (the model: %s/%s)", n ? ", " : "", size,
                 nccl_algo_name(p->algo), nccl_proto_name(p->proto), nccl_algo_name(p->own_algo),
                 nccl_proto_name(p->own_proto));
      }
    }
  if (!said)
    return;
  size_t n = (size_t)snprintf(c->ran, sizeof c->ran,
                              "the logs' tuning lines name NCCL's choice at %d sizes: fitted as NCCL ran them\n", said);
  if (unmodelled && n < sizeof c->ran)
    n += (size_t)snprintf(c->ran + n, sizeof c->ran - n,
                          "%d of them ran an algorithm not modelled (CollNet, PAT): fitted with NCCL's choice as "
                          "modelled\n",
                          unmodelled);
  if (other && n < sizeof c->ran)
    snprintf(c->ran + n, sizeof c->ran - n,
             "the model of NCCL %s's tuning picks otherwise at %d: %s%s; the platform keeps what NCCL ran, which "
             "simallreduce --algo nccl runs at the same shape and size\n",
             c->fit.nccl_version->name, other, list, other > 4 ? ", ..." : "");
}

#define NIC_UNDER_PCIE 0.99

/* Each figure that ended at its bound, with what it suggests: the times asked for more than
 * the hardware gives the algorithm fitted, so the log ran something faster, or on faster
 * hardware than the preset's. */
static void bound_notes(fit_cluster *c, const topo_cluster *start)
{
  const fit_cfit *f = &c->fit;
  int nccl = cost_is_nccl(f->algo);
  /* a link far below its datasheet: slower hardware than the preset's, or time the model
   * does not account for, put on the link */
  static const struct {
    int param;
    const char *what;
  } links[] = {{FIT_P_NIC_BW, "each NIC"}, {FIT_P_GPU_BW, "the GPU link"}};
  for (size_t k = 0; k < sizeof links / sizeof links[0]; k++) {
    int i = links[k].param;
    double was = i == FIT_P_NIC_BW ? start->nic_bw : start->gpu_bw, now = i == FIT_P_NIC_BW ? f->topo.nic_bw : f->topo.gpu_bw;
    size_t n = strlen(c->below);
    if (f->free[i] && now < FIT_FAR_BELOW * was)
      snprintf(c->below + n, sizeof c->below - n,
               "%s at %.4g GB/s, %.0f%% of the preset's %.4g: slower hardware than %s's, or time the model does not "
               "account for put on it%s\n",
               links[k].what, now / 1e9, 100 * now / was, was / 1e9, c->preset->name,
               fit_cruns_run(c->runs, c->nruns, NCCL_ALGO_NVLS_TREE, 1) ? " (NVLS tree's pipeline below 1 GiB: docs/nccl-tests.md)" : "");
  }
  /* NCCL's start far above what NCCL's own model gives the start it stands for (a ring's with
   * LL: nccl_start_s): no bound holds it, since a launch, host work and the first steps all
   * add to it, but so much more is time the model misses at small sizes, put there */
  double own = nccl ? nccl_launch_s(NCCL_ALGO_RING, NCCL_PROTO_LL) : 0;
  if (nccl && f->free[FIT_P_LAUNCH] && own > 0 && f->compute.launch_lat > FIT_FAR_ABOVE * own)
    snprintf(c->above, sizeof c->above,
             "NCCL's start (a ring's with LL) at %.3g us, %.1f times NCCL's own %.3g (%s's baseLat): time the model "
             "misses at the small sizes put on it (LL128's steps: docs/nccl.md, Slices back to back)\n",
             f->compute.launch_lat * 1e6, f->compute.launch_lat / own, own * 1e6, nccl_version_default()->name);
  /* a step on the GPU's own hops far beyond what NCCL's tuning gives it over LL's (hwLat's
   * NVLink row, the extra that stands when the platform gives none) */
  for (int proto = NCCL_PROTO_LL128; nccl && proto <= NCCL_PROTO_SIMPLE; proto++) {
    int i = proto == NCCL_PROTO_LL128 ? FIT_P_LL128_LAT : FIT_P_SIMPLE_LAT;
    double v = *fit_cfit_param((fit_cfit *)f, i), ref = nccl_hop_extra_s(NCCL_HW_NVLINK, NCCL_ALGO_RING, proto);
    size_t n = strlen(c->above);
    if (f->free[i] && ref > 0 && v > FIT_FAR_ABOVE * ref)
      snprintf(c->above + n, sizeof c->above - n,
               "a step of %s on a GPU's hops at %.3g us beyond one of LL, %.1f times NCCL's own %.3g (hwLat on "
               "NVLink): time the model misses at the sizes %s runs put on it\n",
               nccl_proto_name(proto), v * 1e6, v / ref, ref * 1e6, nccl_proto_name(proto));
  }
  for (int i = 0; i < FIT_NPARAM; i++) {
    if (!fit_cfit_at_bound(f, i) || i == FIT_P_STEEP) /* the ramp's shape, not hardware */
      continue;
    size_t n = strlen(c->bounds);
    if (fit_cfit_at_floor(f, i) && (i == FIT_P_PROXY || i == FIT_P_PROXY_SIMPLE)) {
      snprintf(c->bounds + n, sizeof c->bounds - n,
               "a step of %s on a ring across nodes at NCCL's least figure for its proxy, %.3g us (an Intel host's): "
               "the log's ring across nodes is faster than the proxy's pace NCCL's model gives any host\n",
               i == FIT_P_PROXY ? "LL or LL128" : "Simple", f->lo[i] * 1e6);
      continue;
    }
    if (fit_cfit_at_floor(f, i)) {
      snprintf(c->bounds + n, sizeof c->bounds - n,
               "%s at the least it takes on %s's GPU (%.3g us, measured: experiments/gpu/): the log is faster at "
               "the sizes it sets than the model's other latencies allow (the links' own, NCCL's hops across the "
               "network)\n",
               i == FIT_P_LAUNCH      ? "NCCL's start"
               : i == FIT_P_GPU_LAT   ? "the GPU links' latency (a hop's LL step)"
               : i == FIT_P_LL128_LAT ? "an LL128 step"
                                      : "a Simple step",
               c->preset->name, f->lo[i] * 1e6);
      continue;
    }
    if (fit_cparam_unused(f, i, c->runs, c->nruns))
      continue; /* left at its start (the GPU links' latency at the server's): nothing fitted reads it */
    if (i == FIT_P_GPU_LAT) {
      snprintf(c->bounds + n, sizeof c->bounds - n,
               "the GPU links' latency at %s's assumed %.3g us, the most a fit puts it at: the log's LL sizes are "
               "slower than NVLink hops make them (time the model misses put on them: the network's, or a choice "
               "not NCCL's own)\n",
               c->preset->name, f->hi[i] * 1e6);
      continue;
    }
    if (i == FIT_P_PROXY || i == FIT_P_PROXY_SIMPLE) {
      snprintf(c->bounds + n, sizeof c->bounds - n,
               "a step of %s on a ring across nodes at %.3g us, what NCCL's model gives a whole step across the "
               "network (hwLat): the log's ring is slower than its proxy's pace makes it (time the model misses put "
               "on its steps)\n",
               i == FIT_P_PROXY ? "LL or LL128" : "Simple", f->hi[i] * 1e6);
      continue;
    }
    const char *what = i == FIT_P_NIC_BW      ? "each NIC at its line rate"
                       : i == FIT_P_GPU_BW    ? "the GPU link at its datasheet rate"
                       : i == FIT_P_NVLS_COPY ? "NVLS's copies at the device's copy rate"
                                              : "a protocol's writes at the GPU's memory bandwidth";
    const char *why =
        i == FIT_P_NIC_BW
            ? (nccl ? "the log is faster than NCCL's algorithms as modelled over these NICs: a faster NIC than the "
                      "preset's, an algorithm not modelled (CollNet), or the model's own gaps (docs/nccl.md, "
                      "Simplifications)"
                    : "the log is faster than that algorithm over these NICs; NCCL likely ran a tree (NVLS tree on "
                      "NVSwitch nodes of Hopper or later), whose traffic across nodes is about half a ring's: fit "
                      "--fit-algo nccl")
        : i == FIT_P_GPU_BW
            ? (nccl ? "the log is faster than NCCL's algorithms over these GPU links: faster links than the preset's"
                    : "the log is faster than that algorithm over these GPU links; NCCL may have run another (NVLS "
                      "sums in the switch of Hopper or later NVSwitch nodes): fit --fit-algo nccl")
        : i == FIT_P_NVLS_COPY ? "the log is faster than NVLS's copy warps can move its buffers"
                               : "the log is faster than this protocol can write";
    snprintf(c->bounds + n, sizeof c->bounds - n, "%s (%.4g GB/s): %s\n", what, f->hi[i] / 1e9, why);
  }
}

/* Where a collective of NCCL's starts, and what its protocols take on the GPU: the fit's
 * starting values, a little beyond what the links alone give, NCCL 2.26.2's figures where it
 * has them (src/graph/tuning.cc: baseLat 6.6-14 us, llMaxBw 87.7 GB/s of bus bandwidth on
 * one Ampere node, two wire bytes per data byte). */
#define START_LAUNCH 10e-6
#define START_LL_BW 175e9
#define NVLS_COPY_START 0.9

/* The first and last release of a run's dating (md_run.nccl_dated, "2.3.5 to 2.12.12"): 1 with
 * them in first and last (16 bytes each), 0 when there is none. */
static int dated_bounds(const char *dated, char *first, char *last)
{
  return dated && sscanf(dated, "%15s to %15s", first, last) == 2;
}

/* The fit of NCCL's algorithms: the links at their own rates (no ramp: the protocols' slices
 * are what the ramp stood for), the sums charged as the simulation charges them, and the
 * start of a collective and the rates a GPU writes each protocol's lines at, fitted. */
static void nccl_protocols(fit_cluster *c, fit_cfit *f, int single, int multi, const char *version, const char *dated,
                           const nccl_version *given)
{
  int exact = 0, inside = 0;
  char first[16] = "", last[16] = "";
  if (!version && dated_bounds(dated, first, last))
    f->nccl_version = nccl_version_between(first, last, &inside); /* import/import_nccl.c's dating */
  else
    f->nccl_version = nccl_version_nearest(version, &exact);
  if (given)
    f->nccl_version = given;
  if (!f->nccl_version)
    f->nccl_version = nccl_version_default();
  const char *name = f->nccl_version->name;
  if (given)
    note(c, "NCCL's version: %s, as --nccl-version says%s\n", name,
         version ? " (the logs print another: their own version line is set aside)" : "");
  else if (!version && first[0])
    note(c,
         inside ? "NCCL's version: the logs do not print it; their NCCL INFO lines date it to %s; its choice as "
                  "%s, the latest release modelled among those, makes it\n"
                : "NCCL's version: the logs do not print it; their NCCL INFO lines date it to %s; its choice as "
                  "%s, the nearest release modelled, makes it\n",
         dated, name);
  else if (!version)
    note(c, "NCCL's version: the logs do not print it; its choice as %s makes it%s\n", name, "");
  else if (!exact)
    note(c, "NCCL's version: the logs' %s is not modelled; its choice as %s, the nearest release modelled, makes it\n",
         version, name);
  f->half = 0;
  f->steep = f->latx = 1;
  f->has_compute = 1;
  topo_preset_compute(c->preset, &f->compute);
  f->compute.launch_lat = START_LAUNCH;
  f->compute.ll_bw = START_LL_BW;
  f->compute.ll128_bw = f->compute.simple_bw = 2 * f->topo.gpu_bw;
  /* the links at the server's figures (a multi-node run: the NICs fitted, held to theirs by
   * the prior); what the times say of the protocols is in the start and their rates */
  f->free[FIT_P_NIC_BW] = multi > 0;
  f->quick = 1;
  f->compute.ll128_lat = nccl_hop_extra_s(NCCL_HW_NVLINK, NCCL_ALGO_RING, NCCL_PROTO_LL128);
  f->compute.simple_lat = nccl_hop_extra_s(NCCL_HW_NVLINK, NCCL_ALGO_RING, NCCL_PROTO_SIMPLE);
  /* no less than the GPU was measured to take, where it was (topo_preset_floors) */
  topo_floors least;
  topo_preset_floors(c->preset, &least);
  f->lo[FIT_P_LAUNCH] = least.launch;
  f->lo[FIT_P_LL128_LAT] = least.ll128_lat;
  f->lo[FIT_P_SIMPLE_LAT] = least.simple_lat;
  /* the GPU's links' latency, where an LL step was measured: a hop (two links through an
   * NVSwitch, one on a direct link) takes at least what the multiprocessors alone take to
   * hand an LL step on, and at most the preset's assumed 1 us a link, three times NCCL's LL
   * hop on NVLink (hwLat 0.6 us) and above what L07 shows (experiments/gpu/README.md) */
  if (least.ll_lat > 0) {
    f->free[FIT_P_GPU_LAT] = 1;
    f->lo[FIT_P_GPU_LAT] = least.ll_lat / (f->topo.node == TOPO_NODE_NVSWITCH ? 2 : 1);
    f->hi[FIT_P_GPU_LAT] = c->preset->gpu_lat;
  }
  /* NVLS (NVSwitch nodes of Hopper on): what the switch moves stays NCCL's model of it (n
   * heads x the search's head bandwidth x 5/6: nccl_nvls_wire_scale), not fitted. A log shows
   * the switch and the copy warps together, each chunk through both; fitted apart they traded
   * one for the other (L07: the switch at 364 GB/s, the copies at 478; L09, another cluster
   * of the same servers: 245 and 673), and with the switch held the copies of the two agree
   * within 1.7% (583 and 593 GB/s with the most warps NCCL gives them, nccl_nvls_copy_warps).
   * What its copy warps move (nccl_op_time_nvls) is fitted: at most the device's copy rate,
   * from a step below it (chosen while the Jacobian's differences all went forwards and one
   * at the bound saw nothing move; they now step back from it, fit/fdjac.h, and the start
   * stays where the fits' figures came from); not from the server's figure, which is this
   * fit's of a log (topo_preset_nvls_copy), so that a fit is the same whatever it says */
  int arch = nccl_arch_of(f->topo.gpu_bw), n = c->runs[0].gpus;
  if (f->topo.node == TOPO_NODE_NVSWITCH && arch >= NCCL_ARCH_HOPPER && n >= 2 && n <= NCCL_NVLS_MAX_HEADS) {
    f->hi[FIT_P_NVLS_COPY] = f->compute.copy_bw;
    f->compute.nvls_copy_bw = NVLS_COPY_START * f->compute.copy_bw;
    f->free[FIT_P_NVLS_COPY] = f->compute.copy_bw > 0;
  }
  /* the rates a GPU writes the protocols at show on one node; across nodes the NICs bound,
   * and a multi-node log alone leaves the GPU free of them */
  for (int i = FIT_P_LAUNCH; i <= FIT_P_SIMPLE_LAT; i++)
    f->free[i] = single > 0 || (i != FIT_P_LL && i != FIT_P_LL128 && i != FIT_P_SIMPLE);
  if (!single)
    f->compute.ll_bw = f->compute.ll128_bw = f->compute.simple_bw = 0;
  /* a ring across nodes: the least its steps take and the time its proxy holds each step's
   * slices (nccl_step_s, nccl_net_gap_s), from NCCL's own figure for the server's host
   * (tuning.cc getNetOverhead at v2.26.2: 1 us on an Intel host, 2 on an AMD one, three times
   * it for Simple), at least its least for any host, an Intel host's (a proxy's pace far below
   * it, L06's fit at 0.04 us, was time taken from the model's other steps), at most what NCCL's
   * model gives a whole step across the network (hwLat's NET row). Held each step, the proxy
   * moves a ring's time wherever it starts (as only a floor under each step, an Intel host's 1
   * us lay below NCCL's LL128 step on NVLink, where it did not show) */
  nccl_host_proxy(&f->compute, c->preset->host_amd);
  for (int i = FIT_P_PROXY; i <= FIT_P_PROXY_SIMPLE; i++) {
    int proto = i == FIT_P_PROXY ? NCCL_PROTO_LL128 : NCCL_PROTO_SIMPLE;
    f->lo[i] = 1e-6 * nccl_net_overhead_us(proto == NCCL_PROTO_SIMPLE, 0);
    f->hi[i] = 1e-6 * f->nccl_version->hw_lat[NCCL_HW_NET][NCCL_ALGO_RING][proto];
    f->free[i] = multi > 0;
  }
  char algos[64], protos[64];
  nccl_env_format(NCCL_ENV_ALGO, f->nccl_algos, algos, sizeof algos);
  nccl_env_format(NCCL_ENV_PROTO, f->nccl_protos, protos, sizeof protos);
  note(c, "NCCL's algorithm: %s, with NCCL %s's choice of protocol and channels at each size\n", f->algo, name);
  if (f->nccl_algos || f->nccl_protos) { /* what the runs did not leave NCCL: a run of --algo nccl needs it too */
    char run[192];
    snprintf(run, sizeof run, "%s%s%s%s%s", f->algo, f->nccl_algos ? " --nccl-algo " : "", f->nccl_algos ? algos : "",
             f->nccl_protos ? " --proto " : "", f->nccl_protos ? protos : "");
    note(c, "NCCL's choice: as the logs' runs left it (simallreduce --algo %s to run the same)%s\n", run, "");
  }
  note(c, "sums: charged on the GPU as the simulation charges them (%s's memory)%s\n", c->preset->name, "");
}

/* What NCCL_ALGO and NCCL_PROTO left NCCL, from the options, else the logs' INFO lines (kept as
 * printed: read here as NCCL reads them); one algorithm is fitted as its own model
 * (nccl-ring, ...), several as NCCL's choice among them. */
static int nccl_left(const fit_cluster_opts *o, const char *algo_env, const char *proto_env, fit_cfit *f, char *err,
                     size_t errlen)
{
  char why[256];
  f->nccl_algos = o->nccl_algos;
  f->nccl_protos = o->nccl_protos;
  if (!f->nccl_algos && algo_env && !(f->nccl_algos = nccl_env_parse(NCCL_ENV_ALGO, algo_env, why, sizeof why))) {
    snprintf(err, errlen, "the logs' NCCL_ALGO line: %s", why);
    return SA_EINVAL;
  }
  if (!f->nccl_protos && proto_env && !(f->nccl_protos = nccl_env_parse(NCCL_ENV_PROTO, proto_env, why, sizeof why))) {
    snprintf(err, errlen, "the logs' NCCL_PROTO line: %s", why);
    return SA_EINVAL;
  }
  if (strcmp(f->algo, "nccl") != 0)
    f->nccl_algos = 0; /* one model asked for by name (--fit-algo) */
  for (int a = 0; a < NCCL_NALGO; a++)
    if (f->nccl_algos == NCCL_BIT(a)) { /* one algorithm left: its own model */
      f->algo = cost_nccl_name(a);
      f->nccl_algos = 0;
    }
  return 0;
}

static int calibrate_one(const md_data *d, const fit_cluster_opts *o, fit_cluster *c, char *err, size_t errlen)
{
  memset(c, 0, sizeof *c);
  util_forked_limit(o->jobs);
  c->runs = calloc(d->nruns + 1, sizeof *c->runs);
  if (!c->runs)
    return SA_ENOMEM;
  const char *model = NULL, *version = NULL, *dated = NULL, *algo_env = NULL, *proto_env = NULL;
  int single = 0, multi = 0, nccl_tests = 0;
  for (size_t r = 0; r < d->nruns; r++) {
    int got = gather(d, (int)r, o, &c->runs[c->nruns]);
    if (got < 0)
      return got;
    if (got == 0) {
      free(c->runs[c->nruns].pt);
      continue;
    }
    if (!model && d->runs[r].ngpu_models > 0)
      model = d->runs[r].gpu_models[0];
    if (!version && d->runs[r].nccl_version[0])
      version = d->runs[r].nccl_version;
    if (!dated && d->runs[r].nccl_dated[0])
      dated = d->runs[r].nccl_dated;
    if (!algo_env && d->runs[r].nccl_algo[0])
      algo_env = d->runs[r].nccl_algo;
    if (!proto_env && d->runs[r].nccl_proto[0])
      proto_env = d->runs[r].nccl_proto;
    nccl_tests += strcmp(d->runs[r].tool, "nccl-tests") == 0;
    single += c->runs[c->nruns].nodes == 1;
    multi += c->runs[c->nruns].nodes > 1;
    c->nruns++;
  }
  if (c->nruns == 0) {
    snprintf(err, errlen, "no allreduce run with its nodes and GPUs per node known (nccl-tests logs say them in "
                          "their device lines; OSU's need --ranks and --nodes at import)");
    return SA_ENODATA;
  }
  c->preset = o->preset ? topo_preset_find(o->preset) : topo_preset_for_gpu(model);
  if (!c->preset) {
    char names[256];
    topo_preset_names(names, sizeof names);
    snprintf(err, errlen, "%s%s%s: give the server with --preset (%s)", o->preset ? "unknown --preset " : "",
             o->preset ? o->preset : "no preset for the GPU model of the logs, ", o->preset ? "" : (model ? model : "(none named)"),
             names);
    return SA_EINVAL;
  }
  if (!o->preset)
    note(c, "node and NICs: %s's, the server of the logs' GPU (%s)\n", c->preset->name, model);
  fit_cfit *f = &c->fit;
  /* nccl-tests ran NCCL: what it chose, among what NCCL_ALGO and NCCL_PROTO left it (the
   * options', else the logs' lines), unless told to fit another algorithm */
  f->algo = o->algo ? o->algo : nccl_tests ? "nccl" : "ring";
  int rc = nccl_left(o, algo_env, proto_env, f, err, errlen);
  if (rc)
    return rc;
  topo_preset_cluster(c->preset, 1, &f->topo);
  if (o->nic_bw > 0) /* the user's, as given, PCIe or not */
    f->topo.nic_bw = o->nic_bw;
  /* a NIC behind a slower PCIe link would not move the time where the fit starts it (its
   * slope nil): it starts at that link's rate, which is all it can carry there (L06: a NIC
   * of 12.3 GB/s behind 12 of PCIe, the log's EFA at 2.6, and the fit never moved) */
  topo_cluster start = f->topo;
  if (f->topo.pcie_bw > 0 && f->topo.nic_bw > f->topo.pcie_bw && !(o->nic_bw > 0))
    f->topo.nic_bw = NIC_UNDER_PCIE * f->topo.pcie_bw;
  /* what the hardware can do, from the preset's datasheets: a GPU link its NVLink figure, a
   * NIC its line rate (each NIC: a fit never writes the NICs of a node together), the rate
   * a GPU writes a protocol's lines at its memory's */
  f->hi[FIT_P_GPU_BW] = c->preset->gpu_bw;
  f->hi[FIT_P_NIC_BW] = c->preset->nic_line_Bps;
  f->hi[FIT_P_LL] = f->hi[FIT_P_LL128] = f->hi[FIT_P_SIMPLE] = c->preset->hbm_Bps;
  if (cost_is_nccl(f->algo)) {
    nccl_protocols(c, f, single, multi, version, dated, o->nccl_version);
  } else {
    note(c, "the algorithm: fitted as if the logs ran %s%s\n", f->algo, "");
    ramp(c, f, single, multi);
  }
  if (o->nic_bw > 0) /* the user's: a log's time says less of the NICs than they know */
    f->free[FIT_P_NIC_BW] = 0;
  rc = fit_cfit_run(f, c->runs, c->nruns);
  if (!fit_cruns_run(c->runs, c->nruns, NCCL_ALGO_NVLS, 0) &&
      !fit_cruns_run(c->runs, c->nruns, NCCL_ALGO_NVLS_TREE, 0)) { /* none ran it: NCCL's model of NVLS
                                                                    * stays, and the server's copies */
    f->compute.nvls_bw = 0;
    f->compute.nvls_copy_bw = topo_preset_nvls_copy(c->preset, NULL);
  }
  if (rc == 0 && cost_is_nccl(f->algo) &&
      (!f->free[FIT_P_PROXY] || fit_cparam_unused(f, FIT_P_PROXY, c->runs, c->nruns)) &&
      (!f->free[FIT_P_PROXY_SIMPLE] || fit_cparam_unused(f, FIT_P_PROXY_SIMPLE, c->runs, c->nruns))) {
    f->free[FIT_P_PROXY] = f->free[FIT_P_PROXY_SIMPLE] = 0; /* not fitted: at no bound */
    char host[160];
    snprintf(host, sizeof host, "an %s host, %s's, %.3g us (Simple %.3g)", c->preset->host_amd ? "AMD" : "Intel",
             c->preset->name, f->compute.proxy_lat * 1e6, f->compute.proxy_simple_lat * 1e6);
    note(c,
         "a ring's step across nodes: NCCL's own figure for %s, not fitted: no ring across nodes among the fitted "
         "sizes (L12's fit, 2 x 8 H100: Simple at an Intel host's figure, its least; L08, 4 x 8 H100 of L07's "
         "cluster, shows about 7 us a step)%s\n",
         host, "");
  }
  if (rc == 0 && f->free[FIT_P_NVLS_COPY] && !fit_cparam_unused(f, FIT_P_NVLS_COPY, c->runs, c->nruns)) {
    int arch = nccl_arch_of(f->topo.gpu_bw), n = c->runs[0].gpus;
    char rate[32];
    snprintf(rate, sizeof rate, "%.4g",
             nccl_nvls_model_bw(arch, f->topo.gpu_bw * nccl_nvlink_efficiency(arch) / 1e9, n));
    note(c,
         "NVLS's switch: NCCL's model of it, %s GB/s of the buffer, not fitted: a log shows the switch and NVLS's "
         "copy warps together, not apart (the copies are fitted)%s\n",
         rate, "");
  }
  int given = o->nic_bw > 0 && multi, unseen = f->free[FIT_P_NIC_BW] && fit_cnic_unseen(c->runs, c->nruns);
  if (rc == 0 && (given || unseen)) { /* the NICs held, and why */
    char rate[32];
    snprintf(rate, sizeof rate, "%.4g", f->topo.nic_bw / 1e9);
    note(c,
         given ? "NICs: %s GB/s each, as --nic-rate gives them%s: not fitted\n"
               : "NICs: at the server's %s GB/s each, not fitted: NCCL ran NVLS tree at the logs' largest sizes, "
                 "whose plateau is NVLS's (its switch and copy warps), not the NICs' (--nic-rate gives theirs)%s\n",
         rate, "");
  }
  if (rc == 0)
    bound_notes(c, &start);
  if (rc == 0)
    ran_notes(c);
  if (rc == SA_ENODATA)
    snprintf(err, errlen, "too few points for the parameters to fit: give more sizes (or a smaller --min-bytes)");
  else if (rc)
    snprintf(err, errlen, "the fit failed: %s", sa_strerror(rc));
  return rc;
}

/* The releases a fit of NCCL's choice has to choose among where the logs print no version but
 * date it (md_run.nccl_dated; the first such run's): how many, newest first, into out; 0 where
 * the version is given or printed, or the fit is of another algorithm. */
static int dated_releases(const md_data *d, const fit_cluster_opts *o, const nccl_version **out, int max,
                          const char **dated)
{
  *dated = NULL;
  if (o->nccl_version || (o->algo && !cost_is_nccl(o->algo)))
    return 0;
  for (size_t r = 0; r < d->nruns; r++) {
    if (d->runs[r].nccl_version[0])
      return 0;
    if (!*dated && d->runs[r].nccl_dated[0] && strcmp(d->runs[r].tool, "nccl-tests") == 0)
      *dated = d->runs[r].nccl_dated;
  }
  char first[16], last[16];
  return dated_bounds(*dated, first, last) ? nccl_versions_between(first, last, out, max) : 0;
}

/* The median |error| of every point of the fit, those it left out included (INFINITY when
 * there is none, or no memory for them). */
static double median_all(const fit_cluster *c)
{
  size_t n = 0;
  for (int r = 0; r < c->nruns; r++)
    n += (size_t)c->runs[r].n;
  double *e = malloc(sizeof *e * (n + 1)), m = INFINITY;
  if (!e)
    return m;
  n = 0;
  for (int r = 0; r < c->nruns; r++)
    for (int i = 0; i < c->runs[r].n; i++) {
      const fit_cpoint *p = &c->runs[r].pt[i];
      e[n++] = fabs(p->model_s - p->measured_s) / p->measured_s;
    }
  gsl_sort(e, 1, n);
  if (n > 0)
    m = gsl_stats_median_from_sorted_data(e, 1, n);
  free(e);
  return m;
}

/* Where the logs' lines date NCCL to releases of which several are modelled, each one's
 * choice is fitted and the one that fits the logs best kept (the median |error| of all their
 * points): the times say what NCCL chose, and so which of those releases ran. */
int fit_cluster_calibrate(const md_data *d, const fit_cluster_opts *o, fit_cluster *c, char *err, size_t errlen)
{
  const nccl_version *cand[8];
  const char *dated;
  int n = dated_releases(d, o, cand, 8, &dated);
  if (n < 2)
    return calibrate_one(d, o, c, err, errlen);
  char tried[256] = "";
  double best = INFINITY;
  int rc = 0;
  memset(c, 0, sizeof *c);
  for (int i = 0; i < n && rc == 0; i++) {
    fit_cluster_opts oi = *o;
    oi.nccl_version = cand[i];
    fit_cluster t;
    rc = calibrate_one(d, &oi, &t, err, errlen);
    double m = rc == 0 ? median_all(&t) : INFINITY;
    size_t k = strlen(tried);
    snprintf(tried + k, sizeof tried - k, "%s%s %.2f%%", i ? ", " : "", cand[i]->name, 100 * m);
    if (rc == 0 && m < best) {
      fit_cluster_free(c);
      *c = t;
      best = m;
    } else {
      fit_cluster_free(&t);
    }
  }
  if (rc != 0) {
    fit_cluster_free(c);
    return rc;
  }
  /* the version's note says how it was chosen, in place of --nccl-version's */
  char *at = strstr(c->assumed, "NCCL's version: "), *eol = at ? strchr(at, '\n') : NULL;
  if (at && eol) {
    char rest[sizeof c->assumed], line[512];
    snprintf(rest, sizeof rest, "%s", eol + 1);
    snprintf(line, sizeof line,
             "NCCL's version: the logs do not print it; their NCCL INFO lines date it to %s, where "
             "%d releases are modelled; %s's choice fits the logs best (median |error| over every size: %s)\n",
             dated, n, c->fit.nccl_version->name, tried);
    snprintf(at, sizeof c->assumed - (size_t)(at - c->assumed), "%s%s", line, rest);
  }
  return 0;
}

/* The fit of another algorithm than NCCL's own: links and ramp. */
static void ramp(fit_cluster *c, fit_cfit *f, int single, int multi)
{
  /* NCCL sums inside the kernels that move the data, overlapped with the transfers: the
   * times hold the sums, and the fitted rates carry them (a sum charged after each step
   * would push the rates above the links' own to make up for it) */
  f->has_compute = 0;
  note(c, "sums: not charged apart; NCCL reduces while it copies, so the fitted rates include them%s%s\n", "", "");
  f->half = 1e6;
  f->steep = 1;
  f->latx = 1;
  f->free[FIT_P_HALF] = f->free[FIT_P_STEEP] = 1;
  /* a time that never falls as the size grows: s / e(s) = s + h^g s^(1-g) grows with s where
   * g <= 1, and e(2s) / e(s) <= 2^g keeps the time at each power of two (where SMPI's
   * piecewise factor changes) above the one before */
  f->hi[FIT_P_STEEP] = 1;
  /* the latency's growth with size shows only where small sizes were measured */
  for (int r = 0; r < c->nruns; r++)
    for (int i = 0; i < c->runs[r].n; i++)
      f->free[FIT_P_LATX] |= c->runs[r].pt[i].used && c->runs[r].pt[i].bytes <= 65536;
  /* a node's GPUs from any run, with the NICs from runs across nodes: the GPU links only
   * need to keep up with the NICs in a ring across nodes, and the fit holds them to the
   * published figure unless the times ask for more (clusterfit.c, PRIOR) */
  f->free[FIT_P_GPU_BW] = f->free[FIT_P_GPU_LAT] = 1;
  f->free[FIT_P_NIC_BW] = f->free[FIT_P_NIC_LAT] = multi > 0;
  if (!single)
    note(c, "no single-node run: the GPU links are held to %s's figures unless the times need more%s\n",
         c->preset->name, "");
}

void fit_cluster_free(fit_cluster *c)
{
  for (int i = 0; c->runs && i < c->nruns; i++)
    free(c->runs[i].pt);
  free(c->runs);
  memset(c, 0, sizeof *c);
}

static const char *const pnames[FIT_NPARAM] = {
    "gpu_bw_Bps",     "gpu_lat_s",    "nic_bw_Bps", "nic_lat_s",       "ramp_half_bytes", "ramp_steepness",
    "ramp_latency_x", "launch_lat",   "ll_bw",      "ll128_bw",        "simple_bw",       "ll128_lat",
    "simple_lat",     "nvls_copy_bw", "proxy_lat",  "proxy_simple_lat"};

/* Each line of text, behind a prefix. */
static void lines(FILE *f, const char *prefix, const char *text)
{
  for (const char *a = text; *a;) {
    const char *e = strchr(a, '\n');
    fprintf(f, "%s%.*s\n", prefix, (int)(e ? e - a : (long)strlen(a)), a);
    a = e ? e + 1 : a + strlen(a);
  }
}

void fit_cluster_report(FILE *f, const fit_cluster *c, const fit_cluster_opts *o)
{
  const fit_cfit *x = &c->fit;
  fprintf(f, "# cluster fit: the %s cost model at each run's shape, nccl-tests timing, %s times\n", x->algo,
          o->inplace ? "in-place" : "out-of-place");
  fprintf(f, "# %-34s %12s %12s %12s %8s  %s\n", "run", "bytes", "measured(us)", "model(us)", "err%", "");
  for (int r = 0; r < c->nruns; r++)
    for (int i = 0; i < c->runs[r].n; i++) {
      const fit_cpoint *p = &c->runs[r].pt[i];
      fprintf(f, "  %-34s %12.0f %12.2f %12.2f %+8.2f  %s\n", c->runs[r].label, p->bytes, p->measured_s * 1e6,
              p->model_s * 1e6, 100 * (p->model_s - p->measured_s) / p->measured_s,
              p->used ? "fitted" : p->outlier ? "outlier: not fitted" : p->bytes < o->min_bytes ? "below --min-bytes"
                                                                                          : "held out");
    }
  fit_cerr u = fit_cfit_errors(c->runs, c->nruns, 1, 0), h = fit_cfit_errors(c->runs, c->nruns, 0, o->min_bytes);
  fprintf(f, "# fitted: %d points, r2 %.5f, |err| median %.2f%% max %.2f%% (GSL: %d iterations)\n", u.n, x->r2,
          100 * u.median, 100 * u.max, x->iterations);
  if (h.n)
    fprintf(f, "# held out: %d points, |err| median %.2f%% max %.2f%% geomean %.2f%%\n", h.n, 100 * h.median,
            100 * h.max, 100 * h.geomean);
  /* from 1 MiB, where bandwidth rather than NCCL's small-message protocols sets the time */
  fit_cerr u1 = fit_cfit_errors(c->runs, c->nruns, 1, 1 << 20), h1 = fit_cfit_errors(c->runs, c->nruns, 0, 1 << 20);
  if (u1.n)
    fprintf(f, "# from 1 MiB: fitted %d points, |err| median %.2f%% max %.2f%%", u1.n, 100 * u1.median, 100 * u1.max);
  if (u1.n && h1.n)
    fprintf(f, "; held out %d points, |err| median %.2f%% max %.2f%% geomean %.2f%%", h1.n, 100 * h1.median,
            100 * h1.max, 100 * h1.geomean);
  if (u1.n)
    fputc('\n', f);
  fprintf(f, "# node %s (%s): GPU link %.4g GB/s per direction%s, %.4g us%s; %d NICs %.4g GB/s, %.4g us%s\n",
          topo_node_kind_name(x->topo.node), c->preset->name, x->topo.gpu_bw / 1e9,
          x->free[FIT_P_GPU_BW] ? ""
          : x->quick            ? " (the server's)"
                                : " (not fitted: no single-node run)",
          x->topo.gpu_lat * 1e6, x->topo.gpu_lat == c->preset->gpu_lat ? " (the server's)" : "", x->topo.nics,
          x->topo.nic_bw / 1e9, x->topo.nic_lat * 1e6,
          o->nic_bw > 0                        ? " (--nic-rate's: not fitted)"
          : !x->free[FIT_P_NIC_BW]             ? " (not fitted: no multi-node run)"
          : fit_cnic_unseen(c->runs, c->nruns) ? " (the server's: not fitted, NVLS tree at the largest sizes)"
                                               : "");
  if (x->half <= 0) {
    char desc[512];
    sa_compute_describe(&x->compute, SA_DESCRIBE_DENSE, desc, sizeof desc);
    fprintf(f, "# no ramp; device: %s\n", desc);
  } else
    fprintf(f, "# ramp: a message of s bytes moves at e(s) = 1/(1+(%.4g/s)^%.3g) of its link's rate (%.0f%% at 1 MiB, %.0f%% "
             "at 64 MiB), its latency going from 1 to %.3g times the links' as e(s) goes from 0 to 1\n",
          x->half, x->steep, 100 / (1 + pow(x->half / 1048576, x->steep)), 100 / (1 + pow(x->half / 67108864, x->steep)),
          x->latx);
  lines(f, "# assumed: ", c->assumed);
  lines(f, "# at a bound: ", c->bounds);
  lines(f, "# far below: ", c->below);
  lines(f, "# far above: ", c->above);
  lines(f, "# NCCL ran: ", c->ran);
}

cJSON *fit_cluster_cal_json(const fit_cluster_cal *c)
{
  cJSON *o = cJSON_CreateObject();
  const topo_cluster *t = &c->topo;
  cJSON_AddStringToObject(o, "algo", c->algo);
  cJSON_AddStringToObject(o, "timing", "nccl-tests");
  cJSON_AddStringToObject(o, "preset", c->preset);
  cJSON_AddStringToObject(o, "node", topo_node_kind_name(t->node));
  cJSON_AddNumberToObject(o, "gpus_per_node", t->gpus);
  cJSON_AddNumberToObject(o, pnames[FIT_P_GPU_BW], t->gpu_bw);
  cJSON_AddNumberToObject(o, pnames[FIT_P_GPU_LAT], t->gpu_lat);
  cJSON_AddNumberToObject(o, "nics", t->nics);
  cJSON_AddNumberToObject(o, pnames[FIT_P_NIC_BW], t->nic_bw);
  cJSON_AddNumberToObject(o, pnames[FIT_P_NIC_LAT], t->nic_lat);
  cJSON_AddBoolToObject(o, "rails", t->rails);
  cJSON_AddStringToObject(o, "fabric", t->fabric == TOPO_FABRIC_FATTREE ? "fattree" : "switch");
  cJSON_AddNumberToObject(o, "oversubscription", t->oversub);
  cJSON_AddNumberToObject(o, pnames[FIT_P_HALF], c->half);
  cJSON_AddNumberToObject(o, pnames[FIT_P_STEEP], c->steep);
  cJSON_AddNumberToObject(o, pnames[FIT_P_LATX], c->latx);
  if (c->has_compute) {
    cJSON *p = cJSON_AddObjectToObject(o, "compute");
    for (int i = 0; i < SA_COMPUTE_N; i++)
      if (sa_compute_written(&c->compute, i))
        cJSON_AddNumberToObject(p, sa_compute_name(i), sa_compute_get(&c->compute, i));
  }
  cJSON_AddStringToObject(o, "notes", c->notes);
  return o;
}

static int num(const cJSON *o, const char *key, double lo, double *out)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || !(v->valuedouble >= lo))
    return SA_EPARSE;
  *out = v->valuedouble;
  return 0;
}

static int str(const cJSON *o, const char *key, char *out, size_t len)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  if (!cJSON_IsString(v))
    return SA_EPARSE;
  snprintf(out, len, "%s", v->valuestring);
  return 0;
}

int fit_cluster_cal_from_json(const cJSON *o, fit_cluster_cal *c)
{
  memset(c, 0, sizeof *c);
  topo_cluster *t = &c->topo;
  char node[32], fabric[16];
  double g, k;
  int rc = str(o, "algo", c->algo, sizeof c->algo) || str(o, "preset", c->preset, sizeof c->preset) ||
           str(o, "node", node, sizeof node) || str(o, "fabric", fabric, sizeof fabric) ||
           str(o, "notes", c->notes, sizeof c->notes) || num(o, "gpus_per_node", 1, &g) || num(o, "nics", 1, &k) ||
           num(o, pnames[FIT_P_GPU_BW], 1, &t->gpu_bw) || num(o, pnames[FIT_P_GPU_LAT], 0, &t->gpu_lat) ||
           num(o, pnames[FIT_P_NIC_BW], 1, &t->nic_bw) || num(o, pnames[FIT_P_NIC_LAT], 0, &t->nic_lat) ||
           num(o, "oversubscription", 1, &t->oversub) || num(o, pnames[FIT_P_HALF], 0, &c->half) ||
           num(o, pnames[FIT_P_STEEP], 0, &c->steep) || num(o, pnames[FIT_P_LATX], 0, &c->latx) ||
           topo_node_kind_parse(node, &t->node) ||
           (strcmp(fabric, "fattree") != 0 && strcmp(fabric, "switch") != 0);
  if (rc || g > 4096 || k > 64)
    return SA_EPARSE;
  t->gpus = (int)g;
  t->nics = (int)k;
  t->rails = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "rails"));
  t->fabric = strcmp(fabric, "fattree") == 0 ? TOPO_FABRIC_FATTREE : TOPO_FABRIC_SWITCH;
  const cJSON *p = cJSON_GetObjectItemCaseSensitive(o, "compute");
  for (int i = 0; p && i < SA_COMPUTE_N; i++) {
    char why[160];
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(p, sa_compute_name(i));
    if (!x)
      continue; /* left out: none (NCCL's), or written before it existed */
    if (!cJSON_IsNumber(x) || sa_compute_check(i, x->valuedouble, why, sizeof why) != 0)
      return SA_EPARSE;
    *sa_compute_field(&c->compute, i) = x->valuedouble;
  }
  c->has_compute = p != NULL;
  c->has = 1;
  topo_defaults(t);
  return 0;
}

cJSON *fit_cluster_json(const fit_cluster *c, const fit_cluster_opts *o)
{
  fit_cluster_cal cc;
  fit_cluster_cal_of(c, o, "", &cc);
  cJSON *root = fit_cluster_cal_json(&cc), *runs = cJSON_AddArrayToObject(root, "runs");
  cJSON_AddNumberToObject(root, "r2", c->fit.r2);
  cJSON_AddNumberToObject(root, "median_abs_err", c->fit.median_err);
  cJSON_AddNumberToObject(root, "max_abs_err", c->fit.max_err);
  cJSON_AddNumberToObject(root, "min_bytes", o->min_bytes);
  cJSON_AddStringToObject(root, "holdout", o->holdout == 1 ? "odd" : o->holdout == 2 ? "even" : "none");
  cJSON *fr = cJSON_AddArrayToObject(root, "fitted"), *ab = cJSON_AddArrayToObject(root, "at_bound");
  for (int i = 0; i < FIT_NPARAM; i++) {
    if (!c->fit.free[i] || fit_cparam_unused(&c->fit, i, c->runs, c->nruns))
      continue; /* left at its start: nothing fitted reads it */
    cJSON_AddItemToArray(fr, cJSON_CreateString(pnames[i]));
    if (fit_cfit_at_bound(&c->fit, i))
      cJSON_AddItemToArray(ab, cJSON_CreateString(pnames[i]));
  }
  for (int r = 0; r < c->nruns; r++) {
    cJSON *ro = cJSON_CreateObject(), *pts = cJSON_CreateArray();
    cJSON_AddStringToObject(ro, "label", c->runs[r].label);
    cJSON_AddNumberToObject(ro, "nodes", c->runs[r].nodes);
    cJSON_AddNumberToObject(ro, "gpus_per_node", c->runs[r].gpus);
    for (int i = 0; i < c->runs[r].n; i++) {
      const fit_cpoint *p = &c->runs[r].pt[i];
      cJSON *po = cJSON_CreateObject();
      cJSON_AddNumberToObject(po, "bytes", p->bytes);
      cJSON_AddNumberToObject(po, "measured_s", p->measured_s);
      cJSON_AddNumberToObject(po, "model_s", p->model_s);
      cJSON_AddNumberToObject(po, "rel_err", (p->model_s - p->measured_s) / p->measured_s);
      cJSON_AddBoolToObject(po, "fitted", p->used);
      if (p->outlier)
        cJSON_AddBoolToObject(po, "outlier", 1);
      cJSON_AddItemToArray(pts, po);
    }
    cJSON_AddItemToObject(ro, "points", pts);
    cJSON_AddItemToArray(runs, ro);
  }
  return root;
}

/* Appends each line of text behind a prefix to buf (n bytes used); the bytes used after. */
static size_t append_lines(char *buf, size_t len, size_t n, const char *prefix, const char *text)
{
  for (const char *a = text; *a && n < len;) {
    const char *e = strchr(a, '\n');
    n += (size_t)snprintf(buf + n, len - n, "%s%.*s\n", prefix, (int)(e ? e - a : (long)strlen(a)), a);
    a = e ? e + 1 : a + strlen(a);
  }
  return n;
}

/* What the logs' tuning lines say NCCL ran, a line per run that has it (topo/fit_ran.h), into
 * buf at n, for simallreduce to run the same: the sizes fitted with the choice they ran, in
 * NCCL_ALGO's and NCCL_PROTO's names. The bytes used after. */
static size_t ran_lines(const fit_cluster *c, char *buf, size_t len, size_t n)
{
  for (int i = 0; i < c->nruns && n < len; i++) {
    topo_ran r = {.nodes = c->runs[i].nodes, .gpus = c->runs[i].gpus};
    for (int j = 0; j < c->runs[i].n; j++) {
      const fit_cpoint *p = &c->runs[i].pt[j];
      char ran[80];
      if (!p->ran_algos)
        continue;
      nccl_env_ran_format(p->ran_algos, p->ran_protos, p->ran_channels, ran, sizeof ran);
      if (topo_ran_add(&r, p->bytes, ran) != 0)
        break;
    }
    char line[2048];
    if (r.n > 0 && topo_ran_format(&r, line, sizeof line) < (int)sizeof line)
      n += (size_t)snprintf(buf + n, len - n, "     %s\n", line);
  }
  return n;
}

/* What the fit saw, as the platform's comment says it (topo/fit_cover.h): the shapes of the
 * runs, the sizes it fitted, what NCCL_ALGO and NCCL_PROTO left NCCL, whose release's choice it
 * modelled. 1 with the line in buf,
 * 0 when no point was fitted. */
static int cover_of(const fit_cluster *c, char *buf, size_t len)
{
  topo_cover cv;
  memset(&cv, 0, sizeof cv);
  snprintf(cv.algo, sizeof cv.algo, "%s", c->fit.algo);
  if (c->fit.nccl_algos)
    nccl_env_format(NCCL_ENV_ALGO, c->fit.nccl_algos, cv.nccl_algo, sizeof cv.nccl_algo);
  if (c->fit.nccl_protos)
    nccl_env_format(NCCL_ENV_PROTO, c->fit.nccl_protos, cv.nccl_proto, sizeof cv.nccl_proto);
  if (cost_is_nccl(c->fit.algo) && c->fit.nccl_version)
    snprintf(cv.nccl_version, sizeof cv.nccl_version, "%s", c->fit.nccl_version->name);
  int any = 0;
  for (int i = 0; i < c->nruns; i++)
    for (int j = 0; j < c->runs[i].n; j++) {
      const fit_cpoint *p = &c->runs[i].pt[j];
      if (!p->used)
        continue;
      if (topo_cover_add_shape(&cv, c->runs[i].nodes, c->runs[i].gpus) != 0)
        return 0; /* more shapes than a line lists: say nothing rather than a part */
      cv.min_bytes = any && cv.min_bytes < p->bytes ? cv.min_bytes : p->bytes;
      cv.max_bytes = any && cv.max_bytes > p->bytes ? cv.max_bytes : p->bytes;
      any = 1;
    }
  return any && topo_cover_format(&cv, buf, len) < (int)len;
}

void fit_cluster_cal_of(const fit_cluster *c, const fit_cluster_opts *o, const char *sources, fit_cluster_cal *out)
{
  const fit_cfit *x = &c->fit;
  memset(out, 0, sizeof *out);
  out->has = 1;
  out->topo = x->topo;
  out->has_compute = x->has_compute;
  out->compute = x->compute;
  out->half = x->half;
  out->steep = x->steep;
  out->latx = x->latx;
  snprintf(out->algo, sizeof out->algo, "%s", x->algo);
  snprintf(out->preset, sizeof out->preset, "%s", c->preset->name);
  fit_cerr u = fit_cfit_errors(c->runs, c->nruns, 1, 0);
  size_t n = (size_t)snprintf(out->notes, sizeof out->notes,
                              "     Fitted by simcalib to %s: the %s cost model at each run's shape reproduces its\n"
                              "     %s times (nccl-tests timing) with |error| median %.2f%%, max %.2f%% over %d points\n"
                              "     (r2 %.5f). ",
                              sources, x->algo, o->inplace ? "in-place" : "out-of-place", 100 * u.median, 100 * u.max,
                              u.n, x->r2);
  if (x->half > 0 && n < sizeof out->notes)
    n += (size_t)snprintf(out->notes + n, sizeof out->notes - n,
                          "The ramp e(s) = 1/(1+(%.4g/s)^%.3g) of a link's rate for a message of s\n"
                          "     bytes is smpi/bw-factor, the latency's 1 + (%.3g - 1) e(s) smpi/lat-factor. ",
                          x->half, x->steep, x->latx);
  else if (n < sizeof out->notes)
    n += (size_t)snprintf(out->notes + n, sizeof out->notes - n,
                          "No ramp: NCCL's protocols, fitted as the device's, stand for it.\n     ");
  if (n < sizeof out->notes)
    n += (size_t)snprintf(out->notes + n, sizeof out->notes - n, "Starting point: the %s preset.\n", c->preset->name);
  char cover[256];
  if (cover_of(c, cover, sizeof cover) && n < sizeof out->notes)
    n += (size_t)snprintf(out->notes + n, sizeof out->notes - n, "     %s\n", cover);
  n = ran_lines(c, out->notes, sizeof out->notes, n);
  n = append_lines(out->notes, sizeof out->notes, n, "     Assumed: ", c->assumed);
  n = append_lines(out->notes, sizeof out->notes, n, "     At a bound: ", c->bounds);
  n = append_lines(out->notes, sizeof out->notes, n, "     Far below: ", c->below);
  n = append_lines(out->notes, sizeof out->notes, n, "     Far above: ", c->above);
  append_lines(out->notes, sizeof out->notes, n, "     NCCL ran: ", c->ran);
}
