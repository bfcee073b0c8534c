/* runner.c: the MPI program that times allreduce algorithms, one point per (algorithm,
 * size); one launch serves a whole sweep. Built with smpicc to simulate, mpicc to measure. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algos/ar_hostprops.h"
#include "common/sa_error.h"
#include "ar_verify.h"
#include "runner.h"
#include "sparse_ref.h"

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
  if (MPI_Allreduce(MPI_IN_PLACE, span, 2, MPI_INT, MPI_MAX, L->node) != MPI_SUCCESS ||
      MPI_Comm_rank(L->cross, &at) != MPI_SUCCESS || MPI_Comm_size(L->cross, &n) != MPI_SUCCESS ||
      (n > 1 && MPI_Sendrecv(&node, 1, MPI_INT, (at + 1) % n, 0, &prev, 1, MPI_INT, (at + n - 1) % n, 0, L->cross,
                             MPI_STATUS_IGNORE) != MPI_SUCCESS))
    return SA_EMPI;
  bad = node >= 0 && (span[0] != -span[1] || (at > 0 && prev == node));
  if (MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD) != MPI_SUCCESS)
    return SA_EMPI;
  if (bad && rank == 0)
    fprintf(stderr, "ar_runner: ranks are not node-major with %d ranks per node\n", L->rpn);
  return bad ? SA_ELAYOUT : 0;
}

/* Results are gathered with allreduces, never MPI_Reduce: SMPI's default reduce takes about
 * 2 s of wall time at 1024 ranks, its allreduce a fortieth of that. */
