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
#include "fdjac.h"
#include "forked.h"
#include "smpi_fit.h"
#include "topo/routes.h"

/* The ramp's pieces: one per power of two from 32 B to 1 GiB (27, within COST_MAX_PIECES):
 * below 32 B a message is latency alone, and SimGrid 3.32 reads a threshold as an int (one of
 * 2 GiB or more stops the simulation: "std::out_of_range: stoi"), so from 1 GiB the ramp's
 * value at 1 GiB holds (more than 99.9% of the rate for every fit seen). */
#define PIECE_LO 5
#define PIECE_HI 30

static double ramp(double half, double steep, double s) { return 1.0 / (1.0 + pow(half / s, steep)); }

void fit_cfit_factor(double half, double steep, double latx, cost_piecewise *bw, cost_piecewise *lat)
{
  memset(bw, 0, sizeof *bw);
  memset(lat, 0, sizeof *lat);
  bw->kind = lat->kind = COST_FACTOR;
  bw->dflt = lat->dflt = 1;
  for (int k = PIECE_LO; k <= PIECE_HI && bw->n < COST_MAX_PIECES; k++, bw->n++) {
    double e = ramp(half, steep, ldexp(1, k));
    bw->thresh[bw->n] = k == PIECE_LO ? 0 : ldexp(1, k);
    bw->a[bw->n] = e;
    lat->thresh[bw->n] = bw->thresh[bw->n];
    lat->a[bw->n] = 1 + (latx - 1) * e;
  }
  lat->n = bw->n;
}

static double *param(fit_cfit *f, int i)
{
  double *p[FIT_NPARAM] = {&f->topo.gpu_bw,       &f->topo.gpu_lat,   &f->topo.nic_bw,      &f->topo.nic_lat,
                           &f->half,              &f->steep,          &f->latx,             &f->compute.launch_lat,
                           &f->compute.ll_bw,     &f->compute.ll128_bw, &f->compute.simple_bw, &f->compute.ll128_lat, &f->compute.simple_lat,
                           &f->compute.nvls_bw};
  return p[i];
}

/* What a point's evaluation gives, as a child sends it back. */
typedef struct {
  double model_s;
  int proto, algo;
} point_out;

typedef struct {
  fit_cfit *f;
  fit_crun *r;
  cost_ctx *c;
  int step; /* piece k takes the points k, k + step, ... */
} points_job;

/* Piece k's points into buf (a point_out per point of the run; the others left alone). */
static int eval_points(void *arg, int k, void *buf)
{
  points_job *j = arg;
  point_out *o = buf;
  for (int i = k; i < j->r->n; i += j->step) {
    cost_result res;
    cost_nccl_choice ch;
    int planned = cost_nccl_plan(j->c, j->f->algo, (uint64_t)j->r->pt[i].bytes, &ch) == 0;
    o[i].proto = planned ? ch.proto : -1;
    o[i].algo = planned ? ch.algo : -1;
    int rc = cost_predict(j->c, j->f->algo, (uint64_t)j->r->pt[i].bytes, &res);
    if (rc)
      return rc;
    o[i].model_s = res.time_s;
  }
  return 0;
}

/* Every point of r on c, dealt out in turn to as many processes as there are processors
 * (forked.h): each point's time is the same wherever it is computed. */
static int eval_all_points(fit_cfit *f, fit_crun *r, cost_ctx *c)
{
  if (r->n < 1)
    return 0;
  int w = fit_forked_workers() < r->n ? fit_forked_workers() : r->n;
  points_job job = {f, r, c, w};
  point_out *out = calloc((size_t)w * (size_t)r->n, sizeof *out);
  int rc = out ? fit_forked_run(w, eval_points, &job, out, sizeof *out * (size_t)r->n) : SA_ENOMEM;
  for (int i = 0; rc == 0 && i < r->n; i++) {
    const point_out *o = &out[(size_t)(i % w) * r->n + i];
    r->pt[i].model_s = o->model_s;
    r->pt[i].proto = o->proto;
    r->pt[i].algo = o->algo;
  }
  free(out);
  return rc;
}

