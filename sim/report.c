/* report.c: prints and writes results. */
#include "report.h"
#include "common/sa_error.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/sizes.h"

double sim_point_time(const sim_point *p) { return p->simulated ? p->time_s : p->model_s; }

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

void sim_report_table(FILE *f, const sim_run_info *run, const sim_results *r, int phases)
{
  sim_mode mode = run->models ? run->models->mode : SIM_MODE_SIM;
  int both = mode == SIM_MODE_BOTH, sim = mode != SIM_MODE_MODEL;
  fprintf(f, "# platform %s: %d node%s x %d rank%s = %d ranks, %s\n", run->platform, run->nodes,
           run->nodes == 1 ? "" : "s", run->ranks_per_node, run->ranks_per_node == 1 ? "" : "s", run->ranks,
           sim ? r->mode : "predicted by the cost models (no simulation)");
  if (run->timing && strcmp(run->timing, "barrier") != 0)
    fprintf(f, "# timing %s: steady state of back-to-back allreduces, no start skew\n", run->timing);
  fprintf(f, "# %12s %12s %6s %10s %14s %12s %12s", "size", "count", "type", "algo", sim ? "time(us)" : "model(us)",
          "algbw(GB/s)", "busbw(GB/s)");
  if (both)
    fprintf(f, " %14s %8s", "model(us)", "diff%");
  fprintf(f, sim ? " %9s\n" : "\n", "verified");
  for (int i = 0; i < r->npoints; i++) {
    const sim_point *p = &r->points[i];
    fprintf(f, "  %12llu %12llu %6s %10s", (unsigned long long)p->bytes, (unsigned long long)p->count, p->dtype,
            p->algo);
    if (isnan(sim_point_time(p))) /* a model-only point of an algorithm without a model */
      fprintf(f, " %14s %12s %12s", "-", "-", "-");
    else
      fprintf(f, " %14.2f %12.3f %12.3f", sim_point_time(p) * 1e6, sim_algbw(p), sim_busbw(p, run->ranks));
    if (both && !isnan(p->model_s))
      fprintf(f, " %14.2f %+8.2f", p->model_s * 1e6, 100 * (p->model_s - p->time_s) / p->time_s);
    else if (both)
      fprintf(f, " %14s %8s", "-", "-");
    fprintf(f, sim ? " %9s\n" : "\n", verified_text(p->verified));
  }
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
  for (int i = 0; phases && i < r->npoints; i++) {
    const sim_point *p = &r->points[i];
    char sz[32];
    sim_format_size(p->bytes, sz, sizeof sz);
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
  if (mode != SIM_MODE_SIM)
    sim_report_models_table(f, run, r);
  if (sim)
    fprintf(f, "# %s in %.2f s of wall time\n", strcmp(r->mode, "simulated") == 0 ? "simulated" : "ran",
            run->wall_s);
}

static cJSON *point_json(const sim_run_info *run, const sim_point *p, int ranks)
{
  cJSON *o = cJSON_CreateObject(), *ph = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "algo", p->algo);
  cJSON_AddNumberToObject(o, "bytes", (double)p->bytes);
  cJSON_AddNumberToObject(o, "count", (double)p->count);
  cJSON_AddStringToObject(o, "dtype", p->dtype);
  if (p->simulated)
    cJSON_AddNumberToObject(o, "time_s", p->time_s);
  else
    cJSON_AddNullToObject(o, "time_s");
  cJSON_AddNumberToObject(o, "algbw_GBps", sim_algbw(p));
  cJSON_AddNumberToObject(o, "busbw_GBps", sim_busbw(p, ranks));
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
  if (p->sparse) {
    cJSON_AddNumberToObject(o, "density", p->density);
    cJSON_AddNumberToObject(o, "k", (double)p->k);
    if (p->sparse_rel_err >= 0)
      cJSON_AddNumberToObject(o, "sparse_rel_err", p->sparse_rel_err);
  }
  sim_report_models_point(o, run, p);
  return o;
}

static int write_text(const char *path, const char *text)
{
  FILE *f = fopen(path, "w");
  if (!f)
    return SA_EIO;
  int ok = fputs(text, f) >= 0;
  return fclose(f) == 0 && ok ? 0 : SA_EIO;
}

int sim_report_json(const char *path, const sim_run_info *run, const sim_results *r)
{
  cJSON *root = cJSON_CreateObject(), *list = cJSON_CreateArray(), *comp = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "platform", run->platform);
  cJSON_AddStringToObject(root, "platform_file", run->platform_path);
  cJSON_AddNumberToObject(root, "ranks", run->ranks);
  cJSON_AddNumberToObject(root, "nodes", run->nodes);
  cJSON_AddNumberToObject(root, "ranks_per_node", run->ranks_per_node);
  cJSON_AddStringToObject(root, "mode", r->mode);
  cJSON_AddStringToObject(root, "timing", run->timing ? run->timing : "barrier");
  for (int i = 0; i < SA_COMPUTE_N; i++)
    cJSON_AddNumberToObject(comp, sa_compute_name(i), sa_compute_get(&r->compute, i));
  cJSON_AddItemToObject(root, "compute", comp);
  for (int i = 0; i < r->npoints; i++)
    cJSON_AddItemToArray(list, point_json(run, &r->points[i], run->ranks));
  cJSON_AddItemToObject(root, "results", list);
  sim_report_models_json(root, run);
  char *text = cJSON_Print(root);
  cJSON_Delete(root);
  int rc = text ? write_text(path, text) : SA_ENOMEM;
  free(text);
  return rc;
}

int sim_report_csv(const char *path, const sim_run_info *run, const sim_results *r)
{
  FILE *f = fopen(path, "w");
  if (!f)
    return SA_EIO;
  fprintf(f, "platform,nodes,ranks_per_node,ranks,algo,bytes,count,dtype,time_s,algbw_GBps,busbw_GBps,verified,"
             "max_abs_err,density,k,phases,model_time_s,nccl_ring_s,nccl_tree_s\n");
  for (int i = 0; i < r->npoints; i++) {
    const sim_point *p = &r->points[i];
    fprintf(f, "%s,%d,%d,%d,%s,%llu,%llu,%s,", run->platform, run->nodes, run->ranks_per_node, run->ranks, p->algo,
            (unsigned long long)p->bytes, (unsigned long long)p->count, p->dtype);
    if (p->simulated)
      fprintf(f, "%.17g", p->time_s);
    fprintf(f, ",%.17g,%.17g,%s,", sim_algbw(p), sim_busbw(p, run->ranks),
            p->verified < 0 ? "" : p->verified ? "true" : "false");
    if (p->verified >= 0)
      fprintf(f, "%.17g", p->max_abs_err);
    fputc(',', f);
    if (p->sparse)
      fprintf(f, "%.17g,%lld", p->density, p->k);
    else
      fputc(',', f);
    fputc(',', f);
    for (int k = 0; k < p->nphases; k++)
      fprintf(f, "%s%s=%.17g", k ? ";" : "", p->phase_name[k], p->phase_s[k]);
    /* empty fields where there is no prediction */
    const double extra[] = {p->model_s, p->nccl_ring_s, p->nccl_tree_s};
    for (int k = 0; k < 3; k++) {
      fputc(',', f);
      if (run->models && run->models->mode != SIM_MODE_SIM && !isnan(extra[k]))
        fprintf(f, "%.17g", extra[k]);
    }
    fputc('\n', f);
  }
  return fclose(f) == 0 ? 0 : SA_EIO;
}
