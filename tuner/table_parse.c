/* table_parse.c: reading a decision table (table.h) strictly: every line checked, the first
 * fault reported with its line, nothing kept from a table that has one. The plugin runs this
 * inside NCCL's communicator setup, so it bounds what it reads and never trusts a field. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <fcntl.h>

#include "table.h"

#define NFIELDS 11

struct parser {
  const char *name;
  int line;
  char *err;
  size_t errlen;
};

/* A row and the line it came from, for the overlap check after sorting. */
struct lined_row {
  struct tuner_row row;
  int line;
};

__attribute__((format(printf, 2, 3))) static enum tuner_status fail(struct parser *p, const char *fmt, ...)
{
  int n = p->line > 0 ? snprintf(p->err, p->errlen, "%s:%d: ", p->name, p->line)
                      : snprintf(p->err, p->errlen, "%s: ", p->name);
  if (n >= 0 && (size_t)n < p->errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
    va_end(ap);
  }
  return TUNER_ERR_FORMAT;
}

/* A whole number of decimal digits only (no sign, no space), at most max. */
static bool parse_uint(const char *s, uint64_t max, uint64_t *out)
{
  uint64_t v = 0;
  if (!*s)
    return false;
  for (; *s; s++) {
    if (*s < '0' || *s > '9')
      return false;
    unsigned d = (unsigned)(*s - '0');
    if (v > (UINT64_MAX - d) / 10)
      return false;
    v = v * 10 + d;
  }
  if (v > max)
    return false;
  *out = v;
  return true;
}

/* A plain decimal time in microseconds, above 0 and at most TUNER_MAX_TIME_US (strtod alone
 * would also take spaces, hex, inf and nan). */
static bool parse_time(const char *s, double *out)
{
  if (!*s || strspn(s, "0123456789.eE+-") != strlen(s) || !(*s == '.' || (*s >= '0' && *s <= '9')))
    return false;
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (*end || errno || !isfinite(v) || !(v > 0) || v > TUNER_MAX_TIME_US)
    return false;
  *out = v;
  return true;
}

static enum tuner_status parse_choice(struct parser *p, const char *algo, const char *proto, const char *channels,
                                      const char *what, struct tuner_choice *c)
{
  uint64_t ch;
  if ((c->algo = tuner_algo_index(algo, strlen(algo))) < 0)
    return fail(p, "%s algorithm '%s' is none of NCCL's (Tree, Ring, CollNetDirect, CollNetChain, NVLS, "
                   "NVLSTree, PAT)",
                what, algo);
  if ((c->proto = tuner_proto_index(proto, strlen(proto))) < 0)
    return fail(p, "%s protocol '%s' is none of NCCL's (LL, LL128, Simple)", what, proto);
  if (!parse_uint(channels, TUNER_MAX_CHANNELS, &ch))
    return fail(p, "%s channels '%s' is not a whole number from 0 (NCCL's count) to %d", what, channels,
                TUNER_MAX_CHANNELS);
  c->channels = (int)ch;
  return TUNER_OK;
}

/* "-", or "Algo/Proto/channels". */
static enum tuner_status parse_runner_up(struct parser *p, char *s, struct tuner_choice *c)
{
  if (strcmp(s, "-") == 0) {
    *c = (struct tuner_choice){-1, -1, 0};
    return TUNER_OK;
  }
  char *slash1 = strchr(s, '/'), *slash2 = slash1 ? strchr(slash1 + 1, '/') : NULL;
  if (!slash2 || strchr(slash2 + 1, '/'))
    return fail(p, "runner_up '%s' is neither '-' nor Algo/Proto/channels", s);
  *slash1 = *slash2 = '\0';
  return parse_choice(p, s, slash1 + 1, slash2 + 1, "runner_up", c);
}

static enum tuner_status parse_row(struct parser *p, char *line, struct tuner_row *r)
{
  char *f[NFIELDS];
  int n = 0;
  for (char *s = line;; s++) {
    if (n < NFIELDS)
      f[n] = s;
    n++;
    s = strchr(s, ',');
    if (!s)
      break;
    *s = '\0';
  }
  if (n != NFIELDS)
    return fail(p, "%d fields; a row has %d (%s)", n, NFIELDS, TUNER_TABLE_COLUMNS);

