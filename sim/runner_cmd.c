/* runner_cmd.c: turns the driver's options into the runner's arguments (ar_runner reads
 * them in runner/runner_args.c). */
#include "runner_cmd.h"
#include "common/sa_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sim_runner_cmd_build(sim_runner_cmd *c, const sim_opts *o, int rpn, const char *result)
{
  memset(c, 0, sizeof *c);
  c->sizes = calloc((size_t)o->nsizes * 21 + 1, 1);
  c->algos = calloc((size_t)o->nalgos * 33 + 1, 1);
  if (!c->sizes || !c->algos) {
    sim_runner_cmd_free(c);
    return SA_ENOMEM;
  }
  for (int i = 0; i < o->nsizes; i++)
    sprintf(c->sizes + strlen(c->sizes), "%s%llu", i ? "," : "", (unsigned long long)o->sizes[i]);
  for (int i = 0; i < o->nalgos; i++)
    sprintf(c->algos + strlen(c->algos), "%s%s", i ? "," : "", o->algos[i]);
  snprintf(c->num[0], sizeof c->num[0], "%d", rpn);
  snprintf(c->num[1], sizeof c->num[1], "%llu", (unsigned long long)o->segment);
  snprintf(c->num[2], sizeof c->num[2], "%d", o->channels);
  snprintf(c->num[3], sizeof c->num[3], "%.17g", o->density);
  snprintf(c->num[4], sizeof c->num[4], "%.17g", o->overlap);
  char *args[] = {"--algo",     c->algos,  "--sizes",   c->sizes,  "--dtype",          (char *)ar_dtype_name(o->dtype),
                  "--result",   (char *)result, "--ranks-per-node", c->num[0], "--segment", c->num[1],
                  "--channels", c->num[2], "--density", c->num[3], "--overlap",        c->num[4]};
  int k = 0;
  for (size_t i = 0; i < sizeof args / sizeof args[0]; i++)
    c->argv[k++] = args[i];
  if (o->verify)
    c->argv[k++] = "--verify";
  if (o->timing != COST_TIMING_BARRIER) {
    c->argv[k++] = "--timing";
    c->argv[k++] = (char *)sim_timing_name(o->timing);
  }
  c->argv[k] = NULL;
  return 0;
}

void sim_runner_cmd_free(sim_runner_cmd *c)
{
  free(c->algos);
  free(c->sizes);
  c->algos = c->sizes = NULL;
}
