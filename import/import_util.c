/* import_util.c: reading logs within bounds, telling their lines apart, tokenising them. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"
#include "import.h"

int imp_lines_open(imp_lines *r, FILE *f, const char *name)
{
  memset(r, 0, sizeof *r);
  r->f = f;
  r->name = name;
  r->buf = malloc(IMP_LINE_MAX + 1);
  return r->buf ? 0 : SA_ENOMEM;
}

void imp_lines_close(imp_lines *r)
{
  free(r->buf);
  r->buf = NULL;
}

int imp_lines_next(imp_lines *r, char *err, size_t errlen)
{
  size_t n = 0;
  int c;
  while ((c = getc_unlocked(r->f)) != EOF && c != '\n') {
    if (c == '\0') {
      snprintf(err, errlen, "%s:%ld: a NUL byte: binary data, not a text log", r->name, r->line + 1);
      return SA_EPARSE;
    }
    if (n == IMP_LINE_MAX) {
      snprintf(err, errlen, "%s:%ld: a line longer than %d KiB: not a benchmark log", r->name, r->line + 1,
               IMP_LINE_MAX / 1024);
      return SA_EPARSE;
    }
    r->buf[n++] = (char)c;
  }
  if (ferror(r->f)) {
    snprintf(err, errlen, "cannot read %s", r->name);
    return SA_EIO;
  }
  if (c == EOF && n == 0)
    return 0;
  r->bytes += (long)n + 1;
  if (r->bytes > IMP_BYTES_MAX) {
    snprintf(err, errlen, "%s: more than %ld MiB: not a benchmark log", r->name, IMP_BYTES_MAX >> 20);
    return SA_EPARSE;
  }
  if (n > 0 && r->buf[n - 1] == '\r')
    n--;
  r->buf[n] = '\0';
  r->line++;
  return 1;
}

int imp_bad(const imp_io *io, long line, const char *why)
{
  snprintf(io->err, io->errlen, "%s:%ld: %s", io->name, line, why);
  return SA_EPARSE;
}

int imp_read_lines(FILE *f, const char *name, const imp_line_handlers *h, void *ctx, imp_report *rep,
                     char *err, size_t errlen)
{
  memset(rep, 0, sizeof *rep);
  err[0] = '\0';
  imp_lines in;
  int rc = imp_lines_open(&in, f, name);
  while (rc == 0 && (rc = imp_lines_next(&in, err, errlen)) == 1) {
    char *s = imp_log_text(in.buf);
    if (!*h->seen && in.line > IMP_PREAMBLE_MAX) {
      snprintf(err, errlen, "%s: no %s output in its first %d lines", name, h->tool, IMP_PREAMBLE_MAX);
      rc = SA_EPARSE;
    } else
      rc = !s[0] ? 0 : s[0] == '#' ? h->comment(ctx, s + 1, in.line) : h->text(ctx, s, in.line);
  }
  rep->lines = in.line;
  imp_lines_close(&in);
  return rc;
}

char *imp_log_text(char *line)
{
  char *s = line + strspn(line, " \t");
  while (*s == '>')
    s += 1 + strspn(s + 1, " \t");
  return s;
}

int imp_end(md_data *d, size_t first, size_t first_run, int rc, char *err, size_t errlen)
{
  if (rc == 0)
    return 0;
  if (rc == SA_ENOMEM)
    snprintf(err, errlen, "out of memory");
  d->n = first;
  for (size_t r = first_run; r < d->nruns; r++)
    md_run_free(&d->runs[r]);
  d->nruns = first_run;
  return rc;
}

void imp_report_skip(imp_report *rep, long line, int inside_table)
{
  rep->skipped++;
  if (inside_table && rep->skipped_inside++ == 0)
    rep->first_inside = line;
}

/* ---- launcher lines ---- */

static const char *basename_of(const char *tok)
{
  const char *b = strrchr(tok, '/');
  return b ? b + 1 : tok;
}

