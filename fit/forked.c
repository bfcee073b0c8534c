/* forked.c: fit_forked's children. A piece whose child could not be started, or whose bytes
 * do not all arrive, is done by the caller instead, with the same arithmetic: results never
 * depend on how the pieces were shared out. */
#include "forked.h"

#include <errno.h>
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

fit_forked fit_forked_start(int (*fn)(void *arg, void *buf), void *arg, void *buf, size_t len)
{
  fit_forked c = {-1, -1};
  int p[2];
  if (pipe(p) != 0)
    return c;
  c.pid = fork();
  if (c.pid == 0) {
    in_child = 1;
    close(p[0]);
    int st = fn(arg, buf);
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

int fit_forked_finish(fit_forked *c, void *buf, size_t len)
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

int fit_forked_workers(void)
{
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  n = n < 64 ? n : 64;
  n = limit > 0 && limit < n ? limit : n;
  return in_child || n <= 1 ? 1 : (int)n;
}

void fit_forked_limit(int n) { limit = n > 0 ? n : 0; }
