/* run.h: running another program (mpirun, smpirun, the CUDA kernels binary) and waiting. */
#ifndef UTIL_RUN_H
#define UTIL_RUN_H

#include <stddef.h>

/* Runs argv (argv[0] looked up in PATH) with stdout and stderr sent to log (NULL: inherited)
 * under util/spawn.c's supervisor (it and what it starts die with us) and returns 0 when it
 * exits with status 0. Otherwise returns SA_ERUN with err saying how it ended (not found,
 * exit status, signal), or SA_EIO when the log cannot be written. */
int util_run(char *const argv[], const char *log, char *err, size_t errlen);

/* Runs argv and returns its stdout and stderr as one malloc'd string (NULL on failure). */
char *util_run_capture(char *const argv[]);

/* A growing NULL-terminated argument vector; every string is copied. */
typedef struct {
  char **v;
  size_t n, cap;
  int oom;
} util_argv;

void util_argv_add(util_argv *a, const char *s);
void util_argv_addf(util_argv *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void util_argv_free(util_argv *a);

#endif
