/* progress.c: the progress line. The time left is estimated per algorithm: a simulation's
 * wall time follows its number of messages, which the algorithm sets far more than the size
 * (a 1024-rank ring takes as long at 1 MiB as at 64 MiB, recursive halving a fraction of it). */
#include "progress.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

#include "util/sizes.h"

static double since(const struct timespec *t0)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

void sim_progress_init(sim_progress *p, FILE *f)
{
  memset(p, 0, sizeof *p);
  p->f = f && isatty(fileno(f)) ? f : NULL;
  p->last_draw = -1;
  clock_gettime(CLOCK_MONOTONIC, &p->t0);
}

/* The mean wall time of this run's finished points of algo (NULL: of all); 0 when none. */
static double mean_wall(const sim_plan *pl, const char *algo)
{
  double sum = 0;
  int n = 0;
  for (int i = 0; i < pl->n; i++)
    if (pl->slot[i].done && pl->slot[i].wall_s > 0 && (!algo || strcmp(algo, pl->slot[i].algo) == 0)) {
      sum += pl->slot[i].wall_s;
      n++;
    }
  return n ? sum / n : 0;
}

double sim_progress_left(const sim_plan *pl, double running)
{
  double all = mean_wall(pl, NULL), left = 0;
  if (all <= 0)
    return -1;
  int first = 1;
  for (int i = 0; i < pl->n; i++)
    if (!pl->slot[i].done) {
      double own = mean_wall(pl, pl->slot[i].algo), est = own > 0 ? own : all;
      if (first && (est -= running) < 0)
        est = 0;
      left += est;
      first = 0;
    }
  return left;
}

void sim_progress_point(sim_progress *p, sim_slot *s)
{
  double now = since(&p->t0);
  s->wall_s = now - p->done_at;
  p->done_at = now;
}

static void seconds(double s, char *buf, size_t len)
{
  long whole = lround(s);
  if (whole < 100)
    snprintf(buf, len, "%ld s", whole);
  else if (whole < 6000)
    snprintf(buf, len, "%ld min %02ld s", whole / 60, whole % 60);
  else
    snprintf(buf, len, "%.1f h", s / 3600);
}

void sim_progress_draw(sim_progress *p, const sim_plan *pl, int force)
{
  double now = since(&p->t0);
  if (!p->f || (!force && now - p->last_draw < 0.5))
    return;
  int cur = -1;
  for (int i = 0; i < pl->n && cur < 0; i++)
    if (!pl->slot[i].done)
      cur = i;
  if (cur < 0) {
    sim_progress_clear(p);
    return;
  }
  char size[32], el[32], left[48] = "";
  util_format_size(pl->slot[cur].bytes, size, sizeof size);
  seconds(now, el, sizeof el);
  double l = sim_progress_left(pl, now - p->done_at);
  if (l >= 0) {
    char t[32];
    seconds(l, t, sizeof t);
    snprintf(left, sizeof left, ", about %s left", t);
  }
  /* \r back to the start, \033[K clears what a longer line left */
  fprintf(p->f, "\r[point %d of %d] %s at %s, %s%s\033[K", pl->ndone + 1, pl->n, pl->slot[cur].algo, size, el, left);
  fflush(p->f);
  p->shown = 1;
  p->last_draw = now;
}

void sim_progress_clear(sim_progress *p)
{
  if (p->f && p->shown) {
    fputs("\r\033[K", p->f);
    fflush(p->f);
  }
  p->shown = 0;
}
