/* kernels_cpu.c: times kn_sum, memcpy, kn_mstopk, kn_topk_exact and
 * kn_scatter_add (the algos/ code the verify path runs) over sizes; median of
 * repetitions after one untimed run. */
#include "kernels_cpu.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernels/dtype.h"
#include "kernels/topk_select.h"
#include "common/sa_error.h"

#define MAX_REPS_CAP 1000

void meas_kernel_opts_default(meas_kernel_opts *o)
{
  o->min_bytes = 4096;
  o->max_bytes = (uint64_t)64 << 20;
  o->min_elems = 4096;
  o->max_elems = (uint64_t)4 << 20;
  o->density = 0.01;
  o->reps = 20;
  o->min_reps = 3;
  o->budget = (uint64_t)512 << 20;
}

static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int reps_for(const meas_kernel_opts *o, double bytes)
{
  double r = (double)o->budget / (bytes > 1 ? bytes : 1);
  int n = r > o->reps ? o->reps : (int)r;
  return n < o->min_reps ? o->min_reps : n;
}

typedef enum { K_SUM, K_COPY, K_MSTOPK, K_TOPK, K_SCATTER } kernel;

typedef struct {
  void *a, *b, *dst;
  uint32_t *idx;
  size_t n, k;
  kn_dtype dt;
} operands;

static int run_once(kernel kind, operands *op)
{
  size_t got;
  switch (kind) {
  case K_SUM: kn_sum(op->dst, op->a, op->b, op->n, op->dt); return 0;
  case K_COPY: memcpy(op->dst, op->a, op->n); return 0;
  case K_MSTOPK:
    got = kn_mstopk(op->a, op->n, op->dt, op->k, KN_MSTOPK_SAMPLINGS, 1, op->idx, NULL);
    return got == op->k ? 0 : SA_ERUN;
  case K_TOPK: got = kn_topk_exact(op->a, op->n, op->dt, op->k, op->idx); return got == op->k ? 0 : SA_ERUN;
  case K_SCATTER: kn_scatter_add(op->b, op->a, op->idx, op->k, op->dt); return 0;
  }
  return SA_EINVAL;
}

/* Times one kernel at one size and appends the point. */
static int time_kernel(const meas_kernel_opts *o, kernel kind, operands *op, double bytes, md_data *d)
{
  static const char *const names[] = {"reduce", "memcpy", "mstopk", "topk_exact", "scatter_add"};
  int reps = reps_for(o, bytes), rc = run_once(kind, op);
  double samples[MAX_REPS_CAP];
  if (reps > MAX_REPS_CAP)
    reps = MAX_REPS_CAP;
  for (int r = 0; r < reps && rc == 0; r++) {
    double t0 = now();
    rc = run_once(kind, op);
    samples[r] = now() - t0;
  }
  if (rc != 0)
    return rc;
  md_point p = md_point_blank(names[kind], "simcalib kernels");
  snprintf(p.device, sizeof p.device, "cpu");
  if (kind != K_COPY)
    snprintf(p.dtype, sizeof p.dtype, "%s", kn_dtype_name(op->dt));
  p.bytes = bytes;
  p.count = kind == K_COPY ? bytes : kind == K_SCATTER ? (double)op->k : (double)op->n;
  p.ranks = 1;
  md_point_summarize(&p, samples, reps);
  return md_data_add(d, &p);
}

/* Gradient-like data: normal values, so that magnitudes spread as they do in training. */
static void fill_normal(void *buf, size_t n, kn_dtype dt)
{
  gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(r, 12345);
  for (size_t i = 0; i < n; i++)
    kn_set(buf, i, dt, gsl_ran_gaussian(r, 1.0));
  gsl_rng_free(r);
}

static int sum_and_copy(const meas_kernel_opts *o, md_data *d)
{
  size_t max = (size_t)o->max_bytes;
  operands op = {malloc(max), malloc(max), malloc(max), NULL, 0, 0, KN_FP32};
  int rc = op.a && op.b && op.dst ? 0 : SA_ENOMEM;
  if (rc == 0) {
    memset(op.a, 0, max);
    memset(op.b, 0, max);
    memset(op.dst, 0, max);
  }
  for (uint64_t s = o->min_bytes; rc == 0 && s <= o->max_bytes; s *= 4) {
    for (int t = 0; t < 2 && rc == 0; t++) {
      op.dt = t ? KN_FP16 : KN_FP32;
      op.n = (size_t)s / kn_dtype_size(op.dt);
      rc = time_kernel(o, K_SUM, &op, (double)s, d);
    }
    op.n = (size_t)s;
    if (rc == 0)
      rc = time_kernel(o, K_COPY, &op, (double)s, d);
  }
  free(op.a);
  free(op.b);
  free(op.dst);
  return rc;
}

static int selections(const meas_kernel_opts *o, md_data *d)
{
  size_t max = (size_t)o->max_elems;
  operands op = {malloc(max * sizeof(float)), calloc(max, sizeof(float)), NULL, malloc(max * sizeof(uint32_t)), 0, 0,
                 KN_FP32};
  int rc = op.a && op.b && op.idx ? 0 : SA_ENOMEM;
  if (rc == 0)
    fill_normal(op.a, max, KN_FP32);
  for (uint64_t n = o->min_elems; rc == 0 && n <= o->max_elems; n *= 4) {
    op.n = (size_t)n;
    op.k = (size_t)ceil(o->density * (double)n);
    /* bytes: the size of the input scanned */
    rc = time_kernel(o, K_MSTOPK, &op, (double)n * sizeof(float), d);
    if (rc == 0)
      rc = time_kernel(o, K_TOPK, &op, (double)n * sizeof(float), d);
    /* the selection's k pairs added into a buffer of n, as the top-k algorithms add what
     * they receive; bytes: a value and an index per pair */
    if (rc == 0)
      rc = time_kernel(o, K_SCATTER, &op, (double)op.k * (sizeof(float) + sizeof(uint32_t)), d);
  }
  free(op.a);
  free(op.b);
  free(op.idx);
  return rc;
}

int meas_kernels_cpu(const meas_kernel_opts *o, md_data *d)
{
  int rc = sum_and_copy(o, d);
  return rc ? rc : selections(o, d);
}
