/* measured.c: building, writing and reading measured-data files (see measured.h). */
#include "measured.h"
#include "stats.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"
#include "lib/textfile.h"

cal_point cal_point_blank(const char *op, const char *source)
{
  cal_point p;
  memset(&p, 0, sizeof p);
  snprintf(p.op, sizeof p.op, "%s", op);
  snprintf(p.source, sizeof p.source, "%s", source);
  p.bytes = p.count = -1;
  p.ranks = p.inplace = p.reps = -1;
  p.time_s = p.spread_s = p.min_s = p.max_s = -1;
  p.algbw_GBps = p.busbw_GBps = -1;
  p.errors = -1;
  return p;
}

int cal_data_add(cal_data *d, const cal_point *pt)
{
  if (d->n == d->cap) {
    size_t cap = d->cap ? 2 * d->cap : 64;
    cal_point *p = realloc(d->p, cap * sizeof *p);
    if (!p)
      return SA_ENOMEM;
    d->p = p;
    d->cap = cap;
  }
  d->p[d->n++] = *pt;
  return 0;
}

void cal_data_free(cal_data *d)
{
  free(d->p);
  memset(d, 0, sizeof *d);
}

void cal_point_bandwidths(cal_point *pt)
{
  if (pt->time_s <= 0 || pt->bytes < 0)
    return;
  pt->algbw_GBps = pt->bytes / pt->time_s / 1e9;
  pt->busbw_GBps = pt->algbw_GBps;
  if (strcmp(pt->op, "allreduce") == 0 && pt->ranks > 0)
    pt->busbw_GBps = pt->algbw_GBps * 2.0 * (pt->ranks - 1) / pt->ranks;
}

static void add_str(cJSON *o, const char *key, const char *v)
{
  if (v[0])
    cJSON_AddStringToObject(o, key, v);
}

static void add_num(cJSON *o, const char *key, double v)
{
  if (v >= 0)
    cJSON_AddNumberToObject(o, key, v);
}

static cJSON *point_json(const cal_point *p)
{
  cJSON *o = cJSON_CreateObject();
  if (!o)
    return NULL;
  add_str(o, "op", p->op);
  add_str(o, "path", p->path);
  add_str(o, "device", p->device);
  add_str(o, "dtype", p->dtype);
  add_num(o, "bytes", p->bytes);
  add_num(o, "count", p->count);
  add_num(o, "ranks", p->ranks);
  if (p->inplace >= 0)
    cJSON_AddBoolToObject(o, "inplace", p->inplace);
  add_num(o, "time_s", p->time_s);
  add_num(o, "spread_s", p->spread_s);
  add_num(o, "min_s", p->min_s);
  add_num(o, "max_s", p->max_s);
  add_num(o, "reps", p->reps);
  add_num(o, "algbw_GBps", p->algbw_GBps);
  add_num(o, "busbw_GBps", p->busbw_GBps);
  add_num(o, "errors", (double)p->errors);
  add_str(o, "source", p->source);
  return o;
}

int cal_data_write(const cal_data *d, const char *path)
{
  int rc = SA_ENOMEM;
  cJSON *root = cJSON_CreateObject(), *pts = cJSON_AddArrayToObject(root, "points");
  if (!root || !pts)
    goto out;
  cJSON_AddStringToObject(root, "schema", CAL_MEASURED_SCHEMA);
  add_str(root, "source", d->source);
  add_str(root, "machine", d->machine);
  for (size_t i = 0; i < d->n; i++) {
    cJSON *o = point_json(&d->p[i]);
    if (!o)
      goto out;
    cJSON_AddItemToArray(pts, o);
  }
  rc = sim_json_write(root, path);
out:
  cJSON_Delete(root);
  return rc;
}

static void get_str(const cJSON *o, const char *key, char *dst, size_t len)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  if (cJSON_IsString(v))
    snprintf(dst, len, "%s", v->valuestring);
}

/* A number field, or -1 when absent; *bad is set when present but not a non-negative number. */
static double get_num(const cJSON *o, const char *key, int *bad)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  if (!v || cJSON_IsNull(v))
    return -1;
  if (!cJSON_IsNumber(v) || v->valuedouble < 0) {
    *bad = 1;
    return -1;
  }
  return v->valuedouble;
}

