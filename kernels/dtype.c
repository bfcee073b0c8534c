/* dtype.c: element sizes, names, IEEE half conversion and host-side sums. */
#include "dtype.h"
#include "common/sa_error.h"

#include <string.h>

size_t kn_dtype_size(kn_dtype dt) { return dt == KN_FP16 ? 2 : 4; }

const char *kn_dtype_name(kn_dtype dt) { return dt == KN_FP16 ? "fp16" : dt == KN_I32 ? "i32" : "fp32"; }

int kn_dtype_parse(const char *s, kn_dtype *dt)
{
  if (strcmp(s, "fp32") == 0)
    *dt = KN_FP32;
  else if (strcmp(s, "fp16") == 0)
    *dt = KN_FP16;
  else
    return SA_EINVAL;
  return 0;
}

/* Bit-level conversion so that the same code runs under any compiler (no _Float16 needed)
 * and gives bit-identical results in every build. */
float kn_half_to_float(uint16_t h)
{
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu, bits;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (man << 13);
  } else if (exp != 0) {
    bits = sign | ((exp + 112u) << 23) | (man << 13);
  } else if (man == 0) {
    bits = sign;
  } else { /* subnormal half: renormalise */
    int e = -1;
    do {
      man <<= 1;
      e++;
    } while ((man & 0x400u) == 0);
    bits = sign | ((uint32_t)(112 - e) << 23) | ((man & 0x3ffu) << 13);
  }
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

uint16_t kn_float_to_half(float f)
{
  uint32_t x;
  memcpy(&x, &f, sizeof x);
  uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
  uint32_t exp = (x >> 23) & 0xffu, man = x & 0x7fffffu;
  if (exp == 0xff) /* inf or nan: keep nan-ness */
    return (uint16_t)(sign | 0x7c00u | (man ? 0x200u : 0));
  int e = (int)exp - 127 + 15;
  if (e >= 0x1f)
    return (uint16_t)(sign | 0x7c00u);
  if (e <= 0) { /* subnormal or zero in half */
    if (e < -10)
      return sign;
    man |= 0x800000u;
    uint32_t shift = (uint32_t)(14 - e), half = man >> shift, rest = man & ((1u << shift) - 1);
    uint32_t mid = 1u << (shift - 1);
    if (rest > mid || (rest == mid && (half & 1u)))
      half++;
    return (uint16_t)(sign | half);
  }
  uint32_t half = ((uint32_t)e << 10) | (man >> 13), rest = man & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u)))
    half++; /* may carry into the exponent, which is the correct rounding */
  return (uint16_t)(sign | half);
}

double kn_get(const void *buf, size_t i, kn_dtype dt)
{
  if (dt == KN_FP16)
    return kn_half_to_float(((const uint16_t *)buf)[i]);
  return ((const float *)buf)[i];
}

void kn_set(void *buf, size_t i, kn_dtype dt, double v)
{
  if (dt == KN_FP16)
    ((uint16_t *)buf)[i] = kn_float_to_half((float)v);
  else
    ((float *)buf)[i] = (float)v;
}

void kn_sum(void *dst, const void *a, const void *b, size_t n, kn_dtype dt)
{
  if (dt == KN_FP16) {
    uint16_t *d = dst;
    const uint16_t *x = a, *y = b;
    for (size_t i = 0; i < n; i++)
      d[i] = kn_float_to_half(kn_half_to_float(x[i]) + kn_half_to_float(y[i]));
  } else {
    float *d = dst;
    const float *x = a, *y = b;
    for (size_t i = 0; i < n; i++)
      d[i] = x[i] + y[i];
  }
}

void kn_scatter_add(void *dst, const void *vals, const uint32_t *idx, size_t n, kn_dtype dt)
{
  for (size_t i = 0; i < n; i++)
    kn_set(dst, idx[i], dt, kn_get(dst, idx[i], dt) + kn_get(vals, i, dt));
}
