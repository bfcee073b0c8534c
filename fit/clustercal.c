/* clustercal.c: measured runs -> a fitted cluster (clustercal.h). */
#include "clustercal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"
#include "util/sizes.h"
#include "nccl/nccl_proto.h"
#include "models/cost.h"

int fit_cluster_option(fit_cluster_opts *o, const char *name, const char *value)
{
  char why[256];
  uint64_t b;
  if (strcmp(name, "fit-algo") == 0) {
    if (!cost_has_model(value)) {
      fprintf(stderr, "simcalib: --fit-algo %s: no cost model of that name (ring, hier, tree, twotree, rhd, naive)\n",
              value);
      return SA_EINVAL;
    }
    o->algo = value;
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
  } else {
    return 0;
  }
  return 1;
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
    out->pt[out->n++] = (fit_cpoint){p->bytes, p->time_s, p->bytes >= o->min_bytes, 0, 0, -1};
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

/* Where a collective of NCCL's starts, and what its protocols take on the GPU: the fit's
 * starting values, a little beyond what the links alone give, NCCL 2.26.2's figures where it
 * has them (src/graph/tuning.cc: baseLat 6.6-14 us, llMaxBw 87.7 GB/s of bus bandwidth on
 * one Ampere node, two wire bytes per data byte). */
#define START_LAUNCH 10e-6
#define START_LL_BW 175e9

/* The fit of NCCL's algorithms: the links at their own rates (no ramp: the protocols' slices
 * are what the ramp stood for), the sums charged as the simulation charges them, and the
 * start of a collective and the rates a GPU writes each protocol's lines at, fitted. */
static void nccl_protocols(fit_cluster *c, fit_cfit *f, int single, int multi)
{
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
  /* the rates a GPU writes the protocols at show on one node; across nodes the NICs bound,
   * and a multi-node log alone leaves the GPU free of them */
  for (int i = FIT_P_LAUNCH; i <= FIT_P_SIMPLE_LAT; i++)
    f->free[i] = single > 0 || (i != FIT_P_LL && i != FIT_P_LL128 && i != FIT_P_SIMPLE);
  if (!single)
    f->compute.ll_bw = f->compute.ll128_bw = f->compute.simple_bw = 0;
  note(c, "NCCL's algorithm: %s, with NCCL 2.26.2's choice of protocol and channels at each size%s\n", f->algo, "");
  note(c, "sums: charged on the GPU as the simulation charges them (%s's memory)%s\n", c->preset->name, "");
}

int fit_cluster_calibrate(const md_data *d, const fit_cluster_opts *o, fit_cluster *c, char *err, size_t errlen)
{
  memset(c, 0, sizeof *c);
  c->runs = calloc(d->nruns + 1, sizeof *c->runs);
  if (!c->runs)
    return SA_ENOMEM;
  const char *model = NULL;
  int single = 0, multi = 0;
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
  f->algo = o->algo;
  topo_preset_cluster(c->preset, 1, &f->topo);
  if (strncmp(o->algo, "nccl", 4) == 0) {
    nccl_protocols(c, f, single, multi);
  } else {
    note(c, "NCCL's algorithm: the logs do not say which it ran; fitted as if it were %s%s\n", o->algo, "");
    ramp(c, f, single, multi);
  }
  int rc = fit_cfit_run(f, c->runs, c->nruns);
  if (rc == SA_ENODATA)
    snprintf(err, errlen, "too few points for the parameters to fit: give more sizes (or a smaller --min-bytes)");
  else if (rc)
    snprintf(err, errlen, "the fit failed: %s", sa_strerror(rc));
  return rc;
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
  /* one ring crosses between two nodes through one GPU pair, where NCCL's rings cross
   * through every NIC of the node at once: fitted as one ring, a NIC's rate is theirs
   * together, which is where the fit starts it */
  if (strcmp(f->algo, "ring") == 0 && multi > 0) {
    f->topo.nic_bw *= f->topo.nics;
    note(c, "the NIC rate, fitted for one ring, is what NCCL's rings get through the NICs of a node together%s%s\n", "",
         "");
  }
}

void fit_cluster_free(fit_cluster *c)
{
  for (int i = 0; c->runs && i < c->nruns; i++)
    free(c->runs[i].pt);
  free(c->runs);
  memset(c, 0, sizeof *c);
}

static const char *const pnames[FIT_NPARAM] = {"gpu_bw_Bps",      "gpu_lat_s",      "nic_bw_Bps",      "nic_lat_s",
                                                "ramp_half_bytes", "ramp_steepness", "ramp_latency_x", "launch_lat",
                                                "ll_bw",           "ll128_bw",       "simple_bw",  "ll128_lat", "simple_lat"};

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
  fprintf(f, "# node %s (%s): GPU link %.4g GB/s per direction, %.4g us%s; %d NICs %.4g GB/s, %.4g us%s\n",
          topo_node_kind_name(x->topo.node), c->preset->name, x->topo.gpu_bw / 1e9, x->topo.gpu_lat * 1e6,
          x->free[FIT_P_GPU_BW] ? "" : x->quick ? " (the server's)" : " (not fitted: no single-node run)", x->topo.nics,
          x->topo.nic_bw / 1e9, x->topo.nic_lat * 1e6, x->free[FIT_P_NIC_BW] ? "" : " (not fitted: no multi-node run)");
  if (x->half <= 0) {
    char desc[512];
    sa_compute_describe(&x->compute, desc, sizeof desc);
    fprintf(f, "# no ramp; device: %s\n", desc);
  } else
    fprintf(f, "# ramp: a message of s bytes moves at e(s) = 1/(1+(%.4g/s)^%.3g) of its link's rate (%.0f%% at 1 MiB, %.0f%% "
             "at 64 MiB), its latency going from 1 to %.3g times the links' as e(s) goes from 0 to 1\n",
          x->half, x->steep, 100 / (1 + pow(x->half / 1048576, x->steep)), 100 / (1 + pow(x->half / 67108864, x->steep)),
          x->latx);
  for (const char *a = c->assumed; *a;) {
    const char *e = strchr(a, '\n');
    fprintf(f, "# assumed: %.*s\n", (int)(e ? e - a : (long)strlen(a)), a);
    a = e ? e + 1 : a + strlen(a);
  }
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
  cJSON *fr = cJSON_AddArrayToObject(root, "fitted");
  for (int i = 0; i < FIT_NPARAM; i++)
    if (c->fit.free[i])
      cJSON_AddItemToArray(fr, cJSON_CreateString(pnames[i]));
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
  for (const char *a = c->assumed; *a && n < sizeof out->notes;) {
    const char *e = strchr(a, '\n');
    n += (size_t)snprintf(out->notes + n, sizeof out->notes - n, "     Assumed: %.*s\n", (int)(e ? e - a : (long)strlen(a)),
                          a);
    a = e ? e + 1 : a + strlen(a);
  }
  if (n < sizeof out->notes && strcmp(x->algo, "ring") == 0)
    snprintf(out->notes + n, sizeof out->notes - n,
             "     With one ring fitted to NCCL's many (a channel per NVLink set and rail), the NIC rate is\n"
             "     what one ring needs to match NCCL's time, not the NIC's own: compare other algorithms on\n"
             "     this platform with that in mind.");
}
