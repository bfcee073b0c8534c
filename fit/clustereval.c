/* clustereval.c: the cluster fit's evaluations (clustereval.h). A point's time is the same
 * wherever and in whatever company it is computed, so neither how the points are shared out
 * nor what was kept changes a result. */
#include "clustereval.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/sa_error.h"
#include "models/cost.h"
#include "models/cost_nccl.h"
#include "smpi_fit.h"
#include "topo/routes.h"
#include "util/forked.h"

double *fit_cfit_param(fit_cfit *f, int i)
{
  double *p[FIT_NPARAM] = {&f->topo.gpu_bw,
                           &f->topo.gpu_lat,
                           &f->topo.nic_bw,
                           &f->topo.nic_lat,
                           &f->half,
                           &f->steep,
                           &f->latx,
                           &f->compute.launch_lat,
                           &f->compute.ll_bw,
                           &f->compute.ll128_bw,
                           &f->compute.simple_bw,
                           &f->compute.ll128_lat,
                           &f->compute.simple_lat,
                           &f->compute.nvls_copy_bw,
                           &f->compute.proxy_lat,
                           &f->compute.proxy_simple_lat};
  return p[i];
}

int fit_cparam_proto(int i)
{
  return i == FIT_P_LL                                                           ? COST_NCCL_LL
         : i == FIT_P_LL128 || i == FIT_P_LL128_LAT || i == FIT_P_PROXY          ? COST_NCCL_LL128
         : i == FIT_P_SIMPLE || i == FIT_P_SIMPLE_LAT || i == FIT_P_PROXY_SIMPLE ? COST_NCCL_SIMPLE
                                                                                 : -1;
}

/* Whether a point of run r that NCCL runs with algorithm algo and protocol proto (-1: not one
 * of NCCL's algorithms) reads parameter i: a protocol's figures are read by its own slices
 * only (nccl_op_time, nccl_hop_s: nccl/), NVLS's copies by NVLS and NVLS tree only
 * (nccl_op_time_nvls), the proxy's by a ring across
 * nodes only (nccl_step_s); NCCL's choice of algorithm and protocol looks at none of them
 * (cost_nccl.c: NCCL's own figures and the layout's links). Every point reads the rest. */
static int reads(int i, int proto, int algo, const fit_crun *r)
{
  if (proto < 0)
    return 1;
  if (i == FIT_P_NVLS_COPY)
    return algo == NCCL_ALGO_NVLS || algo == NCCL_ALGO_NVLS_TREE;
  if ((i == FIT_P_PROXY || i == FIT_P_PROXY_SIMPLE) && !fit_cring_across(r, algo))
    return 0;
  int own = fit_cparam_proto(i);
  return own < 0 || proto == own || (i == FIT_P_PROXY && proto == COST_NCCL_LL); /* LL's and LL128's */
}

typedef struct {
  int valid, quick, proto, algo, own_proto, own_algo;
  double p[FIT_NPARAM], model_s;
} kept_point;

/* Two evaluations kept per point: the one a Jacobian is taken around (pinned), and the latest
 * other (GSL's trial points, which it sometimes makes at the very point it stands at). */
#define KEPT 2
struct fit_ckept {
  int *first;       /* run r's points from first[r] */
  kept_point *pt;   /* point j's at pt[KEPT j .. KEPT j + KEPT) */
  int latest, pinned; /* the slots written last, and pinned (-1: none) */
};

fit_ckept *fit_ckept_new(const fit_crun *runs, int nruns)
{
  fit_ckept *k = calloc(1, sizeof *k);
  int n = 0;
  if (k && (k->first = malloc(sizeof *k->first * (size_t)(nruns + 1))))
    for (int r = 0; r < nruns; r++) {
      k->first[r] = n;
      n += runs[r].n;
    }
  if (k && k->first && (k->pt = calloc((size_t)KEPT * (size_t)n + 1, sizeof *k->pt))) {
    k->pinned = -1;
    return k;
  }
  fit_ckept_free(k);
  return NULL;
}

void fit_ckept_free(fit_ckept *k)
{
  if (!k)
    return;
  free(k->first);
  free(k->pt);
  free(k);
}

void fit_ckept_pin(fit_ckept *k)
{
  if (k)
    k->pinned = k->latest;
}

