/* import_osu.c: OSU micro-benchmark output. A "# OSU MPI ... Test vX.Y" banner begins each
 * test (a file may hold several, one after another); rows are "size value [min max
 * iterations] [Pass|Fail]" as its "# Size" header says, with latencies in us and bandwidth
 * in MB/s (1e6 bytes), osu_latency's being one-way (half a round trip, as simcalib's
 * ping-pong). From 7.x on a "# Datatype: MPI_INT." line names the reduced type (and begins
 * a new table when -T runs several). OSU never prints how many processes ran: a launcher
 * line in the log (mpirun -np N) says it, else --ranks. Other lines are skipped and
 * counted. */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"
#include "import.h"

#define MAX_TOK 16

typedef enum { OSU_NONE, OSU_LATENCY, OSU_BW, OSU_ALLREDUCE } osu_test;

static const char *const test_names[] = {"", "osu_latency", "osu_bw", "osu_allreduce"};
static const char *const test_ops[] = {"", "pingpong", "stream", "allreduce"};

typedef struct {
  imp_io io;
  osu_test t;         /* the test being read; OSU_NONE before the first banner */
  md_run run;        /* and its run */
  size_t first_point;
  int type_size;      /* of its datatype, bytes */
  int full, checked;  /* its header's columns: min, max, iterations (-f); validation (-c) */
  int header;         /* a "# Size" header was read */
  imp_launch launch;  /* the last launcher line's job, for the next test; ranks -1 none */
  long launch_line;
  int seen;
} osu_ctx;

static osu_test test_of(const char *banner)
{
  if (strstr(banner, "Allreduce Latency Test"))
    return OSU_ALLREDUCE;
  if (strstr(banner, "Bi-Directional") || strstr(banner, "Multiple") || strstr(banner, "Multi-threaded"))
    return OSU_NONE;
  if (strstr(banner, "MPI Bandwidth Test") || strstr(banner, "MPI-CUDA Bandwidth Test") ||
      strstr(banner, "MPI-ROCM Bandwidth Test"))
    return OSU_BW;
  if (strstr(banner, "MPI Latency Test") || strstr(banner, "MPI-CUDA Latency Test") ||
      strstr(banner, "MPI-ROCM Latency Test"))
    return OSU_LATENCY;
  return OSU_NONE;
}

/* MPI's name of the datatype (OSU's -T: MPI_CHAR, MPI_INT, MPI_FLOAT): this project's
 * name and size, 0 when unknown. */
static int mpi_type(const char *mpi, char *out, size_t len)
{
  static const struct {
    const char *mpi, *ours;
    int size;
  } types[] = {{"MPI_CHAR", "int8", 1}, {"MPI_INT", "int32", 4}, {"MPI_FLOAT", "fp32", 4}, {"MPI_DOUBLE", "fp64", 8}};
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
    if (strcmp(mpi, types[i].mpi) == 0) {
      snprintf(out, len, "%s", types[i].ours);
      return types[i].size;
    }
  return 0;
}

/* Ends the test being read: its run joins the data when it has rows. */
static int end_test(osu_ctx *c)
{
  int rc = 0;
  if (c->t != OSU_NONE && c->io.d->n > c->first_point && md_data_add_run(c->io.d, &c->run) < 0) {
    snprintf(c->io.err, c->io.errlen, "out of memory");
    rc = SA_ENOMEM;
  }
  md_run_free(&c->run);
  c->t = OSU_NONE;
  return rc;
}

/* The shape of an osu_allreduce run: the log's launcher line, else --ranks and --nodes. */
static int allreduce_shape(osu_ctx *c, long ln)
{
  md_run *r = &c->run;
  const imp_launch *l = &c->launch;
  char why[192];
  if (l->ranks > 0 && c->io.o->ranks > 0 && l->ranks != c->io.o->ranks) {
    snprintf(why, sizeof why, "--ranks %d, but the launcher at line %ld starts %d", c->io.o->ranks, c->launch_line,
             l->ranks);
    return imp_bad(&c->io, ln, why);
  }
  r->ranks = l->ranks > 0 ? l->ranks : c->io.o->ranks > 0 ? c->io.o->ranks : -1;
  if (l->nodes > 0)
    r->nodes = l->nodes;
  else if (l->per_node > 0 && r->ranks > 0 && r->ranks % l->per_node == 0)
    r->nodes = r->ranks / l->per_node;
  else if (c->io.o->nodes > 0)
    r->nodes = c->io.o->nodes;
  if (r->ranks > 0 && r->nodes > 0 && r->ranks % r->nodes == 0)
    r->gpus_per_node = r->ranks / r->nodes;
  return 0;
}

