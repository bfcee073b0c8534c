/* measured_runs.c: the runs of measured data: building, selecting, JSON (see measured.h). */
#include "measured_runs.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"
#include "measured_json.h"

md_run md_run_blank(void)
{
  md_run r;
  memset(&r, 0, sizeof r);
  r.ranks = r.nodes = r.gpus_per_node = -1;
  r.line = -1;
  md_run_params *q = &r.params;
  q->nthreads = q->ngpus = q->warmup_iters = q->iterations = q->aggregated_iterations = q->validation = q->graph = -1;
  q->minimum_bytes = q->maximum_bytes = q->step_factor = q->step_bytes = -1;
  return r;
}

static void free_strings(char **s, int n)
{
  for (int i = 0; i < n; i++)
    free(s[i]);
  free(s);
}

void md_run_free(md_run *r)
{
  free_strings(r->hosts, r->nhosts);
  free_strings(r->gpu_models, r->ngpu_models);
  free(r->rank_node);
  *r = md_run_blank();
}

int md_data_add_run(md_data *d, md_run *r)
{
  if (d->nruns == d->runs_cap) {
    size_t cap = d->runs_cap ? 2 * d->runs_cap : 4;
    md_run *n = cap <= INT_MAX ? realloc(d->runs, cap * sizeof *n) : NULL;
    if (!n)
      return SA_ENOMEM;
    d->runs = n;
    d->runs_cap = cap;
  }
  d->runs[d->nruns] = *r;
  *r = md_run_blank();
  return (int)d->nruns++;
}

const md_run *md_data_run(const md_data *d, int id)
{
  return id >= 0 && (size_t)id < d->nruns ? &d->runs[id] : NULL;
}

const md_point *md_run_next(const md_data *d, int id, const char *op, size_t *i)
{
  for (; *i < d->n; (*i)++) {
    const md_point *p = &d->p[*i];
    if (p->run == id && (!op || strcmp(p->op, op) == 0)) {
      (*i)++;
      return p;
    }
  }
  return NULL;
}

int md_data_keep_run(md_data *d, int id)
{
  if (!md_data_run(d, id))
    return SA_EINVAL;
  size_t kept = 0;
  for (size_t i = 0; i < d->n; i++)
    if (d->p[i].run == id) {
      d->p[kept] = d->p[i];
      d->p[kept++].run = 0;
    }
  d->n = kept;
  md_run keep = d->runs[id];
  for (size_t r = 0; r < d->nruns; r++)
    if (r != (size_t)id)
      md_run_free(&d->runs[r]);
  d->runs[0] = keep;
  d->nruns = 1;
  return 0;
}

/* ---- JSON ---- */

/* nccl-tests' parameters under the names of its own JSON output */
static const struct {
  const char *key;
  size_t at;
  bool whole;
} param_fields[] = {
    {"nthreads", offsetof(md_run_params, nthreads), true},
    {"ngpus", offsetof(md_run_params, ngpus), true},
    {"minimum_bytes", offsetof(md_run_params, minimum_bytes), false},
    {"maximum_bytes", offsetof(md_run_params, maximum_bytes), false},
    {"step_factor", offsetof(md_run_params, step_factor), false},
    {"step_bytes", offsetof(md_run_params, step_bytes), false},
    {"warmup_iters", offsetof(md_run_params, warmup_iters), true},
    {"iterations", offsetof(md_run_params, iterations), true},
    {"aggregated_iterations", offsetof(md_run_params, aggregated_iterations), true},
    {"validation", offsetof(md_run_params, validation), true},
    {"graph", offsetof(md_run_params, graph), true},
};
#define NPARAMS (sizeof param_fields / sizeof param_fields[0])

static double param_get(const md_run_params *q, size_t k)
{
  const char *at = (const char *)q + param_fields[k].at;
  return param_fields[k].whole ? *(const int *)at : *(const double *)at;
}

static void param_set(md_run_params *q, size_t k, double v)
{
  char *at = (char *)q + param_fields[k].at;
  if (param_fields[k].whole)
    *(int *)at = (int)v;
  else
    *(double *)at = v;
}

