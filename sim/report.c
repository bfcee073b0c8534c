/* report.c: prints and writes results: the table row by row as points arrive, its tail, the
 * final JSON document. The CSV is in report_csv.c. */
#include "report.h"
#include "common/sa_error.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nccl/nccl_env.h"
#include "util/sizes.h"
#include "util/outfile.h"
#include "util/textclean.h"
#include "outside_fit.h"
#include "training.h"

double sim_point_time(const sim_point *p) { return p->simulated ? p->time_s : p->model_s; }

double sim_point_slowdown(const sim_run_info *run, const sim_point *p)
{
  return run->whatif && p->healthy_s > 0 ? sim_point_time(p) / p->healthy_s : NAN;
}

double sim_algbw(const sim_point *p)
{
  double t = sim_point_time(p);
  return t > 0 ? (double)p->bytes / t / 1e9 : 0;
}

double sim_busbw(const sim_point *p, int ranks)
{
  return ranks > 0 ? sim_algbw(p) * 2.0 * (ranks - 1) / ranks : 0;
}

static const char *verified_text(int v) { return v < 0 ? "-" : v ? "yes" : "NO"; }

sim_mode sim_run_mode(const sim_run_info *run) { return run->models ? run->models->mode : SIM_MODE_SIM; }

/* --timing nccl-tests (or any but barrier): allreduces back to back, each rank timed alone */
static int steady(const sim_run_info *run) { return run->timing && strcmp(run->timing, "barrier") != 0; }

void sim_report_table_head(FILE *f, const sim_run_info *run, const char *mode)
{
  sim_mode m = sim_run_mode(run);
  int sim = m != SIM_MODE_MODEL;
  fprintf(f, "# platform %s: %d node%s x %d rank%s = %d ranks, %s\n", run->platform, run->nodes,
          run->nodes == 1 ? "" : "s", run->ranks_per_node, run->ranks_per_node == 1 ? "" : "s", run->ranks,
          sim ? mode : "predicted by the cost models (no simulation)");
  if (steady(run))
    fprintf(f, "# timing %s: steady state of back-to-back allreduces, no start skew\n", run->timing);
  if (run->whatif)
    fprintf(f, "# what-if: %s; healthy: the same points without them\n", run->whatif);
  if (run->opts && run->opts->nccl && !run->opts->nccl_version_given && run->cover && run->cover->nccl_version[0] &&
      strcmp(run->opts->nccl_version->name, run->cover->nccl_version) == 0)
    fprintf(f, "# NCCL's choice: %s's, the release the platform's fit modelled (--nccl-version for another)\n",
            run->cover->nccl_version);
  fprintf(f, "# %12s %12s %6s %10s %14s %12s %12s", "size", "count", "type", "algo", sim ? "time(us)" : "model(us)",
          "algbw(GB/s)", "busbw(GB/s)");
  if (run->whatif)
    fprintf(f, " %14s %9s", "healthy(us)", "slowdown");
  if (m == SIM_MODE_BOTH)
    fprintf(f, " %14s %8s", "model(us)", "diff%");
  if (sim)
    fprintf(f, " %9s", "verified");
  fprintf(f, run->opts && run->opts->nccl ? "  %s\n" : "\n", "nccl");
}

void sim_report_table_row(FILE *f, const sim_run_info *run, const sim_point *p)
{
  sim_mode m = sim_run_mode(run);
  fprintf(f, "  %12llu %12llu %6s %10s", (unsigned long long)p->bytes, (unsigned long long)p->count, p->dtype, p->algo);
  if (isnan(sim_point_time(p))) /* a model-only point of an algorithm without a model */
    fprintf(f, " %14s %12s %12s", "-", "-", "-");
  else
    fprintf(f, " %14.2f %12.3f %12.3f", sim_point_time(p) * 1e6, sim_algbw(p), sim_busbw(p, run->ranks));
  double slowdown = sim_point_slowdown(run, p);
  if (!isnan(slowdown)) {
    char slow[32];
    snprintf(slow, sizeof slow, "x%.2f", slowdown);
    fprintf(f, " %14.2f %9s", p->healthy_s * 1e6, slow);
  } else if (run->whatif)
    fprintf(f, " %14s %9s", "-", "-");
  if (m == SIM_MODE_BOTH && !isnan(p->model_s))
    fprintf(f, " %14.2f %+8.2f", p->model_s * 1e6, 100 * (p->model_s - p->time_s) / p->time_s);
  else if (m == SIM_MODE_BOTH)
    fprintf(f, " %14s %8s", "-", "-");
  if (m != SIM_MODE_MODEL)
    fprintf(f, " %9s", verified_text(p->verified));
  /* what NCCL's algorithms ran: algorithm/protocol/channels */
  fprintf(f, run->opts && run->opts->nccl ? "  %s\n" : "\n", p->nccl[0] ? p->nccl : "-");
}

