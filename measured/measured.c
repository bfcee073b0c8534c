/* measured.c: building, writing and reading measured-data files (see measured.h). */
#include "measured.h"
#include "stats.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"
#include "measured_json.h"
#include "measured_runs.h"
#include "util/textfile.h"

md_point md_point_blank(const char *op, const char *source)
{
  md_point p;
  memset(&p, 0, sizeof p);
  snprintf(p.op, sizeof p.op, "%s", op);
  snprintf(p.source, sizeof p.source, "%s", source);
  p.bytes = p.count = -1;
  p.ranks = p.inplace = p.reps = -1;
  p.time_s = p.spread_s = p.min_s = p.max_s = -1;
  p.algbw_GBps = p.busbw_GBps = -1;
  p.errors = -1;
  p.run = -1;
  return p;
}

int md_data_add(md_data *d, const md_point *pt)
{
  if (d->n == d->cap) {
    size_t cap = d->cap ? 2 * d->cap : 64;
    md_point *p = realloc(d->p, cap * sizeof *p);
    if (!p)
      return SA_ENOMEM;
    d->p = p;
    d->cap = cap;
  }
  d->p[d->n++] = *pt;
  return 0;
}

void md_data_free(md_data *d)
{
  for (size_t i = 0; i < d->nruns; i++)
    md_run_free(&d->runs[i]);
  free(d->runs);
  free(d->p);
  memset(d, 0, sizeof *d);
}

void md_point_bandwidths(md_point *pt)
{
  if (pt->time_s <= 0 || pt->bytes < 0)
    return;
  pt->algbw_GBps = pt->bytes / pt->time_s / 1e9;
  pt->busbw_GBps = pt->algbw_GBps;
  if (strcmp(pt->op, "allreduce") == 0 && pt->ranks > 0)
    pt->busbw_GBps = pt->algbw_GBps * 2.0 * (pt->ranks - 1) / pt->ranks;
}

static cJSON *point_json(const md_point *p)
{
  cJSON *o = cJSON_CreateObject();
  if (!o)
    return NULL;
  md_json_add_str(o, "op", p->op);
  md_json_add_str(o, "path", p->path);
  md_json_add_str(o, "device", p->device);
  md_json_add_str(o, "dtype", p->dtype);
  md_json_add_num(o, "bytes", p->bytes);
  md_json_add_num(o, "count", p->count);
  md_json_add_num(o, "ranks", p->ranks);
  if (p->inplace >= 0)
    cJSON_AddBoolToObject(o, "inplace", p->inplace);
  md_json_add_num(o, "time_s", p->time_s);
  md_json_add_num(o, "spread_s", p->spread_s);
  md_json_add_num(o, "min_s", p->min_s);
  md_json_add_num(o, "max_s", p->max_s);
  md_json_add_num(o, "reps", p->reps);
  md_json_add_num(o, "algbw_GBps", p->algbw_GBps);
  md_json_add_num(o, "busbw_GBps", p->busbw_GBps);
  md_json_add_num(o, "errors", (double)p->errors);
  md_json_add_str(o, "source", p->source);
  md_json_add_num(o, "run", p->run);
  md_json_add_str(o, "nccl_ran", p->nccl_ran);
  return o;
}

int md_data_write(const md_data *d, const char *path)
{
  int rc = SA_ENOMEM;
  cJSON *root = cJSON_CreateObject(), *pts = cJSON_AddArrayToObject(root, "points");
  if (!root || !pts)
    goto out;
  cJSON_AddStringToObject(root, "schema", MD_SCHEMA);
  md_json_add_str(root, "source", d->source);
  md_json_add_str(root, "machine", d->machine);
  for (size_t i = 0; i < d->n; i++) {
    cJSON *o = point_json(&d->p[i]);
    if (!o)
      goto out;
    cJSON_AddItemToArray(pts, o);
  }
  if (d->nruns && md_runs_json(root, d) != 0)
    goto out;
  rc = util_json_write(root, path);
out:
  cJSON_Delete(root);
  return rc;
}