/* A banner at line ln: a new test. */
static int banner(osu_ctx *c, char *s, long ln)
{
  char why[192];
  int rc = end_test(c);
  if (rc != 0)
    return rc;
  c->t = test_of(s);
  if (c->t == OSU_NONE) {
    snprintf(why, sizeof why, "'# %.80s': simcalib imports osu_latency, osu_bw and osu_allreduce", s);
    return imp_bad(&c->io, ln, why);
  }
  md_run *r = &c->run;
  *r = md_run_blank();
  r->line = ln;
  snprintf(r->tool, sizeof r->tool, "osu");
  snprintf(r->test, sizeof r->test, "%s", test_names[c->t]);
  snprintf(r->op, sizeof r->op, "%s", test_ops[c->t]);
  const char *v = strstr(s, " v");
  if (v && isdigit((unsigned char)v[2]))
    snprintf(r->tool_version, sizeof r->tool_version, "%.*s", (int)strcspn(v + 2, " \t"), v + 2);
  c->first_point = c->io.d->n;
  c->header = c->full = c->checked = 0;
  c->seen = 1;
  if (c->t != OSU_ALLREDUCE) { /* a pair of processes, on one node or two */
    r->ranks = 2;
    r->nodes = strcmp(c->io.o->path, "intra") == 0 ? 1 : 2;
    r->gpus_per_node = 2 / r->nodes;
    return 0;
  }
  /* osu_allreduce reduced MPI_FLOAT until -T came (OMB 5.x osu_allreduce.c calls
   * MPI_Allreduce(..., MPI_FLOAT, MPI_SUM, ...)); a later log names its type */
  snprintf(r->dtype, sizeof r->dtype, "fp32");
  r->dtype_assumed = 1;
  c->type_size = 4;
  snprintf(r->redop, sizeof r->redop, "sum");
  return allreduce_shape(c, ln);
}

/* "Datatype: MPI_INT." at line ln: the type of the test's rows from here on. */
static int datatype(osu_ctx *c, char *s, long ln)
{
  char name[32], ours[8], why[128];
  snprintf(name, sizeof name, "%.*s", (int)strcspn(s, ". \t"), s);
  int size = mpi_type(name, ours, sizeof ours);
  if (c->t == OSU_NONE)
    return 0;
  if (size == 0) {
    snprintf(why, sizeof why, "datatype %s: simcalib knows MPI_CHAR, MPI_INT, MPI_FLOAT and MPI_DOUBLE", name);
    return imp_bad(&c->io, ln, why);
  }
  if (c->io.d->n > c->first_point) { /* -T all: the next type's table, a run of its own */
    md_run next = c->run; /* (a copy: an OSU run owns no lists) */
    osu_test t = c->t;
    int rc = end_test(c);
    if (rc != 0)
      return rc;
    c->run = next;
    c->run.line = ln;
    c->t = t;
    c->first_point = c->io.d->n;
  }
  snprintf(c->run.dtype, sizeof c->run.dtype, "%s", ours);
  c->run.dtype_assumed = 0;
  c->type_size = size;
  return 0;
}

static int comment(void *ctx, char *s, long ln)
{
  osu_ctx *c = ctx;
  s += strspn(s, " \t");
  if (strncmp(s, "OSU ", 4) == 0)
    return banner(c, s, ln);
  if (strncmp(s, "Datatype:", 9) == 0)
    return datatype(c, s + 9 + strspn(s + 9, " \t"), ln);
  if (strncmp(s, "Size", 4) == 0 && c->t != OSU_NONE) {
    c->header = 1;
    c->full = strstr(s, "Min Latency") != NULL;
    c->checked = strstr(s, "Validation") != NULL;
  }
  if (strncmp(s, "nThread", 7) == 0 || strncmp(s, "nccl-tests version", 18) == 0 ||
      strncmp(s, "Collective test starting", 24) == 0)
    return imp_bad(&c->io, ln, "nccl-tests output: simcalib import nccl-tests reads it");
  return 0;
}