/* Point i of run r's kept evaluation that stands for one at parameters p (quick alike, every
 * figure the point read the same), or NULL. */
static const kept_point *kept_for(const fit_ckept *k, const fit_crun *runs, int r, int i, const double *p, int quick)
{
  for (int s = 0; k && s < KEPT; s++) {
    const kept_point *e = &k->pt[KEPT * (k->first[r] + i) + s];
    int j = 0;
    while (e->valid && e->quick == quick && j < FIT_NPARAM &&
           (p[j] == e->p[j] || !reads(j, e->proto, e->algo, &runs[r])))
      j++;
    if (j == FIT_NPARAM)
      return e;
  }
  return NULL;
}

/* What a point's evaluation gives, as a child sends it back. */
typedef struct {
  double model_s, secs;
  int proto, algo, own_proto, own_algo;
} point_out;

/* One point to evaluate: parameter set `set` (-1: f's own), run, point. */
typedef struct {
  int set, run, pt, owner; /* owner: the piece that computes it */
} job;

typedef struct {
  const fit_cfit *f;
  const fit_crun *runs;
  const double (*pv)[FIT_NPARAM];
  const job *jobs;
  int njobs;
} work;

/* A run's routes and model context at g's parameters. */
typedef struct {
  cost_net net;
  topo_hop *hops;
  cost_ctx *c;
} model_at;

static void model_drop(model_at *m)
{
  cost_ctx_free(m->c);
  cost_net_free(&m->net);
  free(m->hops);
  memset(m, 0, sizeof *m);
}

static int model_of(const fit_cfit *g, const fit_crun *r, model_at *m)
{
  topo_cluster t = g->topo;
  t.nodes = r->nodes;
  t.gpus = r->gpus;
  if (t.nics > t.gpus)
    t.nics = t.gpus;
  topo_defaults(&t);
  memset(m, 0, sizeof *m);
  cost_net_init(&m->net);
  m->net.tcp_gamma = FIT_SMPI_TCP_GAMMA;
  if (g->has_compute)
    m->net.compute = g->compute;
  int rc = topo_routes_of(&t, &m->net.rt, &m->hops);
  if (g->half > 0) /* no ramp: the links' own rates */
    fit_cfit_factor(g->half, g->steep, g->latx, &m->net.bw_factor, &m->net.lat_factor);
  cost_shape sh = {.nodes = r->nodes, .rpn = r->gpus, .elem = r->elem, .segment_bytes = 1 << 20, .channels = 1,
                   .density = 0.01, .timing = COST_TIMING_NCCL_TESTS, .nccl_algos = g->nccl_algos,
                   .nccl_protos = g->nccl_protos, .nccl_version = g->nccl_version,
                   .nccl_quick = !g->quick ? 0 : r->nodes == 1 ? g->quick : t.nics};
  return rc ? rc : cost_ctx_new(&m->net, &sh, &m->c);
}

