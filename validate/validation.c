/* validation.c: pairing measured and simulated allreduce points, and the error statistics
 * ASTRA-sim-style validations publish: median, geometric mean and maximum of |error|. */
#include "validation.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"
#include "measured/stats.h"

double val_error(double simulated, double measured) { return (simulated - measured) / measured; }

double val_range_error(double sim, double lo, double hi)
{
  if (sim > hi)
    return val_error(sim, hi);
  return sim < lo ? val_error(sim, lo) : 0.0;
}

int val_summarize(const val_point *p, size_t n, val_summary *s)
{
  memset(s, 0, sizeof *s);
  if (n == 0)
    return SA_ENODATA;
  double *abs_err = malloc(sizeof(double) * n), log_sum = 0;
  if (!abs_err)
    return SA_ENOMEM;
  for (size_t i = 0; i < n; i++) {
    abs_err[i] = fabs(p[i].error);
    log_sum += log(fmax(abs_err[i], VAL_GEOMEAN_FLOOR));
    if (abs_err[i] > s->max_abs) {
      s->max_abs = abs_err[i];
      s->worst = i;
    }
  }
  s->n = n;
  s->geomean_abs = exp(log_sum / (double)n);
  s->median_abs = md_summarize(abs_err, n).median;
  free(abs_err);
  return 0;
}

static const cJSON *item(const cJSON *o, const char *key) { return cJSON_GetObjectItemCaseSensitive(o, key); }

static int number(const cJSON *o, const char *key, double *out)
{
  const cJSON *v = item(o, key);
  if (!cJSON_IsNumber(v))
    return SA_EPARSE;
  *out = v->valuedouble;
  return 0;
}

/* Median, quartiles and extremes of the point's repetitions ("times_s"), or of what the
 * runner summarised when it wrote no list. */
static int repetitions(const cJSON *pt, val_point *v)
{
  const cJSON *times = item(pt, "times_s");
  int n = cJSON_IsArray(times) ? cJSON_GetArraySize(times) : 0;
  if (n == 0) {
    v->reps = 1;
    v->q1_s = v->q3_s = v->measured_s;
    if (number(pt, "time_min_s", &v->min_s) || number(pt, "time_max_s", &v->max_s))
      v->min_s = v->max_s = v->measured_s;
    return 0;
  }
  double *t = malloc(sizeof(double) * (size_t)n);
  if (!t)
    return SA_ENOMEM;
  for (int i = 0; i < n; i++) {
    const cJSON *e = cJSON_GetArrayItem(times, i);
    if (!cJSON_IsNumber(e) || !(e->valuedouble > 0)) {
      free(t);
      return SA_EPARSE;
    }
    t[i] = e->valuedouble;
  }
  md_summary s = md_summarize(t, (size_t)n);
  free(t);
  v->reps = n;
  v->q1_s = s.q1;
  v->q3_s = s.q3;
  v->min_s = s.min;
  v->max_s = s.max;
  return 0;
}

static int grow(val_point **p, size_t n, size_t *cap)
{
  if (n < *cap)
    return 0;
  size_t c = *cap ? 2 * *cap : 16;
  val_point *q = realloc(*p, c * sizeof *q);
  if (!q)
    return SA_ENOMEM;
  *p = q;
  *cap = c;
  return 0;
}

static int bad(char *err, size_t errlen, const char *msg)
{
  snprintf(err, errlen, "%s", msg);
  return SA_EPARSE;
}

int val_read_measured(const cJSON *doc, val_point **p, size_t *n, size_t *cap, int *ranks, int *rpn, char *err,
                          size_t errlen)
{
  const cJSON *mode = item(doc, "mode"), *points = item(doc, "points");
  double r, k;
  if (!cJSON_IsString(mode) || strcmp(mode->valuestring, "measured") != 0)
    return bad(err, errlen, "not a measured runner result (its \"mode\" is not \"measured\")");
  if (number(doc, "ranks", &r) || number(doc, "ranks_per_node", &k) || r < 1 || k < 1 || fmod(r, k) != 0)
    return bad(err, errlen, "no whole \"ranks\" and \"ranks_per_node\"");
  if (!cJSON_IsArray(points) || cJSON_GetArraySize(points) == 0)
    return bad(err, errlen, "no \"points\"");
  if (cJSON_IsFalse(item(doc, "complete")))
    return bad(err, errlen, "the measured run stopped before its end line");
  *ranks = (int)r;
  *rpn = (int)k;
  const cJSON *pt;
  cJSON_ArrayForEach(pt, points)
  {
    const cJSON *algo = item(pt, "algo");
    if (grow(p, *n, cap) != 0)
      return SA_ENOMEM;
    val_point *v = &(*p)[*n];
    memset(v, 0, sizeof *v);
    if (item(pt, "error"))
      return bad(err, errlen, "a point failed in the measured run (it carries an \"error\")");
    if (!cJSON_IsString(algo) || strlen(algo->valuestring) >= VAL_ALGO_LEN || number(pt, "bytes", &v->bytes) ||
        number(pt, "time_s", &v->measured_s) || !(v->measured_s > 0) || v->bytes < 0)
      return bad(err, errlen, "a point without \"algo\", \"bytes\" and a positive \"time_s\"");
    snprintf(v->algo, sizeof v->algo, "%s", algo->valuestring);
    int rc = repetitions(pt, v);
    if (rc == SA_EPARSE)
      return bad(err, errlen, "\"times_s\" holds something other than positive numbers");
    if (rc)
      return rc;
    v->model_s = NAN;
    (*n)++;
  }
  return 0;
}

