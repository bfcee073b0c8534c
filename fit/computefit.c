/* computefit.c: one least-squares line per kernel: the simulation charges fixed + per-unit
 * seconds, which is exactly such a line. Unweighted on purpose: absolute error is dominated
 * by the large buffers, which no longer fit in caches and which are what gradient chunks
 * are; small buffers still set the fixed cost. */
#include "computefit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"

static int matches(const md_point *p, const char *op, const char *dtype, const char *device)
{
  return strcmp(p->op, op) == 0 && (!dtype || strcmp(p->dtype, dtype) == 0) && strcmp(p->device, device) == 0;
}

/* per_element: cost per element (count: input elements, or pairs), else per byte. */
static int fit_one(const md_data *d, const char *op, const char *dtype, const char *device, int per_element,
                   fit_cost *c)
{
  memset(c, 0, sizeof *c);
  size_t n = 0;
  double *x = malloc(sizeof(double) * (d->n + 1)), *y = malloc(sizeof(double) * (d->n + 1));
  int rc = x && y ? 0 : SA_ENOMEM;
  for (size_t i = 0; rc == 0 && i < d->n; i++)
    if (matches(&d->p[i], op, dtype, device)) {
      x[n] = per_element ? d->p[i].count : d->p[i].bytes;
      y[n] = d->p[i].time_s;
      if (x[n] > 0)
        n++;
    }
  if (rc == 0 && n > 0 && fit_linear(x, y, NULL, n, FIT_NONNEG, &c->line) == 0) {
    c->has = 1;
    c->fixed_s = c->line.c0;
    c->per_unit_s = c->line.c1;
    c->from = c->to = x[0];
    for (size_t i = 0; i < n; i++) {
      c->from = x[i] < c->from ? x[i] : c->from;
      c->to = x[i] > c->to ? x[i] : c->to;
    }
  }
  free(x);
  free(y);
  return rc;
}

static int has_device(const md_data *d, const char *device)
{
  for (size_t i = 0; i < d->n; i++)
    if (strcmp(d->p[i].device, device) == 0)
      return 1;
  return 0;
}

int fit_compute_run(const md_data *d, const char *device, fit_compute *c)
{
  memset(c, 0, sizeof *c);
  if (!device || !device[0])
    device = has_device(d, "cuda") ? "cuda" : "cpu";
  snprintf(c->device, sizeof c->device, "%s", device);
  int rc = fit_one(d, "reduce", "fp32", device, 0, &c->reduce_fp32);
  rc = rc ? rc : fit_one(d, "reduce", "fp16", device, 0, &c->reduce_fp16);
  rc = rc ? rc : fit_one(d, "memcpy", NULL, device, 0, &c->copy);
  rc = rc ? rc : fit_one(d, "mstopk", NULL, device, 0, &c->mstopk);
  rc = rc ? rc : fit_one(d, "topk_exact", NULL, device, 1, &c->topk_exact);
  rc = rc ? rc : fit_one(d, "scatter_add", NULL, device, 1, &c->scatter);
  rc = rc ? rc : fit_one(d, "memcpy_h2d", NULL, device, 0, &c->h2d);
  rc = rc ? rc : fit_one(d, "memcpy_d2h", NULL, device, 0, &c->d2h);
  rc = rc ? rc : fit_one(d, "memcpy_p2p", NULL, device, 0, &c->p2p);
  if (rc == 0 && !c->reduce_fp32.has && !c->reduce_fp16.has && !c->copy.has && !c->mstopk.has && !c->topk_exact.has &&
      !c->scatter.has)
    rc = SA_ENODATA;
  return rc;
}

static void add_cost(cJSON *o, const char *name, const fit_cost *c, const char *unit)
{
  if (!c->has)
    return;
  char key[32];
  cJSON *e = cJSON_AddObjectToObject(o, name);
  cJSON_AddNumberToObject(e, "fixed_s", c->fixed_s);
  snprintf(key, sizeof key, "per_%s_s", unit);
  cJSON_AddNumberToObject(e, key, c->per_unit_s);
  snprintf(key, sizeof key, "%ss_per_s", unit);
  if (c->per_unit_s > 0)
    cJSON_AddNumberToObject(e, key, 1.0 / c->per_unit_s);
  cJSON_AddNumberToObject(e, "r2", c->line.r2);
  cJSON_AddNumberToObject(e, "max_rel_err", c->line.max_rel_err);
  cJSON_AddNumberToObject(e, "points_used", (double)c->line.n);
  snprintf(key, sizeof key, "from_%ss", unit);
  cJSON_AddNumberToObject(e, key, c->from);
  snprintf(key, sizeof key, "to_%ss", unit);
  cJSON_AddNumberToObject(e, key, c->to);
}

cJSON *fit_compute_json(const fit_compute *c)
{
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "device", c->device);
  add_cost(o, "reduce_fp32", &c->reduce_fp32, "byte");
  add_cost(o, "reduce_fp16", &c->reduce_fp16, "byte");
  add_cost(o, "memcpy", &c->copy, "byte");
  add_cost(o, "memcpy_h2d", &c->h2d, "byte");
  add_cost(o, "memcpy_d2h", &c->d2h, "byte");
  add_cost(o, "memcpy_p2p", &c->p2p, "byte");
  add_cost(o, "mstopk", &c->mstopk, "byte");
  add_cost(o, "topk_exact", &c->topk_exact, "element");
  add_cost(o, "scatter_add", &c->scatter, "pair");
  sa_compute p;
  if (fit_compute_props_of(c, &p) == 0) {
    cJSON *h = cJSON_AddObjectToObject(o, "platform");
    for (int i = 0; i < SA_COMPUTE_N; i++)
      if (sa_compute_written(&p, i))
        cJSON_AddNumberToObject(h, sa_compute_name(i), sa_compute_get(&p, i));
  }
  return o;
}

int fit_compute_props_of(const fit_compute *c, sa_compute *p)
{
  memset(p, 0, sizeof *p);
  /* The runner charges reduce_lat + output bytes / reduce_bw per sum, whatever the type:
   * fp32 is what the gradients are summed in. */
  const fit_cost *r = c->reduce_fp32.has ? &c->reduce_fp32 : &c->reduce_fp16;
  if (!r->has || r->per_unit_s <= 0 || !c->copy.has || c->copy.per_unit_s <= 0)
    return SA_ENODATA;
  p->reduce_bw = 1.0 / r->per_unit_s;
  p->reduce_lat = r->fixed_s;
  p->copy_bw = 1.0 / c->copy.per_unit_s;
  /* a kernel not measured stays free (0), as on a platform without the property */
  const struct {
    const fit_cost *c;
    double *a, *b;
  } sel[] = {{&c->topk_exact, &p->topk_a, &p->topk_b},
             {&c->mstopk, &p->mstopk_a, &p->mstopk_b},
             {&c->scatter, &p->scatter_a, &p->scatter_b}};
  for (size_t i = 0; i < sizeof sel / sizeof sel[0]; i++)
    if (sel[i].c->has) {
      *sel[i].a = sel[i].c->fixed_s;
      *sel[i].b = sel[i].c->per_unit_s;
    }
  return 0;
}