static void print_sparse(FILE *f, const sim_results *r)
{
  int sparse = 0;
  for (int i = 0; i < r->npoints; i++)
    if (r->points[i].sparse) {
      const sim_point *p = &r->points[i];
      if (!sparse++)
        fprintf(f, "# top-k rows: busbw is dense-equivalent (from the dense size); the result is a sparsified sum\n");
      fprintf(f, "# %s at %llu bytes: density %g, k = %lld per selection", p->algo, (unsigned long long)p->bytes,
              p->density, p->k);
      if (p->sparse_rel_err >= 0)
        fprintf(f, ", relative error against the dense sum %.4g", p->sparse_rel_err);
      fputc('\n', f);
    }
}

static void print_phases(FILE *f, sim_mode mode, const sim_point *p)
{
  int sim = mode != SIM_MODE_MODEL;
  char sz[32];
  util_format_size(p->bytes, sz, sizeof sz);
  if (sim) {
    fprintf(f, "# phases of %s at %s (us):", p->algo, sz);
    for (int k = 0; k < p->nphases; k++)
      fprintf(f, "  %s %.2f (%.1f%%)", p->phase_name[k], p->phase_s[k] * 1e6,
              p->time_s > 0 ? 100 * p->phase_s[k] / p->time_s : 0);
    fprintf(f, "%s\n", p->nphases ? "" : "  (none recorded)");
  }
  if (mode != SIM_MODE_SIM && p->model_nphases) {
    fprintf(f, sim ? "#   model:" : "# phases of %s at %s (us, model):", p->algo, sz);
    for (int k = 0; k < p->model_nphases; k++)
      fprintf(f, "  %s %.2f (%.1f%%)", p->model_phase_name[k], p->model_phase_s[k] * 1e6,
              p->model_s > 0 ? 100 * p->model_phase_s[k] / p->model_s : 0);
    fputc('\n', f);
  }
}

void sim_report_table_tail(FILE *f, const sim_run_info *run, const sim_results *r, int phases)
{
  sim_mode mode = sim_run_mode(run);
  print_sparse(f, r);
  for (int i = 0; phases && i < r->npoints; i++)
    print_phases(f, mode, &r->points[i]);
  for (int i = 0; run->links && i < r->npoints; i++) {
    char sz[32];
    util_format_size(r->points[i].bytes, sz, sizeof sz);
    if (r->points[i].simulated)
      sim_links_print(f, r->points[i].algo, sz, &r->points[i].links, run->links,
                      steady(run) ? r->points[i].time_s : 0);
  }
  if (mode != SIM_MODE_SIM)
    sim_report_models_table(f, run, r);
  if (run->training)
    sim_training_table(f, run->training, r, run->ranks);
  if (mode != SIM_MODE_MODEL)
    fprintf(f, "# %s in %.2f s of wall time\n", strcmp(r->mode, "simulated") == 0 ? "simulated" : "ran",
            run->wall_s);
}

/* A bandwidth, or null where there is no time (an algorithm without a model, --mode model). */
static void add_bw(cJSON *o, const char *key, const sim_point *p, double v)
{
  if (isnan(sim_point_time(p)))
    cJSON_AddNullToObject(o, key);
  else
    cJSON_AddNumberToObject(o, key, v);
}

cJSON *sim_report_point_json(const sim_run_info *run, const sim_point *p)
{
  cJSON *o = cJSON_CreateObject(), *ph = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "algo", p->algo);
  if (p->nccl[0])
    cJSON_AddStringToObject(o, "nccl", p->nccl);
  cJSON_AddNumberToObject(o, "bytes", (double)p->bytes);
  cJSON_AddNumberToObject(o, "count", (double)p->count);
  cJSON_AddStringToObject(o, "dtype", p->dtype);
  if (p->simulated)
    cJSON_AddNumberToObject(o, "time_s", p->time_s);
  else
    cJSON_AddNullToObject(o, "time_s");
  add_bw(o, "algbw_GBps", p, sim_algbw(p));
  add_bw(o, "busbw_GBps", p, sim_busbw(p, run->ranks));
  if (p->verified < 0) {
    cJSON_AddNullToObject(o, "verified");
    cJSON_AddNullToObject(o, "max_abs_err");
  } else {
    cJSON_AddBoolToObject(o, "verified", p->verified);
    cJSON_AddNumberToObject(o, "max_abs_err", p->max_abs_err);
  }
  for (int k = 0; k < p->nphases; k++)
    cJSON_AddNumberToObject(ph, p->phase_name[k], p->phase_s[k]);
  cJSON_AddItemToObject(o, "phases", ph);
  if (run->cover)
    sim_outside_fit_json(o, run->cover, run->opts, run->nodes, run->ranks_per_node, p->algo, p->bytes);
  if (p->sparse) {
    cJSON_AddNumberToObject(o, "density", p->density);
    cJSON_AddNumberToObject(o, "k", (double)p->k);
    if (p->sparse_rel_err >= 0)
      cJSON_AddNumberToObject(o, "sparse_rel_err", p->sparse_rel_err);
  }
  if (!isnan(sim_point_slowdown(run, p))) {
    cJSON_AddNumberToObject(o, "healthy_time_s", p->healthy_s);
    cJSON_AddNumberToObject(o, "slowdown", sim_point_slowdown(run, p));
  }
  if (p->simulated && !isnan(p->next_clock_s)) /* where --resume starts the point after it */
    cJSON_AddNumberToObject(o, "next_clock_s", p->next_clock_s);
  if (run->links && p->simulated)
    sim_links_json(o, &p->links);
  sim_report_models_point(o, run, p);
  return o;
}

