/* import.h: other tools' logs into the measured-data schema: nccl-tests all_reduce_perf and
 * the OSU micro-benchmarks osu_latency, osu_bw and osu_allreduce. */
#ifndef CAL_IMPORT_H
#define CAL_IMPORT_H

#include <stdio.h>

#include "measured.h"

typedef struct {
  const char *path; /* osu_latency/osu_bw: path class of the pair measured (intra or inter) */
  int ranks;        /* osu_allreduce: ranks of the run (its log does not say); 0 unknown */
  int partial;      /* nccl-tests: accept a log that stops before its closing summary */
} cal_import_opts;

/* Each returns 0 with every data row appended to d, or SA_EPARSE with err naming the file
 * and line ("LOG:12: ...") of the first line that is neither a comment nor a data row, or
 * saying the log holds no data (or, for nccl-tests, stops before its "# Avg bus bandwidth"
 * summary: a run cut short). name is used in messages. */
int cal_import_nccl(FILE *f, const char *name, const cal_import_opts *o, cal_data *d, char *err, size_t errlen);
int cal_import_osu(FILE *f, const char *name, const cal_import_opts *o, cal_data *d, char *err, size_t errlen);

/* Splits line into at most max whitespace-separated tokens (in place); returns the count. */
int cal_split(char *line, char **tok, int max);

/* A whole-token number; 0 or -1. */
int cal_token_number(const char *tok, double *v);

#endif
