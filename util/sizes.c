/* sizes.c: parsing and expanding message sizes. */
#include "sizes.h"
#include "common/sa_error.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The unit after a number: K, M, G or T (either case), alone or followed by B or iB
 * (either case), all powers of 2. nccl-tests reads its -b/-e the same way: its parsesize()
 * (src/common.cu, "We use the binary system, so M=Mebibytes and G=Gibibytes") takes a
 * decimal number and the first letter after it, K/M/G in either case as 2^10/2^20/2^30, so
 * its users' "1MB" and "1.5M" are 2^20 and 1.5 * 2^20 bytes; MB here is 2^20 as there,
 * never 10^6, so one command line means the same size in both tools. (A fraction that
 * leaves part of a byte, which nccl-tests truncates, is refused here.) Returns the
 * shift, or -1 for anything else. */
static int unit_shift(const char *u)
{
  static const char letters[] = "kmgt";
  if (*u == '\0')
    return 0;
  const char *l = strchr(letters, tolower((unsigned char)*u));
  if (!l)
    return -1;
  const char *rest = u + 1;
  if (tolower((unsigned char)rest[0]) == 'i' && tolower((unsigned char)rest[1]) == 'b')
    rest += 2;
  else if (tolower((unsigned char)rest[0]) == 'b')
    rest++;
  return *rest == '\0' ? 10 * (int)(l - letters + 1) : -1;
}

#define SIZE_FORMS "e.g. 512, 64K, 1.5M, 100MiB, 1GB; K/M/G/T are 2^10/2^20/2^30/2^40"

/* The fraction digits f (nd of them, trailing zeros dropped) times 2^shift, when whole:
 * f / 10^nd * 2^shift = (f / 5^nd) * 2^(shift - nd), whole only when 5^nd divides f and
 * 2^nd divides what is left times 2^shift. Returns 0 and the bytes, or -1. */
static int fraction_bytes(uint64_t f, int nd, int shift, uint64_t *bytes)
{
  uint64_t five = 1;
  for (int i = 0; i < nd; i++)
    five *= 5;
  if (f % five != 0)
    return -1;
  uint64_t q = f / five; /* below 2^nd: f < 10^nd */
  if (nd > shift) {
    uint64_t mask = ((uint64_t)1 << (nd - shift)) - 1;
    if (q & mask)
      return -1;
    *bytes = q >> (nd - shift);
  } else {
    *bytes = q << (shift - nd);
  }
  return 0;
}

/* One line for a refused size s, in err. */
static int refuse(char *err, size_t errlen, const char *fmt, const char *s)
{
  snprintf(err, errlen, fmt, s);
  return SA_EINVAL;
}

int util_parse_size(const char *s, uint64_t *out, char *err, size_t errlen)
{
  static const char not_a_size[] = "size '%s' is not a number of bytes (" SIZE_FORMS ")";
  if (!isdigit((unsigned char)*s))
    return refuse(err, errlen, not_a_size, s);
  errno = 0;
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  int range = errno == ERANGE;
  uint64_t frac = 0;
  int nd = 0; /* the fraction's digits, its trailing zeros left out */
  if (*end == '.') {
    const char *d = end + 1;
    for (end = (char *)d; isdigit((unsigned char)*end); end++)
      if (*end != '0')
        nd = (int)(end - d) + 1;
    if (end == d)
      return refuse(err, errlen, not_a_size, s);
    /* 19 decimals fit 64 bits and reach 2^-19 of a unit: every byte of a K, an M to 2
     * bytes, a G to 2 KiB, a T to 2 MiB, finer than anyone writes them */
    if (nd > 19)
      return refuse(err, errlen, "size '%s' has more than 19 decimals", s);
    for (int i = 0; i < nd; i++)
      frac = frac * 10 + (uint64_t)(d[i] - '0');
  }
  int shift = unit_shift(end);
  uint64_t part = 0;
  if (shift < 0)
    return refuse(err, errlen, not_a_size, s);
  if (nd > 0 && fraction_bytes(frac, nd, shift, &part) != 0)
    return refuse(err, errlen, "size '%s' is not a whole number of bytes", s);
  /* v within the limit before the shift, so that neither it nor the sum overflows */
  if (range || v > (UTIL_MAX_BYTES >> shift) || ((uint64_t)v << shift) + part > UTIL_MAX_BYTES)
    return refuse(err, errlen, "size '%s' is too large (at most 16G bytes per rank)", s);
  if (v == 0 && part == 0)
    return refuse(err, errlen, "size '%s' is zero: give at least one element", s);
  *out = ((uint64_t)v << shift) + part;
  return 0;
}

