/* report_models.c: the cost models' part of a report: their parameters, NCCL's reference
 * predictions, the --algo best decision table, and their JSON keys. */
#include <math.h>
#include <string.h>

#include "report.h"
#include "util/sizes.h"

static const sim_model *models_of(const sim_run_info *run)
{
  return run->models && run->models->mode != SIM_MODE_SIM ? run->models->model : NULL;
}

/* How NCCL's slices cross (topo/sg_latency.h): back to back, or one at a time where
 * smpi/lat-factor is set and SimGrid refuses the runner's way. */
static const char *slices(const sim_model *m)
{
  return m->net->late_latency ? "back to back" : "one at a time (smpi/lat-factor is set: docs/nccl.md)";
}

static void print_params(FILE *f, const sim_model *m)
{
  const cost_params *p = &m->params;
  fprintf(f, "# model parameters (from the platform's routes):");
  if (!isnan(p->alpha_intra))
    fprintf(f, " intra-node %.2f us, %.2f GB/s;", p->alpha_intra * 1e6, 1e-9 / p->beta_intra);
  if (!isnan(p->alpha_inter) && p->rpn > 1)
    fprintf(f, " inter-node %.2f us, %.2f GB/s alone, %.3f GB/s each with the %d ranks of a node sending (%d per link);",
            p->alpha_inter * 1e6, 1e-9 / p->beta_inter, 1e-9 / p->beta_inter_shared, p->rpn, p->nic_share);
  else if (!isnan(p->alpha_inter))
    fprintf(f, " inter-node %.2f us, %.2f GB/s;", p->alpha_inter * 1e6, 1e-9 / p->beta_inter);
  if (p->gamma > 0)
    fprintf(f, " sums %.1f GB/s;", 1e-9 / p->gamma);
  fprintf(f, " start skew %.2f us\n", p->start_skew_s * 1e6);
  fprintf(f, "# SMPI settings in force: lat-factor %s, bw-factor %s, receive overhead %s; NCCL's slices %s\n",
          m->lat_factor, m->bw_factor, m->recv_overhead, slices(m));
}

/* The NCCL version whose tuning model is shown (--nccl-version). */
static const char *nccl_name(const sim_model *m)
{
  return m->nccl.version ? m->nccl.version->name : nccl_version_default()->name;
}

/* Lines of NCCL's reference at most: a long sweep keeps it in --json and --csv only. */
#define NCCL_MAX_LINES 16

static int first_of_size(const sim_results *r, int i)
{
  for (int j = 0; j < i; j++)
    if (r->points[j].bytes == r->points[i].bytes)
      return 0;
  return !isnan(r->points[i].nccl_ring_s) || !isnan(r->points[i].nccl_tree_s);
}

/* NCCL's predictions depend on the size only: one line per size. */
static void print_nccl(FILE *f, const sim_model *m, const sim_results *r)
{
  int header = 0, sizes = 0, nvls = 0;
  for (int i = 0; i < r->npoints; i++) {
    sizes += first_of_size(r, i);
    nvls |= !isnan(r->points[i].nccl_nvls_s);
  }
  if (sizes > NCCL_MAX_LINES) {
    fprintf(f, "# NCCL %s's own tuning model for the same ranks: in --json and --csv (%d sizes)\n", nccl_name(m),
            sizes);
    return;
  }
  for (int i = 0; i < r->npoints; i++) {
    const sim_point *p = &r->points[i];
    if (!first_of_size(r, i))
      continue;
    if (!header++)
      fprintf(f, "# NCCL %s's own tuning model for the same ranks (reference, any algorithm):\n# %12s %14s %7s %14s %7s%s\n",
              nccl_name(m), "size", "ring(us)", "proto", "tree(us)", "proto", nvls ? "       nvls(us)" : "");
    fprintf(f, "# %12llu %14.2f %7s %14.2f %7s", (unsigned long long)p->bytes, p->nccl_ring_s * 1e6,
            cost_nccl_proto_name(p->nccl_ring_proto), p->nccl_tree_s * 1e6, cost_nccl_proto_name(p->nccl_tree_proto));
    if (nvls)
      fprintf(f, " %14.2f", p->nccl_nvls_s * 1e6);
    fprintf(f, "\n");
  }
}

static void print_best(FILE *f, const sim_report_models *rm)
{
  fprintf(f, "# --algo best: the %s algorithm predicted fastest, by size:\n", rm->allow_sparse ? "dense or sparse" : "dense");
  fprintf(f, "# %12s %12s  %s\n", "from", "to", "algo");
  for (int i = 0; i < rm->nranges; i++) {
    char lo[32], hi[32];
    util_format_size(rm->ranges[i].lo, lo, sizeof lo);
    util_format_size(rm->ranges[i].hi, hi, sizeof hi);
    fprintf(f, "# %12s %12s  %s\n", lo, hi, rm->algos[rm->ranges[i].algo]);
  }
}

/* The largest |model - simulated| / simulated over the points, in %, or NaN (no point has both). */
static double max_diff_pct(const sim_results *r)
{
  double worst = NAN;
  for (int i = 0; i < r->npoints; i++) {
    const sim_point *p = &r->points[i];
    if (p->simulated && p->time_s > 0 && !isnan(p->model_s)) {
      double d = 100 * fabs(p->model_s - p->time_s) / p->time_s;
      worst = isnan(worst) || d > worst ? d : worst;
    }
  }
  return worst;
}

