/* topk_select.c: MSTopK and exact top-k on the host; the simulation charges their device
 * time from the platform's topk_a/topk_b, the verify path runs them for real. */
#include "topk_select.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static float magnitude(const void *x, size_t i, kn_dtype dt) { return (float)fabs(kn_get(x, i, dt)); }

typedef struct {
  const void *x;
  size_t d;
  kn_dtype dt;
} count_ctx;

static size_t count_at_least(double t, void *ctx)
{
  const count_ctx *c = ctx;
  size_t n = 0;
  for (size_t i = 0; i < c->d; i++)
    n += magnitude(c->x, i, c->dt) >= t;
  return n;
}

void kn_mstopk_thresholds(double mean, double u, size_t d, size_t k, int samplings, kn_count_fn count, void *ctx,
                          double *thres1, double *thres2)
{
  /* thres1 starts above every element (nothing selected) rather than at 0, so that a search
   * that never finds nnz <= k cannot select all d. */
  double l = 0, r = 1, t1 = INFINITY, t2 = 0;
  size_t k1 = 0, k2 = d;
  for (int i = 0; i < samplings; i++) {
    double ratio = l + (r - l) / 2, thres = mean + ratio * (u - mean);
    size_t nnz = count(thres, ctx);
    if (nnz <= k) {
      r = ratio;
      if (nnz > k1 || t1 == INFINITY) {
        k1 = nnz;
        t1 = thres;
      }
    } else {
      l = ratio;
      if (nnz < k2) {
        k2 = nnz;
        t2 = thres;
      }
    }
  }
  *thres1 = t1;
  *thres2 = t2;
}

size_t kn_mstopk(const void *x, size_t d, kn_dtype dt, size_t k, int samplings, uint64_t seed, uint32_t *idx,
                 double *thres1_out)
{
  if (k > d)
    k = d;
  if (k == 0 || d == 0) {
    if (thres1_out)
      *thres1_out = INFINITY;
    return 0;
  }
  double mean = 0, u = 0;
  for (size_t i = 0; i < d; i++) {
    float a = magnitude(x, i, dt);
    mean += a;
    u = a > u ? a : u;
  }
  mean /= (double)d;

  count_ctx c = {x, d, dt};
  double thres1, thres2;
  kn_mstopk_thresholds(mean, u, d, k, samplings, count_at_least, &c, &thres1, &thres2);

  /* Lines 25-28: all of the upper group, then k - k1 consecutive members of the band. */
  size_t n = 0, band = 0;
  for (size_t i = 0; i < d; i++) {
    float a = magnitude(x, i, dt);
    if (a >= thres1)
      idx[n++] = (uint32_t)i;
    else if (a >= thres2)
      band++;
  }
  size_t need = k - n, start = 0;
  if (band > need) {
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!rng)
      return (size_t)-1;
    gsl_rng_set(rng, (unsigned long)seed);
    start = (size_t)gsl_rng_uniform_int(rng, (unsigned long)(band - need + 1));
    gsl_rng_free(rng);
  }
  for (size_t i = 0, seen = 0; i < d && n < k; i++) {
    float a = magnitude(x, i, dt);
    if (a < thres1 && a >= thres2 && seen++ >= start)
      idx[n++] = (uint32_t)i;
  }
  if (thres1_out)
    *thres1_out = thres1;
  return n;
}

/* The value of rank k (0 = largest) of v[0..n), rearranging v (quickselect, Hoare partition). */
static float kth_largest(float *v, size_t n, size_t k)
{
  size_t lo = 0, hi = n - 1;
  while (lo < hi) {
    float pivot = v[lo + (hi - lo) / 2];
    size_t i = lo, j = hi;
    while (i <= j) {
      while (v[i] > pivot)
        i++;
      while (v[j] < pivot)
        j--;
      if (i <= j) {
        float t = v[i];
        v[i] = v[j];
        v[j] = t;
        i++;
        if (j == 0)
          break;
        j--;
      }
    }
    if (k <= j)
      hi = j;
    else if (k >= i)
      lo = i;
    else
      return v[k];
  }
  return v[k];
}

size_t kn_topk_exact(const void *x, size_t d, kn_dtype dt, size_t k, uint32_t *idx)
{
  if (k > d)
    k = d;
  if (k == 0)
    return 0;
  float *a = malloc(d * sizeof *a);
  if (!a)
    return (size_t)-1;
  for (size_t i = 0; i < d; i++)
    a[i] = magnitude(x, i, dt);
  float kth = kth_largest(a, d, k - 1);
  free(a);
  size_t above = 0;
  for (size_t i = 0; i < d; i++)
    above += magnitude(x, i, dt) > kth;
  size_t ties = k - above, n = 0;
  for (size_t i = 0; i < d && n < k; i++) {
    float m = magnitude(x, i, dt);
    if (m > kth || (m == kth && ties > 0 && (ties--, 1)))
      idx[n++] = (uint32_t)i;
  }
  return n;
}

size_t kn_topk_k(size_t len, double density)
{
  if (len == 0)
    return 0;
  size_t k = (size_t)llround(density * (double)len);
  return k < 1 ? 1 : k > len ? len : k;
}

uint64_t kn_topk_seed(int node, int local) { return 0x5EED0000ull + (uint64_t)node * 1000003ull + (uint64_t)local; }
