/* collfit.c: groups allreduce points and fits each group with fit.c. */
#include "collfit.h"

#include <stdlib.h>
#include <string.h>

#include "fit.h"

static int same_group(const md_point *a, const md_point *b)
{
  return strcmp(a->source, b->source) == 0 && a->run == b->run && a->ranks == b->ranks &&
         a->inplace == b->inplace && strcmp(a->dtype, b->dtype) == 0;
}

static void fit_group(const md_data *d, size_t lead, double *x, double *y, double *w, cJSON *arr)
{
  const md_point *g = &d->p[lead];
  size_t n = 0;
  for (size_t i = lead; i < d->n; i++)
    if (strcmp(d->p[i].op, "allreduce") == 0 && same_group(&d->p[i], g) && d->p[i].bytes > 0) {
      x[n] = d->p[i].bytes;
      y[n] = d->p[i].time_s;
      w[n] = 1.0 / (y[n] * y[n]);
      n++;
    }
  fit_line f;
  if (n == 0 || fit_linear(x, y, w, n, FIT_NONNEG, &f) != 0)
    return;
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "source", g->source);
  cJSON_AddNumberToObject(o, "ranks", g->ranks);
  if (g->run >= 0)
    cJSON_AddNumberToObject(o, "run", g->run);
  if (g->dtype[0])
    cJSON_AddStringToObject(o, "dtype", g->dtype);
  if (g->inplace >= 0)
    cJSON_AddBoolToObject(o, "inplace", g->inplace);
  cJSON_AddNumberToObject(o, "alpha_s", f.c0);
  cJSON_AddNumberToObject(o, "beta_s_per_byte", f.c1);
  cJSON_AddNumberToObject(o, "r2", f.r2);
  cJSON_AddNumberToObject(o, "max_rel_err", f.max_rel_err);
  cJSON_AddNumberToObject(o, "points_used", (double)n);
  cJSON_AddItemToArray(arr, o);
}

cJSON *fit_coll_json(const md_data *d)
{
  cJSON *arr = cJSON_CreateArray();
  double *x = malloc(sizeof(double) * (d->n + 1)), *y = malloc(sizeof(double) * (d->n + 1)),
         *w = malloc(sizeof(double) * (d->n + 1));
  for (size_t i = 0; x && y && w && i < d->n; i++) {
    if (strcmp(d->p[i].op, "allreduce") != 0)
      continue;
    int first = 1; /* fit each group once, at its first point */
    for (size_t j = 0; j < i && first; j++)
      first = !(strcmp(d->p[j].op, "allreduce") == 0 && same_group(&d->p[j], &d->p[i]));
    if (first)
      fit_group(d, i, x, y, w, arr);
  }
  free(x);
  free(y);
  free(w);
  return arr;
}