static void collect_phases(const ar_phases *ph, int rank, runner_point *pt)
{
  double ends[AR_MAX_PHASES] = {0}, worst[AR_MAX_PHASES];
  memcpy(ends, ph->end, sizeof(double) * (size_t)ph->n);
  MPI_Allreduce(ends, worst, AR_MAX_PHASES, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
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
static double check_result(const runner_config *cfg, const ar_algo *algo, const ar_pattern *pat, const void *recv,
                           size_t count, int rank, int size, runner_point *pt)
{
  double err = 0, worst;
  if (!(algo->flags & AR_SPARSE)) {
    err = ar_pattern_max_err(pat, recv, count, cfg->dt);
  } else {
    size_t es = ar_dtype_size(cfg->dt);
    void *ref = malloc(count * es + es);
    int ok = ref != NULL;
    if (ok && rank == 0) {
      ok = ar_sparse_reference(algo->name, pat, size, cfg->params.ranks_per_node, count, cfg->dt, cfg->params.density,
                               ref) == 0;
      pt->rel_err = ar_sparse_rel_err(pat, recv, count, cfg->dt);
    }
    int all_ok;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (all_ok && count > 0)
      MPI_Bcast(ref, (int)count, ar_mpi_type(cfg->dt), 0, MPI_COMM_WORLD);
    for (size_t i = 0; i < count && all_ok; i++) {
      double e = ar_get(recv, i, cfg->dt) - ar_get(ref, i, cfg->dt);
      err = e > err ? e : -e > err ? -e : err;
    }
    if (!all_ok)
      err = HUGE_VAL;
    free(ref);
  }
  MPI_Allreduce(&err, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return worst;
}

/* The slowest rank's time and the worst (most negative) return code, in one allreduce. */
static int slowest(double t, int rc, double *worst_t)
{
  double mine[2] = {t, -(double)rc}, worst[2];
  if (MPI_Allreduce(mine, worst, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD) != MPI_SUCCESS)
    return SA_EMPI;
  *worst_t = worst[0];
  return -(int)worst[1];
}

/* --timing barrier: every repetition from a barrier to the slowest rank's end. */
static int time_barrier(const runner_config *cfg, const ar_algo *algo, const void *send, void *recv, size_t count,
                        const ar_params *p, double *times)
{
  int rc = 0;
  for (int it = -cfg->warmup; it < cfg->iters && rc == 0; it++) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime(), t = 0;
    ar_phases_reset(p->phases, t0);
    rc = algo->fn(send, recv, count, cfg->dt, MPI_COMM_WORLD, p);
    rc = slowest(MPI_Wtime() - t0, rc, &t);
    if (it >= 0)
      times[it] = t;
  }
  return rc;
}

/* --timing nccl-tests: as all_reduce_perf, a first allreduce after a barrier (whose return
 * codes every rank learns, so that a rank that failed stops with the others before the loops
 * without a barrier), warm-up allreduces back to back (at least one: it absorbs the skew the
 * first one's end leaves), then iters more; each rank's clock runs from the end of its
 * warm-up to the end of its last one, so what is timed is the steady state of consecutive
 * allreduces, without start skew. The phases are those of the last one. */
static int time_steady(const runner_config *cfg, const ar_algo *algo, const void *send, void *recv, size_t count,
                       const ar_params *p, double *times)
{
  double ignored;
  MPI_Barrier(MPI_COMM_WORLD);
  int rc = slowest(0, algo->fn(send, recv, count, cfg->dt, MPI_COMM_WORLD, p), &ignored);
  for (int it = 0; it < (cfg->warmup > 0 ? cfg->warmup : 1) && rc == 0; it++)
    rc = algo->fn(send, recv, count, cfg->dt, MPI_COMM_WORLD, p);
  double t0 = MPI_Wtime();
  for (int it = 0; it < cfg->iters && rc == 0; it++) {
    ar_phases_reset(p->phases, MPI_Wtime());
    rc = algo->fn(send, recv, count, cfg->dt, MPI_COMM_WORLD, p);
  }
  return slowest((MPI_Wtime() - t0) / cfg->iters, rc, &times[0]);
}

static void run_point(const runner_config *cfg, const ar_algo *algo, size_t bytes, int rank, int size,
                      runner_point *pt)
{
  size_t es = ar_dtype_size(cfg->dt), count = bytes / es;
  ar_phases ph;
  ar_params p = cfg->params;
  p.phases = &ph;
  ar_phases_reset(&ph, 0);
  pt->algo = algo->name;
  pt->bytes = bytes;
  pt->count = count;
  pt->verified = -1;
  pt->sparse = (algo->flags & AR_SPARSE) != 0;
  pt->rel_err = -1;

  void *send = ar_alloc(&p, count * es), *recv = ar_alloc(&p, count * es);
  double *times = calloc((size_t)cfg->iters, sizeof *times), *sorted = calloc((size_t)cfg->iters, sizeof *sorted);
  int rc = send && recv && times && sorted ? 0 : SA_ENOMEM, all_rc;
  MPI_Allreduce(&rc, &all_rc, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  ar_pattern pat;
  ar_pattern_init(&pat, size, cfg->dt);
  /* Real data whenever the bytes are real (a measured run too): uninitialised memory holds
   * NaNs and denormals that slow sums down and send top-k selections astray. */
  if (all_rc == 0 && p.real_data)
    ar_pattern_fill(&pat, rank, send, count, cfg->dt);

  if (all_rc == 0)
    all_rc = cfg->timing == RUNNER_TIMING_NCCL_TESTS ? time_steady(cfg, algo, send, recv, count, &p, times)
                                                      : time_barrier(cfg, algo, send, recv, count, &p, times);
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

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size, status = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  runner_config cfg;
  runner_point *pts = NULL;
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
  ar_layout layout;
  if (ar_compute_from_host(&cfg.params.compute) != 0) {
    status = 2;
    goto out;
  }
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
  int npts = cfg.nalgos * cfg.nsizes;
  pts = calloc((size_t)npts, sizeof *pts);
  if (!pts) {
    status = 1;
    goto out;
  }
  for (int a = 0; a < cfg.nalgos; a++)
    for (int s = 0; s < cfg.nsizes; s++) {
      runner_point *pt = &pts[a * cfg.nsizes + s];
      run_point(&cfg, cfg.algos[a], cfg.sizes[s], rank, size, pt);
      if (pt->rc && rank == 0)
        fprintf(stderr, "ar_runner: %s at %zu bytes failed: %s\n", pt->algo, pt->bytes, sa_strerror(pt->rc));
      if (pt->rc)
        status = 1;
    }
  if (rank == 0 && runner_write(&cfg, size, pts, npts) != 0)
    status = 1;
  ar_layout_free(&layout);
out:
  for (int i = 0; pts && i < cfg.nalgos * cfg.nsizes; i++)
    free(pts[i].times);
  free(pts);
  runner_config_free(&cfg);
  MPI_Finalize();
  return status;
}