static double now_s(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* What NCCL runs a size with (-1, -1: not one of NCCL's algorithms). */
static void plan_of(cost_ctx *c, const char *algo, uint64_t bytes, int *proto, int *nccl_algo)
{
  cost_nccl_choice ch;
  int planned = cost_nccl_plan(c, algo, bytes, &ch) == 0;
  *proto = planned ? ch.proto : -1;
  *nccl_algo = planned ? ch.algo : -1;
}

/* Piece k's jobs into buf (a point_out per job; the others' left alone), one model context
 * per run and parameter set, its jobs coming together. */
static int eval_piece(void *arg, int k, void *buf)
{
  const work *w = arg;
  point_out *o = buf;
  model_at m = {0};
  int set = -2, run = -1, rc = 0;
  for (int j = 0; j < w->njobs && rc == 0; j++) {
    const job *jb = &w->jobs[j];
    if (jb->owner != k)
      continue;
    double t0 = now_s();
    if (jb->set != set || jb->run != run) {
      fit_cfit g = *w->f;
      for (int i = 0; jb->set >= 0 && i < FIT_NPARAM; i++)
        *fit_cfit_param(&g, i) = w->pv[jb->set][i];
      model_drop(&m);
      set = jb->set;
      run = jb->run;
      rc = model_of(&g, &w->runs[run], &m);
      if (rc)
        break;
    }
    const fit_cpoint *pt = &w->runs[run].pt[jb->pt];
    uint64_t bytes = (uint64_t)pt->bytes;
    cost_result res;
    /* where the log says what NCCL ran the size with, that (and what the model of its
     * tuning would have picked, when another) */
    int ran = pt->ran_algos && strcmp(w->f->algo, "nccl") == 0;
    o[j].own_proto = o[j].own_algo = -1;
    if (ran) {
      plan_of(m.c, w->f->algo, bytes, &o[j].own_proto, &o[j].own_algo);
      rc = cost_nccl_restrict(m.c, pt->ran_algos, pt->ran_protos, pt->ran_channels);
    }
    plan_of(m.c, w->f->algo, bytes, &o[j].proto, &o[j].algo);
    rc = rc ? rc : cost_predict(m.c, w->f->algo, bytes, &res);
    if (ran && rc == 0)
      rc = cost_nccl_restrict(m.c, w->f->nccl_algos, w->f->nccl_protos, 0);
    if (o[j].own_proto == o[j].proto && o[j].own_algo == o[j].algo)
      o[j].own_proto = o[j].own_algo = -1;
    o[j].model_s = res.time_s;
    o[j].secs = now_s() - t0;
  }
  model_drop(&m);
  return rc;
}

/* How long point p took last with the replay at quick, 0 when it has not had it lately. */
static double took(const fit_cpoint *p, int quick)
{
  for (int i = 0; i < FIT_TOOK; i++)
    if (p->took[i].secs > 0 && p->took[i].quick == quick)
      return p->took[i].secs;
  return 0;
}

/* Kept as how long p took with the replay at quick, in place of the same replay's time or of
 * the oldest. */
static void took_now(fit_cpoint *p, int quick, double secs)
{
  int i = 0;
  while (i < FIT_TOOK - 1 && !(p->took[i].secs > 0 && p->took[i].quick == quick))
    i++;
  for (; i > 0; i--) /* the latest first */
    p->took[i] = p->took[i - 1];
  p->took[0].secs = secs;
  p->took[0].quick = quick;
}

/* The owners of the jobs: pieces of about equal time, each a stretch of the list (a run's
 * points at one set together: the large sizes of a replay share what they replay,
 * cost_nccl_steady), from how long each point took last with the same replay; dealt out in
 * turn when some point has not had it lately (the sizes' times differ from one replay to
 * another). Returns the pieces. */
static int share_out(job *jobs, int n, const fit_crun *runs, int quick)
{
  int w = util_forked_workers() < n ? util_forked_workers() : n;
  double total = 0;
  int timed = 1;
  for (int j = 0; j < n; j++) {
    double s = took(&runs[jobs[j].run].pt[jobs[j].pt], quick);
    timed &= s > 0;
    total += s;
  }
  double done = 0;
  for (int j = 0, k = 0; j < n; j++) {
    double s = took(&runs[jobs[j].run].pt[jobs[j].pt], quick);
    while (timed && k < w - 1 && done + s / 2 > total * (k + 1) / w)
      k++;
    jobs[j].owner = timed ? k : j % w;
    done += s;
  }
  return w;
}

/* The jobs evaluated, out[j] job j's. */
static int run_jobs(const fit_cfit *f, fit_crun *runs, const double (*pv)[FIT_NPARAM], job *jobs, int n, point_out *out)
{
  if (n < 1)
    return 0;
  int w = share_out(jobs, n, runs, f->quick);
  work wk = {f, runs, pv, jobs, n};
  point_out *bufs = calloc((size_t)w * (size_t)n, sizeof *bufs);
  int rc = bufs ? util_forked_run(w, eval_piece, &wk, bufs, sizeof *bufs * (size_t)n) : SA_ENOMEM;
  for (int j = 0; rc == 0 && j < n; j++) {
    out[j] = bufs[(size_t)jobs[j].owner * (size_t)n + (size_t)j];
    took_now(&runs[jobs[j].run].pt[jobs[j].pt], f->quick, out[j].secs);
  }
  free(bufs);
  return rc;
}

static int count_points(const fit_crun *runs, int nruns, int used_only)
{
  int n = 0;
  for (int r = 0; r < nruns; r++)
    for (int i = 0; i < runs[r].n; i++)
      n += runs[r].pt[i].used || !used_only;
  return n;
}

int fit_cplan(const fit_cfit *f, fit_crun *runs, int nruns)
{
  int rc = 0;
  for (int r = 0; r < nruns && rc == 0; r++) {
    model_at m;
    rc = model_of(f, &runs[r], &m);
    for (int i = 0; rc == 0 && i < runs[r].n; i++)
      plan_of(m.c, f->algo, (uint64_t)runs[r].pt[i].bytes, &runs[r].pt[i].proto, &runs[r].pt[i].algo);
    model_drop(&m);
  }
  return rc;
}

int fit_ceval(fit_cfit *f, fit_crun *runs, int nruns, int used_only, fit_ckept *k)
{
  int n = count_points(runs, nruns, used_only), nj = 0;
  job *jobs = malloc(sizeof *jobs * (size_t)(n + 1));
  point_out *out = malloc(sizeof *out * (size_t)(n + 1));
  double p[FIT_NPARAM];
  for (int i = 0; i < FIT_NPARAM; i++)
    p[i] = *fit_cfit_param(f, i);
  int rc = jobs && out ? 0 : SA_ENOMEM;
  for (int r = 0; rc == 0 && r < nruns; r++)
    for (int i = 0; i < runs[r].n; i++) {
      fit_cpoint *pt = &runs[r].pt[i];
      const kept_point *e = pt->used || !used_only ? kept_for(k, runs, r, i, p, f->quick) : NULL;
      if (e) {
        pt->model_s = e->model_s;
        pt->proto = e->proto;
        pt->algo = e->algo;
        pt->own_proto = e->own_proto;
        pt->own_algo = e->own_algo;
      } else if (pt->used || !used_only)
        jobs[nj++] = (job){-1, r, i, 0};
    }
  if (rc == 0)
    rc = run_jobs(f, runs, NULL, jobs, nj, out);
  for (int j = 0; rc == 0 && j < nj; j++) {
    fit_cpoint *pt = &runs[jobs[j].run].pt[jobs[j].pt];
    pt->model_s = out[j].model_s;
    pt->proto = out[j].proto;
    pt->algo = out[j].algo;
    pt->own_proto = out[j].own_proto;
    pt->own_algo = out[j].own_algo;
  }
  /* kept in the slot not pinned, the one before the latest when none is */
  int slot = !k ? 0 : k->pinned >= 0 ? 1 - k->pinned : 1 - k->latest;
  for (int r = 0; rc == 0 && k && r < nruns; r++)
    for (int i = 0; i < runs[r].n; i++) {
      const fit_cpoint *pt = &runs[r].pt[i];
      if (!pt->used && used_only)
        continue;
      kept_point *e = &k->pt[KEPT * (k->first[r] + i) + slot];
      *e = (kept_point){1, f->quick, pt->proto, pt->algo, pt->own_proto, pt->own_algo, {0}, pt->model_s};
      memcpy(e->p, p, sizeof p);
    }
  if (rc == 0 && k)
    k->latest = slot;
  free(jobs);
  free(out);
  return rc;
}

int fit_ceval_sets(const fit_cfit *f, fit_crun *runs, int nruns, int nsets, const double (*pv)[FIT_NPARAM],
                   const fit_ckept *k, double *model_s)
{
  int used = count_points(runs, nruns, 1), n = 0;
  job *jobs = malloc(sizeof *jobs * ((size_t)nsets * (size_t)used + 1));
  int *slot = malloc(sizeof *slot * ((size_t)nsets * (size_t)used + 1));
  if (!jobs || !slot) {
    free(jobs);
    free(slot);
    return SA_ENOMEM;
  }
  for (int s = 0, u = 0; s < nsets; s++)
    for (int r = 0; r < nruns; r++)
      for (int i = 0; i < runs[r].n; i++) {
        if (!runs[r].pt[i].used)
          continue;
        const kept_point *e = kept_for(k, runs, r, i, pv[s], f->quick);
        if (e)
          model_s[u] = e->model_s;
        else {
          slot[n] = u;
          jobs[n++] = (job){s, r, i, 0};
        }
        u++;
      }
  point_out *out = malloc(sizeof *out * (size_t)(n + 1));
  int rc = out ? run_jobs(f, runs, pv, jobs, n, out) : SA_ENOMEM;
  for (int j = 0; rc == 0 && j < n; j++)
    model_s[slot[j]] = out[j].model_s;
  free(out);
  free(jobs);
  free(slot);
  return rc;
}
