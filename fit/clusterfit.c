/* clusterfit.c: the cluster fit of clusterfit.h: the cost models at each run's shape, GSL's
 * trust-region Levenberg-Marquardt on the logarithms of the parameters (so that rates and
 * latencies stay positive), started from a few ramps and kept at the best. */
#include "clusterfit.h"

#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"
#include "models/cost.h"
#include "models/cost_nccl.h"

#include "clustereval.h"
#include "fdjac.h"

/* The ramp's pieces: one per power of two from 32 B to 1 GiB (27, within SA_MAX_PIECES):
 * below 32 B a message is latency alone, and SimGrid 3.32 reads a threshold as an int (one of
 * 2 GiB or more stops the simulation: "std::out_of_range: stoi"), so from 1 GiB the ramp's
 * value at 1 GiB holds (more than 99.9% of the rate for every fit seen). */
#define PIECE_LO 5
#define PIECE_HI 30

static double ramp(double half, double steep, double s) { return 1.0 / (1.0 + pow(half / s, steep)); }

void fit_cfit_factor(double half, double steep, double latx, sa_piecewise *bw, sa_piecewise *lat)
{
  memset(bw, 0, sizeof *bw);
  memset(lat, 0, sizeof *lat);
  bw->kind = lat->kind = SA_PIECE_FACTOR;
  bw->dflt = lat->dflt = 1;
  for (int k = PIECE_LO; k <= PIECE_HI && bw->n < SA_MAX_PIECES; k++, bw->n++) {
    double e = ramp(half, steep, ldexp(1, k));
    bw->thresh[bw->n] = k == PIECE_LO ? 0 : ldexp(1, k);
    bw->a[bw->n] = e;
    lat->thresh[bw->n] = bw->thresh[bw->n];
    lat->a[bw->n] = 1 + (latx - 1) * e;
  }
  lat->n = bw->n;
}

int fit_cfit_eval(fit_cfit *f, fit_crun *runs, int nruns) { return fit_ceval(f, runs, nruns, 0, NULL); }

/* A link's rate or latency the runs barely depend on (the GPU links of a run across nodes,
 * whose ring waits on its NICs) would wander wherever the fit's steps take it: each one is
 * held to its start, the server's published figure, by a residual of PRIOR times how far it
 * has gone (in log), as much as a 1% error on one point for a factor e. The ramp has none. */
#define PRIOR 0.01
/* The NIC's rate is held ten times harder: its start is a measurement (98% of the line rate,
 * NCCL's ring over 8 such NICs: topo/presets.c), where NVLS's copies and the protocols' are
 * NCCL's own estimates; a log whose times a slower NIC or slower copies would both explain
 * (NVLS tree across nodes: the NICs and the copy warps in one pipeline) keeps the NIC. */
#define PRIOR_NIC 0.1

typedef struct {
  fit_cfit *f;
  fit_crun *runs;
  int nruns, np, idx[FIT_NPARAM], nprior;
  double start[FIT_NPARAM]; /* the descent's coordinates (coord) where the fit began */
  /* a descent's: */
  gsl_vector *last_x, *last_f; /* the residuals' last evaluation, the Jacobian's base */
  fit_ckept *kept;             /* each point's last evaluation (clustereval.h) */
  double *model;               /* the used points' times, in run order */
  const gsl_multifit_nlinear_workspace *w; /* GSL's, once it has started */
  size_t maxiter;
} problem;

/* GSL's tolerance on a step (relative, and its square absolute): its driver stops once every
 * coordinate moves by less. A millionth: the replay's times are not smooth below that (a
 * coordinate moved by 1e-7 reorders events that tie and moves a point by tenths of a percent:
 * L12's fit, its NIC rate 1.2e-7 apart, gives 32 MiB 8.26% or 8.50% off), so steps finer than
 * this chase the model's own jitter, not the log (L12's fit took 13 iterations at 1e-10, 10
 * here, the same figures to 6 digits; every figure written is printed to at most 6). */
#define XTOL 1e-6

/* Parameter i's value v held within its bounds, where it has them */
static double within(const fit_cfit *f, int i, double v)
{
  v = f->hi[i] > 0 ? fmin(v, f->hi[i]) : v;
  return f->lo[i] > 0 ? fmax(v, f->lo[i]) : v;
}

