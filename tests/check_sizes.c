/* check_sizes.c: size parsing, sweeps and formatting. */
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"
#include "util/sizes.h"
#include "check_util.h"

static char err[256];

START_TEST(plain_and_suffixed_sizes)
{
  uint64_t v;
  ck_assert_int_eq(util_parse_size("512", &v, err, sizeof err), 0);
  ck_assert_uint_eq(v, 512);
  ck_assert_int_eq(util_parse_size("64K", &v, err, sizeof err), 0);
  ck_assert_uint_eq(v, 65536);
  ck_assert_int_eq(util_parse_size("100M", &v, err, sizeof err), 0);
  ck_assert_uint_eq(v, 104857600);
  ck_assert_int_eq(util_parse_size("1g", &v, err, sizeof err), 0);
  ck_assert_uint_eq(v, 1073741824);
  ck_assert_int_eq(util_parse_size("2G", &v, err, sizeof err), 0);
  ck_assert_uint_eq(v, (uint64_t)2 << 30);
  ck_assert_int_eq(util_parse_size("16G", &v, err, sizeof err), 0);
  ck_assert_uint_eq(v, UTIL_MAX_BYTES);
  ck_assert_int_eq(util_parse_size("16384M", &v, err, sizeof err), 0);
  ck_assert_uint_eq(v, UTIL_MAX_BYTES);
}
END_TEST

/* nccl-tests' forms (K/M/G as powers of 2, a first letter then anything: 1MB), the IEC
 * ones, T, and fractions that come to whole bytes */
START_TEST(iec_si_and_fractional_sizes)
{
  const struct {
    const char *s;
    uint64_t bytes;
  } good[] = {
    {"1MiB", 1 << 20},         {"1MB", 1 << 20},          {"1mb", 1 << 20},
    {"1mib", 1 << 20},         {"64KiB", 64 << 10},       {"64kB", 64 << 10},
    {"2GiB", (uint64_t)2 << 30}, {"2GB", (uint64_t)2 << 30}, {"1.5M", 3 << 19},
    {"1.5MiB", 3 << 19},       {"0.5K", 512},             {"1.25K", 1280},
    {"1.50M", 3 << 19},        {"2.0G", (uint64_t)2 << 30}, {"0.015625T", UTIL_MAX_BYTES},
    {"0.015625TiB", UTIL_MAX_BYTES}, {"0.0078125tb", (uint64_t)8 << 30}, {"16.0G", UTIL_MAX_BYTES},
    {"1.0000019073486328125M", 1048578}, {"3.0", 3},
  };
  for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
    uint64_t v = 0;
    ck_assert_msg(util_parse_size(good[i].s, &v, err, sizeof err) == 0, "'%s' refused: %s", good[i].s, err);
    ck_assert_msg(v == good[i].bytes, "'%s' read as %llu", good[i].s, (unsigned long long)v);
  }
  /* a part of a byte, and the reason says so */
  const char *partial[] = {"1.3M", "1.5", "0.3K", "1.000001M", "0.1"};
  for (size_t i = 0; i < sizeof partial / sizeof partial[0]; i++) {
    uint64_t v = 7;
    ck_assert_msg(util_parse_size(partial[i], &v, err, sizeof err) == SA_EINVAL, "'%s' accepted", partial[i]);
    ck_assert_msg(strstr(err, "not a whole number of bytes"), "'%s': %s", partial[i], err);
    ck_assert_uint_eq(v, 7);
  }
  ck_assert_int_eq(util_parse_size("1.5X", &(uint64_t){0}, err, sizeof err), SA_EINVAL);
  ck_assert_msg(strstr(err, "1.5M") && strstr(err, "MiB"), "the reason shows the forms: %s", err);
}
END_TEST

START_TEST(bad_sizes_are_refused)
{
  const char *bad[] = {"", "0", "0K", "-5", "abc", "12Q", "17G", "16385M", "99999999999999999999", " 5", "5 ",
                       "1.M", ".5M", "1..5M", "1.5.M", "1Mi", "1MiBB", "1BM", "1 M", "1M ", "1T", "16.5G",
                       "0.0M", "1e3", "1KM", "0.00000000000000000001T", "1MiB,"};
  uint64_t v = 7;
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    err[0] = '\0';
    ck_assert_msg(util_parse_size(bad[i], &v, err, sizeof err) == SA_EINVAL, "'%s' accepted", bad[i]);
    ck_assert_msg(err[0] != '\0', "no reason for '%s'", bad[i]);
    ck_assert_uint_eq(v, 7);
  }
}
END_TEST

