/* runner.c: the MPI program that times allreduce algorithms, one point per (algorithm,
 * size); one launch serves a whole sweep. Built with smpicc to simulate, mpicc to measure. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algos/ar_hostprops.h"
#include "topo/sg_latency.h"
#include "topo/shape.h"
#include "algos/nccl_comm.h"
#include "common/sa_error.h"
#include "kernels/verify.h"
#include "util/rank_list.h"
#include "runner.h"
#include "runner_coll.h"
#include "kernels/sparse_ref.h"

/* Bins of each link's traffic over time in a trace's window (the heat map's columns). */
#define RUNNER_LINK_BINS 512

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Every block of ranks_per_node consecutive ranks must sit on one node and two blocks in a
 * row on different ones: the algorithms take the node layout from that, never from the MPI
 * library. Checked through the layout's communicators (a node's ranks agree on their node;
 * each rank differs from its counterpart in the block before) and one small allreduce: an
 * allgather over all ranks costs SimGrid time quadratic in their number (1.4 s of wall time
 * at 128 ranks). Ranks on hosts without node numbers have nothing to check. */
static int check_layout(const ar_layout *L, int rank)
{
  int node = ar_host_node(), span[2] = {node, -node}, prev = node, at, n, bad;
  if (runner_allreduce(span, 2, MPI_INT, MPI_MAX, L->node) != 0 ||
      MPI_Comm_rank(L->cross, &at) != MPI_SUCCESS || MPI_Comm_size(L->cross, &n) != MPI_SUCCESS ||
      (n > 1 && runner_exchange(&node, &prev, 1, MPI_INT, (at + 1) % n, (at + n - 1) % n, L->cross) != 0))
    return SA_EMPI;
  bad = node >= 0 && (span[0] != -span[1] || (at > 0 && prev == node));
  if (runner_allreduce(&bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD) != 0)
    return SA_EMPI;
  if (bad && rank == 0)
    fprintf(stderr, "ar_runner: ranks are not node-major with %d ranks per node\n", L->rpn);
  return bad ? SA_ELAYOUT : 0;
}

/* Results are gathered with the runner's allreduces (runner_coll.c), never MPI_Reduce: SMPI's
 * default reduce takes about 2 s of wall time at 1024 ranks. */
