/* forked.c: util_forked_run's children. A piece whose child could not be started, or whose bytes
 * do not all arrive, is done by the caller instead, with the same arithmetic: results never
 * depend on how the pieces were shared out. */
#include "forked.h"
#include "common/sa_error.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static int in_child; /* this process is one of the fit's children */
static int limit;    /* --jobs, 0: none */

static int read_all(int fd, void *buf, size_t len)
{
  for (size_t got = 0; got < len;) {
    ssize_t k = read(fd, (char *)buf + got, len - got);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      return -1;
    got += (size_t)k;
  }
  return 0;
}

static void write_all(int fd, const void *buf, size_t len)
{
  for (size_t put = 0; put < len;) {
    ssize_t k = write(fd, (const char *)buf + put, len - put);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      return;
    put += (size_t)k;
  }
}

typedef struct {
  pid_t pid; /* -1: not started */
  int fd;
} child;

/* Piece k in a child, which sends fn's status, then, when 0, the len bytes of buf, and
 * leaves with _exit (the parent's cleanup list and stdio buffers are the parent's). */
static child start(util_forked_fn fn, void *arg, int k, void *buf, size_t len)
{
  child c = {-1, -1};
  int p[2];
  if (pipe(p) != 0)
    return c;
  pid_t parent = getpid();
  c.pid = fork();
  if (c.pid == 0) {
    /* a parent killed outright (SIGKILL) takes its children with it, not seconds later */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
      _exit(0);
    /* the parent's cleanup (util/cleanup.c: its temporary files, its outputs half written)
     * is the parent's to run: a child stopped by a signal (a Ctrl-C reaches the whole group)
     * just stops */
    int stops[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
    for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++)
      signal(stops[i], SIG_DFL);
    in_child = 1;
    close(p[0]);
    int st = fn(arg, k, buf);
    write_all(p[1], &st, sizeof st);
    if (st == 0)
      write_all(p[1], buf, len);
    _exit(0);
  }
  close(p[1]);
  if (c.pid < 0)
    close(p[0]);
  else
    c.fd = p[0];
  return c;
}

/* Waits for it: 0 with buf filled, 1 when it was not started or nothing whole came back,
 * else fn's status. */
static int finish(child *c, void *buf, size_t len)
{
  if (c->pid <= 0)
    return 1;
  int st = 0, lost = read_all(c->fd, &st, sizeof st) != 0 || (st == 0 && read_all(c->fd, buf, len) != 0);
  close(c->fd);
  while (waitpid(c->pid, NULL, 0) < 0 && errno == EINTR)
    ;
  c->pid = -1;
  return lost ? 1 : st;
}

int util_forked_run(int n, util_forked_fn fn, void *arg, void *bufs, size_t len)
{
  int w = util_forked_workers(), rc = 0;
  child *kids = calloc((size_t)(n > 0 ? n : 1), sizeof *kids);
  if (!kids)
    return SA_ENOMEM;
  for (int lo = 0; rc == 0 && lo < n; lo += w) {
    int hi = lo + w < n ? lo + w : n;
    kids[lo].pid = -1; /* the first of the batch here, the others in children meanwhile */
    for (int k = lo + 1; k < hi; k++)
      kids[k] = start(fn, arg, k, (char *)bufs + (size_t)k * len, len);
    for (int k = lo; k < hi; k++) { /* after an error, the children still running are waited for */
      void *buf = (char *)bufs + (size_t)k * len;
      int got = finish(&kids[k], buf, len);
      if (got == 1 && rc == 0)
        got = fn(arg, k, buf);
      rc = rc ? rc : got;
    }
  }
  free(kids);
  return rc;
}

int util_forked_workers(void)
{
  long n = limit > 0 ? limit : sysconf(_SC_NPROCESSORS_ONLN); /* --jobs N: N, as make -j N */
  n = n < 64 ? n : 64;
  return in_child || n <= 1 ? 1 : (int)n;
}

void util_forked_limit(int n) { limit = n > 0 ? n : 0; }
