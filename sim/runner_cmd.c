/* runner_cmd.c: turns the driver's options into the runner's arguments (ar_runner reads
 * them in runner/runner_args.c). */
#include "runner_cmd.h"
#include "common/sa_error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sim_runner_cmd_build(sim_runner_cmd *c, const sim_opts *o, int rpn, const sim_plan *pl, double start_clock,
                         const char *result)
{
  memset(c, 0, sizeof *c);
  c->points = calloc((size_t)pl->n * 56 + 1, 1); /* ALGO (31 at most) : BYTES (20) , */
  if (!c->points)
    return SA_ENOMEM;
  size_t at = 0;
  for (int i = 0; i < pl->n; i++)
    if (!pl->slot[i].done)
      at += (size_t)sprintf(c->points + at, "%s%s:%llu", at ? "," : "", pl->slot[i].algo,
                            (unsigned long long)pl->slot[i].bytes);
  snprintf(c->num[0], sizeof c->num[0], "%d", rpn);
  snprintf(c->num[1], sizeof c->num[1], "%llu", (unsigned long long)o->segment);
  snprintf(c->num[2], sizeof c->num[2], "%d", o->channels);
  snprintf(c->num[3], sizeof c->num[3], "%.17g", o->density);
  snprintf(c->num[4], sizeof c->num[4], "%.17g", o->overlap);
  snprintf(c->num[5], sizeof c->num[5], "%.17g", start_clock);
  char *args[] = {"--points",         c->points, "--dtype",   (char *)ar_dtype_name(o->dtype),
                  "--result",         (char *)result, "--ranks-per-node", c->num[0], "--segment", c->num[1],
                  "--channels",       c->num[2], "--density", c->num[3], "--overlap", c->num[4]};
  int k = 0;
  for (size_t i = 0; i < sizeof args / sizeof args[0]; i++)
    c->argv[k++] = args[i];
  if (!isnan(start_clock)) {
    c->argv[k++] = "--start-clock";
    c->argv[k++] = c->num[5];
  }
  if (o->verify)
    c->argv[k++] = "--verify";
  c->argv[k] = NULL;
  return 0;
}

void sim_runner_cmd_free(sim_runner_cmd *c)
{
  free(c->points);
  c->points = NULL;
}
