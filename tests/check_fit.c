/* check_fit.c: fit/fit.c recovers known cost laws: a line with its r2 and residuals,
 * the non-negative refits, and piecewise laws with their breakpoints. */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>

#include "check_util.h"
#include "common/sa_error.h"
#include "fit/fdjac.h"
#include "fit/fit.h"
#include "util/forked.h"

#define NPTS 29 /* 1 B .. 256 MiB in powers of two, as simcalib measure sweeps */

/* Times of a piecewise law (breaks[i] = first size of segment i+1) with relative noise. */
static void synth(double *x, double *y, const double *alpha, const double *beta, const double *breaks, int nseg,
                  double noise, unsigned long seed)
{
  gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(r, seed);
  for (int i = 0; i < NPTS; i++) {
    x[i] = ldexp(1.0, i);
    int s = 0;
    while (s + 1 < nseg && x[i] >= breaks[s])
      s++;
    y[i] = (alpha[s] + beta[s] * x[i]) * (1.0 + noise * gsl_ran_gaussian(r, 1.0));
  }
  gsl_rng_free(r);
}

static void rel_weights(const double *y, double *w, int n)
{
  for (int i = 0; i < n; i++)
    w[i] = 1.0 / (y[i] * y[i]);
}

START_TEST(line_recovers_alpha_and_beta)
{
  double x[NPTS], y[NPTS], w[NPTS], res[NPTS];
  double alpha[] = {2e-6}, beta[] = {1e-10}; /* 2 us, 10 GB/s */
  synth(x, y, alpha, beta, NULL, 1, 0.01, 1);
  rel_weights(y, w, NPTS);
  fit_line f;
  ck_assert_int_eq(fit_linear(x, y, w, NPTS, FIT_NONNEG, &f), 0);
  ck_assert_double_eq_tol(f.c0, 2e-6, 2e-6 * 0.01);
  ck_assert_double_eq_tol(f.c1, 1e-10, 1e-10 * 0.01);
  ck_assert_int_eq(f.pinned, 0);
  ck_assert_uint_eq(f.n, NPTS);
  ck_assert(f.r2 > 0.999 && f.r2 <= 1.0);
  ck_assert(f.max_rel_err < 0.05);
  fit_residuals(&f, x, y, NPTS, res);
  for (int i = 0; i < NPTS; i++)
    ck_assert_double_eq_tol(res[i], y[i] - (f.c0 + f.c1 * x[i]), 1e-18);
  /* without noise the fit is exact and r2 is 1 */
  synth(x, y, alpha, beta, NULL, 1, 0.0, 1);
  ck_assert_int_eq(fit_linear(x, y, NULL, NPTS, 0, &f), 0);
  ck_assert_double_eq_tol(f.c0, 2e-6, 1e-15);
  ck_assert_double_eq_tol(f.r2, 1.0, 1e-12);
}
END_TEST

START_TEST(negative_coefficients_are_refitted)
{
  double x[] = {1, 2, 3, 4}, y[] = {4, 3.9, 3.8, 3.7}, z[] = {1, 2.1, 3.2, 4.3};
  fit_line f;
  ck_assert_int_eq(fit_linear(x, y, NULL, 4, 0, &f), 0);
  ck_assert(f.c1 < 0); /* the free fit slopes down */
  ck_assert_int_eq(fit_linear(x, y, NULL, 4, FIT_NONNEG, &f), 0);
  ck_assert_int_eq(f.pinned, 1);
  ck_assert_double_eq(f.c1, 0);
  ck_assert_double_eq_tol(f.c0, 3.85, 1e-12); /* the mean */
  ck_assert_int_eq(fit_linear(x, z, NULL, 4, 0, &f), 0);
  ck_assert(f.c0 < 0);
  ck_assert_int_eq(fit_linear(x, z, NULL, 4, FIT_NONNEG, &f), 0);
  ck_assert_int_eq(f.pinned, 2);
  ck_assert_double_eq(f.c0, 0);
  ck_assert_double_eq_tol(f.c1, (1 + 4.2 + 9.6 + 17.2) / 30.0, 1e-12); /* sum xy / sum xx */
}
END_TEST

