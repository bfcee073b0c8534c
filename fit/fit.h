/* fit.h: least-squares fitting of cost laws y = c0 + c1 x over GSL (no SimGrid, no MPI):
 * one line with its quality, and piecewise lines whose breakpoints are searched for, as
 * message-passing costs change law where a protocol changes (eager / rendezvous). */
#ifndef FIT_FIT_H
#define FIT_FIT_H

#include <stddef.h>

/* Refuse negative coefficients: a cost law with a negative fixed or per-unit cost is noise,
 * not physics. When the free fit has c1 < 0 the line is refitted flat (c1 = 0); when it has
 * c0 < 0 it is refitted through the origin (c0 = 0). */
#define FIT_NONNEG 1
/* Piecewise fits: choose breakpoints that minimise the worst relative error of any point
 * instead of the total weighted squared error (each segment's line stays least squares). */
#define FIT_MINIMAX 2

typedef struct {
  double c0, c1;           /* y = c0 + c1 x */
  double cov00, cov01, cov11;
  double r2;               /* coefficient of determination, weighted as the fit was */
  double max_rel_err;      /* max |y - fit| / |y| over the points */
  size_t n;                /* points used */
  int pinned;              /* 0 free, 1 c1 pinned to 0, 2 c0 pinned to 0 */
} fit_line;

/* Weighted least squares of y on x (w may be NULL for equal weights; weight 1/y^2 makes the
 * fit minimise relative error). n >= 2 and some spread in x are needed for a slope; with
 * n == 1 the line is flat. Returns 0, or -1 for bad arguments. */
int fit_linear(const double *x, const double *y, const double *w, size_t n, int flags, fit_line *f);

double fit_eval(const fit_line *f, double x);

/* res[i] = y[i] - fit(x[i]). */
void fit_residuals(const fit_line *f, const double *x, const double *y, size_t n, double *res);

typedef struct {
  size_t nseg;
  size_t *first;        /* index of each segment's first point */
  size_t *count;        /* points in each segment */
  fit_line *line;  /* each segment's fit */
  double wsse;          /* total weighted sum of squared residuals */
  double max_rel_err;   /* worst over all points */
} fit_piecewise;

/* Best split of points sorted by x into exactly k contiguous segments of at least min_pts
 * points each, minimising the total weighted squared error, or with FIT_MINIMAX the
 * worst relative error (dynamic programming over every candidate breakpoint). Returns 0,
 * or -1 when it cannot be done (too few points). */
int fit_piecewise_k(const double *x, const double *y, const double *w, size_t n, size_t k, size_t min_pts,
                         int flags, fit_piecewise *pw);

/* The fewest segments (up to max_k) whose worst relative error is at most tol; when none
 * reaches tol, the one with the smallest worst error. Returns 0 or -1. */
int fit_piecewise_auto(const double *x, const double *y, const double *w, size_t n, size_t max_k,
                            size_t min_pts, double tol, int flags, fit_piecewise *pw);

/* Index of the segment whose range holds x: the last one whose first point is <= x. */
size_t fit_piecewise_find(const fit_piecewise *pw, const double *x, double at);

void fit_piecewise_free(fit_piecewise *pw);

#endif
