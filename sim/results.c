/* results.c: parses the runner's JSON with cJSON, checking every field it relies on. */
#include "results.h"

#include "common/sa_error.h"
#include "util/jsonlines.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double num(const cJSON *o, const char *key, int *ok)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  if (!cJSON_IsNumber(v)) {
    *ok = 0;
    return 0;
  }
  return v->valuedouble;
}

static void str(const cJSON *o, const char *key, char *dst, size_t len, int *ok)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  if (!cJSON_IsString(v)) {
    *ok = 0;
    return;
  }
  snprintf(dst, len, "%s", v->valuestring);
}

void sim_point_no_model(sim_point *p)
{
  p->model_s = p->nccl_ring_s = p->nccl_tree_s = p->nccl_nvls_s = NAN;
  p->model_nphases = 0;
  p->nccl_ring_proto = p->nccl_tree_proto = -1;
}

/* A whole number in [0, hi] (a count, a size), or *ok cleared: the file is the runner's,
 * but a double outside an integer's range must never be converted to one. */
static double whole(const cJSON *o, const char *key, double hi, int *ok)
{
  double v = num(o, key, ok);
  if (!(v >= 0 && v <= hi) || v != floor(v)) {
    *ok = 0;
    return 0;
  }
  return v;
}

int sim_point_read(const cJSON *o, sim_point *p)
{
  memset(p, 0, sizeof *p);
  int ok = cJSON_IsObject(o);
  p->simulated = 1;
  sim_point_no_model(p);
  str(o, "algo", p->algo, sizeof p->algo, &ok);
  str(o, "dtype", p->dtype, sizeof p->dtype, &ok);
  p->bytes = (uint64_t)whole(o, "bytes", 9007199254740992.0, &ok);
  p->count = (uint64_t)whole(o, "count", 9007199254740992.0, &ok);
  p->time_s = num(o, "time_s", &ok);
  p->time_min_s = num(o, "time_min_s", &ok);
  p->time_max_s = num(o, "time_max_s", &ok);
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "verified");
  p->verified = cJSON_IsBool(v) ? cJSON_IsTrue(v) : -1;
  /* JSON has no infinity or NaN: cJSON writes a non-finite error as null, which only a
   * result that did not verify can have */
  const cJSON *err = cJSON_GetObjectItemCaseSensitive(o, "max_abs_err");
  p->max_abs_err = p->verified == 0 && cJSON_IsNull(err) ? HUGE_VAL : num(o, "max_abs_err", &ok);
  const cJSON *k = cJSON_GetObjectItemCaseSensitive(o, "k"), *rel = cJSON_GetObjectItemCaseSensitive(o, "sparse_rel_err");
  p->sparse = cJSON_IsNumber(k);
  if (p->sparse) {
    p->k = (long long)whole(o, "k", 9007199254740992.0, &ok);
    p->density = num(o, "density", &ok);
  }
  p->sparse_rel_err = cJSON_IsNumber(rel) ? rel->valuedouble : -1;
  const cJSON *next = cJSON_GetObjectItemCaseSensitive(o, "next_clock_s");
  p->next_clock_s = cJSON_IsNumber(next) ? next->valuedouble : NAN;
  const cJSON *nc = cJSON_GetObjectItemCaseSensitive(o, "nccl");
  nccl_choice ch;
  if (cJSON_IsString(nc) && nccl_choice_parse(nc->valuestring, &ch) == 0)
    nccl_choice_format(&ch, p->nccl, sizeof p->nccl);
  else if (nc && !cJSON_IsNull(nc))
    ok = 0;
  const cJSON *e = cJSON_GetObjectItemCaseSensitive(o, "error");
  if (cJSON_IsString(e))
    snprintf(p->error, sizeof p->error, "%s", e->valuestring);
  const cJSON *ph = cJSON_GetObjectItemCaseSensitive(o, "phases"), *it;
  cJSON_ArrayForEach(it, ph)
  {
    if (p->nphases == SIM_MAX_PHASES || !cJSON_IsNumber(it) || !it->string)
      break;
    snprintf(p->phase_name[p->nphases], sizeof p->phase_name[0], "%s", it->string);
    p->phase_s[p->nphases++] = it->valuedouble;
  }
  if (ok && sim_links_read(o, &p->links) != 0)
    ok = 0;
  return ok ? 0 : SA_EPARSE;
}

int sim_results_header(const cJSON *h, sim_results *r)
{
  const cJSON *comp = cJSON_GetObjectItemCaseSensitive(h, "compute");
  int ok = cJSON_IsObject(comp);
  str(h, "mode", r->mode, sizeof r->mode, &ok);
  r->ranks = (int)whole(h, "ranks", 1 << 24, &ok);
  r->ranks_per_node = (int)whole(h, "ranks_per_node", 1 << 24, &ok);
  const cJSON *start = cJSON_GetObjectItemCaseSensitive(h, "start_clock_s");
  r->start_clock_s = cJSON_IsNumber(start) ? start->valuedouble : NAN;
  for (int i = 0; ok && i < SA_COMPUTE_N; i++) /* a property left out is 0, as on a host */
    if (cJSON_GetObjectItemCaseSensitive(comp, sa_compute_name(i)))
      *sa_compute_field(&r->compute, i) = num(comp, sa_compute_name(i), &ok);
  return ok ? 0 : SA_EPARSE;
}

int sim_results_parse(const char *text, sim_results *r, char *err, size_t errlen)
{
  memset(r, 0, sizeof *r);
  cJSON *root = util_jsonl_runner_doc(text);
  const cJSON *pts = cJSON_GetObjectItemCaseSensitive(root, "points"), *it;
  int ok = cJSON_IsArray(pts) && sim_results_header(root, r) == 0;
  if (ok) {
    r->points = calloc((size_t)cJSON_GetArraySize(pts) + 1, sizeof *r->points);
    ok = r->points != NULL;
  }
  if (ok)
    cJSON_ArrayForEach(it, pts)
    {
      if (sim_point_read(it, &r->points[r->npoints]) != 0) {
        ok = 0;
        break;
      }
      r->npoints++;
    }
  cJSON_Delete(root);
  if (!ok) {
    snprintf(err, errlen, "the simulation's result file is not in the expected form");
    sim_results_free(r);
    return SA_EPARSE;
  }
  return 0;
}

void sim_results_free(sim_results *r)
{
  for (int i = 0; r->points && i < r->npoints; i++)
    sim_links_free(&r->points[i].links);
  free(r->points);
  r->points = NULL;
  r->npoints = 0;
}