START_TEST(sweeps)
{
  uint64_t lo, hi;
  double f;
  ck_assert_int_eq(util_parse_sweep("1K:64M", &lo, &hi, &f, err, sizeof err), 0);
  ck_assert_uint_eq(lo, 1024);
  ck_assert_uint_eq(hi, 64 << 20);
  ck_assert(f == 2.0);
  ck_assert_int_eq(util_parse_sweep("8:1G:1.02", &lo, &hi, &f, err, sizeof err), 0);
  ck_assert(f == 1.02);
  const char *bad[] = {"1K", "64M:1K", "1K:64M:1", "1K:64M:0.5", "1K:64M:x", "1K:", ":1K", "1K:2K:2:3"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    ck_assert_msg(util_parse_sweep(bad[i], &lo, &hi, &f, err, sizeof err) == SA_EINVAL, "'%s' accepted", bad[i]);
}
END_TEST

START_TEST(lists)
{
  uint64_t *v;
  /* ascending, repeats dropped, whatever order they came in */
  ck_assert_int_eq(util_parse_size_list("64M,8K,1M,8K", 4, &v, err, sizeof err), 3);
  ck_assert_uint_eq(v[0], 8192);
  ck_assert_uint_eq(v[1], 1 << 20);
  ck_assert_uint_eq(v[2], 64 << 20);
  free(v);
  ck_assert_int_eq(util_parse_size_list("6,2", 2, &v, err, sizeof err), 2);
  ck_assert_uint_eq(v[0], 2);
  free(v);
  /* one size is a list of one */
  ck_assert_int_eq(util_parse_size_list("1G", 4, &v, err, sizeof err), 1);
  ck_assert_uint_eq(v[0], 1 << 30);
  free(v);
  /* the IEC forms and fractions in a list too */
  ck_assert_int_eq(util_parse_size_list("2MB,1.5K,1MiB", 4, &v, err, sizeof err), 3);
  ck_assert_uint_eq(v[0], 1536);
  ck_assert_uint_eq(v[1], 1 << 20);
  ck_assert_uint_eq(v[2], 2 << 20);
  free(v);
  /* whole bytes but not whole elements: 1025 bytes of fp32 */
  ck_assert_int_eq(util_parse_size_list("1.0009765625K", 4, &v, err, sizeof err), SA_EINVAL);
  ck_assert_msg(strstr(err, "not a whole number of 4-byte elements"), "%s", err);
  const char *bad[] = {"", "x", "1K,", ",1K", "1K,,2K", "1K,6", "1K,0", "1K,17G", "1K,x", "1K,1.3M"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    ck_assert_msg(util_parse_size_list(bad[i], 4, &v, err, sizeof err) == SA_EINVAL, "'%s' accepted", bad[i]);
}
END_TEST

START_TEST(sweep_expansion_rounds_to_elements)
{
  uint64_t *v;
  int n = util_expand_sweep(1024, 65536, 4, 4, &v);
  ck_assert_int_eq(n, 4);
  ck_assert_uint_eq(v[0], 1024);
  ck_assert_uint_eq(v[3], 65536);
  free(v);
  /* factor 3 from 4: 4, 12, 36, ... and MAX itself last, all multiples of 4 */
  n = util_expand_sweep(4, 1000, 3, 4, &v);
  ck_assert_int_eq(n, 7);
  ck_assert_uint_eq(v[5], 972);
  ck_assert_uint_eq(v[6], 1000);
  free(v);
  /* a fine factor never repeats a size and never goes below one element */
  n = util_expand_sweep(1, 64, 1.02, 4, &v);
  ck_assert_uint_eq(v[0], 4);
  for (int i = 1; i < n; i++) {
    ck_assert_uint_gt(v[i], v[i - 1]);
    ck_assert_uint_eq(v[i] % 4, 0);
  }
  free(v);
  n = util_expand_sweep(8, 1 << 30, 1.02, 4, &v);
  ck_assert_int_gt(n, 800);
  ck_assert_uint_eq(v[n - 1], 1 << 30);
  free(v);
}
END_TEST

START_TEST(formatting)
{
  char b[32];
  util_format_size(64 << 20, b, sizeof b);
  ck_assert_str_eq(b, "64M");
  util_format_size(1536, b, sizeof b);
  ck_assert_str_eq(b, "1536");
  util_format_size(3 << 10, b, sizeof b);
  ck_assert_str_eq(b, "3K");
  util_format_size(40, b, sizeof b);
  ck_assert_str_eq(b, "40");
}
END_TEST

int main(void)
{
  Suite *s = suite_create("sizes");
  CHECK_CASE(s, "sizes", 10, plain_and_suffixed_sizes, iec_si_and_fractional_sizes, bad_sizes_are_refused, sweeps, lists,
             sweep_expansion_rounds_to_elements, formatting);
  return check_run(s);
}
