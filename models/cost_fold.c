/* cost_fold.c: a cluster of like nodes folded onto one (see cost_fold.h). */
#include "cost_fold.h"

#include <stdlib.h>

int cost_fold_init(cost_fold *f, const cost_ctx *c, int period)
{
  f->period = period;
  f->images = period > 0 ? c->p / period : 0;
  f->nkeys = c->net->rt.nlinks * c->owners;
  f->kind = malloc(sizeof *f->kind * (size_t)(f->nkeys + 1));
  f->size = malloc(sizeof *f->size * (size_t)(f->nkeys + 1));
  f->next = malloc(sizeof *f->next * (size_t)(f->nkeys + 1));
  if (!f->kind || !f->size || !f->next) {
    cost_fold_free(f);
    return SA_ENOMEM;
  }
  for (int k = 0; k < f->nkeys; k++)
    f->kind[k] = f->next[k] = -1;
  return 0;
}

void cost_fold_free(cost_fold *f)
{
  free(f->kind);
  free(f->size);
  free(f->next);
  f->kind = f->size = f->next = NULL;
}

/* Whether two routes are the same but for which links they take. */
static int alike(const cost_route_use *a, const cost_route_use *b)
{
  if (a->n != b->n || a->penalty != b->penalty || a->bound != b->bound || a->lat != b->lat || a->bw != b->bw)
    return 0;
  for (int i = 0; i < a->n; i++)
    if (a->coef[i] != b->coef[i])
      return 0;
  return 1;
}

/* The kind of the links at place i of the images' routes (keys[j * n + i] for image j): the
 * least of them, and how many differ; each as fast as the others and taken as often (a kind
 * the likes run through evenly), every one of them of no other kind seen before, and moved
 * one period on to the same link wherever it was seen (the moves make the kinds, as cycles). */
static int kind_of(cost_fold *f, const cost_ctx *c, const int *keys, int n, int i, int *least, int *count)
{
  int m = f->images, lo = keys[i], distinct = 0;
  for (int j = 0; j < m; j++) {
    int k = keys[j * n + i], seen = 0;
    for (int q = 0; q < j && !seen; q++)
      seen = keys[q * n + i] == k;
    if (k < 0 || k >= f->nkeys || c->net->rt.links[k / c->owners].bw != c->net->rt.links[keys[i] / c->owners].bw)
      return COST_UNFOLDED;
    distinct += !seen;
    lo = k < lo ? k : lo;
  }
  if (m % distinct != 0)
    return COST_UNFOLDED;
  for (int j = 0; j < m; j++) {
    int k = keys[j * n + i], times = 0;
    for (int q = 0; q < m; q++)
      times += keys[q * n + i] == k;
    int moved = keys[(j + 1) % m * n + i]; /* the link the next period's like takes */
    if (times != m / distinct || (f->next[k] >= 0 && f->next[k] != moved))
      return COST_UNFOLDED;
    f->next[k] = moved;
    if (f->kind[k] < 0) {
      f->kind[k] = lo;
      f->size[k] = distinct;
    } else if (f->kind[k] != lo || f->size[k] != distinct)
      return COST_UNFOLDED;
  }
  *least = lo;
  *count = distinct;
  return 0;
}

int cost_fold_use(cost_fold *f, const cost_ctx *c, int from, int to, cost_route_use *u)
{
  int m = f->images, p = c->p, rc = cost_route_use_of(c, from, to, u);
  if (rc || m < 2)
    return rc;
  int n = u->n, *keys = malloc(sizeof *keys * ((size_t)m * (size_t)n + 1));
  if (!keys)
    return SA_ENOMEM;
  for (int i = 0; i < n; i++)
    keys[i] = u->key[i];
  for (int j = 1; j < m && rc == 0; j++) { /* its like j periods on */
    cost_route_use v;
    rc = cost_route_use_of(c, (from + j * f->period) % p, (to + j * f->period) % p, &v);
    if (rc == 0 && !alike(u, &v))
      rc = COST_UNFOLDED;
    for (int i = 0; rc == 0 && i < n; i++)
      keys[j * n + i] = v.key[i];
  }
  cost_route_use w = *u;
  w.n = 0;
  for (int i = 0; i < n && rc == 0; i++) {
    int least, count;
    rc = kind_of(f, c, keys, n, i, &least, &count);
    /* m / count of the likes' messages on each link of the kind, this one's among them */
    if (rc == 0)
      rc = cost_route_use_add(&w, least, u->coef[i] * m / count);
  }
  free(keys);
  if (rc == 0)
    *u = w;
  return rc;
}