  static const char *const names[] = {"nodes", "ranks_per_node", "min_bytes", "max_bytes", "sim_bytes"};
  static const int at[] = {0, 1, 2, 3, 7};
  const uint64_t max[] = {TUNER_MAX_NODES, TUNER_MAX_RANKS_PER_NODE, UINT64_MAX, UINT64_MAX, UINT64_MAX};
  uint64_t v[5];
  for (int i = 0; i < 5; i++) {
    if (!parse_uint(f[at[i]], max[i], &v[i]) || (i < 2 && v[i] == 0))
      return i < 2 ? fail(p, "%s '%s' is not a whole number from 1 to %llu", names[i], f[at[i]],
                          (unsigned long long)max[i])
                   : fail(p, "%s '%s' is not a whole number of bytes", names[i], f[at[i]]);
  }
  r->nodes = (uint32_t)v[0];
  r->ranks_per_node = (uint32_t)v[1];
  r->min_bytes = v[2];
  r->max_bytes = v[3];
  r->sim_bytes = v[4];
  if (!(r->min_bytes <= r->sim_bytes && r->sim_bytes <= r->max_bytes))
    return fail(p, "sim_bytes %s outside min_bytes..max_bytes %s..%s", f[7], f[2], f[3]);

  enum tuner_status st = parse_choice(p, f[4], f[5], f[6], "the chosen", &r->choice);
  if (st != TUNER_OK)
    return st;
  if (!parse_time(f[8], &r->time_us))
    return fail(p, "time_us '%s' is not a time in microseconds above 0 and up to %g", f[8], TUNER_MAX_TIME_US);
  if ((st = parse_runner_up(p, f[9], &r->runner_up)) != TUNER_OK)
    return st;

  if (r->runner_up.algo < 0) {
    if (strcmp(f[10], "-") != 0)
      return fail(p, "runner_up_time_us '%s' without a runner_up: both are '-' or neither", f[10]);
    r->runner_up_time_us = NAN;
    return TUNER_OK;
  }
  if (!parse_time(f[10], &r->runner_up_time_us))
    return fail(p, "runner_up_time_us '%s' is not a time in microseconds above 0 and up to %g", f[10],
                TUNER_MAX_TIME_US);
  if (r->runner_up.algo == r->choice.algo && r->runner_up.proto == r->choice.proto &&
      r->runner_up.channels == r->choice.channels)
    return fail(p, "the runner-up is the choice itself");
  if (r->runner_up_time_us < r->time_us)
    return fail(p, "the runner-up (%s us) is faster than the choice (%s us)", f[10], f[8]);
  return TUNER_OK;
}

static int by_shape_then_size(const void *a, const void *b)
{
  const struct tuner_row *x = &((const struct lined_row *)a)->row, *y = &((const struct lined_row *)b)->row;
  if (x->nodes != y->nodes)
    return x->nodes < y->nodes ? -1 : 1;
  if (x->ranks_per_node != y->ranks_per_node)
    return x->ranks_per_node < y->ranks_per_node ? -1 : 1;
  if (x->min_bytes != y->min_bytes)
    return x->min_bytes < y->min_bytes ? -1 : 1;
  return 0;
}

/* Sorts the rows and refuses ranges of one shape that share a size. */
static enum tuner_status sort_and_check(struct parser *p, struct lined_row *rows, size_t n)
{
  qsort(rows, n, sizeof *rows, by_shape_then_size);
  for (size_t i = 1; i < n; i++) {
    const struct tuner_row *a = &rows[i - 1].row, *b = &rows[i].row;
    if (a->nodes == b->nodes && a->ranks_per_node == b->ranks_per_node && a->max_bytes >= b->min_bytes) {
      int l1 = rows[i - 1].line, l2 = rows[i].line;
      p->line = l1 < l2 ? l1 : l2;
      return fail(p, "its byte range overlaps that of line %d (%u nodes x %u ranks)", l1 < l2 ? l2 : l1, a->nodes,
                  a->ranks_per_node);
    }
  }
  return TUNER_OK;
}

/* The next line of text from *pos (without its "\n" or "\r\n") into buf; false at the end. */
static bool next_line(const char *text, size_t len, size_t *pos, const char **line, size_t *linelen)
{
  if (*pos >= len)
    return false;
  const char *s = text + *pos, *nl = memchr(s, '\n', len - *pos);
  size_t n = nl ? (size_t)(nl - s) : len - *pos;
  *pos += n + (nl ? 1 : 0);
  if (n > 0 && s[n - 1] == '\r')
    n--;
  *line = s;
  *linelen = n;
  return true;
}