/* The descent's coordinate of parameter i at value v (its log), and back: within its bounds,
 * where it has them (beyond, the times stop moving with it, and the descent turns back). */
static double coord(const fit_cfit *f, int i, double v) { return log(within(f, i, v)); }

static double value(const fit_cfit *f, int i, double x) { return within(f, i, exp(x)); }

int fit_cfit_at_floor(const fit_cfit *f, int i)
{
  return f->free[i] && f->lo[i] > 0 && *fit_cfit_param((fit_cfit *)f, i) <= (1 + FIT_AT_BOUND) * f->lo[i];
}

int fit_cfit_at_bound(const fit_cfit *f, int i)
{
  return fit_cfit_at_floor(f, i) ||
         (f->free[i] && f->hi[i] > 0 && *fit_cfit_param((fit_cfit *)f, i) >= (1 - FIT_AT_BOUND) * f->hi[i]);
}

static int has_prior(int param) { return param <= FIT_P_NIC_LAT || param >= FIT_P_LAUNCH; }

/* The residuals at x from the used points' model times (in run order): each one's relative
 * error, then the priors. */
static void fill_residuals(const problem *pb, const double *model, const gsl_vector *x, gsl_vector *out)
{
  size_t k = 0;
  for (int r = 0; r < pb->nruns; r++)
    for (int i = 0; i < pb->runs[r].n; i++)
      if (pb->runs[r].pt[i].used) {
        const fit_cpoint *p = &pb->runs[r].pt[i];
        gsl_vector_set(out, k, (model[k] - p->measured_s) / p->measured_s);
        k++;
      }
  for (int i = 0; i < pb->np; i++)
    if (has_prior(pb->idx[i]))
      gsl_vector_set(out, k++, (pb->idx[i] == FIT_P_NIC_BW ? PRIOR_NIC : PRIOR) *
                                   (gsl_vector_get(x, (size_t)i) - pb->start[pb->idx[i]]));
}

static int residuals(const gsl_vector *x, void *data, gsl_vector *out)
{
  problem *pb = data;
  for (int i = 0; i < pb->np; i++)
    *fit_cfit_param(pb->f, pb->idx[i]) = value(pb->f, pb->idx[i], gsl_vector_get(x, (size_t)i));
  /* the used points only (the others are evaluated once the descent ends), kept for the
   * Jacobian GSL may ask for here next */
  if (fit_ceval(pb->f, pb->runs, pb->nruns, 1, pb->kept) != 0)
    return GSL_EDOM;
  size_t k = 0;
  for (int r = 0; r < pb->nruns; r++)
    for (int i = 0; i < pb->runs[r].n; i++)
      if (pb->runs[r].pt[i].used)
        pb->model[k++] = pb->runs[r].pt[i].model_s;
  fill_residuals(pb, pb->model, x, out);
  if (pb->last_x && pb->last_f) {
    gsl_vector_memcpy(pb->last_x, x);
    gsl_vector_memcpy(pb->last_f, out);
  }
  return GSL_SUCCESS;
}

/* The residuals at each of the Jacobian's moved points (fdjac.h), evaluated together: a point
 * that reads none of the figures a column moves keeps its time at x (clustereval.h). */
static int columns(const gsl_vector *const *xs, int p, void *data, double *out)
{
  problem *pb = data;
  size_t n = pb->last_f->size;
  int used = (int)(n - (size_t)pb->nprior);
  double(*pv)[FIT_NPARAM] = malloc(sizeof *pv * (size_t)(p + 1));
  double *model = malloc(sizeof *model * ((size_t)p * (size_t)used + 1));
  int rc = pv && model ? 0 : GSL_ENOMEM;
  for (int j = 0; rc == 0 && j < p; j++) {
    for (int i = 0; i < FIT_NPARAM; i++)
      pv[j][i] = *fit_cfit_param(pb->f, i);
    for (int i = 0; i < pb->np; i++)
      pv[j][pb->idx[i]] = value(pb->f, pb->idx[i], gsl_vector_get(xs[j], (size_t)i));
  }
  if (rc == 0 && fit_ceval_sets(pb->f, pb->runs, pb->nruns, p, (const double(*)[FIT_NPARAM])pv, pb->kept, model) != 0)
    rc = GSL_EDOM;
  for (int j = 0; rc == 0 && j < p; j++) {
    gsl_vector_view o = gsl_vector_view_array(out + (size_t)j * n, n);
    fill_residuals(pb, model + (size_t)j * (size_t)used, xs[j], &o.vector);
  }
  free(pv);
  free(model);
  return rc;
}

