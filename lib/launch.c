/* launch.c: builds the smpirun command line and runs it. */
#include "launch.h"
#include "common/sa_error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tmpdir.h"

/* SimGrid settings every run needs:
 * - host compute is never measured (device work is charged explicitly, see algos/ar_compute.c);
 * - SMPI_SHARED_MALLOC payloads in "local" mode: one mapping of one shared file per buffer,
 *   its pages never touched in timing mode. The default "global" mode maps its file block
 *   by block with MAP_POPULATE, filling page tables for every byte of every rank's buffers
 *   at each allocation: 1.2 s of kernel time per 128-rank point at 100 MB, and at 1024
 *   ranks a block size of 64 MiB merely to stay under vm.max_map_count. */
static const char *const fixed_cfg[] = {
    "--cfg=smpi/simulate-computation:no",
    "--cfg=smpi/shared-malloc:local",
    "--log=xbt_cfg.thres:warning",
    /* with --cfg smpi/allreduce:lr, the runner's own small allreduces fall back to SMPI's
     * default with one line per rank and call */
    "--log=smpi_colls.thres:warning",
};

/* Waits for smpirun, calling l->tick every SIM_LAUNCH_TICK_MS meanwhile and once at the end. */
static void wait_ticking(const sim_launch *l, pid_t pid, int *status)
{
  const struct timespec nap = {0, SIM_LAUNCH_TICK_MS * 1000000L};
  pid_t got;
  while ((got = waitpid(pid, status, l->tick ? WNOHANG : 0)) == 0 || (got < 0 && errno == EINTR)) {
    if (got == 0) {
      l->tick(l->tick_arg);
      nanosleep(&nap, NULL);
    }
  }
  if (l->tick)
    l->tick(l->tick_arg);
}

int sim_launch_run(const sim_launch *l, char *err, size_t errlen)
{
  size_t nargs = 0;
  while (l->args[nargs])
    nargs++;
  size_t nfixed = sizeof fixed_cfg / sizeof fixed_cfg[0];
  const char **argv = calloc(16 + nfixed + (size_t)l->ncfg + nargs, sizeof *argv);
  char **cfg = calloc((size_t)l->ncfg + 1, sizeof *cfg);
  char np[16];
  if (!argv || !cfg) {
    free(argv);
    free(cfg);
    snprintf(err, errlen, "out of memory");
    return SA_ENOMEM;
  }
  snprintf(np, sizeof np, "%d", l->np);
  size_t k = 0;
  /* -no-privatize: the runner keeps no per-rank state in globals, and copying the binary's
   * data segment per rank costs memory and time at hundreds of ranks. */
  const char *head[] = {"smpirun", "-no-privatize", "-platform", l->platform, "-hostfile", l->hostfile, "-np", np};
  for (size_t i = 0; i < sizeof head / sizeof head[0]; i++)
    argv[k++] = head[i];
  for (size_t i = 0; i < nfixed; i++)
    argv[k++] = fixed_cfg[i];
  int ok = 1;
  for (int i = 0; i < l->ncfg; i++) {
    size_t n = strlen(l->cfg[i]) + 7;
    cfg[i] = malloc(n);
    if (!cfg[i]) {
      ok = 0;
      break;
    }
    snprintf(cfg[i], n, "--cfg=%s", l->cfg[i]);
    argv[k++] = cfg[i];
  }
  argv[k++] = l->runner;
  for (size_t i = 0; i < nargs; i++)
    argv[k++] = l->args[i];
  argv[k] = NULL;

  int status = -1;
  pid_t pid = ok ? fork() : -1;
  if (pid == 0) {
    setpgid(0, 0); /* a group of its own, which an interrupted driver stops (tmpdir.c) */
    int fd = open(l->log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
    }
    /* smpirun puts its own files under $TMPDIR (its -tmpdir option drops its argument in
     * SimGrid 3.32), so point that at the run's private directory. */
    setenv("TMPDIR", l->tmpdir, 1);
    execvp(argv[0], (char *const *)argv);
    fprintf(stderr, "cannot run smpirun: %s\n", strerror(errno));
    _exit(127);
  }
  if (pid > 0) {
    setpgid(pid, pid); /* whichever of parent and child gets here first */
    sim_tmpdir_watch(pid);
    wait_ticking(l, pid, &status);
    sim_tmpdir_watch(0);
  }
  for (int i = 0; i < l->ncfg; i++)
    free(cfg[i]);
  free(cfg);
  free(argv);
  if (pid < 0) {
    snprintf(err, errlen, "cannot start smpirun: %s", ok ? strerror(errno) : "out of memory");
    return SA_ERUN;
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
    return 0;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
    snprintf(err, errlen, "smpirun could not be run (is SimGrid installed? make deps installs it)");
  else if (WIFSIGNALED(status))
    snprintf(err, errlen, "the simulation was killed by signal %d", WTERMSIG(status));
  else
    snprintf(err, errlen, "the simulation failed (smpirun exit status %d)", WEXITSTATUS(status));
  return SA_ERUN;
}

void sim_print_tail(const char *path, int lines, FILE *out)
{
  FILE *f = fopen(path, "r");
  if (!f)
    return;
  char *ring[64] = {0};
  size_t cap = 0;
  char *line = NULL;
  int n = 0;
  if (lines > 64)
    lines = 64;
  while (getline(&line, &cap, f) >= 0) {
    free(ring[n % lines]);
    ring[n % lines] = strdup(line);
    n++;
  }
  free(line);
  fclose(f);
  for (int i = n > lines ? n - lines : 0; i < n; i++) {
    const char *s = ring[i % lines];
    fprintf(out, "  | %s%s", s ? s : "", s && s[strlen(s) - 1] == '\n' ? "" : "\n");
    free(ring[i % lines]);
  }
}
