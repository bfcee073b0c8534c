/* import.h: other tools' logs into the measured-data schema: nccl-tests all_reduce_perf (and
 * rccl-tests') and the OSU micro-benchmarks osu_latency, osu_bw and osu_allreduce, as real
 * runs print them: with the launcher's, MPI's and NCCL's own lines around and inside the
 * table, several runs in one file. */
#ifndef IMPORT_IMPORT_H
#define IMPORT_IMPORT_H

#include <stdio.h>

#include "measured/measured.h"

/* Input bounds: a log is text, its lines short; a longer line, a NUL byte or more bytes in
 * all is refused at once, so that /dev/zero or a binary costs neither time nor memory. */
#define IMP_LINE_MAX (64 * 1024)
#define IMP_BYTES_MAX (64L * 1024 * 1024)
/* The longest one allreduce of a log may take, us: an hour (16 GiB at 5 MB/s), past which a
 * time is a typo or a corrupt line, never a measurement to fit. */
#define IMP_TIME_MAX_US 3.6e9
/* Lines read before the first one of the tool's own before giving up on a file as not its
 * output (a job script's preamble is tens of lines; NCCL's INFO lines come after). */
#define IMP_PREAMBLE_MAX 10000

typedef struct {
  const char *path; /* osu_latency/osu_bw: path class of the pair measured (intra or inter) */
  int ranks;        /* osu_allreduce: ranks of the run where its log does not say; 0 unknown */
  int nodes;        /* osu_allreduce: nodes it ran on where its log does not say; 0 unknown */
  int partial;      /* accept a run that stops before its closing summary, drop one without rows */
} imp_opts;

/* What an import passed over. */
typedef struct {
  long lines;           /* lines read */
  long skipped;         /* lines that are not part of a table (launcher, MPI, NCCL output) */
  long skipped_inside;  /* of those, lines between a table's rows */
  long first_inside;    /* line number of the first of them; 0 none */
} imp_report;

/* Each returns 0 with every data row appended to d as points and every run in the log as a
 * run of d (md_run; each point names its own), rep saying what was skipped; or SA_EPARSE
 * with err naming the file and line ("LOG:12: ...") of a malformed row or what makes the
 * log one these do not read (another collective, another tool, a binary, a run cut short),
 * or saying the log holds no data; SA_EIO when it cannot be read. name is used in
 * messages. */
int imp_nccl(FILE *f, const char *name, const imp_opts *o, md_data *d, imp_report *rep,
                    char *err, size_t errlen);
int imp_osu(FILE *f, const char *name, const imp_opts *o, md_data *d, imp_report *rep,
                   char *err, size_t errlen);

/* ---- shared by the importers (import_util.c) ---- */

/* Reads a log line by line within the bounds above. */
typedef struct {
  FILE *f;
  const char *name;
  char *buf; /* the current line, without its line end */
  long line, bytes;
} imp_lines;

/* 0 or SA_ENOMEM. */
int imp_lines_open(imp_lines *r, FILE *f, const char *name);
/* 1 with the next line in r->buf, 0 at the end, or SA_EPARSE (a bound crossed) / SA_EIO
 * with err saying which. */
int imp_lines_next(imp_lines *r, char *err, size_t errlen);
void imp_lines_close(imp_lines *r);

/* The text of a line as its tool printed it: leading blanks and markdown quoting ("> ")
 * removed. */
char *imp_log_text(char *line);

/* What an importer reads into and reports through. */
typedef struct {
  md_data *d;
  const imp_opts *o;
  imp_report *rep;
  const char *name; /* of the log, in messages */
  char *err;
  size_t errlen;
} imp_io;

/* Says "NAME:line: why" in io's err; returns SA_EPARSE. */
int imp_bad(const imp_io *io, long line, const char *why);

/* How an importer reads its lines: each line as its tool printed it (imp_log_text), blank
 * ones passed over, goes to comment (a '#' line, given after its '#') or text (any other);
 * a non-zero return stops the reading. */
typedef struct {
  const char *tool; /* for "LOG: no <tool> output in its first 10000 lines" */
  const int *seen;  /* set by the handlers at the first line of the tool's own */
  int (*comment)(void *ctx, char *s, long line);
  int (*text)(void *ctx, char *s, long line);
} imp_line_handlers;

/* Reads f (called name) line by line within the bounds above through h, rep counting the
 * lines. Returns 0 at its end, or what stopped it with err saying why. */
int imp_read_lines(FILE *f, const char *name, const imp_line_handlers *h, void *ctx, imp_report *rep,
                     char *err, size_t errlen);

/* What an importer returns: rc, with d as it was before (points from first on and runs from
 * first_run on dropped) unless rc is 0; err says "out of memory" for SA_ENOMEM. */
int imp_end(md_data *d, size_t first, size_t first_run, int rc, char *err, size_t errlen);

/* Counts a line that is not part of a table in rep. */
void imp_report_skip(imp_report *rep, long line, int inside_table);

/* What a launcher line (mpirun/mpiexec/srun) says of the job: -1 where it does not. */
typedef struct {
  int ranks, per_node, nodes;
} imp_launch;
/* 1 when line runs a launcher (its options read into l), 0 otherwise. Modifies line. */
int imp_launch_line(char *line, imp_launch *l);

/* Whether line starts like a table row: its first token is a number (so "3767c65d25c4:880:
 * 880 [0] NCCL INFO ..." is not one, though its host name starts with a digit). */
int imp_row_like(const char *line);

/* Splits line into at most max whitespace-separated tokens (in place); returns the count. */
int imp_split(char *line, char **tok, int max);

/* A whole-token number; 0 or -1. */
int imp_token_number(const char *tok, double *v);

#endif
