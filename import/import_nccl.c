/* import_nccl.c: nccl-tests (and rccl-tests) all_reduce_perf output. A run prints its
 * version, parameters and the device of every rank as '#' lines, then a table:
 *   size count type redop [root] time algbw busbw #wrong time algbw busbw #wrong
 * (out-of-place then in-place; where the columns are comes from the table's header line;
 * times in us, bandwidths in GB/s), then "# Avg bus bandwidth". A file may hold several runs;
 * a new one begins where a part of a run comes again (a second "# nThread" line). Lines
 * that are none of this (the launcher's, MPI's, NCCL's own, even between the rows) are
 * skipped and counted; a line inside a table that starts like a row must be one. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"
#include "import_nccl.h"

#define MAX_TOK 64

typedef struct {
  imp_nccl_state st;
  imp_io io;
  int seen;         /* a line of nccl-tests' own has been read */
  char redop[8];    /* the reduction of the run's rows so far */
  int redop_mixed;
} imp_nccl_ctx;

static void reset(imp_nccl_ctx *c)
{
  imp_nccl_state *st = &c->st;
  for (int i = 0; i < st->nranks; i++) {
    free(st->host[i]);
    free(st->gpu[i]);
  }
  st->nranks = 0;
  st->nran = 0;
  md_run_free(&st->run);
  st->stage = ST_NONE;
  st->in_table = 0;
  c->redop[0] = '\0';
  c->redop_mixed = 0;
}

/* The dtype every point of the run shares, or "" */
static void common_dtype(const md_data *d, size_t first, char *out, size_t len)
{
  snprintf(out, len, "%s", first < d->n ? d->p[first].dtype : "");
  for (size_t i = first; i < d->n; i++)
    if (strcmp(d->p[i].dtype, out) != 0)
      out[0] = '\0';
}

/* Closes the run being read (at line ln): refuses one without rows or cut short unless
 * --partial (which drops the first), else adds it to the data. */
static int end_run(imp_nccl_ctx *c, long ln)
{
  imp_nccl_state *st = &c->st;
  md_data *d = c->io.d;
  if (st->stage == ST_NONE)
    return 0;
  char why[256];
  int rc = 0;
  if (d->n == st->first_point && !c->io.o->partial) {
    snprintf(why, sizeof why, "the run that begins at line %ld has no all_reduce_perf rows: a run that failed? "
             "(--partial skips it)", st->run.line);
    rc = imp_bad(&c->io, ln, why);
  } else if (st->stage < ST_SUMMARY && !c->io.o->partial) {
    snprintf(why, sizeof why, "the run that begins at line %ld ends before its '# Avg bus bandwidth' summary: cut "
             "short? (--partial imports the rows it has)", st->run.line);
    rc = imp_bad(&c->io, ln, why);
  } else if (d->n > st->first_point) {
    md_run *r = &st->run;
    for (size_t i = st->first_point; i < d->n; i++) /* what NCCL's tuning lines say it ran */
      for (int k = 0; k < st->nran; k++)
        if (st->ran[k].bytes == d->p[i].bytes && !st->ran[k].mixed)
          snprintf(d->p[i].nccl_ran, sizeof d->p[i].nccl_ran, "%s", st->ran[k].ran);
    common_dtype(d, st->first_point, r->dtype, sizeof r->dtype);
    snprintf(r->redop, sizeof r->redop, "%s", c->redop_mixed ? "" : c->redop);
    if (imp_nccl_run_shape(r, st->host, st->gpu, st->nranks) != 0 || md_data_add_run(d, r) < 0) {
      snprintf(c->io.err, c->io.errlen, "out of memory");
      rc = SA_ENOMEM;
    }
  }
  reset(c);
  return rc;
}

/* Enters part `kind` of a run at line ln: a new run when the one being read is past it (or
 * at it, unless the part repeats, as the device lines do). */
static int begin(imp_nccl_ctx *c, imp_nccl_stage kind, int repeats, long ln)
{
  imp_nccl_state *st = &c->st;
  int rc = 0;
  c->seen = 1;
  if (st->stage != ST_NONE && (st->stage > kind || (st->stage == kind && !repeats)))
    rc = end_run(c, ln);
  if (rc == 0 && st->stage == ST_NONE) {
    st->run = md_run_blank();
    st->run.line = ln;
    snprintf(st->run.tool, sizeof st->run.tool, "nccl-tests");
    snprintf(st->run.test, sizeof st->run.test, "all_reduce_perf");
    snprintf(st->run.op, sizeof st->run.op, "allreduce");
    snprintf(st->run.nccl_version, sizeof st->run.nccl_version, "%s", st->pending_nccl);
    snprintf(st->run.nccl_algo, sizeof st->run.nccl_algo, "%s", st->pending_algo);
    snprintf(st->run.nccl_proto, sizeof st->run.nccl_proto, "%s", st->pending_proto);
    snprintf(st->run.nccl_dated, sizeof st->run.nccl_dated, "%s", st->pending_dated);
    st->pending_nccl[0] = st->pending_algo[0] = st->pending_proto[0] = st->pending_dated[0] = '\0';
    st->first_point = c->io.d->n;
  }
  if (st->stage < kind)
    st->stage = kind;
  return rc;
}