START_TEST(bad_input_is_refused)
{
  double x[] = {1, 2, NAN}, y[] = {1, 2, 3}, down[] = {3, 2, 1};
  fit_line f;
  fit_piecewise pw;
  ck_assert_int_eq(fit_linear(x, y, NULL, 0, 0, &f), SA_EINVAL);
  ck_assert_int_eq(fit_linear(x, y, NULL, 3, 0, &f), SA_EINVAL);
  ck_assert_int_eq(fit_linear(y, x, NULL, 2, 0, &f), 0);
  ck_assert_int_eq(fit_piecewise_k(down, y, NULL, 3, 1, 1, 0, &pw), SA_EINVAL); /* x not sorted */
  ck_assert_int_eq(fit_piecewise_k(y, y, NULL, 3, 2, 2, 0, &pw), SA_EINVAL);   /* 2 x 2 points > 3 */
  /* one point: a flat line through it */
  ck_assert_int_eq(fit_linear(y, y, NULL, 1, 0, &f), 0);
  ck_assert_double_eq(f.c0, 1);
  ck_assert_double_eq(f.c1, 0);
}
END_TEST

/* An eager/rendezvous-like law: three regimes, breakpoints at 4 KiB and 256 KiB. */
static const double A3[] = {1e-6, 5e-6, 40e-6}, B3[] = {4e-10, 2e-10, 1e-10}, K3[] = {4096, 262144};

START_TEST(piecewise_finds_the_breakpoints)
{
  double x[NPTS], y[NPTS], w[NPTS];
  synth(x, y, A3, B3, K3, 3, 0.005, 7);
  rel_weights(y, w, NPTS);
  const int modes[] = {FIT_NONNEG, FIT_NONNEG | FIT_MINIMAX};
  for (int m = 0; m < 2; m++) {
    int flags = modes[m];
    fit_piecewise pw;
    ck_assert_int_eq(fit_piecewise_auto(x, y, w, NPTS, 8, 3, 0.03, flags, &pw), 0);
    ck_assert_uint_eq(pw.nseg, 3);
    ck_assert_double_eq(x[pw.first[1]], 4096);
    ck_assert_double_eq(x[pw.first[2]], 262144);
    ck_assert_uint_eq(pw.count[0] + pw.count[1] + pw.count[2], NPTS);
    for (int s = 0; s < 3; s++) {
      ck_assert_double_eq_tol(pw.line[s].c0, A3[s], A3[s] * 0.05);
      ck_assert_double_eq_tol(pw.line[s].c1, B3[s], B3[s] * 0.05);
    }
    ck_assert(pw.max_rel_err < 0.03);
    ck_assert_uint_eq(fit_piecewise_find(&pw, x, 4095), 0);
    ck_assert_uint_eq(fit_piecewise_find(&pw, x, 4096), 1);
    ck_assert_uint_eq(fit_piecewise_find(&pw, x, 1e12), 2);
    fit_piecewise_free(&pw);
  }
}
END_TEST

START_TEST(piecewise_uses_no_more_segments_than_needed)
{
  double x[NPTS], y[NPTS], w[NPTS];
  double alpha[] = {3e-6}, beta[] = {2e-10};
  synth(x, y, alpha, beta, NULL, 1, 0.0, 3);
  rel_weights(y, w, NPTS);
  fit_piecewise pw;
  ck_assert_int_eq(fit_piecewise_auto(x, y, w, NPTS, 8, 3, 0.01, FIT_NONNEG, &pw), 0);
  ck_assert_uint_eq(pw.nseg, 1);
  fit_piecewise_free(&pw);
  /* a single line cannot fit three regimes: forced to one segment the error is large */
  synth(x, y, A3, B3, K3, 3, 0.0, 3);
  rel_weights(y, w, NPTS);
  ck_assert_int_eq(fit_piecewise_k(x, y, w, NPTS, 1, 3, FIT_NONNEG, &pw), 0);
  ck_assert(pw.max_rel_err > 0.2);
  fit_piecewise_free(&pw);
  ck_assert_int_eq(fit_piecewise_k(x, y, w, NPTS, 3, 3, FIT_NONNEG, &pw), 0);
  ck_assert(pw.max_rel_err < 1e-9);
  fit_piecewise_free(&pw);
}
END_TEST

