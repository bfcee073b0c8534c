/* spawn.c: starting another program under a supervisor, so that it dies with us.
 *
 * smpirun is a shell script that runs smpimain as its child, and mpirun starts daemons: a
 * signal to the program alone, or the kernel's parent-death signal (which a fork does not
 * pass on), would leave the rest running, at 100% CPU for a simulation. So the program runs
 * in a process group of its own, and a supervisor, a forked copy of us that execs nothing,
 * watches it: the kernel signals the supervisor when we die (PR_SET_PDEATHSIG, SIGKILL
 * included), and the supervisor kills the whole group, as it does when we stop it
 * (util/tmpdir.c) and after the program ends. When we are gone it also removes our private
 * directory, which nobody else would. The supervisor is in a group of its own too, so that
 * a signal to our group (a shell killing a job) does not take it with us. */
#include "spawn.h"
#include "common/sa_error.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tmpdir.h"

/* Exit status of a program that could not be executed at all (as a shell's). */
#define EXEC_FAILED 127

static const int stop_signals[] = {SIGTERM, SIGINT, SIGHUP, SIGPIPE};
#define NSTOP (sizeof stop_signals / sizeof stop_signals[0])

/* In the supervisor: the program's process group, once it has one. */
static volatile sig_atomic_t group;

static void kill_group(int sig)
{
  (void)sig;
  if (group > 0)
    kill(-group, SIGKILL);
}

/* In the program's process, before exec: its own group, stdin from /dev/null (it never
 * reads it, and a process outside the terminal's foreground group that did would stop), its
 * log, its directory and $TMPDIR. */
static void exec_program(char *const argv[], const util_spawn_opts *o, int log_fd, const sigset_t *mask)
{
  for (size_t i = 0; i < NSTOP; i++)
    signal(stop_signals[i], SIG_DFL);
  sigprocmask(SIG_SETMASK, mask, NULL);
  setpgid(0, 0);
  int null = open("/dev/null", O_RDONLY);
  if (null >= 0 && null != 0) {
    dup2(null, 0);
    close(null);
  }
  if (log_fd >= 0) {
    dup2(log_fd, 1);
    dup2(log_fd, 2);
  }
  if (o->tmpdir)
    setenv("TMPDIR", o->tmpdir, 1);
  if (o->preload)
    setenv("LD_PRELOAD", o->preload, 0); /* a user's own preload wins */
  if (o->env_name && o->env_value)
    setenv(o->env_name, o->env_value, 1);
  if (o->dir && chdir(o->dir) != 0) {
    fprintf(stderr, "cannot enter %s: %s\n", o->dir, strerror(errno));
    _exit(EXEC_FAILED);
  }
  execvp(argv[0], argv);
  fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
  _exit(EXEC_FAILED);
}

/* The supervisor: never returns, and leaves with _exit only (it shares our atexit list,
 * which would remove the private directory under us). Its exit mirrors the program's. */
static void supervise(char *const argv[], const util_spawn_opts *o, int log_fd, pid_t parent)
{
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = kill_group;
  sigemptyset(&sa.sa_mask);
  for (size_t i = 0; i < NSTOP; i++)
    sigaction(stop_signals[i], &sa, NULL);
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  sigset_t all, old;
  sigfillset(&all);
  sigprocmask(SIG_BLOCK, &all, &old); /* no stop before group is known */
  pid_t pid = fork();
  if (pid == 0)
    exec_program(argv, o, log_fd, &old);
  if (pid > 0) {
    setpgid(pid, pid); /* whichever of the two gets there first */
    group = pid;
  }
  sigprocmask(SIG_SETMASK, &old, NULL);
  if (pid < 0)
    _exit(EXEC_FAILED);
  if (getppid() != parent) /* we died before the parent-death signal was armed */
    kill_group(0);
  /* Wait without reaping: while the leader is a zombie its group id cannot be reused, so
   * killing what is left of the group cannot hit anyone else. */
  siginfo_t info;
  while (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT) < 0 && errno == EINTR)
    ;
  kill_group(0);
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
    ;
  if (getppid() != parent)
    util_tmpdir_remove();
  if (WIFSIGNALED(st)) {
    signal(WTERMSIG(st), SIG_DFL);
    raise(WTERMSIG(st));
  }
  _exit(WIFEXITED(st) ? WEXITSTATUS(st) : EXEC_FAILED);
}

int util_spawn(char *const argv[], const util_spawn_opts *o, int *status, char *err, size_t errlen)
{
  static const util_spawn_opts none;
  if (!o)
    o = &none;
  int fd = o->log ? open(o->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600) : -1;
  if (o->log && fd < 0) {
    snprintf(err, errlen, "cannot write %s: %s", o->log, strerror(errno));
    return SA_EIO;
  }
  fflush(NULL);
  pid_t parent = getpid(), pid = fork();
  if (pid == 0)
    supervise(argv, o, fd, parent);
  int e = errno;
  if (fd >= 0)
    close(fd);
  if (pid < 0) {
    snprintf(err, errlen, "cannot start %s: %s", argv[0], strerror(e));
    return SA_ERUN;
  }
  util_tmpdir_watch(pid);
  const struct timespec nap = {o->tick_ms / 1000, (o->tick_ms % 1000) * 1000000L};
  pid_t got;
  int stopped = 0;
  while ((got = waitpid(pid, status, o->tick ? WNOHANG : 0)) == 0 || (got < 0 && errno == EINTR))
    if (got == 0) {
      if (o->tick(o->tick_arg) && !stopped++)
        kill(pid, SIGTERM);
      nanosleep(&nap, NULL);
    }
  if (o->tick)
    o->tick(o->tick_arg);
  util_tmpdir_watch(0);
  return 0;
}

int util_spawn_outcome(const char *name, int status, char *err, size_t errlen)
{
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
    return 0;
  if (WIFEXITED(status) && WEXITSTATUS(status) == EXEC_FAILED)
    snprintf(err, errlen, "%s could not be run (not installed? make deps installs it)", name);
  else if (WIFSIGNALED(status))
    snprintf(err, errlen, "%s was killed by signal %d (%s)", name, WTERMSIG(status), strsignal(WTERMSIG(status)));
  else
    snprintf(err, errlen, "%s failed (exit status %d)", name, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  return SA_ERUN;
}
