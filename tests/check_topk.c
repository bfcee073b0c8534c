/* check_topk.c: MSTopK returns exactly k indices, keeps everything above its threshold,
 * agrees with exact top-k on distinct magnitudes; exact top-k against a full sort. */
#include <gsl/gsl_rng.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"
#include "kernels/sparse_ref.h"
#include "kernels/topk_select.h"
#include "check_util.h"

/* Gradient-like data: normal values, all magnitudes distinct. */
static float *gradient(size_t d, unsigned long seed)
{
  gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(r, seed);
  float *x = malloc(d * sizeof *x);
  for (size_t i = 0; i < d; i++)
    x[i] = (float)gsl_ran_gaussian(r, 1.0) * (1.0f + 1e-6f * (float)i);
  gsl_rng_free(r);
  return x;
}

static int cmp_desc(const void *a, const void *b)
{
  float x = *(const float *)a, y = *(const float *)b;
  return (x < y) - (x > y);
}

START_TEST(mstopk_returns_exactly_k_and_keeps_all_above_threshold)
{
  size_t ds[] = {1, 7, 100, 1000, 65536};
  double rhos[] = {0.001, 0.01, 0.1, 0.5, 1.0};
  for (size_t a = 0; a < 5; a++)
    for (size_t b = 0; b < 5; b++) {
      size_t d = ds[a], k = (size_t)ceil(rhos[b] * (double)d);
      float *x = gradient(d, 7 + a);
      uint32_t *idx = malloc(d * sizeof *idx);
      double t1;
      size_t n = kn_mstopk(x, d, KN_FP32, k, KN_MSTOPK_SAMPLINGS, 42, idx, &t1);
      ck_assert_uint_eq(n, k);
      char *seen = calloc(d, 1);
      for (size_t i = 0; i < n; i++) {
        ck_assert_uint_lt(idx[i], d);
        ck_assert_msg(!seen[idx[i]], "index %u twice", idx[i]);
        seen[idx[i]] = 1;
      }
      for (size_t i = 0; i < d; i++)
        if (fabsf(x[i]) >= t1)
          ck_assert_msg(seen[i], "d=%zu k=%zu: element %zu above thres1 dropped", d, k, i);
      free(seen);
      free(idx);
      free(x);
    }
}
END_TEST

START_TEST(mstopk_matches_exact_on_distinct_magnitudes)
{
  size_t d = 100000, k = 1000;
  float *x = gradient(d, 3);
  uint32_t *a = malloc(k * sizeof *a), *b = malloc(k * sizeof *b);
  ck_assert_uint_eq(kn_mstopk(x, d, KN_FP32, k, KN_MSTOPK_SAMPLINGS, 1, a, NULL), k);
  ck_assert_uint_eq(kn_topk_exact(x, d, KN_FP32, k, b), k);
  /* both in ascending index order when MSTopK needs no band */
  for (size_t i = 0; i < k; i++)
    ck_assert_uint_eq(a[i], b[i]);
  free(a);
  free(b);
  free(x);
}
END_TEST

START_TEST(exact_topk_against_a_full_sort)
{
  size_t d = 5000;
  float *x = gradient(d, 11), *s = malloc(d * sizeof *s);
  for (size_t i = 0; i < d; i++)
    s[i] = fabsf(x[i]);
  qsort(s, d, sizeof *s, cmp_desc);
  size_t ks[] = {1, 2, 17, 2500, 4999, 5000};
  uint32_t *idx = malloc(d * sizeof *idx);
  for (size_t j = 0; j < 6; j++) {
    ck_assert_uint_eq(kn_topk_exact(x, d, KN_FP32, ks[j], idx), ks[j]);
    for (size_t i = 0; i < ks[j]; i++) {
      ck_assert(fabsf(x[idx[i]]) >= s[ks[j] - 1]);
      if (i)
        ck_assert_uint_gt(idx[i], idx[i - 1]);
    }
  }
  free(idx);
  free(s);
  free(x);
}
END_TEST

START_TEST(ties_and_degenerate_inputs)
{
  /* all equal: any k of them, exactly k */
  float same[64];
  for (int i = 0; i < 64; i++)
    same[i] = i % 2 ? -3.0f : 3.0f;
  uint32_t idx[64];
  ck_assert_uint_eq(kn_mstopk(same, 64, KN_FP32, 5, 30, 9, idx, NULL), 5);
  ck_assert_uint_eq(kn_topk_exact(same, 64, KN_FP32, 5, idx), 5);
  ck_assert_uint_eq(idx[4], 4); /* ties go to the lower index */
  /* zeros */
  float zero[16] = {0};
  ck_assert_uint_eq(kn_mstopk(zero, 16, KN_FP32, 3, 30, 9, idx, NULL), 3);
  /* k = 0 and k > d */
  ck_assert_uint_eq(kn_mstopk(same, 64, KN_FP32, 0, 30, 9, idx, NULL), 0);
  ck_assert_uint_eq(kn_topk_exact(same, 8, KN_FP32, 100, idx), 8);
  ck_assert_uint_eq(kn_mstopk(same, 8, KN_FP32, 100, 30, 9, idx, NULL), 8);
}
END_TEST