cJSON *sim_report_options(const sim_opts *o)
{
  cJSON *opt = cJSON_CreateObject(), *cfg = cJSON_CreateArray();
  cJSON_AddStringToObject(opt, "dtype", kn_dtype_name(o->dtype));
  cJSON_AddNumberToObject(opt, "segment", (double)o->segment);
  cJSON_AddNumberToObject(opt, "channels", o->channels);
  char set[64];
  nccl_env_format(NCCL_ENV_PROTO, o->nccl_protos, set, sizeof set);
  cJSON_AddStringToObject(opt, "proto", set);
  nccl_env_format(NCCL_ENV_ALGO, o->nccl_algos, set, sizeof set);
  cJSON_AddStringToObject(opt, "nccl_algo", set);
  cJSON_AddStringToObject(opt, "nccl_version", o->nccl_version->name);
  cJSON_AddNumberToObject(opt, "density", o->density);
  cJSON_AddNumberToObject(opt, "overlap", o->overlap);
  cJSON_AddBoolToObject(opt, "verify", o->verify);
  cJSON_AddStringToObject(opt, "timing", sim_timing_name(o->timing));
  for (int i = 0; i < o->ncfg; i++)
    cJSON_AddItemToArray(cfg, cJSON_CreateString(o->cfg[i]));
  cJSON_AddItemToObject(opt, "cfg", cfg);
  return opt;
}

cJSON *sim_report_head_json(const sim_run_info *run, const char *mode, double wall_s)
{
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "platform", run->platform);
  cJSON_AddStringToObject(root, "platform_file", run->platform_path);
  cJSON_AddNumberToObject(root, "ranks", run->ranks);
  cJSON_AddNumberToObject(root, "nodes", run->nodes);
  cJSON_AddNumberToObject(root, "ranks_per_node", run->ranks_per_node);
  cJSON_AddStringToObject(root, "mode", mode);
  cJSON_AddStringToObject(root, "run_mode", sim_mode_name(sim_run_mode(run)));
  cJSON_AddStringToObject(root, "timing", run->timing ? run->timing : "barrier");
  if (run->whatif)
    cJSON_AddStringToObject(root, "what_if", run->whatif);
  if (run->opts)
    cJSON_AddItemToObject(root, "options", sim_report_options(run->opts));
  if (run->prov)
    cJSON_AddItemToObject(root, "provenance", sim_provenance_json(run->prov, wall_s));
  if (run->cover)
    cJSON_AddItemToObject(root, "fit_cover", sim_fit_cover_json(run->cover));
  return root;
}

void sim_report_compute_json(cJSON *root, const sa_compute *c)
{
  cJSON *comp = cJSON_CreateObject();
  for (int i = 0; i < SA_COMPUTE_N; i++)
    if (sa_compute_written(c, i))
      cJSON_AddNumberToObject(comp, sa_compute_name(i), sa_compute_get(c, i));
  cJSON_AddItemToObject(root, "compute", comp);
}

int sim_report_json(const char *path, const sim_run_info *run, const sim_results *r, double wall_s, char *err,
                    size_t errlen)
{
  cJSON *root = sim_report_head_json(run, r->mode, wall_s), *list = cJSON_CreateArray();
  sim_report_compute_json(root, &r->compute);
  for (int i = 0; i < r->npoints; i++)
    cJSON_AddItemToArray(list, sim_report_point_json(run, &r->points[i]));
  cJSON_AddItemToObject(root, "results", list);
  sim_report_models_json(root, run, r);
  if (run->training)
    cJSON_AddItemToObject(root, "training", sim_training_json(run->training, r, run->ranks));
  char *text = util_json_utf8(root) == 0 ? cJSON_Print(root) : NULL;
  cJSON_Delete(root);
  int rc = text ? util_outfile_write(path, text, strlen(text), err, errlen) : SA_ENOMEM;
  if (rc == SA_ENOMEM)
    snprintf(err, errlen, "out of memory");
  free(text);
  return rc;
}
