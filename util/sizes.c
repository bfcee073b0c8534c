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

int util_parse_size(const char *s, uint64_t *out, char *err, size_t errlen)
{
  const char *p = s;
  if (!isdigit((unsigned char)*p)) {
    snprintf(err, errlen, "size '%s' is not a number of bytes (e.g. 512, 64K, 100M, 1G)", s);
    return SA_EINVAL;
  }
  errno = 0;
  char *end;
  unsigned long long v = strtoull(p, &end, 10);
  unsigned shift = 0;
  switch (*end) {
  case 'K': case 'k': shift = 10; end++; break;
  case 'M': case 'm': shift = 20; end++; break;
  case 'G': case 'g': shift = 30; end++; break;
  default: break;
  }
  if (*end != '\0') {
    snprintf(err, errlen, "size '%s' is not a number of bytes (e.g. 512, 64K, 100M, 1G)", s);
    return SA_EINVAL;
  }
  if (errno == ERANGE || v > (UTIL_MAX_BYTES >> shift)) {
    snprintf(err, errlen, "size '%s' is too large (at most 16G bytes per rank)", s);
    return SA_EINVAL;
  }
  if (v == 0) {
    snprintf(err, errlen, "size '%s' is zero: give at least one element", s);
    return SA_EINVAL;
  }
  *out = (uint64_t)v << shift;
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
