/* launch.h: runs the SMPI runner once for every requested point. */
#ifndef PLATFORM_LAUNCH_H
#define PLATFORM_LAUNCH_H

#include <stddef.h>
#include <stdio.h>

typedef struct {
  const char *platform, *hostfile, *runner, *tmpdir, *log;
  int np;
  const char *const *cfg; /* extra KEY:VALUE SimGrid settings */
  int ncfg;
  char *const *args; /* the runner's own arguments, NULL-terminated */
  const char *dir;   /* smpirun's working directory (NULL: ours); see plat_hostfile_write */
  /* called about every PLAT_LAUNCH_TICK_MS while smpirun runs, and once after it ended (NULL:
   * none): the driver follows the runner's results and its progress from there, and stops
   * the simulation by returning nonzero (util/spawn.h) */
  int (*tick)(void *arg);
  void *tick_arg;
} plat_launch;

#define PLAT_LAUNCH_TICK_MS 150

/* Runs smpirun (util/spawn.c: it and the simulation die with us) with everything it prints
 * going to l->log. Returns 0 when it exited cleanly, or SA_ENOMEM / SA_ERUN / SA_EIO with the
 * reason in err: how it ended and SimGrid's own error line when it printed one. */
int plat_launch_run(const plat_launch *l, char *err, size_t errlen);

/* SimGrid's first error line in text ("[0.000000] file.cpp:12: [cat/CRITICAL] message"), its
 * message alone into msg. Returns 1 when there is one, else 0 (msg untouched). */
int plat_simgrid_error(const char *text, char *msg, size_t len);

/* Copies the last `lines` lines of a simulator's log to out, each prefixed with "  | ":
 * those up to SimGrid's error line when there is one (what follows it is a backtrace or a
 * list of every setting), and never the frames of a backtrace. */
void plat_print_tail(const char *path, int lines, FILE *out);

#endif
