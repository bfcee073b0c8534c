/* fit.c: weighted linear and piecewise-linear least squares over GSL (see fit.h). */
#include "common/sa_error.h"
#include "fit.h"

#include <gsl/gsl_fit.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static double weight(const double *w, size_t i) { return w ? w[i] : 1.0; }

/* r2 and worst relative error of f over the points, with the fit's weights. */
static void quality(fit_line *f, const double *x, const double *y, const double *w, size_t n)
{
  double sw = 0, swy = 0, ss_res = 0, ss_tot = 0, worst = 0;
  for (size_t i = 0; i < n; i++) {
    sw += weight(w, i);
    swy += weight(w, i) * y[i];
  }
  double mean = sw > 0 ? swy / sw : 0;
  for (size_t i = 0; i < n; i++) {
    double r = y[i] - fit_eval(f, x[i]);
    ss_res += weight(w, i) * r * r;
    ss_tot += weight(w, i) * (y[i] - mean) * (y[i] - mean);
    if (y[i] != 0 && fabs(r / y[i]) > worst)
      worst = fabs(r / y[i]);
  }
  /* All y equal: the line explains them fully when it goes through them. */
  f->r2 = ss_tot > 0 ? 1.0 - ss_res / ss_tot : (ss_res <= 1e-30 * (1 + swy * swy) ? 1.0 : 0.0);
  f->max_rel_err = worst;
}

static void fit_flat(const double *y, const double *w, size_t n, fit_line *f)
{
  double sw = 0, swy = 0;
  for (size_t i = 0; i < n; i++) {
    sw += weight(w, i);
    swy += weight(w, i) * y[i];
  }
  f->c0 = sw > 0 ? swy / sw : 0;
  f->c1 = 0;
  f->cov00 = sw > 0 ? 1.0 / sw : 0;
  f->cov01 = f->cov11 = 0;
  f->pinned = 1;
}

static int fit_origin(const double *x, const double *y, const double *w, size_t n, fit_line *f)
{
  double sumsq;
  int rc = w ? gsl_fit_wmul(x, 1, w, 1, y, 1, n, &f->c1, &f->cov11, &sumsq)
             : gsl_fit_mul(x, 1, y, 1, n, &f->c1, &f->cov11, &sumsq);
  f->c0 = f->cov00 = f->cov01 = 0;
  f->pinned = 2;
  return rc ? SA_EFIT : 0;
}

int fit_linear(const double *x, const double *y, const double *w, size_t n, int flags, fit_line *f)
{
  memset(f, 0, sizeof *f);
  if (!x || !y || n == 0)
    return SA_EINVAL;
  for (size_t i = 0; i < n; i++)
    if (!isfinite(x[i]) || !isfinite(y[i]) || (w && !(w[i] >= 0 && isfinite(w[i]))))
      return SA_EINVAL;
  f->n = n;
  int spread = 0;
  for (size_t i = 1; i < n; i++)
    spread |= x[i] != x[0];
  int rc = 0;
  if (!spread) {
    fit_flat(y, w, n, f);
  } else {
    double sumsq;
    rc = w ? gsl_fit_wlinear(x, 1, w, 1, y, 1, n, &f->c0, &f->c1, &f->cov00, &f->cov01, &f->cov11, &sumsq)
           : gsl_fit_linear(x, 1, y, 1, n, &f->c0, &f->c1, &f->cov00, &f->cov01, &f->cov11, &sumsq);
    rc = rc ? SA_EFIT : 0;
    if (rc == 0 && (flags & FIT_NONNEG) && f->c1 < 0)
      fit_flat(y, w, n, f);
    else if (rc == 0 && (flags & FIT_NONNEG) && f->c0 < 0)
      rc = fit_origin(x, y, w, n, f);
    if (rc == 0 && (flags & FIT_NONNEG) && f->c1 < 0)
      fit_flat(y, w, n, f);
  }
  if (rc == 0)
    quality(f, x, y, w, n);
  return rc;
}

double fit_eval(const fit_line *f, double x) { return f->c0 + f->c1 * x; }

void fit_residuals(const fit_line *f, const double *x, const double *y, size_t n, double *res)
{
  for (size_t i = 0; i < n; i++)
    res[i] = y[i] - fit_eval(f, x[i]);
}

static double wsse(const fit_line *f, const double *x, const double *y, const double *w, size_t n)
{
  double s = 0;
  for (size_t i = 0; i < n; i++) {
    double r = y[i] - fit_eval(f, x[i]);
    s += weight(w, i) * r * r;
  }
  return s;
}