static int device_line(imp_nccl_ctx *c, char *s, long ln)
{
  imp_nccl_state *st = &c->st;
  int rank;
  char *host, *model, why[128];
  if (imp_nccl_rank_parse(s, &rank, &host, &model) != 0)
    return imp_bad(&c->io, ln, "a device line without 'Rank N ... on HOST'");
  int rc = begin(c, ST_DEVICES, 1, ln);
  if (rc != 0)
    return rc;
  if (rank != st->nranks) {
    snprintf(why, sizeof why, "rank %d where rank %d was due: device lines missing or out of order", rank,
             st->nranks);
    return imp_bad(&c->io, ln, why);
  }
  if (st->nranks == st->rank_cap) {
    int cap = st->rank_cap ? 2 * st->rank_cap : 16;
    char **h = realloc(st->host, (size_t)cap * sizeof *h), **g = h ? realloc(st->gpu, (size_t)cap * sizeof *g) : NULL;
    if (h)
      st->host = h;
    if (!g)
      return SA_ENOMEM;
    st->gpu = g;
    st->rank_cap = cap;
  }
  st->host[st->nranks] = strdup(host);
  st->gpu[st->nranks] = model ? strdup(model) : NULL;
  if (!st->host[st->nranks] || (model && !st->gpu[st->nranks])) {
    free(st->host[st->nranks]);
    free(st->gpu[st->nranks]);
    return SA_ENOMEM;
  }
  st->nranks++;
  return 0;
}

/* A '#' line (s after the '#'). */
static int comment(void *ctx, char *s, long ln)
{
  imp_nccl_ctx *c = ctx;
  imp_nccl_state *st = &c->st;
  char why[256], coll[64];
  s += strspn(s, " \t");
  if (strncmp(s, "nccl-tests version", 18) == 0) {
    int rc = begin(c, ST_VERSION, 0, ln);
    imp_nccl_tests_version(s, &st->run);
    return rc;
  }
  if (strncmp(s, "Collective test starting:", 25) == 0) {
    char *tok[2];
    int rc = begin(c, ST_COLL, 0, ln);
    if (rc != 0 || imp_split(s + 25, tok, 1) != 1)
      return rc;
    if (strcmp(imp_nccl_collective_of(tok[0], coll, sizeof coll), "allreduce") != 0) {
      snprintf(why, sizeof why, "%s: this log holds %s, not allreduce (simcalib imports all_reduce_perf)", tok[0],
               coll);
      return imp_bad(&c->io, ln, why);
    }
    snprintf(st->run.test, sizeof st->run.test, "%s", tok[0]);
    return 0;
  }
  if (strncmp(s, "nThread", 7) == 0) {
    int rc = begin(c, ST_PARAMS, 0, ln);
    imp_nccl_params_parse(s, &st->run.params);
    return rc;
  }
  if (strncmp(s, "Rank", 4) == 0 && isspace((unsigned char)s[4]))
    return device_line(c, s, ln);
  if (strncmp(s, "Out of bounds values", 20) == 0 || strncmp(s, "Avg bus bandwidth", 17) == 0) {
    if (st->stage == ST_TABLE || st->stage == ST_SUMMARY) {
      st->stage = ST_SUMMARY;
      st->in_table = 0;
    }
    return 0;
  }
  if (strncmp(s, "OSU ", 4) == 0) {
    snprintf(why, sizeof why, "OSU output ('# %.60s'): simcalib import osu reads it", s);
    return imp_bad(&c->io, ln, why);
  }
  imp_nccl_cols cols;
  if (imp_nccl_cols_parse(s, &cols) == 0) {
    int rc = begin(c, ST_TABLE, 0, ln);
    st->cols = cols;
    st->in_table = 1;
    return rc;
  }
  return 0;
}

/* One column of bytes or elements: a whole number a double holds exactly. */
static int amount(const char *tok, double *v)
{
  return imp_token_number(tok, v) == 0 && *v >= 0 && *v <= 9007199254740992.0 && *v == floor(*v) ? 0 : -1;
}