#define FD_STEP 1e-2

/* Whether GSL's driver stops after the step that ends at x whatever the Jacobian there: its
 * last iteration, or a step that passes its test on x (gsl_multifit_nlinear_test's first,
 * |dx_i| < xtol^2 + xtol |x_i| for every i, made before any use of the Jacobian). Nothing
 * reads that Jacobian then but the gradient test of a last iteration, which moves GSL's
 * status between converged and out of iterations (the fit keeps its end either way), so it
 * is not computed: a full evaluation per parameter saved. */
static int last_step(const problem *pb, const gsl_vector *x)
{
  const gsl_multifit_nlinear_workspace *w = pb->w;
  if (!w) /* GSL's start, before any step */
    return 0;
  if (w->niter + 1 >= pb->maxiter)
    return 1;
  for (size_t i = 0; i < x->size; i++)
    if (!(fabs(gsl_vector_get(w->dx, i)) < XTOL * XTOL + XTOL * fabs(gsl_vector_get(x, i))))
      return 0;
  return 1;
}

/* The Jacobian at x from the residuals there (GSL evaluates them just before: kept, else
 * computed again) and at its moved points (fdjac.c). */
static int jacobian(const gsl_vector *x, void *data, gsl_matrix *J)
{
  problem *pb = data;
  if (last_step(pb, x))
    return GSL_SUCCESS;
  if (!gsl_vector_equal(x, pb->last_x) && residuals(x, pb, pb->last_f) != GSL_SUCCESS)
    return GSL_EDOM;
  gsl_vector *f0 = gsl_vector_alloc(pb->last_f->size);
  if (!f0)
    return GSL_ENOMEM;
  gsl_vector_memcpy(f0, pb->last_f);
  fit_ckept_pin(pb->kept); /* the evaluation at x */
  double top[FIT_NPARAM];  /* the coordinates' upper bounds (coord) */
  for (int i = 0; i < pb->np; i++)
    top[i] = pb->f->hi[pb->idx[i]] > 0 ? log(pb->f->hi[pb->idx[i]]) : INFINITY;
  int rc = fit_fdjac(columns, pb, x, f0, FD_STEP, top, J);
  gsl_vector_free(f0);
  return rc;
}

/* One Levenberg-Marquardt descent from f's parameters; the sum of squared residuals it ends
 * at (HUGE_VAL when GSL gave up), f holding where. */
