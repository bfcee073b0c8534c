/* verify.h: deterministic input data and the independent reference for --verify. */
#ifndef KERNELS_VERIFY_H
#define KERNELS_VERIFY_H

#include "dtype.h"

/* Input element i of rank r is a(i) + b(r): small positive integers, sized so that every
 * partial sum of p of them is exact in dt (2^24 for fp32, 2^11 for fp16). a(i) is a hash
 * of i, so a chunk landing at the wrong offset changes the sum; b(r) >= 1, so a rank's
 * contribution lost or counted twice changes it too. */
typedef struct {
  int ranks;
  long amax; /* a(i) in [0, amax) */
  long bmax; /* b(r) in [1, bmax] */
  double bsum; /* sum of b(r) over all ranks */
} kn_pattern;

void kn_pattern_init(kn_pattern *pat, int ranks, kn_dtype dt);
double kn_pattern_value(const kn_pattern *pat, int rank, size_t i);
/* Sum over all ranks of element i, in closed form (no communication involved). */
double kn_pattern_sum(const kn_pattern *pat, size_t i);

void kn_pattern_fill(const kn_pattern *pat, int rank, void *buf, size_t count, kn_dtype dt);
/* Largest |buf[i] - sum(i)| over the buffer. */
double kn_pattern_max_err(const kn_pattern *pat, const void *buf, size_t count, kn_dtype dt);

#endif
