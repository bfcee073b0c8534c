/* fdjac.c: forward differences for the fit's Jacobian, its columns as the pieces of
 * fit_forked_run (forked.h): the same arithmetic wherever a column is computed, so the
 * Jacobian does not depend on how the columns were shared out. */
#include "fdjac.h"
#include "forked.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdlib.h>

/* The step for coordinate xj, as GSL's forward_jac takes it. */
static double step(double xj, double h)
{
  double d = h * fabs(xj);
  return d == 0.0 ? h : d;
}

typedef struct {
  fit_fdjac_fn fn;
  void *params;
  const gsl_vector *x;
  double h;
  size_t n;
} columns;

/* fn at x with coordinate j moved by its step, into buf (n doubles). */
static int column(void *arg, int j, void *buf)
{
  columns *c = arg;
  gsl_vector *x1 = gsl_vector_alloc(c->x->size);
  if (!x1)
    return GSL_ENOMEM;
  gsl_vector_memcpy(x1, c->x);
  gsl_vector_set(x1, (size_t)j, gsl_vector_get(c->x, (size_t)j) + step(gsl_vector_get(c->x, (size_t)j), c->h));
  gsl_vector_view out = gsl_vector_view_array(buf, c->n);
  int rc = c->fn(x1, c->params, &out.vector);
  gsl_vector_free(x1);
  return rc;
}

int fit_fdjac(fit_fdjac_fn fn, void *params, const gsl_vector *x, const gsl_vector *f0, double h, gsl_matrix *J)
{
  size_t n = f0->size, p = x->size;
  columns c = {fn, params, x, h, n};
  double *fnext = malloc(sizeof *fnext * n * p + 1);
  int rc = fnext ? fit_forked_run((int)p, column, &c, fnext, sizeof *fnext * n) : GSL_ENOMEM;
  /* (fnext - f0) / h_j, as GSL writes it: times the step's inverse */
  for (size_t j = 0; rc == 0 && j < p; j++) {
    double inv = 1.0 / step(gsl_vector_get(x, j), h);
    for (size_t i = 0; i < n; i++)
      gsl_matrix_set(J, i, j, (fnext[j * n + i] - gsl_vector_get(f0, i)) * inv);
  }
  free(fnext);
  return rc;
}
