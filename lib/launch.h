/* launch.h: runs the SMPI runner once for every requested point. */
#ifndef SIM_LAUNCH_H
#define SIM_LAUNCH_H

#include <stddef.h>
#include <stdio.h>

typedef struct {
  const char *platform, *hostfile, *runner, *tmpdir, *log;
  int np;
  const char *const *cfg; /* extra KEY:VALUE SimGrid settings */
  int ncfg;
  char *const *args; /* the runner's own arguments, NULL-terminated */
  /* called about every SIM_LAUNCH_TICK_MS while smpirun runs, and once after it ended (NULL:
   * none): the driver follows the runner's results and its progress from there */
  void (*tick)(void *arg);
  void *tick_arg;
} sim_launch;

#define SIM_LAUNCH_TICK_MS 150

/* Runs smpirun with everything it prints going to l->log. Returns 0 when it exited
 * cleanly, SA_ENOMEM or SA_ERUN with the reason in err otherwise. */
int sim_launch_run(const sim_launch *l, char *err, size_t errlen);

/* Copies the last `lines` lines of a file to out, each prefixed with "  | ". */
void sim_print_tail(const char *path, int lines, FILE *out);

#endif