static int point_from_json(const cJSON *o, md_point *p)
{
  int bad = !cJSON_IsObject(o);
  *p = md_point_blank("", "");
  md_json_get_str(o, "op", p->op, sizeof p->op);
  md_json_get_str(o, "path", p->path, sizeof p->path);
  md_json_get_str(o, "device", p->device, sizeof p->device);
  md_json_get_str(o, "dtype", p->dtype, sizeof p->dtype);
  md_json_get_str(o, "source", p->source, sizeof p->source);
  p->bytes = md_json_get_num(o, "bytes", &bad);
  p->count = md_json_get_num(o, "count", &bad);
  p->ranks = md_json_get_count(o, "ranks", &bad);
  const cJSON *ip = cJSON_GetObjectItemCaseSensitive(o, "inplace");
  p->inplace = cJSON_IsBool(ip) ? cJSON_IsTrue(ip) : -1;
  p->time_s = md_json_get_num(o, "time_s", &bad);
  p->spread_s = md_json_get_num(o, "spread_s", &bad);
  p->min_s = md_json_get_num(o, "min_s", &bad);
  p->max_s = md_json_get_num(o, "max_s", &bad);
  p->reps = md_json_get_count(o, "reps", &bad);
  p->algbw_GBps = md_json_get_num(o, "algbw_GBps", &bad);
  p->busbw_GBps = md_json_get_num(o, "busbw_GBps", &bad);
  p->errors = md_json_get_count(o, "errors", &bad);
  p->run = md_json_get_count(o, "run", &bad);
  md_json_get_str(o, "nccl_ran", p->nccl_ran, sizeof p->nccl_ran);
  return bad || !p->op[0] || p->bytes < 0 || p->time_s <= 0 ? SA_EPARSE : 0;
}

int md_data_read(md_data *d, const char *path, char *err, size_t errlen)
{
  int rc = SA_EIO;
  char *text = util_read_text(path);
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
  int v1 = cJSON_IsString(schema) && strcmp(schema->valuestring, MD_SCHEMA_1) == 0;
  if (!cJSON_IsString(schema) || (strcmp(schema->valuestring, MD_SCHEMA) != 0 && !v1) ||
      !cJSON_IsArray(pts)) {
    snprintf(err, errlen, "%s is not a measured-data file (no \"schema\": \"%s\" with \"points\")", path,
             MD_SCHEMA);
    goto out;
  }
  if (!d->source[0])
    md_json_get_str(root, "source", d->source, sizeof d->source);
  if (!d->machine[0])
    md_json_get_str(root, "machine", d->machine, sizeof d->machine);
  size_t base = d->nruns; /* this file's runs follow those d holds */
  if (!v1 && (rc = md_runs_from_json(root, d, path, err, errlen)) != 0)
    goto out;
  rc = SA_EPARSE;
  int i = 0;
  const cJSON *o;
  cJSON_ArrayForEach(o, pts)
  {
    md_point p;
    if (point_from_json(o, &p) != 0) {
      snprintf(err, errlen, "%s: point %d needs op, bytes >= 0 and time_s > 0, and no negative numbers", path, i);
      goto out;
    }
    if (p.run >= 0 && (size_t)p.run >= d->nruns - base) {
      snprintf(err, errlen, "%s: point %d names run %d, which \"runs\" does not hold", path, i, p.run);
      goto out;
    }
    if (p.run >= 0)
      p.run += (int)base;
    if (md_data_add(d, &p) != 0) {
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

void md_point_summarize(md_point *pt, double *samples, int n)
{
  md_summary s = md_summarize(samples, (size_t)n);
  pt->time_s = s.median > 0 ? s.median : 1e-9;
  pt->spread_s = s.q3 - s.q1;
  pt->min_s = s.min;
  pt->max_s = s.max;
  pt->reps = n;
  md_point_bandwidths(pt);
}
