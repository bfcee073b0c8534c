/* runner_timeline.c: the timeline files of --trace DIR, which the driver merges into one
 * trace (sim/trace.c). Each traced rank appends, after every point, to DIR/rank<R>.txt:
 *
 *   point <index> <algo> <bytes> <t0> <t1>       the allreduce on this rank (seconds)
 *   phase <name> <t0> <t1>                       each phase it recorded
 *   step <kind> <name> <t0> <t1> <sent> <to> <received> <from>
 *                                                each step: kind c communication, w device
 *                                                work (its bytes as received), p a message
 *                                                posted (an instant); bytes and peers -1
 *                                                where none; peers are world ranks
 *   dropped <n>                                  steps past the recorder's room
 *
 * and rank 0, with links accounted, to DIR/links.txt:
 *
 *   window <index> <t0> <t1>                     when the point's traffic ran
 *   link <rate B/s> <t0> <width s> <n> <name>    one of its busiest links, then
 *   bins <b1> ... <bn>                           the bytes it carried in each bin
 *
 * Times and bytes are written exactly, as C99 hexadecimal floating point (%a); names are
 * the algorithms' constants (no blanks); a link's name is the rest of its line. */
#include <stdio.h>
#include <stdlib.h>

#include "common/sa_error.h"
#include "util/rank_list.h"
#include "runner.h"

/* Steps one rank keeps per allreduce: a 1024-rank ring makes 4092 */
#define RUNNER_TRACE_CAP (1 << 18)

ar_steps *runner_timeline_open(const runner_config *cfg, int rank)
{
  if (!cfg->trace_dir || !util_rank_list_has(cfg->trace_ranks, rank))
    return NULL;
  ar_steps *tr = malloc(sizeof *tr);
  if (tr)
    ar_steps_init(tr, RUNNER_TRACE_CAP);
  return tr;
}

void runner_timeline_close(ar_steps *tr)
{
  if (tr)
    ar_steps_free(tr);
  free(tr);
}

static FILE *open_in_dir(const runner_config *cfg, const char *name)
{
  char path[4200];
  snprintf(path, sizeof path, "%s/%s", cfg->trace_dir, name);
  FILE *f = fopen(path, "a");
  if (!f)
    fprintf(stderr, "ar_runner: cannot write %s\n", path);
  return f;
}

static int close_checked(FILE *f)
{
  int bad = ferror(f);
  return fclose(f) == 0 && !bad ? 0 : SA_EIO;
}

int runner_timeline_rank(const runner_config *cfg, int rank, int point, const runner_point *pt, const ar_phases *ph,
                      double t0, double t1, const ar_steps *tr)
{
  char name[32];
  snprintf(name, sizeof name, "rank%d.txt", rank);
  FILE *f = open_in_dir(cfg, name);
  if (!f)
    return SA_EIO;
  fprintf(f, "point %d %s %zu %a %a\n", point, pt->algo, pt->bytes, t0, t1);
  for (int i = 0; i < ph->n; i++)
    fprintf(f, "phase %s %a %a\n", ph->name[i], ph->t0 + (i ? ph->end[i - 1] : 0), ph->t0 + ph->end[i]);
  for (int i = 0; i < tr->n; i++) {
    const ar_event *e = &tr->ev[i];
    fprintf(f, "step %c %s %a %a %lld %d %lld %d\n", e->kind, e->name, e->t0, e->t1, e->sbytes, e->to, e->rbytes,
            e->from);
  }
  if (tr->dropped)
    fprintf(f, "dropped %lld\n", tr->dropped);
  return close_checked(f);
}

int runner_timeline_links(const runner_config *cfg, int point)
{
#ifndef SA_SMPI
  (void)cfg;
  (void)point;
  return 0; /* links are accounted in simulation only */
#else
  int n, nbins;
  double t0, t1, width;
  const runner_link *used = runner_links_used(&n, &t0, &t1);
  FILE *f = open_in_dir(cfg, "links.txt");
  if (!f)
    return SA_EIO;
  fprintf(f, "window %d %a %a\n", point, t0, t1);
  for (int i = 0; i < n && i < cfg->links; i++) {
    const double *bins = runner_links_series(i, &nbins, &width);
    if (!bins)
      break;
    fprintf(f, "link %a %a %a %d %s\nbins", used[i].rate_Bps, t0, width, nbins, used[i].name);
    for (int b = 0; b < nbins; b++)
      fprintf(f, " %a", bins[b]);
    fputc('\n', f);
  }
  return close_checked(f);
#endif
}
