/* runner_cmd.c: turns the driver's options into the runner's arguments (ar_runner reads
 * them in runner/runner_args.c). */
#include "runner_cmd.h"
#include "common/sa_error.h"
#include "faults.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The plan's points in [lo, hi) not done yet, one "ALGO:BYTES" a line ("ALGO:BYTES:CHOICE" for NCCL's
 * algorithms, what they run there), in the file "points" beside the
 * result file (the run's private directory): a sweep's list can be longer than the kernel
 * lets one argument be. */
static int write_points(sim_runner_cmd *c, const sim_plan *pl, int lo, int hi, const char *result)
{
  const char *slash = strrchr(result, '/');
  size_t n = slash ? (size_t)(slash - result) + 1 : 0;
  c->points = malloc(n + 8);
  if (!c->points)
    return SA_ENOMEM;
  snprintf(c->points, n + 8, "%.*spoints", (int)n, result);
  FILE *f = fopen(c->points, "w");
  for (int i = lo; f && i < hi; i++)
    if (!pl->slot[i].done)
      fprintf(f, "%s:%llu%s%s\n", pl->slot[i].algo, (unsigned long long)pl->slot[i].bytes, pl->slot[i].nccl[0] ? ":" : "",
              pl->slot[i].nccl);
  return f && fclose(f) == 0 ? 0 : SA_EIO;
}

int sim_runner_cmd_build(sim_runner_cmd *c, const sim_opts *o, int rpn, const sim_plan *pl, int lo, int hi,
                         double start_clock, const char *result)
{
  memset(c, 0, sizeof *c);
  int rc = write_points(c, pl, lo, hi, result);
  if (rc) {
    sim_runner_cmd_free(c);
    return rc;
  }
  snprintf(c->num[0], sizeof c->num[0], "%d", rpn);
  snprintf(c->num[1], sizeof c->num[1], "%llu", (unsigned long long)o->segment);
  snprintf(c->num[2], sizeof c->num[2], "%d", o->channels ? o->channels : 1);
  snprintf(c->num[3], sizeof c->num[3], "%.17g", o->density);
  snprintf(c->num[4], sizeof c->num[4], "%.17g", o->overlap);
  snprintf(c->num[5], sizeof c->num[5], "%.17g", start_clock);
  char *args[] = {"--points-file",    c->points, "--dtype",   (char *)kn_dtype_name(o->dtype),
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
  if (o->links || o->trace_path) { /* the trace's counters are the busiest links too */
    snprintf(c->num[6], sizeof c->num[6], "%d", o->links ? o->links : SIM_DEFAULT_LINKS);
    c->argv[k++] = "--links";
    c->argv[k++] = c->num[6];
  }
  if (o->trace_path) {
    sim_runner_trace_dir(result, c->trace, sizeof c->trace);
    c->argv[k++] = "--trace";
    c->argv[k++] = c->trace;
  }
  if (o->trace_ranks) {
    c->argv[k++] = "--trace-ranks";
    c->argv[k++] = (char *)o->trace_ranks;
  }
  if (o->faults) { /* a file: a jitter gives every rank a line */
    const char *slash = strrchr(result, '/');
    snprintf(c->faults, sizeof c->faults, "%.*sfaults", slash ? (int)(slash - result) + 1 : 0, result);
    if (sim_faults_write(o->faults, c->faults) != 0) {
      sim_runner_cmd_free(c);
      return SA_EIO;
    }
    c->argv[k++] = "--faults";
    c->argv[k++] = c->faults;
  }
  if (o->timing != COST_TIMING_BARRIER) {
    c->argv[k++] = "--timing";
    c->argv[k++] = (char *)sim_timing_name(o->timing);
  }
  c->argv[k] = NULL;
  return 0;
}

void sim_runner_trace_dir(const char *result, char *dir, size_t len)
{
  const char *slash = strrchr(result, '/');
  int n = slash ? (int)(slash - result) : 1;
  snprintf(dir, len, "%.*s/trace", n, slash ? result : ".");
}

void sim_runner_cmd_free(sim_runner_cmd *c)
{
  free(c->points);
  c->points = NULL;
}
