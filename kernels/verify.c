/* verify.c: the --verify input pattern and its closed-form sum. */
#include "verify.h"

#include <math.h>
#include <stdint.h>

static long a_of(const kn_pattern *pat, size_t i)
{
  uint64_t h = (uint64_t)i * 0x9E3779B97F4A7C15ull;
  return (long)((h >> 33) % (uint64_t)pat->amax);
}

static long b_of(const kn_pattern *pat, int rank) { return 1 + (long)((unsigned)rank * 7919u % (unsigned)pat->bmax); }

void kn_pattern_init(kn_pattern *pat, int ranks, kn_dtype dt)
{
  long exact = dt == KN_FP16 ? 2048L : 16777216L; /* largest n with all integers <= n exact */
  long per_rank = exact / (ranks > 0 ? ranks : 1); /* a(i) + b(r) may not exceed this */
  pat->ranks = ranks;
  pat->bmax = per_rank / 2 > 0 ? per_rank / 2 : 1;
  pat->amax = per_rank - pat->bmax > 0 ? per_rank - pat->bmax : 1;
  if (pat->bmax > 1000)
    pat->bmax = 1000;
  pat->bsum = 0;
  for (int r = 0; r < ranks; r++)
    pat->bsum += (double)b_of(pat, r);
}

double kn_pattern_value(const kn_pattern *pat, int rank, size_t i) { return (double)(a_of(pat, i) + b_of(pat, rank)); }

double kn_pattern_sum(const kn_pattern *pat, size_t i) { return (double)pat->ranks * (double)a_of(pat, i) + pat->bsum; }

void kn_pattern_fill(const kn_pattern *pat, int rank, void *buf, size_t count, kn_dtype dt)
{
  for (size_t i = 0; i < count; i++)
    kn_set(buf, i, dt, kn_pattern_value(pat, rank, i));
}

double kn_pattern_max_err(const kn_pattern *pat, const void *buf, size_t count, kn_dtype dt)
{
  double worst = 0;
  for (size_t i = 0; i < count; i++) {
    double want = kn_pattern_sum(pat, i);
    double err = fabs(kn_get(buf, i, dt) - want);
    if (err > worst || isnan(err))
      worst = isnan(err) ? INFINITY : err;
  }
  return worst;
}