double val_lookup(const cJSON *doc, const char *algo, double bytes, int want_model)
{
  const cJSON *mode = item(doc, "mode"), *r;
  int model_doc = cJSON_IsString(mode) && strcmp(mode->valuestring, "model") == 0;
  cJSON_ArrayForEach(r, item(doc, "results"))
  {
    const cJSON *a = item(r, "algo");
    double b, t;
    if (!cJSON_IsString(a) || strcmp(a->valuestring, algo) != 0 || number(r, "bytes", &b) || b != bytes)
      continue;
    if (want_model && number(r, "model_time_s", &t) == 0)
      return t;
    if ((!want_model || model_doc) && number(r, "time_s", &t) == 0)
      return t;
    return -1;
  }
  return -1;
}

static void add_time_or_null(cJSON *o, const char *key, double v)
{
  if (isfinite(v))
    cJSON_AddNumberToObject(o, key, v);
  else
    cJSON_AddNullToObject(o, key);
}

static cJSON *point_json(const val_point *v)
{
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "algo", v->algo);
  cJSON_AddNumberToObject(o, "bytes", v->bytes);
  cJSON_AddNumberToObject(o, "measured_s", v->measured_s);
  cJSON_AddNumberToObject(o, "measured_spread", v->q3_s - v->q1_s);
  cJSON_AddNumberToObject(o, "simulated_s", v->simulated_s);
  add_time_or_null(o, "model_s", v->model_s);
  cJSON_AddNumberToObject(o, "error", v->error);
  cJSON_AddNumberToObject(o, "measured_q1_s", v->q1_s);
  cJSON_AddNumberToObject(o, "measured_q3_s", v->q3_s);
  cJSON_AddNumberToObject(o, "measured_min_s", v->min_s);
  cJSON_AddNumberToObject(o, "measured_max_s", v->max_s);
  cJSON_AddNumberToObject(o, "reps", v->reps);
  add_time_or_null(o, "model_error", isfinite(v->model_s) ? val_error(v->model_s, v->measured_s) : NAN);
  return o;
}

cJSON *val_json(int hosts, int rpn, const char *link_rate, const val_point *p, size_t n, const val_summary *s)
{
  cJSON *o = cJSON_CreateObject(), *pts = cJSON_CreateArray(), *sum = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "hosts", hosts);
  cJSON_AddNumberToObject(o, "ranks_per_host", rpn);
  if (link_rate)
    cJSON_AddStringToObject(o, "link_rate", link_rate);
  else
    cJSON_AddNullToObject(o, "link_rate");
  for (size_t i = 0; i < n; i++)
    cJSON_AddItemToArray(pts, point_json(&p[i]));
  cJSON_AddItemToObject(o, "points", pts);
  cJSON_AddNumberToObject(sum, "points", (double)s->n);
  cJSON_AddNumberToObject(sum, "median_abs_err", s->median_abs);
  cJSON_AddNumberToObject(sum, "geomean_abs_err", s->geomean_abs);
  cJSON_AddNumberToObject(sum, "max_abs_err", s->max_abs);
  if (s->n) {
    cJSON *w = cJSON_CreateObject();
    cJSON_AddStringToObject(w, "algo", p[s->worst].algo);
    cJSON_AddNumberToObject(w, "bytes", p[s->worst].bytes);
    cJSON_AddNumberToObject(w, "error", p[s->worst].error);
    cJSON_AddItemToObject(sum, "worst", w);
  }
  cJSON_AddItemToObject(o, "summary", sum);
  return o;
}