/* r(x) = (x0^2, x0 x1, sin x1, 3): a Jacobian known in closed form; refuses x1 past 10. */
static int curve(const gsl_vector *x, void *params, gsl_vector *out)
{
  (void)params;
  double a = gsl_vector_get(x, 0), b = gsl_vector_get(x, 1);
  if (b > 10)
    return GSL_EDOM;
  gsl_vector_set(out, 0, a * a);
  gsl_vector_set(out, 1, a * b);
  gsl_vector_set(out, 2, sin(b));
  gsl_vector_set(out, 3, 3);
  return GSL_SUCCESS;
}

/* curve at the Jacobian's moved point k, into buf (4 residuals). */
static int curve_at(void *arg, int k, void *buf)
{
  const gsl_vector *const *xs = arg;
  gsl_vector_view out = gsl_vector_view_array(buf, 4);
  return curve(xs[k], NULL, &out.vector);
}

/* The moved points side by side in child processes, as the cluster fit shares its
 * evaluations out (clustereval.c). */
static int curves(const gsl_vector *const *xs, int p, void *params, double *out)
{
  (void)params;
  return util_forked_run(p, curve_at, (void *)xs, out, 4 * sizeof *out);
}

/* The same Jacobian with its moved points evaluated in this process alone (--jobs 1) and in
 * children, bit for bit, and the closed form's to the step's order; a column that fails
 * fails the whole, from a child too. */
START_TEST(jacobian_columns_side_by_side)
{
  gsl_vector *x = gsl_vector_alloc(2), *f0 = gsl_vector_alloc(4);
  gsl_matrix *one = gsl_matrix_alloc(4, 2), *many = gsl_matrix_alloc(4, 2);
  gsl_vector_set(x, 0, 1.5);
  gsl_vector_set(x, 1, 0.0); /* a zero coordinate: the step is h itself */
  curve(x, NULL, f0);
  util_forked_limit(1);
  ck_assert_int_eq(fit_fdjac(curves, NULL, x, f0, 1e-6, NULL, one), GSL_SUCCESS);
  util_forked_limit(3);
  ck_assert_int_eq(fit_fdjac(curves, NULL, x, f0, 1e-6, NULL, many), GSL_SUCCESS);
  const double want[4][2] = {{3.0, 0}, {0, 1.5}, {0, 1}, {0, 0}};
  for (size_t i = 0; i < 4; i++)
    for (size_t j = 0; j < 2; j++) {
      ck_assert(gsl_matrix_get(one, i, j) == gsl_matrix_get(many, i, j));
      ck_assert_msg(fabs(gsl_matrix_get(one, i, j) - want[i][j]) < 1e-5, "J[%zu][%zu] = %g", i, j,
                    gsl_matrix_get(one, i, j));
    }
  gsl_vector_set(x, 1, 10); /* the second column's step goes past 10 */
  curve(x, NULL, f0);
  util_forked_limit(1);
  ck_assert_int_eq(fit_fdjac(curves, NULL, x, f0, 1e-6, NULL, one), GSL_EDOM);
  util_forked_limit(2);
  ck_assert_int_eq(fit_fdjac(curves, NULL, x, f0, 1e-6, NULL, many), GSL_EDOM);
  /* 10 as the second coordinate's top: its step goes backwards, inside what curve takes, and
   * the column is the closed form's (a, cos b) again */
  const double top[2] = {INFINITY, 10};
  ck_assert_int_eq(fit_fdjac(curves, NULL, x, f0, 1e-6, top, many), GSL_SUCCESS);
  ck_assert_msg(fabs(gsl_matrix_get(many, 1, 1) - 1.5) < 1e-5 && fabs(gsl_matrix_get(many, 2, 1) - cos(10)) < 1e-5,
                "J col 1 = %g, %g", gsl_matrix_get(many, 1, 1), gsl_matrix_get(many, 2, 1));
  util_forked_limit(0);
  gsl_vector_free(x);
  gsl_vector_free(f0);
  gsl_matrix_free(one);
  gsl_matrix_free(many);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("calib_fit");
  CHECK_CASE(s, "line", 10, line_recovers_alpha_and_beta, negative_coefficients_are_refitted, bad_input_is_refused);
  CHECK_CASE(s, "piecewise", 30, piecewise_finds_the_breakpoints, piecewise_uses_no_more_segments_than_needed);
  CHECK_CASE(s, "jacobian", 10, jacobian_columns_side_by_side);
  return check_run(s);
}
