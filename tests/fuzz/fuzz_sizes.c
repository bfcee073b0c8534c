/* fuzz_sizes.c: size and sweep parsing (--size, --sizes, --segment), units and fractions. */
#include <math.h>

#include "util/sizes.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *s = fuzz_string(data, size), err[256];
  if (!s)
    return 0;
  uint64_t v, lo, hi;
  double f;
  if (util_parse_size(s, &v, err, sizeof err) == 0) {
    if (v == 0 || v > UTIL_MAX_BYTES)
      abort(); /* accepted a size it promises to refuse */
    /* whatever form it came in (1.5M, 1MiB, 1GB), its shortest form reads back the same */
    char buf[32];
    uint64_t back = 0;
    util_format_size(v, buf, sizeof buf);
    if (util_parse_size(buf, &back, err, sizeof err) != 0 || back != v)
      abort();
  }
  if (util_parse_sweep(s, &lo, &hi, &f, err, sizeof err) == 0) {
    if (lo > hi || !(f > 1))
      abort();
    /* expand only sweeps of a sane length: a factor of 1.0000001 over 2G is millions */
    if (log((double)hi / (double)lo) / log(f) < 20000) {
      uint64_t *sizes;
      int n = util_expand_sweep(lo, hi, f, 4, &sizes);
      for (int i = 1; i < n; i++)
        if (sizes[i] <= sizes[i - 1] || sizes[i] % 4)
          abort();
      if (n > 0)
        free(sizes);
    }
    char buf[32];
    util_format_size(lo, buf, sizeof buf);
  }
  uint64_t *list;
  int n = util_parse_size_list(s, 4, &list, err, sizeof err);
  for (int i = 1; i < n; i++)
    if (list[i] <= list[i - 1] || list[i] % 4 || list[i] > UTIL_MAX_BYTES)
      abort();
  if (n > 0)
    free(list);
  free(s);
  return 0;
}