void fit_piecewise_free(fit_piecewise *pw)
{
  free(pw->first);
  free(pw->count);
  free(pw->line);
  memset(pw, 0, sizeof *pw);
}

int fit_piecewise_k(const double *x, const double *y, const double *w, size_t n, size_t k, size_t min_pts,
                         int flags, fit_piecewise *pw)
{
  memset(pw, 0, sizeof *pw);
  if (min_pts < 1)
    min_pts = 1;
  if (k == 0 || n == 0 || k * min_pts > n)
    return SA_EINVAL;
  for (size_t i = 1; i < n; i++)
    if (!(x[i] >= x[i - 1]))
      return SA_EINVAL;
  size_t m = n + 1;
  int minimax = (flags & FIT_MINIMAX) != 0;
  /* seg[i*m + j]: error of one line through points i..j-1; best[s*m + j]: least error of
   * s segments covering points 0..j-1, from[s*m + j] the start of the last of them. */
  double *seg = malloc(sizeof(double) * m * m), *best = malloc(sizeof(double) * (k + 1) * m);
  size_t *from = malloc(sizeof(size_t) * (k + 1) * m);
  int rc = SA_ENOMEM;
  if (!seg || !best || !from)
    goto out;
  for (size_t i = 0; i < n; i++)
    for (size_t j = i + min_pts; j <= n; j++) {
      fit_line f;
      int ok = fit_linear(x + i, y + i, w ? w + i : NULL, j - i, flags, &f) == 0;
      seg[i * m + j] = !ok ? HUGE_VAL : minimax ? f.max_rel_err : wsse(&f, x + i, y + i, w ? w + i : NULL, j - i);
    }
  for (size_t s = 0; s <= k; s++)
    for (size_t j = 0; j <= n; j++)
      best[s * m + j] = HUGE_VAL;
  best[0] = 0;
  for (size_t s = 1; s <= k; s++)
    for (size_t j = s * min_pts; j <= n; j++)
      for (size_t i = (s - 1) * min_pts; i + min_pts <= j; i++) {
        double prev = best[(s - 1) * m + i], c = minimax ? (prev > seg[i * m + j] ? prev : seg[i * m + j])
                                                          : prev + seg[i * m + j];
        if (c < best[s * m + j]) {
          best[s * m + j] = c;
          from[s * m + j] = i;
        }
      }
  if (!isfinite(best[k * m + n]))
    goto out;
  pw->nseg = k;
  pw->first = calloc(k, sizeof *pw->first);
  pw->count = calloc(k, sizeof *pw->count);
  pw->line = calloc(k, sizeof *pw->line);
  if (!pw->first || !pw->count || !pw->line)
    goto out;
  for (size_t s = k, j = n; s > 0; j = from[s * m + j], s--) {
    pw->first[s - 1] = from[s * m + j];
    pw->count[s - 1] = j - from[s * m + j];
  }
  for (size_t s = 0; s < k; s++) {
    size_t i = pw->first[s];
    if (fit_linear(x + i, y + i, w ? w + i : NULL, pw->count[s], flags, &pw->line[s]) != 0)
      goto out;
    pw->wsse += wsse(&pw->line[s], x + i, y + i, w ? w + i : NULL, pw->count[s]);
    if (pw->line[s].max_rel_err > pw->max_rel_err)
      pw->max_rel_err = pw->line[s].max_rel_err;
  }
  rc = 0;
out:
  if (rc != 0)
    fit_piecewise_free(pw);
  free(seg);
  free(best);
  free(from);
  return rc;
}

int fit_piecewise_auto(const double *x, const double *y, const double *w, size_t n, size_t max_k,
                            size_t min_pts, double tol, int flags, fit_piecewise *pw)
{
  memset(pw, 0, sizeof *pw);
  int found = 0;
  for (size_t k = 1; k <= max_k; k++) {
    fit_piecewise cand;
    if (fit_piecewise_k(x, y, w, n, k, min_pts, flags, &cand) != 0)
      break;
    if (!found || cand.max_rel_err < pw->max_rel_err) {
      fit_piecewise_free(pw);
      *pw = cand;
      found = 1;
    } else {
      fit_piecewise_free(&cand);
    }
    if (pw->max_rel_err <= tol)
      break;
  }
  return found ? 0 : SA_EFIT;
}

size_t fit_piecewise_find(const fit_piecewise *pw, const double *x, double at)
{
  size_t s = 0;
  while (s + 1 < pw->nseg && x[pw->first[s + 1]] <= at)
    s++;
  return s;
}
