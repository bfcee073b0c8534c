/* fdjac.c: forward differences for the fit's Jacobian, a column per child process
 * (forked.h): the same arithmetic wherever a column is computed, so the Jacobian does not
 * depend on how the columns were shared out. */
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
  size_t j;
  gsl_vector *x1, *out;
} column_job;

/* fn at x with coordinate j moved by its step, into buf (out's data: a whole vector). */
static int column(void *arg, void *buf)
{
  column_job *c = arg;
  (void)buf;
  gsl_vector_memcpy(c->x1, c->x);
  gsl_vector_set(c->x1, c->j, gsl_vector_get(c->x, c->j) + step(gsl_vector_get(c->x, c->j), c->h));
  return c->fn(c->x1, c->params, c->out);
}

/* (fnext - f0) / h_j into column j of J, as GSL writes it (times the step's inverse). */
static void difference(gsl_matrix *J, size_t j, const gsl_vector *fnext, const gsl_vector *f0, double d)
{
  double inv = 1.0 / d;
  for (size_t i = 0; i < f0->size; i++)
    gsl_matrix_set(J, i, j, (gsl_vector_get(fnext, i) - gsl_vector_get(f0, i)) * inv);
}

int fit_fdjac(fit_fdjac_fn fn, void *params, const gsl_vector *x, const gsl_vector *f0, double h, int workers,
              gsl_matrix *J)
{
  size_t n = f0->size, p = x->size, bytes = sizeof(double) * n;
  column_job c = {fn, params, x, h, 0, gsl_vector_alloc(p), gsl_vector_alloc(n)};
  fit_forked *kids = calloc(p + 1, sizeof *kids);
  int rc = c.x1 && c.out && kids ? 0 : GSL_ENOMEM;
  for (size_t lo = 0; rc == 0 && lo < p; lo += (size_t)workers) {
    size_t hi = lo + (size_t)workers < p ? lo + (size_t)workers : p;
    /* every column of this batch but the first to a child, the first here meanwhile */
    for (size_t j = lo + 1; j < hi; j++) {
      c.j = j;
      kids[j] = fit_forked_start(column, &c, c.out->data, bytes);
    }
    kids[lo].pid = -1;
    for (size_t j = lo; rc == 0 && j < hi; j++) {
      c.j = j;
      int got = fit_forked_finish(&kids[j], c.out->data, bytes);
      if (got == 1)
        got = column(&c, c.out->data);
      if (got == 0)
        difference(J, j, c.out, f0, step(gsl_vector_get(x, j), h));
      rc = got;
    }
    for (size_t j = lo + 1; j < hi; j++) /* after an error: the children still running */
      fit_forked_finish(&kids[j], c.out->data, bytes);
  }
  gsl_vector_free(c.x1);
  gsl_vector_free(c.out);
  free(kids);
  return rc;
}