static int eval_run(fit_cfit *f, fit_crun *r)
{
  topo_cluster t = f->topo;
  t.nodes = r->nodes;
  t.gpus = r->gpus;
  if (t.nics > t.gpus)
    t.nics = t.gpus;
  topo_defaults(&t);
  cost_net net;
  topo_hop *hops = NULL;
  cost_ctx *c = NULL;
  cost_net_init(&net);
  net.tcp_gamma = FIT_SMPI_TCP_GAMMA;
  if (f->has_compute)
    net.compute = f->compute;
  int rc = topo_routes_of(&t, &net.rt, &hops);
  if (f->half > 0) /* no ramp: the links' own rates */
    fit_cfit_factor(f->half, f->steep, f->latx, &net.bw_factor, &net.lat_factor);
  cost_shape sh = {.nodes = r->nodes, .rpn = r->gpus, .elem = r->elem, .segment_bytes = 1 << 20, .channels = 1,
                   .density = 0.01, .timing = COST_TIMING_NCCL_TESTS, .nccl_proto = -1, .nccl_version = f->nccl_version,
                   .nccl_quick = !f->quick ? 0 : r->nodes == 1 ? f->quick : t.nics};
  if (rc == 0)
    rc = cost_ctx_new(&net, &sh, &c);
  if (rc == 0)
    rc = eval_all_points(f, r, c);
  cost_ctx_free(c);
  cost_net_free(&net);
  free(hops);
  return rc;
}

int fit_cfit_eval(fit_cfit *f, fit_crun *runs, int nruns)
{
  int rc = 0;
  for (int i = 0; i < nruns && rc == 0; i++)
    rc = eval_run(f, &runs[i]);
  return rc;
}

/* A link's rate or latency the runs barely depend on (the GPU links of a run across nodes,
 * whose ring waits on its NICs) would wander wherever the fit's steps take it: each one is
 * held to its start, the server's published figure, by a residual of PRIOR times how far it
 * has gone (in log), as much as a 1% error on one point for a factor e. The ramp has none. */
#define PRIOR 0.01
/* The NIC's rate is held ten times harder: its start is a measurement (98% of the line rate,
 * NCCL's ring over 8 such NICs: topo/presets.c), where NVLS's figure and the protocols' are
 * NCCL's own estimates; a log whose times a slower NIC or a slower NVLS would both explain
 * (NVLS tree across nodes: the NICs and the switch in one pipeline) keeps the NIC. */
#define PRIOR_NIC 0.1

typedef struct {
  fit_cfit *f;
  fit_crun *runs;
  int nruns, np, idx[FIT_NPARAM];
  double start[FIT_NPARAM]; /* the descent's coordinates (coord) where the fit began */
  gsl_vector *last_x, *last_f; /* the residuals' last evaluation, the Jacobian's base */
} problem;

/* The descent's coordinate of parameter i at value v (its log), and back: at most its bound,
 * where it has one (beyond, the times stop moving with it, and the descent turns back). */
static double coord(const fit_cfit *f, int i, double v) { return log(f->hi[i] > 0 ? fmin(v, f->hi[i]) : v); }

static double value(const fit_cfit *f, int i, double x) { return f->hi[i] > 0 ? fmin(exp(x), f->hi[i]) : exp(x); }

int fit_cfit_at_bound(const fit_cfit *f, int i)
{
  return f->free[i] && f->hi[i] > 0 && *param((fit_cfit *)f, i) >= (1 - FIT_AT_BOUND) * f->hi[i];
}

static int has_prior(int param) { return param <= FIT_P_NIC_LAT || param >= FIT_P_LAUNCH; }

