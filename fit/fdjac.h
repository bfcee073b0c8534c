/* fdjac.h: a least-squares Jacobian by forward differences, as GSL's multifit_nlinear takes
 * it itself (step h |x_j|, h where x_j is 0), its columns computed side by side in child
 * processes (forked.h): a column of the cluster fit is a replay of every fitted size,
 * seconds each, and the columns do not depend on one another. */
#ifndef FIT_FDJAC_H
#define FIT_FDJAC_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

typedef int (*fit_fdjac_fn)(const gsl_vector *x, void *params, gsl_vector *out);

/* J (n x p) at x, f0 being fn at x (n residuals): column j is (fn(x + h_j e_j) - f0) / h_j,
 * the same bit for bit however many processes computed it. Returns 0 (GSL_SUCCESS), or
 * fn's error. */
int fit_fdjac(fit_fdjac_fn fn, void *params, const gsl_vector *x, const gsl_vector *f0, double h, gsl_matrix *J);

#endif
