/* spawn.h: starting another program (smpirun, mpirun, the CUDA kernels binary) so that
 * nothing it starts can outlive us. */
#ifndef UTIL_SPAWN_H
#define UTIL_SPAWN_H

#include <stddef.h>

typedef struct {
  const char *log;    /* its stdout and stderr go to this file, created (NULL: ours) */
  const char *dir;    /* its working directory (NULL: ours) */
  const char *tmpdir; /* its $TMPDIR (NULL: ours) */
  const char *preload; /* a library for its $LD_PRELOAD when that is unset (NULL: none) */
  const char *env_name, *env_value; /* one more variable of its environment (NULL: none) */
  /* called every tick_ms while it runs and once after it ended (NULL: none): a caller
   * following what the program writes does it from there, and stops the program by
   * returning nonzero (its supervisor is sent SIGTERM, which ends it and all it started) */
  int (*tick)(void *arg);
  void *tick_arg;
  int tick_ms;
} util_spawn_opts;

/* Runs argv (argv[0] looked up in PATH, stdin from /dev/null) and waits for it. It runs in a
 * process group of its own under a small supervisor process, which kills that whole group
 * (grandchildren included) when we die, even by SIGKILL, or when a signal stops us
 * (util/tmpdir.c), and after the program ends. Returns 0 with *status its wait status, or
 * SA_EIO (the log cannot be created) / SA_ERUN (no process) with err filled. */
int util_spawn(char *const argv[], const util_spawn_opts *o, int *status, char *err, size_t errlen);

/* A wait status of util_spawn in words, "NAME failed (exit status 3)" and the like. Returns 0
 * for a clean exit, else SA_ERUN. */
int util_spawn_outcome(const char *name, int status, char *err, size_t errlen);

#endif
