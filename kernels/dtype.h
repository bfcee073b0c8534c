/* dtype.h: element types of the payload and the host arithmetic on them (no MPI here). */
#ifndef KERNELS_DTYPE_H
#define KERNELS_DTYPE_H

#include <stddef.h>
#include <stdint.h>

/* KN_I32 only carries top-k indices between ranks; it is never summed nor parsed from the
 * command line. */
typedef enum { KN_FP32 = 0, KN_FP16 = 1, KN_I32 = 2 } kn_dtype;

size_t kn_dtype_size(kn_dtype dt);
const char *kn_dtype_name(kn_dtype dt);
/* Returns 0 and sets *dt for "fp32"/"fp16", SA_EINVAL for anything else. */
int kn_dtype_parse(const char *s, kn_dtype *dt);

/* IEEE binary16 <-> float, round to nearest even. */
float kn_half_to_float(uint16_t h);
uint16_t kn_float_to_half(float f);

/* Element i of buf as a double, and storing a double into element i. */
double kn_get(const void *buf, size_t i, kn_dtype dt);
void kn_set(void *buf, size_t i, kn_dtype dt, double v);

/* dst[i] = a[i] + b[i]; fp16 is added in fp32 arithmetic and stored as half. */
void kn_sum(void *dst, const void *a, const void *b, size_t n, kn_dtype dt);

/* dst[idx[i]] += vals[i] for n (value, index) pairs; fp16 is added in fp32 arithmetic and
 * stored as half after each add. */
void kn_scatter_add(void *dst, const void *vals, const uint32_t *idx, size_t n, kn_dtype dt);

#endif