/* The reduction of a row: what refuses the rows of other collectives. */
static int reduction(imp_nccl_ctx *c, char **tok, long ln)
{
  const imp_nccl_cols *k = &c->st.cols;
  double root;
  if (k->redop >= 0 && strcmp(tok[k->redop], "none") == 0)
    return imp_bad(&c->io, ln,
                          "reduction 'none': a collective without one (all_gather_perf, broadcast_perf, "
                          "alltoall_perf, ...), not all_reduce_perf");
  if (k->root >= 0 && (imp_token_number(tok[k->root], &root) != 0 || root != -1))
    return imp_bad(&c->io, ln,
                          "a root other than -1: a rooted collective (reduce_perf, broadcast_perf, ...), not "
                          "all_reduce_perf");
  if (k->redop >= 0) {
    if (!c->redop[0])
      snprintf(c->redop, sizeof c->redop, "%s", tok[k->redop]);
    else if (strcmp(c->redop, tok[k->redop]) != 0)
      c->redop_mixed = 1;
  }
  return 0;
}

static int row(imp_nccl_ctx *c, char *s, long ln)
{
  const imp_nccl_cols *k = &c->st.cols;
  char *tok[MAX_TOK + 1], why[256], dtype[sizeof ((md_point *)0)->dtype];
  int n = imp_split(s, tok, MAX_TOK);
  double size, count, v[2][4];
  if (n != k->ncols && !(k->timestamp >= 0 && n > k->ncols && n <= MAX_TOK))
    goto malformed;
  if (amount(tok[k->size], &size) || amount(tok[k->count], &count)) {
    double big;
    if (imp_token_number(tok[k->size], &big) != 0 || !(big > 9007199254740992.0))
      goto malformed;
    snprintf(why, sizeof why, "size %s bytes: past 2^53, the largest a log's sizes can be read exactly at",
             tok[k->size]);
    return imp_bad(&c->io, ln, why);
  }
  int rc = reduction(c, tok, ln), tsize = imp_nccl_type(tok[k->type], dtype, sizeof dtype);
  if (rc != 0)
    return rc;
  if (tsize > 0 && count * tsize != size) {
    snprintf(why, sizeof why, "%.0f bytes are not %.0f elements of %s: not an all_reduce_perf row (the counts of "
             "all_gather_perf and reduce_scatter_perf are per rank)", size, count, tok[k->type]);
    return imp_bad(&c->io, ln, why);
  }
  for (int ip = 0; ip < 2; ip++) {
    const int at[4] = {k->time[ip], k->algbw[ip], k->busbw[ip], k->wrong[ip]};
    for (int j = 0; j < 4; j++) {
      if (at[j] < 0 || (j == 3 && strcmp(tok[at[j]], "N/A") == 0)) {
        v[ip][j] = -1;
        continue;
      }
      if (imp_token_number(tok[at[j]], &v[ip][j]) || v[ip][j] < 0 || (j == 0 && v[ip][j] == 0))
        goto malformed;
      if (j == 0 && v[ip][j] > IMP_TIME_MAX_US) {
        snprintf(why, sizeof why, "time %s us: more than an hour for one allreduce, not a measurement",
                 tok[at[j]]);
        return imp_bad(&c->io, ln, why);
      }
    }
    /* #wrong counts elements (printed %g, whole); old versions' "error" is a magnitude */
    if (!k->wrong_is_count)
      v[ip][3] = -1;
    else if (v[ip][3] > 1e15 || v[ip][3] != floor(v[ip][3]))
      goto malformed;
  }
  for (int ip = 0; ip < 2; ip++) {
    md_point p = md_point_blank("allreduce", c->st.run.tool);
    snprintf(p.dtype, sizeof p.dtype, "%s", dtype);
    p.bytes = size;
    p.count = count;
    p.ranks = c->st.nranks ? c->st.nranks : -1;
    p.inplace = ip;
    p.time_s = v[ip][0] * 1e-6;
    p.algbw_GBps = v[ip][1];
    p.busbw_GBps = v[ip][2];
    p.errors = (long)v[ip][3];
    p.run = (int)c->io.d->nruns; /* the index the run gets when it ends */
    if (md_data_add(c->io.d, &p) != 0) {
      snprintf(c->io.err, c->io.errlen, "out of memory");
      return SA_ENOMEM;
    }
  }
  return 0;
malformed:
  snprintf(why, sizeof why, "not an all_reduce_perf data row (the %d columns its header names: size count type "
           "redop [root] then time algbw busbw #wrong, out-of-place and in-place)", k->ncols);
  return imp_bad(&c->io, ln, why);
}

/* "NCCL version 2.26.2+cuda12.8" (or RCCL's), alone or in an INFO line */
static int version_line(imp_nccl_ctx *c, const char *s)
{
  const char *v = strstr(s, "NCCL version ");
  if (!v)
    v = strstr(s, "RCCL version ");
  if (!v)
    return 0;
  v += 13;
  char *dst = c->st.stage != ST_NONE ? c->st.run.nccl_version : c->st.pending_nccl;
  snprintf(dst, sizeof c->st.run.nccl_version, "%.*s", (int)strcspn(v, " \t"), v);
  c->seen = 1;
  return 1;
}

