/* fdjac.c: forward differences for the fit's Jacobian (fdjac.h): the moved points made as
 * GSL's forward_jac makes them, the differences taken as it takes them. */
#include "fdjac.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdlib.h>

/* The step for coordinate j, as GSL's forward_jac takes it, backwards where forwards it
 * would pass the coordinate's top. */
static double step(const gsl_vector *x, size_t j, double h, const double *top)
{
  double xj = gsl_vector_get(x, j), d = h * fabs(xj);
  d = d == 0.0 ? h : d;
  return top && xj + d > top[j] ? -d : d;
}

int fit_fdjac(fit_fdjac_fn fn, void *params, const gsl_vector *x, const gsl_vector *f0, double h, const double *top,
              gsl_matrix *J)
{
  size_t n = f0->size, p = x->size;
  double *fnext = malloc(sizeof *fnext * n * p + 1);
  gsl_vector **xs = calloc(p + 1, sizeof *xs);
  int rc = fnext && xs ? GSL_SUCCESS : GSL_ENOMEM;
  for (size_t j = 0; rc == GSL_SUCCESS && j < p; j++) {
    if (!(xs[j] = gsl_vector_alloc(p))) {
      rc = GSL_ENOMEM;
      break;
    }
    gsl_vector_memcpy(xs[j], x);
    gsl_vector_set(xs[j], j, gsl_vector_get(x, j) + step(x, j, h, top));
  }
  if (rc == GSL_SUCCESS)
    rc = fn((const gsl_vector *const *)xs, (int)p, params, fnext);
  /* (fnext - f0) / h_j, as GSL writes it: times the step's inverse */
  for (size_t j = 0; rc == GSL_SUCCESS && j < p; j++) {
    double inv = 1.0 / step(x, j, h, top);
    for (size_t i = 0; i < n; i++)
      gsl_matrix_set(J, i, j, (fnext[j * n + i] - gsl_vector_get(f0, i)) * inv);
  }
  for (size_t j = 0; xs && j < p; j++)
    if (xs[j])
      gsl_vector_free(xs[j]);
  free(xs);
  free(fnext);
  return rc;
}