static void collect_phases(const ar_phases *ph, int rank, runner_point *pt)
{
  double worst[AR_MAX_PHASES] = {0};
  memcpy(worst, ph->end, sizeof(double) * (size_t)ph->n);
  runner_allreduce(worst, AR_MAX_PHASES, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (rank != 0)
    return;
  pt->nphases = ph->n;
  for (int i = 0; i < ph->n; i++) {
    pt->phase_name[i] = ph->name[i];
    pt->phase_s[i] = worst[i] - (i ? worst[i - 1] : 0.0);
  }
}

/* Largest |recv - ref| over every rank, ref being what the algorithm must return: the exact
 * sum for dense algorithms (closed form, no communication); for top-k ones their sparse
 * semantics applied by rank 0 to every rank's regenerated input and broadcast. */
static double check_result(const runner_config *cfg, const ar_algo *algo, const kn_pattern *pat, const void *recv,
                           size_t count, int rank, int size, runner_point *pt)
{
  double err = 0, worst;
  if (!(algo->flags & AR_SPARSE)) {
    err = kn_pattern_max_err(pat, recv, count, cfg->dt);
  } else {
    size_t es = kn_dtype_size(cfg->dt);
    void *ref = malloc(count * es + es);
    int ok = ref != NULL;
    if (ok && rank == 0) {
      ok = kn_sparse_reference(algo->name, pat, size, cfg->params.ranks_per_node, count, cfg->dt, cfg->params.density,
                               ref) == 0;
      pt->rel_err = kn_sparse_rel_err(pat, recv, count, cfg->dt);
    }
    int all_ok = ok;
    runner_allreduce(&all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (all_ok && count > 0)
      MPI_Bcast(ref, (int)count, ar_mpi_type(cfg->dt), 0, MPI_COMM_WORLD);
    for (size_t i = 0; i < count && all_ok; i++) {
      double e = kn_get(recv, i, cfg->dt) - kn_get(ref, i, cfg->dt);
      err = e > err ? e : -e > err ? -e : err;
    }
    if (!all_ok)
      err = HUGE_VAL;
    free(ref);
  }
  worst = err;
  runner_allreduce(&worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return worst;
}

/* The link accounting around a rank's allreduce, entering or leaving it (simulation only;
 * it takes no simulated time). */
static void links_mark(const runner_config *cfg, int enter)
{
#ifdef SA_SMPI
  if (cfg->links && enter)
    runner_links_enter();
  else if (cfg->links)
    runner_links_leave();
#else
  (void)cfg;
  (void)enter;
#endif
}

/* Rank 0, once every rank has left the allreduce: every link that carried anything. */
static int collect_links(runner_point *pt)
{
#ifdef SA_SMPI
  double t0, t1;
  const runner_link *used = runner_links_used(&pt->nlinks, &t0, &t1);
  pt->links = malloc(sizeof *pt->links * (size_t)(pt->nlinks + 1));
  if (!pt->links)
    return SA_ENOMEM;
  for (int i = 0; i < pt->nlinks; i++)
    pt->links[i] = used[i];
  pt->links_window_s = t1 - t0;
#else
  (void)pt;
#endif
  return 0;
}

/* The slowest rank's time and the worst (most negative) return code, in one allreduce. */
static int slowest(double t, int rc, double *worst_t)
{
  double worst[2] = {t, -(double)rc};
  if (runner_allreduce(worst, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD) != 0)
    return SA_EMPI;
  *worst_t = worst[0];
  return -(int)worst[1];
}

/* The ranks' mean time, as nccl-tests reports it (BenchTime: each rank's time over its timed
 * calls, then `Allreduce(args, &deltaSec, average)`, -a 1 by default), and the worst return
 * code. Calls back to back pass their start offsets on from rank to rank (in a one-channel
 * ring, rank r's end follows rank r + 2's start), so the slowest rank of one timed call
 * keeps an offset whole where the mean over the ranks sees it cancel: 8 H100 at 8 B, LL on
 * one channel, 36.65 us the slowest, 34.90 the mean (the model: 34.60). */
static int mean_of_ranks(double t, int rc, double *mean_t)
{
  double sum = t, worst = -(double)rc;
  int size;
  if (runner_allreduce(&sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD) != 0 ||
      runner_allreduce(&worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD) != 0 ||
      MPI_Comm_size(MPI_COMM_WORLD, &size) != MPI_SUCCESS)
    return SA_EMPI;
  *mean_t = sum / size;
  return -(int)worst;
}

/* This rank's last timed allreduce, for --trace: when it started and how long it took. */
typedef struct {
  double start, dur;
} own_span;

/* One allreduce whose phases, steps and link traffic are the ones recorded (each such call
 * forgets the previous one's). */
static int recorded(const runner_config *cfg, const ar_algo *algo, const void *send, void *recv, size_t count,
                    const ar_params *p, own_span *own)
{
  own->start = MPI_Wtime();
  ar_phases_reset(p->phases, own->start);
  if (p->trace)
    ar_steps_clear(p->trace);
  links_mark(cfg, 1);
  runner_faults_reach(cfg->late);
  int rc = algo->fn(send, recv, count, cfg->dt, MPI_COMM_WORLD, p);
  links_mark(cfg, 0);
  own->dur = MPI_Wtime() - own->start;
  return rc;
}

/* One allreduce that this rank reaches as late as its faults say. */
static int late_call(const runner_config *cfg, const ar_algo *algo, const void *send, void *recv, size_t count,
                     const ar_params *p)
{
  runner_faults_reach(cfg->late);
  return algo->fn(send, recv, count, cfg->dt, MPI_COMM_WORLD, p);
}

/* --timing barrier: every repetition from a barrier to the slowest rank's end. */
static int time_barrier(const runner_config *cfg, const ar_algo *algo, const void *send, void *recv, size_t count,
                        const ar_params *p, double *times, own_span *own)
{
  int rc = 0;
  for (int it = -cfg->warmup; it < cfg->iters && rc == 0; it++) {
    runner_barrier(MPI_COMM_WORLD);
    double t = 0;
    rc = recorded(cfg, algo, send, recv, count, p, own);
    rc = slowest(own->dur, rc, &t);
    if (it >= 0)
      times[it] = t;
  }
  return rc;
}

/* Warm-ups before the timed allreduce where --warmup does not say: all_reduce_perf's own
 * default, 5 (its logs' headers: "warmup iters: 5"), up to STEADY_WARM_BYTES, where they cost
 * little simulation; one above, where each would cost as much as the timed one and the
 * skew one leaves is a small part of the time. One does not absorb the skew the first
 * allreduce's end leaves: NCCL's tree on 4 x 8 H100 took 56.6 us at 64 KiB after one, 52.9
 * after five (the model's steady state: 52.6); at 32 MiB 272.8 us after one, 276.9 after
 * five, what stays of the skew from one allreduce to the next. */
#define STEADY_WARMUPS 5
#define STEADY_WARM_BYTES (16u << 20)

/* --timing nccl-tests: as all_reduce_perf, a first allreduce after a barrier (whose return
 * codes every rank learns, so that a rank that failed stops with the others before the loops
 * without a barrier), warm-up allreduces back to back (at least one: they absorb the skew the
 * first one's end leaves), then iters more; each rank's clock runs from the end of its
 * warm-up to the end of its last one, so what is timed is the steady state of consecutive
 * allreduces, without start skew; the time is the ranks' mean, as nccl-tests averages it.
 * The phases, steps and links are those of the last one. */
static int time_steady(const runner_config *cfg, const ar_algo *algo, const void *send, void *recv, size_t count,
                       const ar_params *p, double *times, own_span *own)
{
  size_t bytes = count * kn_dtype_size(cfg->dt);
  int warm = cfg->warmup > 0 ? cfg->warmup : bytes <= STEADY_WARM_BYTES ? STEADY_WARMUPS : 1;
  /* SMPI's own barrier and allreduce here: the skew the first allreduce's end leaves is
   * what the warm-up absorbs, and how far it does shows in small sizes' steady state */
  if (MPI_Barrier(MPI_COMM_WORLD) != MPI_SUCCESS)
    return SA_EMPI;
  double mine[2] = {0, -(double)late_call(cfg, algo, send, recv, count, p)}, worst[2];
  if (MPI_Allreduce(mine, worst, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD) != MPI_SUCCESS)
    return SA_EMPI;
  int rc = -(int)worst[1];
  for (int it = 0; it < warm && rc == 0; it++)
    rc = late_call(cfg, algo, send, recv, count, p);
  double t0 = MPI_Wtime();
  for (int it = 0; it < cfg->iters && rc == 0; it++)
    rc = it + 1 < cfg->iters ? late_call(cfg, algo, send, recv, count, p)
                             : recorded(cfg, algo, send, recv, count, p, own);
  return mean_of_ranks((MPI_Wtime() - t0) / cfg->iters, rc, &times[0]);
}

static void run_point(const runner_config *cfg, const runner_job *job, int index, int rank, int size, ar_steps *tr,
                      runner_point *pt)
{
  const ar_algo *algo = job->algo;
  size_t bytes = job->bytes, es = kn_dtype_size(cfg->dt), count = bytes / es;
  ar_phases ph;
  ar_arena arena = {{NULL}};
  ar_params p = cfg->params;
  p.phases = &ph;
  p.trace = tr;
  p.nccl_run = job->nccl;
  p.arena = &arena;
  /* every rank has left the last point (runner_clock_next is collective): no rank holds a
   * buffer the arena replaced */
  ar_arena_collect();
  ar_phases_reset(&ph, 0);
  pt->algo = algo->name;
  pt->nccl = job->nccl.channels > 0 ? &job->nccl : NULL;
  pt->bytes = bytes;
  pt->count = count;
  pt->verified = -1;
  pt->sparse = (algo->flags & AR_SPARSE) != 0;
  pt->rel_err = -1;

  void *send = ar_alloc(&p, count * es), *recv = ar_alloc(&p, count * es);
  double *times = calloc((size_t)cfg->iters, sizeof *times), *sorted = calloc((size_t)cfg->iters, sizeof *sorted);
  int rc = send && recv && times && sorted ? 0 : SA_ENOMEM, all_rc = rc;
  runner_allreduce(&all_rc, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  kn_pattern pat;
  kn_pattern_init(&pat, size, cfg->dt);
  /* Real data whenever the bytes are real (a measured run too): uninitialised memory holds
   * NaNs and denormals that slow sums down and send top-k selections astray. */
  if (all_rc == 0 && p.real_data)
    kn_pattern_fill(&pat, rank, send, count, cfg->dt);

  own_span own = {0, 0};
  if (all_rc == 0)
    all_rc = cfg->timing == RUNNER_TIMING_NCCL_TESTS ? time_steady(cfg, algo, send, recv, count, &p, times, &own)
                                                      : time_barrier(cfg, algo, send, recv, count, &p, times, &own);
  int nt = cfg->timing == RUNNER_TIMING_NCCL_TESTS ? 1 : cfg->iters;
  pt->rc = all_rc;
  if (all_rc == 0) {
    memcpy(sorted, times, sizeof *times * (size_t)nt);
    qsort(sorted, (size_t)nt, sizeof *sorted, cmp_double);
    pt->time_s = sorted[nt / 2];
    pt->tmin = sorted[0];
    pt->tmax = sorted[nt - 1];
    pt->times = times;
    pt->ntimes = nt;
    times = NULL;
    collect_phases(&ph, rank, pt);
    pt->k = ph.selected;
    int wrc = cfg->links && rank == 0 ? collect_links(pt) : 0;
    if (wrc == 0 && cfg->links && rank == 0 && cfg->trace_dir)
      wrc = runner_timeline_links(cfg, index);
    if (wrc == 0 && tr)
      wrc = runner_timeline_rank(cfg, rank, index, pt, &ph, own.start, own.start + own.dur, tr);
    if (wrc)
      pt->rc = wrc;
    if (cfg->verify) {
      pt->max_err = check_result(cfg, algo, &pat, recv, count, rank, size, pt);
      pt->verified = pt->max_err == 0.0;
    }
  }
  free(times);
  free(sorted);
  ar_free(&p, send);
  ar_free(&p, recv);
}

/* Every point in turn, each started at a recorded clock (runner_clock.c) and written to the
 * stream by rank 0 as soon as the next one's start time is known. Returns the exit status. */
static int run_all(const runner_config *cfg, int rank, int size, ar_steps *tr)
{
  runner_stream *out = NULL;
  int status = 0, bad = 0;
  double start = runner_clock_next(cfg->start_clock);
  if (rank == 0 && !(out = runner_stream_open(cfg, size, start)))
    bad = 1;
  runner_allreduce(&bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (bad)
    return 1;
  runner_point pt;
  for (int j = 0; j < cfg->njobs; j++) {
    runner_clock_wait(start, rank, size);
    memset(&pt, 0, sizeof pt);
    run_point(cfg, &cfg->jobs[j], j, rank, size, tr, &pt);
    if (pt.rc && rank == 0)
      fprintf(stderr, "ar_runner: %s at %zu bytes failed: %s\n", pt.algo, pt.bytes, sa_strerror(pt.rc));
    if (pt.rc)
      status = 1;
    /* after the last point too: where a sweep extended past it, or another algorithm after
     * it, starts its next point when resumed from this run's results */
    start = runner_clock_next(0);
    if (rank == 0 && runner_stream_point(out, cfg, &pt, start) != 0)
      status = 1;
    free(pt.times);
    free(pt.links);
  }
  if (rank == 0 && runner_stream_close(out, status) != 0)
    status = 1;
  /* the last point ended with an allreduce: no rank uses a shared buffer any more */
  ar_arena_release();
  return status;
}

/* NCCL's channels over the platform, laid out once when one of NCCL's algorithms runs: at
 * least as many as its points use (NCCL's own count at the least). Collective. */
static int nccl_setup(runner_config *cfg, ar_nccl_comm *t)
{
  int want = 0, channels = 0;
  for (int j = 0; j < cfg->njobs; j++) {
    want |= (cfg->jobs[j].algo->flags & AR_NCCL) != 0;
    channels = cfg->jobs[j].nccl.channels > channels ? cfg->jobs[j].nccl.channels : channels;
  }
  cfg->params.nccl = NULL;
  if (!want)
    return 0;
  int rc = ar_nccl_comm_init(t, MPI_COMM_WORLD, cfg->params.ranks_per_node, channels, cfg->params.compute.nvls_bw,
                             cfg->faults.nccl_node);
  if (rc == 0)
    cfg->params.nccl = t;
  return rc;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size, status = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
#ifdef SA_SMPI
  /* before any message: every one from here takes the platform's latency factor from it */
  if (topo_latency_init() < 0) {
    if (rank == 0)
      fprintf(stderr, "ar_runner: the platform's %s does not parse\n", TOPO_LAT_FACTOR_PROP);
    status = 2;
    goto out;
  }
#endif
  runner_config cfg;
  if (runner_parse(argc, argv, &cfg) != 0) {
    status = 2;
    goto out;
  }
  if (size % cfg.params.ranks_per_node != 0) {
    if (rank == 0)
      fprintf(stderr, "ar_runner: %d ranks is not a multiple of %d per node\n", size, cfg.params.ranks_per_node);
    status = 2;
    goto out;
  }
  char why[256];
  if (cfg.trace_ranks && util_rank_list_check(cfg.trace_ranks, size, why, sizeof why) != 0) {
    if (rank == 0)
      fprintf(stderr, "ar_runner: %s\n", why);
    status = 2;
    goto out;
  }
  /* the links as the faults have them before anything is sent, and before their accounting
   * reads their rates */
  if (runner_faults_links(&cfg.faults, rank) != 0) {
    status = 2;
    goto out;
  }
#ifdef SA_SMPI
  /* the other ranks are on their way into collectives: stop them all (agreeing on it by
   * a message would add simulated time to every run that succeeds) */
  if (cfg.links && rank == 0 && runner_links_init(cfg.trace_dir ? RUNNER_LINK_BINS : 0) != 0) {
    fprintf(stderr, "ar_runner: out of memory for the links' accounting\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
#endif
  ar_layout layout;
  if (ar_compute_from_host(&cfg.params.compute) != 0) {
    status = 2;
    goto out;
  }
  runner_faults_compute(&cfg.faults, rank, &cfg.params.compute);
  cfg.late = runner_faults_late(&cfg.faults, rank);
  if (ar_layout_init(&layout, MPI_COMM_WORLD, cfg.params.ranks_per_node, cfg.params.channels) != 0) {
    status = 1;
    goto out;
  }
  if (check_layout(&layout, rank) != 0) {
    ar_layout_free(&layout);
    status = 2;
    goto out;
  }
  cfg.params.layout = &layout;
#ifdef SA_SMPI
  ar_native native;
  long long eager;
  if (ar_native_allowed(&eager)) {
    ar_native_init(&native, rank, eager);
    cfg.params.native = &native;
  }
#endif
  ar_nccl_comm topo;
  int rc = nccl_setup(&cfg, &topo);
  if (rc != 0) {
    if (rank == 0)
      fprintf(stderr, "ar_runner: NCCL's channels could not be laid out: %s\n", sa_strerror(rc));
    ar_layout_free(&layout);
    status = 1;
    goto out;
  }
  ar_steps *tr = runner_timeline_open(&cfg, rank);
  status = run_all(&cfg, rank, size, tr);
  runner_timeline_close(tr);
  if (cfg.params.nccl)
    ar_nccl_comm_free(&topo);
#ifdef SA_SMPI
  if (cfg.params.native)
    ar_native_free(&native);
#endif
  ar_layout_free(&layout);
out:
  runner_config_free(&cfg);
  MPI_Finalize();
  return status;
}