static cJSON *strings_json(char *const *s, int n)
{
  cJSON *a = cJSON_CreateArray();
  for (int i = 0; a && i < n; i++)
    if (!cJSON_AddItemToArray(a, cJSON_CreateString(s[i]))) {
      cJSON_Delete(a);
      return NULL;
    }
  return a;
}

static cJSON *run_json(const md_run *r)
{
  cJSON *o = cJSON_CreateObject(), *q = cJSON_CreateObject();
  if (!o || !q) {
    cJSON_Delete(o);
    cJSON_Delete(q);
    return NULL;
  }
  md_json_add_str(o, "tool", r->tool);
  md_json_add_str(o, "tool_version", r->tool_version);
  md_json_add_str(o, "test", r->test);
  md_json_add_str(o, "op", r->op);
  md_json_add_str(o, "dtype", r->dtype);
  if (r->dtype_assumed)
    cJSON_AddTrueToObject(o, "dtype_assumed");
  md_json_add_str(o, "redop", r->redop);
  md_json_add_str(o, "nccl_version", r->nccl_version);
  md_json_add_str(o, "nccl_dated", r->nccl_dated);
  md_json_add_str(o, "nccl_algo", r->nccl_algo);
  md_json_add_str(o, "nccl_proto", r->nccl_proto);
  md_json_add_num(o, "ranks", r->ranks);
  md_json_add_num(o, "nodes", r->nodes);
  md_json_add_num(o, "gpus_per_node", r->gpus_per_node);
  int ok = 1;
  if (r->nhosts)
    ok = cJSON_AddItemToObject(o, "hosts", strings_json(r->hosts, r->nhosts));
  if (ok && r->rank_node)
    ok = cJSON_AddItemToObject(o, "rank_node", cJSON_CreateIntArray(r->rank_node, r->ranks));
  if (ok && r->ngpu_models)
    ok = cJSON_AddItemToObject(o, "gpu_models", strings_json(r->gpu_models, r->ngpu_models));
  for (size_t k = 0; k < NPARAMS; k++)
    md_json_add_num(q, param_fields[k].key, param_get(&r->params, k));
  if (cJSON_GetArraySize(q) > 0)
    cJSON_AddItemToObject(o, "params", q);
  else
    cJSON_Delete(q);
  md_json_add_num(o, "line", (double)r->line);
  if (!ok) {
    cJSON_Delete(o);
    return NULL;
  }
  return o;
}

int md_runs_json(cJSON *root, const md_data *d)
{
  cJSON *arr = cJSON_AddArrayToObject(root, "runs");
  for (size_t i = 0; arr && i < d->nruns; i++)
    if (!cJSON_AddItemToArray(arr, run_json(&d->runs[i])))
      return SA_ENOMEM;
  return arr ? 0 : SA_ENOMEM;
}

/* The strings of array a (absent: none): 0, -1 when a is not an array of strings, or
 * SA_ENOMEM. */
static int strings_from_json(const cJSON *a, char ***out, int *n)
{
  if (!a)
    return 0;
  if (!cJSON_IsArray(a))
    return SA_EPARSE;
  int len = cJSON_GetArraySize(a);
  *out = calloc(len ? (size_t)len : 1, sizeof **out);
  if (!*out)
    return SA_ENOMEM;
  const cJSON *s;
  cJSON_ArrayForEach(s, a)
  {
    if (!cJSON_IsString(s))
      return SA_EPARSE;
    if (!((*out)[*n] = strdup(s->valuestring)))
      return SA_ENOMEM;
    (*n)++;
  }
  return 0;
}