/* A count field (ranks, repetitions, errors): -1 when absent; *bad is set when it is not a
 * whole number an int holds, so that no conversion of a huge value is undefined. */
static int get_count(const cJSON *o, const char *key, int *bad)
{
  double v = get_num(o, key, bad);
  if (v > INT_MAX || v != floor(v)) {
    *bad = 1;
    return -1;
  }
  return (int)v;
}

static int point_from_json(const cJSON *o, cal_point *p)
{
  int bad = !cJSON_IsObject(o);
  *p = cal_point_blank("", "");
  get_str(o, "op", p->op, sizeof p->op);
  get_str(o, "path", p->path, sizeof p->path);
  get_str(o, "device", p->device, sizeof p->device);
  get_str(o, "dtype", p->dtype, sizeof p->dtype);
  get_str(o, "source", p->source, sizeof p->source);
  p->bytes = get_num(o, "bytes", &bad);
  p->count = get_num(o, "count", &bad);
  p->ranks = get_count(o, "ranks", &bad);
  const cJSON *ip = cJSON_GetObjectItemCaseSensitive(o, "inplace");
  p->inplace = cJSON_IsBool(ip) ? cJSON_IsTrue(ip) : -1;
  p->time_s = get_num(o, "time_s", &bad);
  p->spread_s = get_num(o, "spread_s", &bad);
  p->min_s = get_num(o, "min_s", &bad);
  p->max_s = get_num(o, "max_s", &bad);
  p->reps = get_count(o, "reps", &bad);
  p->algbw_GBps = get_num(o, "algbw_GBps", &bad);
  p->busbw_GBps = get_num(o, "busbw_GBps", &bad);
  p->errors = get_count(o, "errors", &bad);
  return bad || !p->op[0] || p->bytes < 0 || p->time_s <= 0 ? -1 : 0;
}

int cal_data_read(cal_data *d, const char *path, char *err, size_t errlen)
{
  int rc = SA_EIO;
  char *text = sim_read_text(path);
  cJSON *root = text ? cJSON_Parse(text) : NULL;
  if (!text) {
    snprintf(err, errlen, "cannot read %s", path);
    goto out;
  }
  rc = SA_EPARSE;
  const cJSON *schema = cJSON_GetObjectItemCaseSensitive(root, "schema");
  const cJSON *pts = cJSON_GetObjectItemCaseSensitive(root, "points");
  if (!root) {
    snprintf(err, errlen, "%s is not JSON", path);
    goto out;
  }
  if (!cJSON_IsString(schema) || strcmp(schema->valuestring, CAL_MEASURED_SCHEMA) != 0 || !cJSON_IsArray(pts)) {
    snprintf(err, errlen, "%s is not a measured-data file (no \"schema\": \"%s\" with \"points\")", path,
             CAL_MEASURED_SCHEMA);
    goto out;
  }
  if (!d->source[0])
    get_str(root, "source", d->source, sizeof d->source);
  if (!d->machine[0])
    get_str(root, "machine", d->machine, sizeof d->machine);
  int i = 0;
  const cJSON *o;
  cJSON_ArrayForEach(o, pts)
  {
    cal_point p;
    if (point_from_json(o, &p) != 0) {
      snprintf(err, errlen, "%s: point %d needs op, bytes >= 0 and time_s > 0, and no negative numbers", path, i);
      goto out;
    }
    if (cal_data_add(d, &p) != 0) {
      rc = SA_ENOMEM;
      snprintf(err, errlen, "out of memory");
      goto out;
    }
    i++;
  }
  rc = 0;
out:
  cJSON_Delete(root);
  free(text);
  return rc;
}

void cal_point_summarize(cal_point *pt, double *samples, int n)
{
  cal_summary s = cal_summarize(samples, (size_t)n);
  pt->time_s = s.median > 0 ? s.median : 1e-9;
  pt->spread_s = s.q3 - s.q1;
  pt->min_s = s.min;
  pt->max_s = s.max;
  pt->reps = n;
  cal_point_bandwidths(pt);
}
