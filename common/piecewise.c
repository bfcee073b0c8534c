/* piecewise.c: parses and evaluates SMPI's piecewise settings. */
#include "piecewise.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"

static int by_thresh(const void *x, const void *y)
{
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

/* A factor scales a latency or a bandwidth: it must be positive; an overhead is a time. */
static int in_range(sa_piece_kind kind, double v) { return isfinite(v) && (kind == SA_PIECE_FACTOR ? v > 0 : v >= 0); }

int sa_piecewise_parse(const char *s, sa_piece_kind kind, sa_piecewise *pw)
{
  memset(pw, 0, sizeof *pw);
  pw->kind = kind;
  pw->dflt = kind == SA_PIECE_FACTOR ? 1 : 0;
  int nvalues = kind == SA_PIECE_FACTOR ? 1 : 2;
  char *end;
  if (!strpbrk(s, ":;")) { /* one number: SimGrid takes it as the default everywhere */
    double v = strtod(s, &end);
    if (end == s || *end || !in_range(kind, v))
      return SA_EPARSE;
    pw->dflt = v;
    return 0;
  }
  /* pieces are sorted by threshold below, so keep each as one record: threshold, a, b
   * (SimGrid ignores values past the ones its setting uses) */
  double rec[SA_MAX_PIECES][3];
  for (const char *p = s; *p;) {
    if (pw->n == SA_MAX_PIECES)
      return SA_EPARSE;
    double *r = rec[pw->n];
    r[1] = r[2] = 0;
    int i = 0;
    for (;; i++) {
      double v = strtod(p, &end);
      if (end == p || !isfinite(v))
        return SA_EPARSE;
      if (i < 3)
        r[i] = v;
      p = end;
      if (*p != ':')
        break;
      p++;
    }
    if (i < nvalues || (*p && *p != ';') || r[0] < 0 || !in_range(kind, r[1]) || r[2] < 0)
      return SA_EPARSE;
    p += *p == ';';
    pw->n++;
  }
  qsort(rec, (size_t)pw->n, sizeof rec[0], by_thresh);
  for (int k = 0; k < pw->n; k++) {
    pw->thresh[k] = rec[k][0];
    pw->a[k] = rec[k][1];
    pw->b[k] = rec[k][2];
  }
  return 0;
}

double sa_piecewise_at(const sa_piecewise *pw, double size)
{
  if (pw->n == 0)
    return pw->dflt;
  int k = 0;
  while (k + 1 < pw->n && (pw->kind == SA_PIECE_FACTOR ? size >= pw->thresh[k + 1] : size > pw->thresh[k + 1]))
    k++;
  return pw->a[k] + pw->b[k] * size;
}

void sa_piecewise_format(const sa_piecewise *pw, char *buf, int len)
{
  int at = 0;
  buf[0] = '\0';
  if (pw->n == 0)
    snprintf(buf, (size_t)len, "%.9g", pw->dflt);
  for (int k = 0; k < pw->n && at < len; k++) {
    int w = pw->kind == SA_PIECE_OVERHEAD ? snprintf(buf + at, (size_t)(len - at), "%s%.0f:%.9g:%.9g", k ? ";" : "", pw->thresh[k],
                                     pw->a[k], pw->b[k])
                          : snprintf(buf + at, (size_t)(len - at), "%s%.0f:%.9g", k ? ";" : "", pw->thresh[k], pw->a[k]);
    at += w > 0 ? w : 0;
  }
}