static double descend(problem *pb, size_t n, size_t maxiter)
{
  gsl_multifit_nlinear_fdf fdf = {.f = residuals, .df = jacobian, .n = n, .p = (size_t)pb->np, .params = pb};
  gsl_multifit_nlinear_parameters fp = gsl_multifit_nlinear_default_parameters();
  /* the Jacobian's differences: NCCL's models replay calls back to back whose steady state
   * wobbles (cost_nccl_des.c: a bandwidth moved by 1e-7 of itself moves a time by up to
   * 1.5%), not smooth at GSL's default step of 1e-8 of a coordinate nor at 1e-4, where the
   * descent stopped after 2 steps (L12's ring: median |error| 13%); at 1e-2 (a parameter
   * moved by 1%) they follow the trend through the wobble (L12: 3.0%) */
  fp.h_df = FD_STEP;
  gsl_multifit_nlinear_workspace *w = gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &fp, n, (size_t)pb->np);
  gsl_vector *x = gsl_vector_alloc((size_t)pb->np);
  pb->last_x = gsl_vector_alloc((size_t)pb->np);
  pb->last_f = gsl_vector_alloc(n);
  pb->kept = fit_ckept_new(pb->runs, pb->nruns); /* none: every point evaluated every time */
  pb->model = malloc(sizeof *pb->model * (n + 1));
  pb->w = NULL;
  pb->maxiter = maxiter;
  double cost = HUGE_VAL;
  if (w && x && pb->last_x && pb->last_f && pb->model) {
    for (int i = 0; i < pb->np; i++)
      gsl_vector_set(x, (size_t)i, coord(pb->f, pb->idx[i], *fit_cfit_param(pb->f, pb->idx[i])));
    int info;
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    int st = gsl_multifit_nlinear_init(x, &fdf, w);
    pb->w = w;
    if (st == GSL_SUCCESS)
      st = gsl_multifit_nlinear_driver(maxiter, XTOL, XTOL, 1e-12, NULL, NULL, &info, w);
    gsl_set_error_handler(old);
    pb->f->status = st;
    pb->f->iterations = (int)gsl_multifit_nlinear_niter(w);
    const gsl_vector *best = gsl_multifit_nlinear_position(w), *res = gsl_multifit_nlinear_residual(w);
    if (st == GSL_SUCCESS || st == GSL_EMAXITER || st == GSL_ENOPROG) {
      cost = 0;
      for (size_t i = 0; i < n; i++)
        cost += gsl_vector_get(res, i) * gsl_vector_get(res, i);
      for (int i = 0; i < pb->np; i++)
        *fit_cfit_param(pb->f, pb->idx[i]) = value(pb->f, pb->idx[i], gsl_vector_get(best, (size_t)i));
    }
  }
  gsl_vector_free(x);
  gsl_vector_free(pb->last_x);
  gsl_vector_free(pb->last_f);
  pb->last_x = pb->last_f = NULL;
  fit_ckept_free(pb->kept);
  free(pb->model);
  pb->kept = NULL;
  pb->model = NULL;
  pb->w = NULL;
  if (w)
    gsl_multifit_nlinear_free(w);
  return cost;
}

/* Weighted (1/measured^2) coefficient of determination of the used points. */
static double r2_of(const fit_crun *runs, int nruns)
{
  double sw = 0, swy = 0, ss_res = 0, ss_tot = 0;
  for (int r = 0; r < nruns; r++)
    for (int i = 0; i < runs[r].n; i++)
      if (runs[r].pt[i].used) {
        double y = runs[r].pt[i].measured_s, w = 1 / (y * y);
        sw += w;
        swy += w * y;
      }
  for (int r = 0; r < nruns; r++)
    for (int i = 0; i < runs[r].n; i++)
      if (runs[r].pt[i].used) {
        const fit_cpoint *p = &runs[r].pt[i];
        double w = 1 / (p->measured_s * p->measured_s), d = p->measured_s - swy / sw;
        ss_res += w * (p->model_s - p->measured_s) * (p->model_s - p->measured_s);
        ss_tot += w * d * d;
      }
  return ss_tot > 0 ? 1 - ss_res / ss_tot : 1;
}

/* NCCL's algorithms are fitted on their quick replay (cost.h, nccl_quick), then evaluated
 * whole. On one node QUICK_FIRST of a ring's channels stand for all (a sweep of L02 in 0.05 s
 * where every channel takes 0.9 s), and at most POLISH_ITER steps with QUICK_CLOSE finish:
 * where the channels contend for the GPU (LL from 256 KiB, LL128) the fewer stand-ins are
 * off by up to 8%, the closer ones by 1-2%. Across nodes one ring channel per NIC of a node
 * stands for those on the same NIC, and a tree keeps as many of its own (one per NIC): on the
 * preset 2 x 8 H100 the ring so is within 0.6% of every channel at 1 MiB and up to 8.7% slow
 * at 16 MiB (LL128; not for the two channels' orders in the node: as copies of one another
 * they stay 8.4% apart), the tree exact. */
#define QUICK_FIRST 4
#define QUICK_CLOSE 8
#define POLISH_ITER 8

int fit_cruns_run(const fit_crun *runs, int nruns, int algo, int used_only)
{
  for (int r = 0; r < nruns; r++)
    for (int k = 0; k < runs[r].n; k++)
      if ((runs[r].pt[k].used || !used_only) && runs[r].pt[k].algo == algo)
        return 1;
  return 0;
}

int fit_cnic_unseen(const fit_crun *runs, int nruns)
{
  for (int r = 0; r < nruns; r++) {
    const fit_cpoint *top = NULL;
    for (int k = 0; runs[r].nodes > 1 && k < runs[r].n; k++)
      if (runs[r].pt[k].used && (!top || runs[r].pt[k].bytes > top->bytes))
        top = &runs[r].pt[k];
    if (top && top->algo != NCCL_ALGO_NVLS_TREE)
      return 0;
  }
  return 1;
}

