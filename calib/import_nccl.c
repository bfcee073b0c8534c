/* import_nccl.c: nccl-tests all_reduce_perf output. A data row is
 *   size count type redop [root] time algbw busbw #wrong time algbw busbw #wrong
 * (out-of-place then in-place; "root" appeared in later versions, #wrong may be N/A or an
 * error magnitude in old ones); times in us, bandwidths in GB/s. Ranks are counted from the
 * "#  Rank N ..." lines of the device list. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"
#include "import.h"

#define MAX_TOK 16

static void dtype_name(const char *nccl, char *out, size_t len)
{
  static const char *const map[][2] = {{"float", "fp32"},  {"half", "fp16"},  {"bfloat16", "bf16"},
                                       {"double", "fp64"}, {"int32", "int32"}, {"int", "int32"}};
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (strcmp(nccl, map[i][0]) == 0) {
      snprintf(out, len, "%s", map[i][1]);
      return;
    }
  snprintf(out, len, "%s", nccl);
}

/* Lines a real run interleaves with the table: NCCL's own debug output. */
static int is_nccl_chatter(const char *line) { return strstr(line, "NCCL INFO") || strstr(line, "NCCL WARN"); }

static int parse_row(char **tok, int n, int ranks, cal_data *d)
{
  double size, count, v[8];
  int root = n == 13;
  if ((n != 12 && n != 13) || cal_token_number(tok[0], &size) || cal_token_number(tok[1], &count) || size < 0 ||
      count < 0)
    return -1;
  if (root && cal_token_number(tok[4], &v[0]))
    return -1;
  char **f = tok + (root ? 5 : 4);
  for (int i = 0; i < 8; i++) {
    if (i % 4 == 3 && strcmp(f[i], "N/A") == 0) {
      v[i] = -1;
      continue;
    }
    if (cal_token_number(f[i], &v[i]) || v[i] < 0)
      return -1;
    if (i % 4 == 3 && (v[i] > 1e15 || v[i] != floor(v[i]))) /* #wrong is a count */
      return -1;
  }
  for (int ip = 0; ip < 2; ip++) {
    const double *c = v + 4 * ip;
    if (c[0] <= 0)
      return -1;
    cal_point p = cal_point_blank("allreduce", "nccl-tests");
    dtype_name(tok[2], p.dtype, sizeof p.dtype);
    p.bytes = size;
    p.count = count;
    p.ranks = ranks;
    p.inplace = ip;
    p.time_s = c[0] * 1e-6;
    p.algbw_GBps = c[1];
    p.busbw_GBps = c[2];
    p.errors = c[3] < 0 ? -1 : (long)(c[3] + 0.5);
    if (cal_data_add(d, &p) != 0)
      return -2;
  }
  return 0;
}

int cal_import_nccl(FILE *f, const char *name, const cal_import_opts *o, cal_data *d, char *err, size_t errlen)
{
  char *line = NULL, *tok[MAX_TOK + 1];
  size_t cap = 0, first = d->n;
  int ln = 0, ranks = 0, rc = 0, header = 0, summary = 0;
  while (rc == 0 && getline(&line, &cap, f) >= 0) {
    ln++;
    line[strcspn(line, "\r\n")] = '\0';
    char *s = line + strspn(line, " \t");
    if (s[0] == '#') {
      header |= strstr(s, "size") && strstr(s, "count") && strstr(s, "type");
      if (strncmp(s + 1 + strspn(s + 1, " "), "Rank", 4) == 0)
        ranks++;
      summary |= strstr(s, "Avg bus bandwidth") != NULL;
      continue;
    }
    if (!s[0] || is_nccl_chatter(s))
      continue;
    int n = cal_split(s, tok, MAX_TOK), r = parse_row(tok, n, ranks ? ranks : -1, d);
    if (r == -2) {
      snprintf(err, errlen, "out of memory");
      rc = SA_ENOMEM;
    } else if (r != 0) {
      snprintf(err, errlen, "%s:%d: not an all_reduce_perf data row (size count type redop [root] then time algbw "
               "busbw #wrong, out-of-place and in-place)", name, ln);
      rc = SA_EPARSE;
    }
  }
  free(line);
  if (rc == 0 && (d->n == first || !header)) {
    snprintf(err, errlen, "%s: no all_reduce_perf table (a '# size count type ...' header and data rows) in %d lines",
             name, ln);
    rc = SA_EPARSE;
  } else if (rc == 0 && !summary && !o->partial) {
    snprintf(err, errlen, "%s:%d: the log ends before its '# Avg bus bandwidth' summary: cut short? (--partial "
             "imports the rows it has)", name, ln);
    rc = SA_EPARSE;
  }
  if (rc == 0)
    snprintf(d->source, sizeof d->source, "nccl-tests");
  return rc;
}
