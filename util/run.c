/* run.c: running another program (through util/spawn.c, so that it dies with us), capturing
 * a short one's output, and argument vectors to build. */
#include "run.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/sa_error.h"
#include "spawn.h"

/* Exit status a child uses when exec itself failed. */
#define EXEC_FAILED 127

static pid_t start(char *const argv[], int out_fd)
{
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    if (out_fd >= 0) {
      dup2(out_fd, 1);
      dup2(out_fd, 2);
    }
    execvp(argv[0], argv);
    fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(EXEC_FAILED);
  }
  return pid;
}

static int wait_for(pid_t pid)
{
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return SA_ERUN;
  return status;
}

int util_run(char *const argv[], const char *log, char *err, size_t errlen)
{
  util_spawn_opts o = {.log = log};
  int status, rc = util_spawn(argv, &o, &status, err, errlen);
  return rc ? rc : util_spawn_outcome(argv[0], status, err, errlen);
}

char *util_run_capture(char *const argv[])
{
  int fds[2];
  if (pipe(fds) != 0)
    return NULL;
  pid_t pid = start(argv, fds[1]);
  close(fds[1]);
  size_t cap = 4096, len = 0;
  char *buf = pid > 0 ? malloc(cap) : NULL;
  while (buf) {
    ssize_t got = read(fds[0], buf + len, cap - len - 1);
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      break;
    len += (size_t)got;
    if (len + 1 == cap) {
      char *b = realloc(buf, cap *= 2);
      if (!b) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = b;
    }
  }
  close(fds[0]);
  if (pid > 0)
    wait_for(pid);
  if (buf)
    buf[len] = '\0';
  return buf;
}

void util_argv_add(util_argv *a, const char *s)
{
  if (a->n + 2 > a->cap) {
    size_t cap = a->cap ? 2 * a->cap : 32;
    char **v = realloc(a->v, cap * sizeof *v);
    if (!v) {
      a->oom = 1;
      return;
    }
    a->v = v;
    a->cap = cap;
  }
  char *c = strdup(s);
  if (!c) {
    a->oom = 1;
    return;
  }
  a->v[a->n++] = c;
  a->v[a->n] = NULL;
}

void util_argv_addf(util_argv *a, const char *fmt, ...)
{
  char buf[4096];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  util_argv_add(a, buf);
}

void util_argv_free(util_argv *a)
{
  for (size_t i = 0; i < a->n; i++)
    free(a->v[i]);
  free(a->v);
  memset(a, 0, sizeof *a);
}
