/* follow.c: the runner's result stream, read as it grows. */
#include "follow.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void sim_follow_init(sim_follow *f, const char *path)
{
  memset(f, 0, sizeof *f);
  f->path = path;
  f->fd = -1;
}

static void lines(sim_follow *f, sim_follow_fn fn, void *arg)
{
  size_t start = 0;
  for (char *nl; (nl = memchr(f->buf + start, '\n', f->len - start)) != NULL; start = (size_t)(nl - f->buf) + 1) {
    *nl = '\0';
    cJSON *o;
    int kind = util_jsonl_line(f->buf + start, &o);
    if (kind < 0 || f->ended)
      f->bad = 1;
    else
      fn(arg, (util_jsonl_record)kind, o);
    f->ended |= kind == UTIL_REC_END;
    cJSON_Delete(o);
  }
  memmove(f->buf, f->buf + start, f->len - start);
  f->len -= start;
}

void sim_follow_poll(sim_follow *f, sim_follow_fn fn, void *arg)
{
  if (f->fd < 0 && (f->fd = open(f->path, O_RDONLY)) < 0)
    return; /* not written yet */
  for (;;) {
    if (f->cap - f->len < 4096) {
      size_t cap = f->cap ? 2 * f->cap : 65536;
      char *b = realloc(f->buf, cap + 1);
      if (!b) {
        f->bad = 1;
        return;
      }
      f->buf = b;
      f->cap = cap;
    }
    ssize_t n = read(f->fd, f->buf + f->len, f->cap - f->len);
    if (n <= 0)
      break;
    f->len += (size_t)n;
  }
  lines(f, fn, arg);
}

void sim_follow_close(sim_follow *f)
{
  if (f->fd >= 0)
    close(f->fd);
  free(f->buf);
  memset(f, 0, sizeof *f);
  f->fd = -1;
}
