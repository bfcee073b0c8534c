/* check_dtype.c: half-precision conversion, host sums and the --verify pattern. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "common/sa_error.h"
#include "kernels/dtype.h"
#include "kernels/verify.h"
#include "check_util.h"

START_TEST(half_holds_integers_exactly)
{
  for (int v = -2048; v <= 2048; v++)
    ck_assert(kn_half_to_float(kn_float_to_half((float)v)) == (float)v);
  /* 2049 is not representable: round to nearest even gives 2048 */
  ck_assert(kn_half_to_float(kn_float_to_half(2049.0f)) == 2048.0f);
  ck_assert(kn_half_to_float(kn_float_to_half(2051.0f)) == 2052.0f);
}
END_TEST

START_TEST(half_known_bit_patterns)
{
  ck_assert_uint_eq(kn_float_to_half(1.0f), 0x3c00);
  ck_assert_uint_eq(kn_float_to_half(-2.0f), 0xc000);
  ck_assert_uint_eq(kn_float_to_half(65504.0f), 0x7bff);
  ck_assert_uint_eq(kn_float_to_half(1e6f), 0x7c00); /* overflow to infinity */
  ck_assert_uint_eq(kn_float_to_half(5.9604645e-8f), 0x0001); /* smallest subnormal */
  ck_assert(kn_half_to_float(0x0001) == 5.9604645e-8f);
  ck_assert(kn_half_to_float(0x03ff) == 6.0975552e-5f);
  ck_assert(isinf(kn_half_to_float(0xfc00)) && kn_half_to_float(0xfc00) < 0);
  ck_assert(isnan(kn_half_to_float(kn_float_to_half(NAN))));
  /* every half survives a round trip through float */
  for (uint32_t h = 0; h < 0x10000; h++) {
    if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff))
      continue; /* nan payloads need not be preserved */
    ck_assert_uint_eq(kn_float_to_half(kn_half_to_float((uint16_t)h)), h);
  }
}
END_TEST

START_TEST(host_sums)
{
  float a[3] = {1, 2.5f, -4}, b[3] = {3, 0.25f, 4}, d[3];
  kn_sum(d, a, b, 3, KN_FP32);
  ck_assert(d[0] == 4 && d[1] == 2.75f && d[2] == 0);
  uint16_t ha[2], hb[2], hd[2];
  kn_set(ha, 0, KN_FP16, 1000);
  kn_set(ha, 1, KN_FP16, 0.5);
  kn_set(hb, 0, KN_FP16, 1000);
  kn_set(hb, 1, KN_FP16, 0.25);
  kn_sum(hd, ha, hb, 2, KN_FP16);
  ck_assert(kn_get(hd, 0, KN_FP16) == 2000);
  ck_assert(kn_get(hd, 1, KN_FP16) == 0.75);
  ck_assert_str_eq(kn_dtype_name(KN_FP16), "fp16");
  kn_dtype dt;
  ck_assert_int_eq(kn_dtype_parse("fp32", &dt), 0);
  ck_assert_int_eq(dt, KN_FP32);
  ck_assert_int_eq(kn_dtype_parse("float", &dt), SA_EINVAL);
}
END_TEST

/* The closed-form reference must equal the brute-force sum, and every partial sum must stay
 * exact in the element type. */
START_TEST(pattern_reference)
{
  int ranks[] = {1, 2, 3, 5, 15, 16, 128, 1024};
  for (size_t k = 0; k < sizeof ranks / sizeof ranks[0]; k++)
    for (int d = 0; d < 2; d++) {
      kn_dtype dt = d ? KN_FP16 : KN_FP32;
      double exact = dt == KN_FP16 ? 2048 : 16777216;
      kn_pattern pat;
      kn_pattern_init(&pat, ranks[k], dt);
      for (size_t i = 0; i < 300; i++) {
        double sum = 0;
        for (int r = 0; r < ranks[k]; r++) {
          double v = kn_pattern_value(&pat, r, i);
          ck_assert(v >= 1 && v == floor(v));
          sum += v;
        }
        ck_assert(sum <= exact);
        ck_assert(sum == kn_pattern_sum(&pat, i));
      }
    }
}
END_TEST

START_TEST(pattern_detects_mistakes)
{
  kn_pattern pat;
  kn_pattern_init(&pat, 5, KN_FP32);
  float buf[64];
  for (size_t i = 0; i < 64; i++)
    buf[i] = (float)kn_pattern_sum(&pat, i);
  ck_assert(kn_pattern_max_err(&pat, buf, 64, KN_FP32) == 0);
  /* a lost contribution */
  buf[10] -= (float)kn_pattern_value(&pat, 3, 10);
  ck_assert(kn_pattern_max_err(&pat, buf, 64, KN_FP32) > 0);
  buf[10] = (float)kn_pattern_sum(&pat, 10);
  /* a chunk at the wrong offset: elements 8..15 hold the sums of 16..23 */
  float shifted[64];
  memcpy(shifted, buf, sizeof buf);
  memcpy(shifted + 8, buf + 16, 8 * sizeof(float));
  ck_assert(kn_pattern_max_err(&pat, shifted, 64, KN_FP32) > 0);
  /* different ranks get different inputs at the same element */
  ck_assert(kn_pattern_value(&pat, 0, 7) != kn_pattern_value(&pat, 1, 7));
}
END_TEST

int main(void)
{
  Suite *s = suite_create("dtype");
  CHECK_CASE(s, "half", 20, half_holds_integers_exactly, half_known_bit_patterns, host_sums);
  CHECK_CASE(s, "pattern", 20, pattern_reference, pattern_detects_mistakes);
  return check_run(s);
}