static enum tuner_status parse_lines(struct parser *p, const char *text, size_t len, struct lined_row **rows,
                                     size_t *nrows)
{
  size_t pos = 0, cap = 0, linelen;
  const char *line;
  bool have_columns = false;
  char buf[TUNER_MAX_LINE + 1];
  while (next_line(text, len, &pos, &line, &linelen)) {
    p->line++;
    if (linelen > TUNER_MAX_LINE)
      return fail(p, "line longer than %d characters", TUNER_MAX_LINE);
    memcpy(buf, line, linelen);
    buf[linelen] = '\0';
    if (p->line == 1) {
      if (strcmp(buf, TUNER_TABLE_MAGIC) == 0)
        continue;
      if (strncmp(buf, "#simallreduce-tuner ", 20) == 0)
        return fail(p, "table format '%s'; this plugin reads '" TUNER_TABLE_MAGIC "'", buf + 20);
      return fail(p, "not a simallreduce tuner table (the first line is not '" TUNER_TABLE_MAGIC "')");
    }
    if (linelen == 0 || buf[0] == '#')
      continue;
    if (!have_columns) {
      if (strcmp(buf, TUNER_TABLE_COLUMNS) != 0)
        return fail(p, "expected the column names '" TUNER_TABLE_COLUMNS "'");
      have_columns = true;
      continue;
    }
    if (*nrows == TUNER_MAX_ROWS)
      return fail(p, "more than %d rows", TUNER_MAX_ROWS);
    if (*nrows == cap) {
      cap = cap ? 2 * cap : 64;
      struct lined_row *grown = realloc(*rows, cap * sizeof **rows);
      if (!grown)
        return fail(p, "out of memory");
      *rows = grown;
    }
    (*rows)[*nrows].line = p->line;
    enum tuner_status st = parse_row(p, buf, &(*rows)[*nrows].row);
    if (st != TUNER_OK)
      return st;
    (*nrows)++;
  }
  if (p->line == 0)
    return fail(p, "empty file");
  p->line = 0;
  if (!have_columns)
    return fail(p, "no column names line ('" TUNER_TABLE_COLUMNS "')");
  if (*nrows == 0)
    return fail(p, "no rows");
  return sort_and_check(p, *rows, *nrows);
}

enum tuner_status tuner_table_parse(const char *text, size_t len, const char *name, struct tuner_table *out,
                                    char *err, size_t errlen)
{
  struct parser p = {name, 0, err, errlen};
  *out = (struct tuner_table){NULL, 0};
  if (len > TUNER_MAX_FILE_BYTES)
    return fail(&p, "%zu bytes; a table holds at most %u", len, TUNER_MAX_FILE_BYTES);
  const char *nul = memchr(text, '\0', len);
  if (nul) {
    for (const char *s = text; s <= nul; s++)
      p.line += s == text || s[-1] == '\n';
    return fail(&p, "NUL byte: not a text file");
  }

  struct lined_row *rows = NULL;
  size_t n = 0;
  enum tuner_status st = parse_lines(&p, text, len, &rows, &n);
  if (st == TUNER_OK && !(out->rows = malloc(n * sizeof *out->rows)))
    st = fail(&p, "out of memory");
  if (st == TUNER_OK) {
    for (size_t i = 0; i < n; i++)
      out->rows[i] = rows[i].row;
    out->nrows = n;
  }
  free(rows);
  return st;
}

enum tuner_status tuner_table_load(const char *path, struct tuner_table *out, char *err, size_t errlen)
{
  *out = (struct tuner_table){NULL, 0};
  /* Opened without blocking and read only when it is a regular file: this runs inside
   * NCCL's communicator setup, which a FIFO with no writer would stall for good. */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  struct stat sb;
  if (fd < 0 || fstat(fd, &sb) != 0) {
    snprintf(err, errlen, "%s: %s", path, strerror(errno));
    if (fd >= 0)
      close(fd);
    return TUNER_ERR_IO;
  }
  if (!S_ISREG(sb.st_mode)) {
    snprintf(err, errlen, "%s: not a regular file", path);
    close(fd);
    return TUNER_ERR_IO;
  }
  FILE *f = fcntl(fd, F_SETFL, 0) == 0 ? fdopen(fd, "r") : NULL;
  if (!f) {
    snprintf(err, errlen, "%s: %s", path, strerror(errno));
    close(fd);
    return TUNER_ERR_IO;
  }
  /* grown as it fills, up to one byte past the limit to tell a file that exceeds it */
  size_t cap = 1 << 16, len = 0;
  char *buf = NULL;
  enum tuner_status st = TUNER_OK;
  for (;;) {
    char *grown = realloc(buf, cap);
    if (!grown) {
      snprintf(err, errlen, "%s: out of memory", path);
      st = TUNER_ERR_IO;
      break;
    }
    buf = grown;
    len += fread(buf + len, 1, cap - len, f);
    if (ferror(f)) {
      snprintf(err, errlen, "%s: %s", path, strerror(errno));
      st = TUNER_ERR_IO;
      break;
    }
    if (len < cap || cap > TUNER_MAX_FILE_BYTES)
      break;
    cap = cap * 2 > TUNER_MAX_FILE_BYTES ? (size_t)TUNER_MAX_FILE_BYTES + 1 : cap * 2;
  }
  fclose(f);
  if (st == TUNER_OK)
    st = tuner_table_parse(buf, len, path, out, err, errlen);
  free(buf);
  return st;
}

void tuner_table_free(struct tuner_table *t)
{
  free(t->rows);
  *t = (struct tuner_table){NULL, 0};
}