/* The platform outside what the models assume (models/cost_cover.c): one line each, and how
 * far the models were from the simulation when both ran. */
static void print_warnings(FILE *f, const sim_model *m, const sim_results *r)
{
  for (int i = 0; i < m->cover.n; i++)
    fprintf(f, "# warning: %s\n", m->cover.text[i]);
  double d = max_diff_pct(r);
  if (m->cover.n > 0 && !isnan(d))
    fprintf(f, "# warning: here the models differ from the simulation by up to %.1f%%\n", d);
}

void sim_report_models_table(FILE *f, const sim_run_info *run, const sim_results *r)
{
  const sim_model *m = models_of(run);
  if (!m)
    return;
  if (!m->ctx) {
    fprintf(f, "# cost models: none for this platform (%s)\n", m->why);
    return;
  }
  print_warnings(f, m, r);
  print_params(f, m);
  print_nccl(f, m, r);
  if (run->models->nranges > 0)
    print_best(f, run->models);
}

static void add_num(cJSON *o, const char *key, double v)
{
  if (isnan(v) || isinf(v))
    cJSON_AddNullToObject(o, key);
  else
    cJSON_AddNumberToObject(o, key, v);
}

static void warnings_json(cJSON *root, const sim_model *m, const sim_results *r)
{
  if (m->cover.n == 0)
    return;
  cJSON *list = cJSON_CreateArray();
  for (int i = 0; i < m->cover.n; i++) {
    cJSON *w = cJSON_CreateObject();
    cJSON_AddStringToObject(w, "reason", m->cover.text[i]);
    add_num(w, "factor", m->cover.factor[i] > 0 ? m->cover.factor[i] : NAN);
    cJSON_AddItemToArray(list, w);
  }
  cJSON_AddItemToObject(root, "model_warnings", list);
  add_num(root, "model_max_abs_diff_pct", max_diff_pct(r));
}

void sim_report_models_json(cJSON *root, const sim_run_info *run, const sim_results *r)
{
  const sim_model *m = models_of(run);
  if (!m)
    return;
  if (!m->ctx) {
    cJSON_AddNullToObject(root, "model");
    cJSON_AddStringToObject(root, "model_error", m->why);
    return;
  }
  const cost_params *p = &m->params;
  cJSON *o = cJSON_CreateObject();
  add_num(o, "alpha_intra_s", p->alpha_intra);
  add_num(o, "beta_intra_s_per_byte", p->beta_intra);
  add_num(o, "alpha_inter_s", p->alpha_inter);
  add_num(o, "beta_inter_s_per_byte", p->beta_inter);
  add_num(o, "beta_inter_shared_s_per_byte", p->beta_inter_shared);
  cJSON_AddNumberToObject(o, "nic_share", p->nic_share);
  add_num(o, "gamma_s_per_byte", p->gamma);
  add_num(o, "reduce_lat_s", p->reduce_lat);
  add_num(o, "copy_s_per_byte", p->copy_beta);
  add_num(o, "start_skew_s", p->start_skew_s);
  cJSON_AddStringToObject(o, "smpi_lat_factor", m->lat_factor);
  cJSON_AddStringToObject(o, "smpi_bw_factor", m->bw_factor);
  cJSON_AddStringToObject(o, "smpi_or", m->recv_overhead);
  cJSON_AddStringToObject(o, "nccl_slices", m->net->late_latency ? "back to back" : "one at a time");
  cJSON_AddStringToObject(o, "nccl_version", nccl_name(m));
  cJSON_AddItemToObject(root, "model", o);
  warnings_json(root, m, r);
  const sim_report_models *rm = run->models;
  if (rm->nranges <= 0)
    return;
  cJSON *best = cJSON_CreateArray();
  for (int i = 0; i < rm->nranges; i++) {
    cJSON *b = cJSON_CreateObject();
    cJSON_AddNumberToObject(b, "min_bytes", (double)rm->ranges[i].lo);
    cJSON_AddNumberToObject(b, "max_bytes", (double)rm->ranges[i].hi);
    cJSON_AddStringToObject(b, "algo", rm->algos[rm->ranges[i].algo]);
    cJSON_AddItemToArray(best, b);
  }
  cJSON_AddItemToObject(root, "best", best);
}

void sim_report_models_point(cJSON *o, const sim_run_info *run, const sim_point *p)
{
  if (!models_of(run))
    return;
  add_num(o, "model_time_s", p->model_s);
  cJSON *ph = cJSON_CreateObject();
  for (int k = 0; k < p->model_nphases; k++)
    cJSON_AddNumberToObject(ph, p->model_phase_name[k], p->model_phase_s[k]);
  cJSON_AddItemToObject(o, "model_phases", ph);
  add_num(o, "nccl_ring_s", p->nccl_ring_s);
  cJSON_AddStringToObject(o, "nccl_ring_proto", p->nccl_ring_proto >= 0 ? cost_nccl_proto_name(p->nccl_ring_proto) : "");
  add_num(o, "nccl_tree_s", p->nccl_tree_s);
  cJSON_AddStringToObject(o, "nccl_tree_proto", p->nccl_tree_proto >= 0 ? cost_nccl_proto_name(p->nccl_tree_proto) : "");
  add_num(o, "nccl_nvls_s", p->nccl_nvls_s);
}
