/* spawn.h: running another program (mpirun, smpirun, the CUDA kernels binary) and waiting. */
#ifndef CAL_SPAWN_H
#define CAL_SPAWN_H

#include <stddef.h>

/* Runs argv (argv[0] looked up in PATH) with stdout and stderr sent to log (NULL: inherited)
 * under lib/spawn.c's supervisor (it and what it starts die with us) and returns 0 when it
 * exits with status 0. Otherwise returns SA_ERUN with err saying how it ended (not found,
 * exit status, signal), or SA_EIO when the log cannot be written. */
int cal_spawn(char *const argv[], const char *log, char *err, size_t errlen);

/* Runs argv and returns its stdout and stderr as one malloc'd string (NULL on failure). */
char *cal_spawn_capture(char *const argv[]);

/* A growing NULL-terminated argument vector; every string is copied. */
typedef struct {
  char **v;
  size_t n, cap;
  int oom;
} cal_argv;

void cal_argv_add(cal_argv *a, const char *s);
void cal_argv_addf(cal_argv *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cal_argv_free(cal_argv *a);

#endif