/* The value of option tok ("-np 16", "--ntasks=16"), advancing *i past it; NULL when tok
 * is not one of names. */
static const char *option_value(char **tok, int n, int *i, const char *const *names)
{
  for (; *names; names++) {
    size_t len = strlen(*names);
    if (strcmp(tok[*i], *names) == 0 && *i + 1 < n)
      return tok[++*i];
    if (strncmp(tok[*i], *names, len) == 0 && tok[*i][len] == '=')
      return tok[*i] + len + 1;
  }
  return NULL;
}

static int positive(const char *s)
{
  char *end;
  long v = s ? strtol(s, &end, 10) : 0;
  return s && end != s && !*end && v > 0 && v < (1L << 24) ? (int)v : -1;
}

int imp_launch_line(char *line, imp_launch *l)
{
  enum { MAX = 64 };
  char *tok[MAX + 1];
  int n = imp_split(line, tok, MAX), at = -1, slurm = 0;
  if (n > MAX)
    n = MAX;
  static const char *const launchers[] = {"mpirun", "mpiexec", "mpiexec.hydra", "orterun", "srun"};
  for (int i = 0; i < n && at < 0; i++)
    for (size_t k = 0; k < sizeof launchers / sizeof launchers[0]; k++)
      if (strcmp(basename_of(tok[i]), launchers[k]) == 0) {
        at = i;
        slurm = k == 4;
      }
  if (at < 0)
    return 0;
  static const char *const ranks[] = {"-np", "--np", "-n", "--n", "--ntasks", NULL};
  static const char *const per_node[] = {"-npernode", "--npernode", "-ppn", "--ppn", "--ntasks-per-node", NULL};
  static const char *const mpi_per_node[] = {"-N", NULL}, *const slurm_nodes[] = {"-N", "--nodes", NULL};
  l->ranks = l->per_node = l->nodes = -1;
  for (int i = at + 1; i < n; i++) {
    const char *b = basename_of(tok[i]), *v;
    if (strncmp(b, "osu_", 4) == 0 || (strlen(b) > 5 && strcmp(b + strlen(b) - 5, "_perf") == 0))
      break; /* the benchmark: what follows are its own options */
    if ((v = option_value(tok, n, &i, ranks)))
      l->ranks = positive(v);
    else if ((v = option_value(tok, n, &i, per_node)) || (!slurm && (v = option_value(tok, n, &i, mpi_per_node))))
      l->per_node = positive(v);
    else if (slurm && (v = option_value(tok, n, &i, slurm_nodes)))
      l->nodes = positive(v);
    else if (strcmp(tok[i], "--map-by") == 0 && i + 1 < n && strncmp(tok[i + 1], "ppr:", 4) == 0) {
      char *count = tok[++i] + 4, *unit = strchr(count, ':'); /* ppr:N:node (not :socket) */
      if (unit && strcmp(unit, ":node") == 0) {
        *unit = '\0';
        l->per_node = positive(count);
      }
    }
  }
  return 1;
}

/* ---- tokens ---- */

int imp_split(char *line, char **tok, int max)
{
  int n = 0;
  char *p = line;
  while (*p) {
    while (*p && isspace((unsigned char)*p))
      *p++ = '\0';
    if (!*p)
      break;
    if (n == max)
      return max + 1; /* more tokens than any row has */
    tok[n++] = p;
    while (*p && !isspace((unsigned char)*p))
      p++;
  }
  return n;
}

int imp_row_like(const char *line)
{
  char first[64];
  double v;
  size_t n = strcspn(line, " \t");
  if (n == 0 || n >= sizeof first)
    return 0;
  memcpy(first, line, n);
  first[n] = '\0';
  return imp_token_number(first, &v) == 0;
}

int imp_token_number(const char *tok, double *v)
{
  char *end;
  double x = strtod(tok, &end);
  if (end == tok || *end || !isfinite(x))
    return SA_EPARSE;
  *v = x;
  return 0;
}