static int residuals(const gsl_vector *x, void *data, gsl_vector *out)
{
  problem *pb = data;
  for (int i = 0; i < pb->np; i++)
    *param(pb->f, pb->idx[i]) = value(pb->f, pb->idx[i], gsl_vector_get(x, (size_t)i));
  if (fit_cfit_eval(pb->f, pb->runs, pb->nruns) != 0)
    return GSL_EDOM;
  size_t k = 0;
  for (int r = 0; r < pb->nruns; r++)
    for (int i = 0; i < pb->runs[r].n; i++)
      if (pb->runs[r].pt[i].used) {
        const fit_cpoint *p = &pb->runs[r].pt[i];
        gsl_vector_set(out, k++, (p->model_s - p->measured_s) / p->measured_s);
      }
  for (int i = 0; i < pb->np; i++)
    if (has_prior(pb->idx[i]))
      gsl_vector_set(out, k++, (pb->idx[i] == FIT_P_NIC_BW ? PRIOR_NIC : PRIOR) *
                                   (gsl_vector_get(x, (size_t)i) - pb->start[pb->idx[i]]));
  if (pb->last_x && pb->last_f) {
    gsl_vector_memcpy(pb->last_x, x);
    gsl_vector_memcpy(pb->last_f, out);
  }
  return GSL_SUCCESS;
}

#define FD_STEP 1e-4

/* The Jacobian at x from the residuals there (GSL evaluates them just before: kept, else
 * computed again), its columns side by side (fdjac.c). */
static int jacobian(const gsl_vector *x, void *data, gsl_matrix *J)
{
  problem *pb = data;
  if (!gsl_vector_equal(x, pb->last_x) && residuals(x, pb, pb->last_f) != GSL_SUCCESS)
    return GSL_EDOM;
  gsl_vector *f0 = gsl_vector_alloc(pb->last_f->size);
  if (!f0)
    return GSL_ENOMEM;
  gsl_vector_memcpy(f0, pb->last_f);
  int rc = fit_fdjac(residuals, pb, x, f0, FD_STEP, J);
  gsl_vector_free(f0);
  return rc;
}

/* One Levenberg-Marquardt descent from f's parameters; the sum of squared residuals it ends
 * at (HUGE_VAL when GSL gave up), f holding where. */
static double descend(problem *pb, size_t n, size_t maxiter)
{
  gsl_multifit_nlinear_fdf fdf = {.f = residuals, .df = jacobian, .n = n, .p = (size_t)pb->np, .params = pb};
  gsl_multifit_nlinear_parameters fp = gsl_multifit_nlinear_default_parameters();
  /* the Jacobian's differences: NCCL's models replay events in time, whose times come out
   * piecewise (a slice's end rounds where another's begins), not smooth at GSL's default
   * step of 1e-8 of a coordinate; at 1e-4 (a parameter moved by a few 0.01%) they are */
  fp.h_df = FD_STEP;
  gsl_multifit_nlinear_workspace *w = gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &fp, n, (size_t)pb->np);
  gsl_vector *x = gsl_vector_alloc((size_t)pb->np);
  pb->last_x = gsl_vector_alloc((size_t)pb->np);
  pb->last_f = gsl_vector_alloc(n);
  double cost = HUGE_VAL;
  if (w && x && pb->last_x && pb->last_f) {
    for (int i = 0; i < pb->np; i++)
      gsl_vector_set(x, (size_t)i, coord(pb->f, pb->idx[i], *param(pb->f, pb->idx[i])));
    int info;
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    int st = gsl_multifit_nlinear_init(x, &fdf, w);
    if (st == GSL_SUCCESS)
      st = gsl_multifit_nlinear_driver(maxiter, 1e-10, 1e-10, 1e-12, NULL, NULL, &info, w);
    gsl_set_error_handler(old);
    pb->f->status = st;
    pb->f->iterations = (int)gsl_multifit_nlinear_niter(w);
    const gsl_vector *best = gsl_multifit_nlinear_position(w), *res = gsl_multifit_nlinear_residual(w);
    if (st == GSL_SUCCESS || st == GSL_EMAXITER || st == GSL_ENOPROG) {
      cost = 0;
      for (size_t i = 0; i < n; i++)
        cost += gsl_vector_get(res, i) * gsl_vector_get(res, i);
      for (int i = 0; i < pb->np; i++)
        *param(pb->f, pb->idx[i]) = value(pb->f, pb->idx[i], gsl_vector_get(best, (size_t)i));
    }
  }
  gsl_vector_free(x);
  gsl_vector_free(pb->last_x);
  gsl_vector_free(pb->last_f);
  pb->last_x = pb->last_f = NULL;
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
 * off by up to 8%, the closer ones by 1-2%. Across nodes one channel per NIC of a node stands
 * for those on the same NIC (the same times as every channel on 2 x 8 H100 with rails). */
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

