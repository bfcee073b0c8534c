/* busylink.c: ping-pong latency + streaming time per message = a message on a busy link. */
#include "busylink.h"

#include <stdio.h>
#include <string.h>

#include "cal_error.h"

/* One-way ping-pong time at the smallest size measured on path, or -1. */
static double latency(const cal_data *d, const char *path)
{
  double bytes = -1, t = -1;
  for (size_t i = 0; i < d->n; i++) {
    const cal_point *p = &d->p[i];
    if (strcmp(p->op, "pingpong") == 0 && strcmp(p->path, path) == 0 && p->time_s > 0 &&
        (bytes < 0 || p->bytes < bytes)) {
      bytes = p->bytes;
      t = p->time_s;
    }
  }
  return t;
}

int cal_busy_points(const cal_data *d, cal_data *out)
{
  static const char *const paths[] = {"intra", "inter"};
  int made = 0;
  for (int c = 0; c < 2; c++) {
    double lat = latency(d, paths[c]);
    for (size_t i = 0; i < d->n && lat > 0; i++) {
      const cal_point *s = &d->p[i];
      if (strcmp(s->op, "stream") != 0 || strcmp(s->path, paths[c]) != 0 || !(s->bytes > 0) || !(s->time_s > 0))
        continue;
      cal_point b = *s;
      snprintf(b.op, sizeof b.op, "%s", CAL_BUSY_OP);
      b.time_s = lat + s->time_s;
      b.min_s = lat + s->min_s;
      b.max_s = lat + s->max_s;
      cal_point_bandwidths(&b);
      if (cal_data_add(out, &b) != 0)
        return CAL_ENOMEM;
      made++;
    }
  }
  return made;
}