/* rank_node: one index into hosts per rank. 0, -1 when it is not that, or SA_ENOMEM. */
static int rank_node_from_json(const cJSON *a, md_run *r)
{
  if (!a)
    return 0;
  if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != r->ranks || r->ranks <= 0)
    return SA_EPARSE;
  if (!(r->rank_node = malloc((size_t)r->ranks * sizeof *r->rank_node)))
    return SA_ENOMEM;
  int bad = 0, i = 0;
  const cJSON *v;
  cJSON_ArrayForEach(v, a)
  {
    r->rank_node[i] = md_json_count_of(v, &bad);
    if (bad || r->rank_node[i++] >= r->nhosts)
      return SA_EPARSE;
  }
  return 0;
}

static int params_from_json(const cJSON *o, md_run_params *q)
{
  if (!o)
    return 0;
  int bad = !cJSON_IsObject(o);
  for (size_t k = 0; k < NPARAMS && !bad; k++) {
    double v = param_fields[k].whole ? md_json_get_count(o, param_fields[k].key, &bad)
                                     : md_json_get_num(o, param_fields[k].key, &bad);
    param_set(q, k, v);
  }
  return bad ? SA_EPARSE : 0;
}

static int run_from_json(const cJSON *o, md_run *r)
{
  if (!cJSON_IsObject(o))
    return SA_EPARSE;
  int bad = 0;
  md_json_get_str(o, "tool", r->tool, sizeof r->tool);
  md_json_get_str(o, "tool_version", r->tool_version, sizeof r->tool_version);
  md_json_get_str(o, "test", r->test, sizeof r->test);
  md_json_get_str(o, "op", r->op, sizeof r->op);
  md_json_get_str(o, "dtype", r->dtype, sizeof r->dtype);
  r->dtype_assumed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "dtype_assumed"));
  md_json_get_str(o, "redop", r->redop, sizeof r->redop);
  md_json_get_str(o, "nccl_version", r->nccl_version, sizeof r->nccl_version);
  md_json_get_str(o, "nccl_dated", r->nccl_dated, sizeof r->nccl_dated);
  md_json_get_str(o, "nccl_algo", r->nccl_algo, sizeof r->nccl_algo);
  md_json_get_str(o, "nccl_proto", r->nccl_proto, sizeof r->nccl_proto);
  r->ranks = md_json_get_count(o, "ranks", &bad);
  r->nodes = md_json_get_count(o, "nodes", &bad);
  r->gpus_per_node = md_json_get_count(o, "gpus_per_node", &bad);
  r->line = md_json_get_count(o, "line", &bad);
  int rc = bad ? -1 : strings_from_json(cJSON_GetObjectItemCaseSensitive(o, "hosts"), &r->hosts, &r->nhosts);
  if (rc == 0)
    rc = strings_from_json(cJSON_GetObjectItemCaseSensitive(o, "gpu_models"), &r->gpu_models, &r->ngpu_models);
  if (rc == 0)
    rc = rank_node_from_json(cJSON_GetObjectItemCaseSensitive(o, "rank_node"), r);
  if (rc == 0)
    rc = params_from_json(cJSON_GetObjectItemCaseSensitive(o, "params"), &r->params);
  return rc;
}

int md_runs_from_json(const cJSON *root, md_data *d, const char *path, char *err, size_t errlen)
{
  const cJSON *runs = cJSON_GetObjectItemCaseSensitive(root, "runs"), *o;
  if (!runs)
    return 0;
  if (!cJSON_IsArray(runs)) {
    snprintf(err, errlen, "%s: \"runs\" is not an array", path);
    return SA_EPARSE;
  }
  int i = 0;
  cJSON_ArrayForEach(o, runs)
  {
    md_run r = md_run_blank();
    int rc = run_from_json(o, &r);
    if (rc == 0 && md_data_add_run(d, &r) < 0)
      rc = SA_ENOMEM;
    md_run_free(&r);
    if (rc == SA_ENOMEM) {
      snprintf(err, errlen, "out of memory");
      return rc;
    }
    if (rc != 0) {
      snprintf(err, errlen, "%s: run %d: strings and non-negative numbers, hosts and gpu_models lists of names, "
               "rank_node one index into hosts per rank", path, i);
      return SA_EPARSE;
    }
    i++;
  }
  return 0;
}