/* Whether parameter i is one of a protocol's (NCCL's algorithms), or NVLS's, that no used
 * point runs: nothing to fit it to. */
static int proto_unused(int i, const fit_crun *runs, int nruns)
{
  if (i == FIT_P_NVLS)
    return !fit_cruns_run(runs, nruns, NCCL_ALGO_NVLS, 1) && !fit_cruns_run(runs, nruns, NCCL_ALGO_NVLS_TREE, 1);
  int proto = i == FIT_P_LL                              ? COST_NCCL_LL
              : i == FIT_P_LL128 || i == FIT_P_LL128_LAT ? COST_NCCL_LL128
              : i == FIT_P_SIMPLE || i == FIT_P_SIMPLE_LAT ? COST_NCCL_SIMPLE
                                                           : -1;
  for (int r = 0; proto >= 0 && r < nruns; r++)
    for (int k = 0; k < runs[r].n; k++)
      if (runs[r].pt[k].used && runs[r].pt[k].proto == proto)
        return 0;
  return proto >= 0;
}

static int fit_once(fit_cfit *f, fit_crun *runs, int nruns)
{
  problem pb = {f, runs, nruns, 0, {0}, {0}, NULL, NULL};
  size_t n = 0;
  if (f->quick)
    f->quick = QUICK_FIRST;
  int rc = fit_cfit_eval(f, runs, nruns); /* the protocols at each point */
  if (rc)
    return rc;
  for (int i = 0; i < FIT_NPARAM; i++) {
    pb.start[i] = coord(f, i, *param(f, i));
    if (f->free[i] && !proto_unused(i, runs, nruns)) {
      pb.idx[pb.np++] = i;
      n += has_prior(i);
    }
  }
  size_t used = 0;
  for (int r = 0; r < nruns; r++)
    for (int i = 0; i < runs[r].n; i++)
      used += runs[r].pt[i].used != 0;
  if (used < (size_t)pb.np || pb.np == 0)
    return SA_ENODATA;
  n += used;
  /* starts: the given rates with ramps from sharp to gradual; the best end kept */
  static const double halves[] = {64e3, 1e6, 16e6}, steeps[] = {0.25, 0.5, 1.0}; /* at most 1: clustercal.c */
  double start[FIT_NPARAM], best[FIT_NPARAM], best_cost = HUGE_VAL;
  int best_iter = 0, best_status = 0;
  for (int i = 0; i < FIT_NPARAM; i++)
    start[i] = best[i] = *param(f, i);
  for (size_t a = 0; a < 3; a++)
    for (size_t b = 0; b < 3; b++) {
      for (int i = 0; i < FIT_NPARAM; i++)
        *param(f, i) = start[i];
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
          best[i] = *param(f, i);
      }
      if (!f->free[FIT_P_HALF] && !f->free[FIT_P_STEEP])
        a = b = 3; /* nothing to vary between starts */
    }
  if (!isfinite(best_cost))
    return SA_EFIT;
  f->iterations = best_iter;
  f->status = best_status;
  for (int i = 0; i < FIT_NPARAM; i++)
    *param(f, i) = best[i];
  int single = 0;
  for (int r = 0; r < nruns; r++)
    single |= runs[r].nodes == 1;
  if (f->quick && single) { /* from the quick replay's best, a few steps with a closer one */
    f->quick = QUICK_CLOSE;
    double cost = descend(&pb, n, POLISH_ITER);
    if (!(cost < HUGE_VAL))
      for (int i = 0; i < FIT_NPARAM; i++)
        *param(f, i) = best[i];
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