int util_parse_sweep(const char *s, uint64_t *min, uint64_t *max, double *factor, char *err, size_t errlen)
{
  char buf[128];
  if (strlen(s) >= sizeof buf) {
    snprintf(err, errlen, "--sizes '%.40s...' is too long", s);
    return SA_EINVAL;
  }
  strcpy(buf, s);
  char *c1 = strchr(buf, ':');
  if (!c1) {
    snprintf(err, errlen, "--sizes '%s' must be MIN:MAX[:FACTOR]", s);
    return SA_EINVAL;
  }
  *c1++ = '\0';
  char *c2 = strchr(c1, ':');
  if (c2)
    *c2++ = '\0';
  if (util_parse_size(buf, min, err, errlen) || util_parse_size(c1, max, err, errlen))
    return SA_EINVAL;
  *factor = 2.0;
  if (c2) {
    char *end;
    double f = strtod(c2, &end);
    if (end == c2 || *end || !(f > 1.0) || !isfinite(f) || f > 1e6) {
      snprintf(err, errlen, "--sizes factor '%s' must be a number greater than 1", c2);
      return SA_EINVAL;
    }
    *factor = f;
  }
  if (*min > *max) {
    snprintf(err, errlen, "--sizes '%s': MIN is larger than MAX", s);
    return SA_EINVAL;
  }
  return 0;
}

static int ascending(const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

int util_parse_size_list(const char *s, size_t elem, uint64_t **out, char *err, size_t errlen)
{
  char buf[1024];
  if (strlen(s) >= sizeof buf) {
    snprintf(err, errlen, "--sizes '%.40s...' is too long", s);
    return SA_EINVAL;
  }
  strcpy(buf, s);
  size_t n = 0, cap = 1;
  for (const char *c = s; *c; c++)
    cap += *c == ',';
  uint64_t *v = malloc(cap * sizeof *v);
  if (!v) {
    snprintf(err, errlen, "out of memory");
    return SA_ENOMEM;
  }
  char *save = NULL;
  /* strtok_r skips empty items, which would hide a typo: a list has exactly cap items */
  for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
    if (util_parse_size(item, &v[n], err, errlen) != 0) {
      free(v);
      return SA_EINVAL;
    }
    if (v[n] % elem != 0) {
      snprintf(err, errlen, "--sizes: %s is not a whole number of %zu-byte elements", item, elem);
      free(v);
      return SA_EINVAL;
    }
    n++;
  }
  if (n != cap) {
    snprintf(err, errlen, "--sizes '%s' has an empty item", s);
    free(v);
    return SA_EINVAL;
  }
  qsort(v, n, sizeof *v, ascending);
  size_t kept = 0;
  for (size_t i = 0; i < n; i++)
    if (kept == 0 || v[i] != v[kept - 1])
      v[kept++] = v[i];
  *out = v;
  return (int)kept;
}

int util_expand_sweep(uint64_t min, uint64_t max, double factor, size_t elem, uint64_t **out)
{
  size_t cap = 16, n = 0;
  uint64_t *v = malloc(cap * sizeof *v);
  if (!v)
    return SA_ENOMEM;
  for (int i = 0;; i++) {
    double x = (double)min * pow(factor, i);
    uint64_t b = x > (double)max ? max : (uint64_t)x;
    b -= b % elem;
    if (b < elem)
      b = elem;
    if (n == 0 || b > v[n - 1]) {
      if (n == cap) {
        uint64_t *w = realloc(v, 2 * cap * sizeof *v);
        if (!w) {
          free(v);
          return SA_ENOMEM;
        }
        v = w;
        cap *= 2;
      }
      v[n++] = b;
    }
    if (x >= (double)max)
      break;
  }
  *out = v;
  return (int)n;
}

void util_format_size(uint64_t bytes, char *buf, size_t len)
{
  static const char suffix[] = {'G', 'M', 'K'};
  for (int i = 0; i < 3; i++) {
    uint64_t unit = (uint64_t)1 << (30 - 10 * i);
    if (bytes >= unit && bytes % unit == 0) {
      snprintf(buf, len, "%" PRIu64 "%c", bytes / unit, suffix[i]);
      return;
    }
  }
  snprintf(buf, len, "%" PRIu64, bytes);
}