static int row(osu_ctx *c, char **tok, int n, long ln)
{
  char why[160];
  double size, v, mn = -1, mx = -1, it = -1;
  /* the columns its header names; a header-less log: size and value (osu_allreduce -f: 5) */
  int full = c->header ? c->full : c->t == OSU_ALLREDUCE && n == 5, want = 2 + 3 * full + (c->header && c->checked);
  if (n != want || imp_token_number(tok[0], &size) || imp_token_number(tok[1], &v) || size < 0 || v <= 0)
    goto malformed;
  if (full && (imp_token_number(tok[2], &mn) || imp_token_number(tok[3], &mx) || imp_token_number(tok[4], &it) ||
               mn < 0 || mx < 0 || it < 0 || it > INT_MAX))
    goto malformed;
  if (c->header && c->checked && strcmp(tok[n - 1], "Pass") != 0)
    return imp_bad(&c->io, ln, strcmp(tok[n - 1], "Fail") == 0 ? "OSU's validation failed at this size"
                                                                      : "a validation column that is not Pass or Fail");
  md_point p = md_point_blank(test_ops[c->t], test_names[c->t]);
  p.bytes = size;
  p.ranks = c->run.ranks;
  p.run = (int)c->io.d->nruns; /* the index the run gets when the test ends */
  if (c->t == OSU_BW) {
    if (size == 0)
      return 0;
    p.time_s = size / (v * 1e6);
  } else {
    p.time_s = v * 1e-6;
    p.min_s = mn >= 0 ? mn * 1e-6 : -1;
    p.max_s = mx >= 0 ? mx * 1e-6 : -1;
    p.reps = it >= 0 ? (int)it : -1;
  }
  if (p.time_s * 1e6 > IMP_TIME_MAX_US || mx > IMP_TIME_MAX_US)
    return imp_bad(&c->io, ln, "a time of more than an hour for one operation, not a measurement");
  if (c->t == OSU_ALLREDUCE) {
    snprintf(p.dtype, sizeof p.dtype, "%s", c->run.dtype);
    p.count = size / c->type_size;
  } else
    snprintf(p.path, sizeof p.path, "%s", c->io.o->path);
  if (p.time_s > 0)
    md_point_bandwidths(&p);
  if (md_data_add(c->io.d, &p) != 0) {
    snprintf(c->io.err, c->io.errlen, "out of memory");
    return SA_ENOMEM;
  }
  return 0;
malformed:
  snprintf(why, sizeof why, "not a %s data row (size and a positive %s%s)", test_names[c->t],
           c->t == OSU_BW ? "bandwidth in MB/s" : "latency in us", full ? ", min, max, iterations" : "");
  return imp_bad(&c->io, ln, why);
}

/* A line that is not a comment: a row, a launcher line, or something else skipped. */
static int text(void *ctx, char *s, long ln)
{
  osu_ctx *c = ctx;
  char copy[1024], *tok[MAX_TOK + 1];
  snprintf(copy, sizeof copy, "%s", s);
  imp_launch l;
  if (!imp_row_like(s)) {
    if (imp_launch_line(copy, &l)) {
      c->launch = l;
      c->launch_line = ln;
    }
    imp_report_skip(c->io.rep, ln, c->t != OSU_NONE);
    return 0;
  }
  int n = imp_split(s, tok, MAX_TOK), numeric = n <= MAX_TOK;
  for (int i = 0; i < n && i < MAX_TOK && numeric; i++)
    numeric = isdigit((unsigned char)tok[i][0]) || tok[i][0] == '.';
  if (c->t != OSU_NONE)
    return row(c, tok, n, ln);
  if (numeric)
    return imp_bad(&c->io, ln,
                          "data before an OSU banner ('# OSU MPI Latency Test', 'Bandwidth Test' or 'Allreduce "
                          "Latency Test')");
  imp_report_skip(c->io.rep, ln, 0);
  return 0;
}

int imp_osu(FILE *f, const char *name, const imp_opts *o, md_data *d, imp_report *rep,
                   char *err, size_t errlen)
{
  osu_ctx c = {.io = {d, o, rep, name, err, errlen}, .t = OSU_NONE};
  c.run = md_run_blank();
  c.launch.ranks = c.launch.per_node = c.launch.nodes = -1;
  const imp_line_handlers h = {"OSU", &c.seen, comment, text};
  size_t first = d->n, first_run = d->nruns;
  int rc = imp_read_lines(f, name, &h, &c, rep, err, errlen), end = end_test(&c);
  if (rc == 0)
    rc = end;
  if (rc == 0 && d->n == first) {
    snprintf(err, errlen, "%s: no osu_latency, osu_bw or osu_allreduce data in %ld lines", name, rep->lines);
    rc = SA_EPARSE;
  }
  if ((rc = imp_end(d, first, first_run, rc, err, errlen)) != 0)
    return rc;
  /* the test's name, or "osu" for a file of several */
  snprintf(d->source, sizeof d->source, "%s", d->runs[first_run].test);
  for (size_t r = first_run + 1; r < d->nruns; r++)
    if (strcmp(d->runs[r].test, d->source) != 0)
      snprintf(d->source, sizeof d->source, "osu");
  return 0;
}