/* A figure that starts at its upper bound (the GPU links' latency at the server's, the most
 * a fit puts it at) starts this far below it: the Jacobian's forward differences (FD_STEP of
 * its log) would not see it move above, and it would stay where it began. */
#define START_BELOW 0.9

int fit_cring_across(const fit_crun *r, int algo) { return r->nodes > 1 && algo == NCCL_ALGO_RING; }

/* Whether parameter i is one of a protocol's (NCCL's algorithms), or NVLS's, that no used
 * point runs, or the NICs' where the runs cannot tell their rate: nothing to fit it to. */
int fit_cparam_unused(const fit_cfit *f, int i, const fit_crun *runs, int nruns)
{
  if (i == FIT_P_NIC_BW)
    return fit_cnic_unseen(runs, nruns);
  if (i == FIT_P_NVLS_COPY)
    return !fit_cruns_run(runs, nruns, NCCL_ALGO_NVLS, 1) && !fit_cruns_run(runs, nruns, NCCL_ALGO_NVLS_TREE, 1);
  if (i == FIT_P_PROXY || i == FIT_P_PROXY_SIMPLE) { /* read by a ring's steps across nodes alone */
    for (int r = 0; r < nruns; r++)
      for (int k = 0; k < runs[r].n; k++) {
        const fit_cpoint *p = &runs[r].pt[k];
        if (p->used && fit_cring_across(&runs[r], p->algo) &&
            (p->proto == COST_NCCL_SIMPLE) == (i == FIT_P_PROXY_SIMPLE))
          return 0;
      }
    return 1;
  }
  /* NCCL's LL steps are the GPU links' latency and nothing more: only they tell it from the
   * other protocols' steps and NCCL's start (L09, from 1 MiB, put it at 3.2 us from Simple's) */
  int proto = i == FIT_P_GPU_LAT && cost_is_nccl(f->algo) ? COST_NCCL_LL : fit_cparam_proto(i);
  /* a ring across nodes takes the larger of a GPU's step and the proxy's (nccl_step_s): where
   * the proxy's is fitted, its steps tell the two apart no more than their larger */
  int proxied =
      (i == FIT_P_LL128_LAT && f->free[FIT_P_PROXY]) || (i == FIT_P_SIMPLE_LAT && f->free[FIT_P_PROXY_SIMPLE]);
  for (int r = 0; proto >= 0 && r < nruns; r++)
    for (int k = 0; k < runs[r].n; k++) {
      const fit_cpoint *p = &runs[r].pt[k];
      if (p->used && p->proto == proto && !(proxied && fit_cring_across(&runs[r], p->algo)))
        return 0;
    }
  return proto >= 0;
}

