/* report_csv.c: the CSV: a comment line saying how it was made, the column names, one row
 * per result as it arrives, a closing comment with the wall time. Fields are quoted where
 * RFC 4180 needs it (a platform's name may hold a comma or a quote). */
#include <math.h>
#include <string.h>

#include "util/textclean.h"
#include "report.h"

void sim_report_csv_head(FILE *f, const sim_run_info *run)
{
  if (run->prov)
    sim_provenance_csv(f, run->prov);
  fprintf(f, "platform,nodes,ranks_per_node,ranks,algo,bytes,count,dtype,time_s,algbw_GBps,busbw_GBps,verified,"
             "max_abs_err,density,k,phases,model_time_s,nccl_ring_s,nccl_tree_s,nccl%s\n",
          run->whatif ? ",healthy_time_s,slowdown" : "");
}

void sim_report_csv_row(FILE *f, const sim_run_info *run, const sim_point *p)
{
  util_csv_field(f, run->platform);
  fprintf(f, ",%d,%d,%d,", run->nodes, run->ranks_per_node, run->ranks);
  util_csv_field(f, p->algo);
  fprintf(f, ",%llu,%llu,", (unsigned long long)p->bytes, (unsigned long long)p->count);
  util_csv_field(f, p->dtype);
  fputc(',', f);
  if (p->simulated)
    fprintf(f, "%.17g", p->time_s);
  if (isnan(sim_point_time(p))) /* no time, no bandwidth */
    fputs(",,", f);
  else
    fprintf(f, ",%.17g,%.17g", sim_algbw(p), sim_busbw(p, run->ranks));
  fprintf(f, ",%s,", p->verified < 0 ? "" : p->verified ? "true" : "false");
  if (p->verified >= 0)
    fprintf(f, "%.17g", p->max_abs_err);
  fputc(',', f);
  if (p->sparse)
    fprintf(f, "%.17g,%lld", p->density, p->k);
  else
    fputc(',', f);
  fputc(',', f);
  char phases[SIM_MAX_PHASES * 80] = "";
  for (int k = 0; k < p->nphases; k++)
    snprintf(phases + strlen(phases), sizeof phases - strlen(phases), "%s%s=%.17g", k ? ";" : "", p->phase_name[k],
             p->phase_s[k]);
  util_csv_field(f, phases);
  /* empty fields where there is no prediction */
  const double extra[] = {p->model_s, p->nccl_ring_s, p->nccl_tree_s};
  for (int k = 0; k < 3; k++) {
    fputc(',', f);
    if (sim_run_mode(run) != SIM_MODE_SIM && !isnan(extra[k]))
      fprintf(f, "%.17g", extra[k]);
  }
  fprintf(f, ",%s", p->nccl);
  if (!isnan(sim_point_slowdown(run, p)))
    fprintf(f, ",%.17g,%.17g", p->healthy_s, sim_point_slowdown(run, p));
  else if (run->whatif)
    fputs(",,", f);
  fputc('\n', f);
}

void sim_report_csv_tail(FILE *f, int npoints, double wall_s)
{
  fprintf(f, "# simallreduce: %d results in %.2f s of wall time\n", npoints, wall_s);
}
