/* busylink.c: ping-pong latency + what the streaming time per message adds over its
 * smallest message = a message on a busy link. */
#include "busylink.h"

#include <stdio.h>
#include <string.h>

#include "common/sa_error.h"

/* Time of op on path at the smallest size measured, or -1. */
static double smallest(const md_data *d, const char *op, const char *path)
{
  double bytes = -1, t = -1;
  for (size_t i = 0; i < d->n; i++) {
    const md_point *p = &d->p[i];
    if (strcmp(p->op, op) == 0 && strcmp(p->path, path) == 0 && p->time_s > 0 && (bytes < 0 || p->bytes < bytes)) {
      bytes = p->bytes;
      t = p->time_s;
    }
  }
  return t;
}

/* Time of op on path at exactly bytes, or -1. */
static double at(const md_data *d, const char *op, const char *path, double bytes)
{
  for (size_t i = 0; i < d->n; i++)
    if (strcmp(d->p[i].op, op) == 0 && strcmp(d->p[i].path, path) == 0 && d->p[i].bytes == bytes)
      return d->p[i].time_s;
  return -1;
}

int meas_busy_points(const md_data *d, md_data *out)
{
  static const char *const paths[] = {"intra", "inter"};
  int made = 0;
  for (int c = 0; c < 2; c++) {
    double lat = smallest(d, "pingpong", paths[c]), gap = smallest(d, "stream", paths[c]);
    for (size_t i = 0; i < d->n && lat > 0; i++) {
      const md_point *s = &d->p[i];
      if (strcmp(s->op, "stream") != 0 || strcmp(s->path, paths[c]) != 0 || !(s->bytes > 0) || !(s->time_s > 0))
        continue;
      /* the smallest streamed message costs the per-message work, which the latency holds
       * already; where the ping-pong took longer (a protocol's extra round trip), it stands */
      double add = s->time_s - gap > 0 ? s->time_s - gap : 0, pp = at(d, "pingpong", paths[c], s->bytes);
      md_point b = *s;
      snprintf(b.op, sizeof b.op, "%s", MEAS_BUSY_OP);
      b.time_s = pp > lat + add ? pp : lat + add;
      b.min_s = b.max_s = b.time_s;
      md_point_bandwidths(&b);
      if (md_data_add(out, &b) != 0)
        return SA_ENOMEM;
      made++;
    }
  }
  return made;
}
