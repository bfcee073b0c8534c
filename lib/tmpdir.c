/* tmpdir.c: the run's private temporary directory. Hostfile, result, log and smpirun's own
 * files all go there, so two runs never collide and nothing is left behind, even when the
 * run is interrupted. */
#define _XOPEN_SOURCE 700
#include "tmpdir.h"

#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[4096];
static volatile pid_t watched; /* the simulation's process group, or 0 */

void sim_tmpdir_watch(pid_t group) { watched = group; }

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
  (void)st;
  (void)flag;
  (void)ftw;
  remove(path);
  return 0;
}

void sim_tmpdir_remove(void)
{
  if (dir[0])
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  dir[0] = '\0';
}

/* The simulation runs in a process group of its own (launch.c), so a Ctrl-C at the terminal
 * reaches the driver alone: stop the simulation, wait for it, then clean up. */
static void on_signal(int sig)
{
  if (watched > 0) {
    kill(-watched, SIGTERM);
    kill(watched, SIGTERM);
    waitpid(watched, NULL, 0);
  }
  sim_tmpdir_remove();
  signal(sig, SIG_DFL);
  raise(sig);
}

const char *sim_tmpdir_create(char *err, size_t errlen)
{
  const char *base = getenv("TMPDIR");
  if (!base || !*base)
    base = "/tmp";
  snprintf(dir, sizeof dir, "%s/simallreduce.XXXXXX", base);
  if (!mkdtemp(dir)) {
    snprintf(err, errlen, "cannot create a temporary directory in %s: %s", base, strerror(errno));
    dir[0] = '\0';
    return NULL;
  }
  atexit(sim_tmpdir_remove);
  int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
    signal(sigs[i], on_signal);
  return dir;
}