static int fit_once(fit_cfit *f, fit_crun *runs, int nruns)
{
  problem pb = {.f = f, .runs = runs, .nruns = nruns};
  size_t n = 0;
  if (f->quick)
    f->quick = QUICK_FIRST;
  /* the protocol at each point: which figures the times read (the times are the descent's) */
  int rc = fit_cplan(f, runs, nruns);
  if (rc)
    return rc;
  for (int i = 0; i < FIT_NPARAM; i++) {
    int fitted = f->free[i] && !fit_cparam_unused(f, i, runs, nruns);
    if (fitted && f->hi[i] > 0 && *fit_cfit_param(f, i) >= f->hi[i]) /* from just below its bound (START_BELOW) */
      *fit_cfit_param(f, i) = START_BELOW * f->hi[i];
    pb.start[i] = coord(f, i, *fit_cfit_param(f, i));
    if (fitted) {
      pb.idx[pb.np++] = i;
      pb.nprior += has_prior(i);
    }
  }
  size_t used = 0;
  for (int r = 0; r < nruns; r++)
    for (int i = 0; i < runs[r].n; i++)
      used += runs[r].pt[i].used != 0;
  if (used < (size_t)pb.np || pb.np == 0)
    return SA_ENODATA;
  n = used + (size_t)pb.nprior;
  /* starts: the given rates with ramps from sharp to gradual; the best end kept */
  static const double halves[] = {64e3, 1e6, 16e6}, steeps[] = {0.25, 0.5, 1.0}; /* at most 1: clustercal.c */
  double start[FIT_NPARAM], best[FIT_NPARAM], best_cost = HUGE_VAL;
  int best_iter = 0, best_status = 0;
  for (int i = 0; i < FIT_NPARAM; i++)
    start[i] = best[i] = *fit_cfit_param(f, i);
  for (size_t a = 0; a < 3; a++)
    for (size_t b = 0; b < 3; b++) {
      for (int i = 0; i < FIT_NPARAM; i++)
        *fit_cfit_param(f, i) = start[i];
      if (f->free[FIT_P_HALF])
        f->half = halves[a];
      if (f->free[FIT_P_STEEP])
        f->steep = steeps[b];
      double cost = descend(&pb, n, 200);
      if (cost < best_cost) {
        best_cost = cost;
        best_iter = f->iterations;
        best_status = f->status;
        for (int i = 0; i < FIT_NPARAM; i++)
          best[i] = *fit_cfit_param(f, i);
      }
      if (!f->free[FIT_P_HALF] && !f->free[FIT_P_STEEP])
        a = b = 3; /* nothing to vary between starts */
    }
  if (!isfinite(best_cost))
    return SA_EFIT;
  f->iterations = best_iter;
  f->status = best_status;
  for (int i = 0; i < FIT_NPARAM; i++)
    *fit_cfit_param(f, i) = best[i];
  int single = 0;
  for (int r = 0; r < nruns; r++)
    single |= runs[r].nodes == 1;
  if (f->quick && single) { /* from the quick replay's best, a few steps with a closer one */
    f->quick = QUICK_CLOSE;
    double cost = descend(&pb, n, POLISH_ITER);
    if (!(cost < HUGE_VAL))
      for (int i = 0; i < FIT_NPARAM; i++)
        *fit_cfit_param(f, i) = best[i];
    f->iterations += best_iter;
  }
  int quick = f->quick; /* the errors are the whole model's, as the simulation will run it */
  f->quick = 0;
  rc = fit_cfit_eval(f, runs, nruns);
  f->quick = quick;
  if (rc)
    return rc;
  fit_cerr e = fit_cfit_errors(runs, nruns, 1, 0);
  f->r2 = r2_of(runs, nruns);
  f->median_err = e.median;
  f->max_err = e.max;
  f->nused = e.n;
  return 0;
}

int fit_cfit_run(fit_cfit *f, fit_crun *runs, int nruns)
{
  int rc = fit_once(f, runs, nruns), out = 0;
  for (int r = 0; rc == 0 && r < nruns; r++)
    for (int i = 0; i < runs[r].n; i++) {
      fit_cpoint *p = &runs[r].pt[i];
      double e = fabs(p->model_s - p->measured_s) / p->measured_s;
      if (p->used && e > FIT_OUTLIER_MIN && e > FIT_OUTLIER_FACTOR * f->median_err) {
        p->used = 0;
        p->outlier = 1;
        out++;
      }
    }
  return rc == 0 && out ? fit_once(f, runs, nruns) : rc;
}

fit_cerr fit_cfit_errors(const fit_crun *runs, int nruns, int used, double min_bytes)
{
  fit_cerr e = {0, 0, 0, 0};
  size_t cap = 0;
  for (int r = 0; r < nruns; r++)
    cap += (size_t)runs[r].n;
  double *err = malloc(sizeof *err * (cap + 1)), lsum = 0;
  if (!err)
    return e;
  for (int r = 0; r < nruns; r++)
    for (int i = 0; i < runs[r].n; i++) {
      const fit_cpoint *p = &runs[r].pt[i];
      if ((p->used != 0) != (used != 0) || p->bytes < min_bytes || p->outlier)
        continue;
      err[e.n] = fabs(p->model_s - p->measured_s) / p->measured_s;
      lsum += log(fmax(err[e.n], 1e-4));
      e.max = fmax(e.max, err[e.n]);
      e.n++;
    }
  if (e.n) {
    gsl_sort(err, 1, (size_t)e.n);
    e.median = gsl_stats_median_from_sorted_data(err, 1, (size_t)e.n);
    e.geomean = exp(lsum / e.n);
  }
  free(err);
  return e;
}
