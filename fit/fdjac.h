/* fdjac.h: a least-squares Jacobian by forward differences, as GSL's multifit_nlinear takes
 * it itself (step h |x_j|, h where x_j is 0), the moved points of all its columns handed
 * over in one call, which shares their evaluations out (clustereval.h). A column of the
 * cluster fit is a replay of every fitted size, and the columns do not depend on one
 * another. */
#ifndef FIT_FDJAC_H
#define FIT_FDJAC_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

/* The residuals (n of them) at each of the p points xs[0..p) into out[j n .. (j + 1) n). */
typedef int (*fit_fdjac_fn)(const gsl_vector *const *xs, int p, void *params, double *out);

/* J (n x p) at x, f0 being the residuals at x: column j is (fn(x + h_j e_j) - f0) / h_j,
 * the step taken backwards (-h_j) where forwards it would pass top[j], the coordinate's upper
 * bound (top NULL: none): a parameter held at its bound moves no time past it, and the
 * forward difference of one at its bound is 0, which would hold it there for good (L08's
 * NICs at their line rate, the log 9% slower at its largest sizes). Returns 0 (GSL_SUCCESS),
 * or fn's error. */
int fit_fdjac(fit_fdjac_fn fn, void *params, const gsl_vector *x, const gsl_vector *f0, double h, const double *top,
              gsl_matrix *J);

#endif
