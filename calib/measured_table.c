/* measured_table.c: one line per measured point, in the units nccl-tests users read. */
#include "measured_table.h"

#include <errno.h>
#include <string.h>

#include "commands.h"

static const char *or_dash(const char *s) { return s[0] ? s : "-"; }

/* "# run 1: all_reduce_perf (nccl-tests 2.18.3), NCCL 2.26.2+cuda12.8, 32 ranks = 4 nodes x 8
 * (NVIDIA H100 80GB HBM3), fp32 sum, from line 72" */
static void print_run(FILE *f, size_t id, const md_run *r)
{
  fprintf(f, "# run %zu: %s (%s%s%s)", id, r->test, r->tool, r->tool_version[0] ? " " : "", r->tool_version);
  if (r->nccl_version[0])
    fprintf(f, ", NCCL %s", r->nccl_version);
  else if (r->nccl_dated[0])
    fprintf(f, ", NCCL %s (its INFO lines)", r->nccl_dated);
  if (r->ranks > 0)
    fprintf(f, ", %d ranks", r->ranks);
  if (r->nodes > 0 && r->gpus_per_node > 0)
    fprintf(f, " = %d node%s x %d", r->nodes, r->nodes == 1 ? "" : "s", r->gpus_per_node);
  else if (r->nodes > 0)
    fprintf(f, " on %d nodes", r->nodes);
  for (int k = 0; k < r->ngpu_models; k++)
    fprintf(f, "%s%s", k ? ", " : " (", r->gpu_models[k]);
  fprintf(f, "%s%s%s%s%s%s, from line %ld\n", r->ngpu_models ? ")" : "", r->dtype[0] ? ", " : "", r->dtype,
          r->dtype_assumed ? " (assumed)" : "", r->redop[0] ? " " : "", r->redop, r->line);
}

void cal_data_print(FILE *f, const md_data *d)
{
  fprintf(f, "# %s%s%s\n", d->source, d->machine[0] ? ": " : "", d->machine);
  for (size_t r = 0; r < d->nruns; r++)
    print_run(f, r, &d->runs[r]);
  fprintf(f, "# %-13s %-6s %-6s %-5s %5s %12s %12s %12s %11s %11s %4s\n", "op", "path", "device", "dtype", "ranks",
          "bytes", "time(us)", "spread(us)", "algbw(GB/s)", "busbw(GB/s)", "run");
  for (size_t i = 0; i < d->n; i++) {
    const md_point *p = &d->p[i];
    char op[40];
    snprintf(op, sizeof op, "%s%s", p->op, p->inplace == 1 ? "/in" : p->inplace == 0 ? "/out" : "");
    char spread[32] = "-";
    if (p->spread_s >= 0)
      snprintf(spread, sizeof spread, "%.3f", p->spread_s * 1e6);
    char run[16] = "-";
    if (p->run >= 0)
      snprintf(run, sizeof run, "%d", p->run);
    fprintf(f, "  %-13s %-6s %-6s %-5s %5d %12.0f %12.3f %12s %11.3f %11.3f %4s\n", op, or_dash(p->path),
            or_dash(p->device), or_dash(p->dtype), p->ranks, p->bytes, p->time_s * 1e6, spread, p->algbw_GBps,
            p->busbw_GBps, run);
  }
}

int cal_data_write(const md_data *d, const char *out)
{
  return md_data_write(d, out) != 0 ? cal_fail("cannot write %s: %s", out, strerror(errno)) : 0;
}

int cal_data_emit(const md_data *d, const char *out)
{
  int rc = cal_data_write(d, out);
  if (rc == 0)
    cal_data_print(cal_table_stream(out), d);
  return rc;
}
