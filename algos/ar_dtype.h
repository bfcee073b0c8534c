/* ar_dtype.h: element types of the payload and the host arithmetic on them (no MPI here). */
#ifndef AR_DTYPE_H
#define AR_DTYPE_H

#include <stddef.h>
#include <stdint.h>

/* AR_I32 only carries top-k indices between ranks; it is never summed nor parsed from the
 * command line. */
typedef enum { AR_FP32 = 0, AR_FP16 = 1, AR_I32 = 2 } ar_dtype;

size_t ar_dtype_size(ar_dtype dt);
const char *ar_dtype_name(ar_dtype dt);
/* Returns 0 and sets *dt for "fp32"/"fp16", SA_EINVAL for anything else. */
int ar_dtype_parse(const char *s, ar_dtype *dt);

/* IEEE binary16 <-> float, round to nearest even. */
float ar_half_to_float(uint16_t h);
uint16_t ar_float_to_half(float f);

/* Element i of buf as a double, and storing a double into element i. */
double ar_get(const void *buf, size_t i, ar_dtype dt);
void ar_set(void *buf, size_t i, ar_dtype dt, double v);

/* dst[i] = a[i] + b[i]; fp16 is added in fp32 arithmetic and stored as half. */
void ar_sum_host(void *dst, const void *a, const void *b, size_t n, ar_dtype dt);

/* dst[idx[i]] += vals[i] for n (value, index) pairs; fp16 is added in fp32 arithmetic and
 * stored as half after each add. */
void ar_scatter_add_host(void *dst, const void *vals, const uint32_t *idx, size_t n, ar_dtype dt);

#endif