/* INFO lines that only some NCCL releases print, for a log that names no version: the first
 * and last release tagged with the line in NVIDIA/nccl. "Launch mode Parallel" (or Group):
 * INFO(NCCL_INIT, "Launch mode %s%s%s") in src/misc/enqueue.cu at v2.3.5-5, src/enqueue.cc
 * to v2.12.12-1, gone at v2.13.4-1 (the launch modes went with the new enqueue). */
static const struct {
  const char *text, *releases;
} dating[] = {{"NCCL INFO Launch mode ", "2.3.5 to 2.12.12"}};

static int dating_line(imp_nccl_ctx *c, const char *s)
{
  for (size_t i = 0; i < sizeof dating / sizeof dating[0]; i++)
    if (strstr(s, dating[i].text)) {
      char *dst = c->st.stage != ST_NONE ? c->st.run.nccl_dated : c->st.pending_dated;
      snprintf(dst, sizeof c->st.run.nccl_dated, "%s", dating[i].releases);
      return 1;
    }
  return 0;
}

/* "NCCL INFO NCCL_PROTO set by environment to ^LL128" (src/graph/tuning.cc at v2.26.2-1;
 * the same of NCCL_ALGO): what NCCL was left to choose among. The value is kept as printed;
 * the fit reads it as NCCL does (nccl/nccl_env.h). */
static int env_line(imp_nccl_ctx *c, const char *s)
{
  static const char *const var[] = {"NCCL_ALGO set by environment to ", "NCCL_PROTO set by environment to "};
  for (int i = 0; i < 2; i++) {
    const char *v = strstr(s, var[i]);
    if (!v)
      continue;
    int open = c->st.stage != ST_NONE;
    char *dst = i == 0 ? (open ? c->st.run.nccl_algo : c->st.pending_algo)
                       : (open ? c->st.run.nccl_proto : c->st.pending_proto);
    v += strlen(var[i]);
    snprintf(dst, sizeof c->st.run.nccl_algo, "%.*s", (int)strcspn(v, " \t\r\n"), v);
    return 1;
  }
  return 0;
}

/* A line that is not a comment. */
static int text(void *ctx, char *s, long ln)
{
  imp_nccl_ctx *c = ctx;
  imp_nccl_state *st = &c->st;
  if (version_line(c, s) || env_line(c, s) || dating_line(c, s))
    return 0;
  int tuning = imp_nccl_ran_line(st, s);
  if (tuning < 0) {
    snprintf(c->io.err, c->io.errlen, "out of memory");
    return SA_ENOMEM;
  }
  if (tuning)
    return 0;
  if (strncmp(s, "rccl-tests:", 11) == 0) { /* "rccl-tests: Version develop:3f7f785" */
    int rc = st->stage == ST_NONE ? begin(c, ST_VERSION, 0, ln) : 0;
    char *tok[4];
    snprintf(st->run.tool, sizeof st->run.tool, "rccl-tests");
    if (imp_split(s, tok, 3) == 3 && strcmp(tok[1], "Version") == 0)
      snprintf(st->run.tool_version, sizeof st->run.tool_version, "%s", tok[2]);
    c->seen = 1;
    return rc;
  }
  if (st->in_table && imp_row_like(s) && !strstr(s, "NCCL INFO") && !strstr(s, "NCCL WARN"))
    return row(c, s, ln);
  imp_report_skip(c->io.rep, ln, st->in_table);
  return 0;
}

int imp_nccl(FILE *f, const char *name, const imp_opts *o, md_data *d, imp_report *rep,
                    char *err, size_t errlen)
{
  imp_nccl_ctx c = {.io = {d, o, rep, name, err, errlen}};
  c.st.run = md_run_blank();
  const imp_line_handlers h = {"nccl-tests", &c.seen, comment, text};
  size_t first = d->n, first_run = d->nruns;
  int rc = imp_read_lines(f, name, &h, &c, rep, err, errlen);
  if (rc == 0)
    rc = end_run(&c, rep->lines);
  if (rc == 0 && d->nruns == first_run) {
    snprintf(err, errlen, "%s: no all_reduce_perf table (a '# size count type ...' header and data rows) in %ld "
             "lines", name, rep->lines);
    rc = SA_EPARSE;
  }
  reset(&c);
  free(c.st.host);
  free(c.st.gpu);
  free(c.st.ran);
  if ((rc = imp_end(d, first, first_run, rc, err, errlen)) == 0)
    snprintf(d->source, sizeof d->source, "%s", d->runs[first_run].tool);
  return rc;
}
