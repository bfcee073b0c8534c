/* report.h: results as a table on stdout (nccl-tests style), JSON and CSV. */
#ifndef SIM_REPORT_H
#define SIM_REPORT_H

#include <stdio.h>

#include "results.h"

typedef struct {
  const char *platform, *platform_path;
  int nodes, ranks_per_node, ranks;
  double wall_s; /* host seconds the simulation took */
} sim_run_info;

/* algbw = bytes / time; busbw = algbw * 2(n-1)/n, as nccl-tests defines them (GB = 1e9). */
double sim_algbw(const sim_point *p);
double sim_busbw(const sim_point *p, int ranks);

void sim_report_table(FILE *f, const sim_run_info *run, const sim_results *r, int phases);
/* Return 0, or -1 when the file cannot be written. */
int sim_report_json(const char *path, const sim_run_info *run, const sim_results *r);
int sim_report_csv(const char *path, const sim_run_info *run, const sim_results *r);

#endif