START_TEST(fp16_input)
{
  uint16_t h[1000];
  for (int i = 0; i < 1000; i++)
    kn_set(h, (size_t)i, KN_FP16, (i % 2 ? -1 : 1) * (double)((i * 37) % 1000) / 8.0);
  uint32_t a[10], b[10];
  ck_assert_uint_eq(kn_topk_exact(h, 1000, KN_FP16, 10, b), 10);
  ck_assert_uint_eq(kn_mstopk(h, 1000, KN_FP16, 10, 30, 5, a, NULL), 10);
  for (int i = 0; i < 10; i++) {
    ck_assert(fabs(kn_get(h, b[i], KN_FP16)) >= 990.0 / 8);
    ck_assert_uint_eq(a[i], b[i]);
  }
}
END_TEST

START_TEST(seeded_band_choice_is_reproducible)
{
  /* k inside a plateau of equal values forces a band draw */
  float x[200];
  for (int i = 0; i < 200; i++)
    x[i] = i < 10 ? 5.0f : 1.0f;
  uint32_t a[50], b[50];
  ck_assert_uint_eq(kn_mstopk(x, 200, KN_FP32, 50, 30, 1234, a, NULL), 50);
  ck_assert_uint_eq(kn_mstopk(x, 200, KN_FP32, 50, 30, 1234, b, NULL), 50);
  ck_assert(memcmp(a, b, sizeof a) == 0);
  for (int i = 0; i < 10; i++)
    ck_assert_uint_eq(a[i], (uint32_t)i); /* the ten large ones first */
}
END_TEST

/* At density 1 both sparse semantics keep everything: the reference is the dense sum. Below
 * 1 it keeps exactly what the selections choose. */
START_TEST(sparse_references)
{
  int shapes[][2] = {{1, 1}, {3, 1}, {2, 8}, {3, 3}};
  for (int s = 0; s < 4; s++)
    for (int d = 0; d < 2; d++) {
      kn_dtype dt = d ? KN_FP16 : KN_FP32;
      int ranks = shapes[s][0] * shapes[s][1];
      kn_pattern pat;
      kn_pattern_init(&pat, ranks, dt);
      size_t count = 1001;
      uint16_t ref[1001 * 2];
      for (int a = 0; a < 2; a++) {
        const char *algo = a ? "hitopk" : "topk";
        ck_assert_int_eq(kn_sparse_reference(algo, &pat, ranks, shapes[s][1], count, dt, 1.0, ref), 0);
        ck_assert(kn_pattern_max_err(&pat, ref, count, dt) == 0);
        ck_assert(kn_sparse_rel_err(&pat, ref, count, dt) == 0);
        /* at 1% a few elements per selection are kept, the rest is zero */
        ck_assert_int_eq(kn_sparse_reference(algo, &pat, ranks, shapes[s][1], count, dt, 0.01, ref), 0);
        size_t nonzero = 0;
        for (size_t i = 0; i < count; i++)
          nonzero += kn_get(ref, i, dt) != 0;
        size_t most = a ? (size_t)(ranks / shapes[s][1]) * (size_t)shapes[s][1] * kn_topk_k(count / (size_t)shapes[s][1] + 1, 0.01)
                        : (size_t)ranks * kn_topk_k(count, 0.01);
        ck_assert_uint_gt(nonzero, 0);
        ck_assert_uint_le(nonzero, most);
        ck_assert(kn_sparse_rel_err(&pat, ref, count, dt) > 0);
      }
    }
  ck_assert_int_eq(kn_sparse_reference("ring", NULL, 1, 1, 0, KN_FP32, 1.0, NULL), SA_EINVAL);
}
END_TEST

START_TEST(k_rule)
{
  ck_assert_uint_eq(kn_topk_k(0, 0.01), 0);
  ck_assert_uint_eq(kn_topk_k(10, 0.01), 1);
  ck_assert_uint_eq(kn_topk_k(1000, 0.01), 10);
  ck_assert_uint_eq(kn_topk_k(1049, 0.01), 10);
  ck_assert_uint_eq(kn_topk_k(1050, 0.01), 11);
  ck_assert_uint_eq(kn_topk_k(7, 1.0), 7);
  ck_assert(kn_topk_seed(0, 1) != kn_topk_seed(1, 0));
}
END_TEST

int main(void)
{
  Suite *s = suite_create("topk");
  CHECK_CASE(s, "topk", 60, mstopk_returns_exactly_k_and_keeps_all_above_threshold,
             mstopk_matches_exact_on_distinct_magnitudes, exact_topk_against_a_full_sort, ties_and_degenerate_inputs,
             fp16_input, seeded_band_choice_is_reproducible, sparse_references, k_rule);
  return check_run(s);
}
