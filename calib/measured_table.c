/* measured_table.c: one line per measured point, in the units nccl-tests users read. */
#include "measured_table.h"

#include "commands.h"

static const char *or_dash(const char *s) { return s[0] ? s : "-"; }

void cal_data_print(FILE *f, const cal_data *d)
{
  fprintf(f, "# %s%s%s\n", d->source, d->machine[0] ? ": " : "", d->machine);
  fprintf(f, "# %-13s %-6s %-6s %-5s %5s %12s %12s %12s %11s %11s\n", "op", "path", "device", "dtype", "ranks",
          "bytes", "time(us)", "spread(us)", "algbw(GB/s)", "busbw(GB/s)");
  for (size_t i = 0; i < d->n; i++) {
    const cal_point *p = &d->p[i];
    char op[40];
    snprintf(op, sizeof op, "%s%s", p->op, p->inplace == 1 ? "/in" : p->inplace == 0 ? "/out" : "");
    char spread[32] = "-";
    if (p->spread_s >= 0)
      snprintf(spread, sizeof spread, "%.3f", p->spread_s * 1e6);
    fprintf(f, "  %-13s %-6s %-6s %-5s %5d %12.0f %12.3f %12s %11.3f %11.3f\n", op, or_dash(p->path),
            or_dash(p->device), or_dash(p->dtype), p->ranks, p->bytes, p->time_s * 1e6, spread, p->algbw_GBps,
            p->busbw_GBps);
  }
}

int cal_data_emit(const cal_data *d, const char *out)
{
  if (cal_data_write(d, out) != 0)
    return cal_fail("cannot write %s", out);
  cal_data_print(cal_table_stream(out), d);
  return 0;
}
