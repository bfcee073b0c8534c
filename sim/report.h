/* report.h: results as a table on stdout (nccl-tests style), JSON and CSV. */
#ifndef SIM_REPORT_H
#define SIM_REPORT_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "modeling.h"
#include "results.h"

/* What the cost models add to a report. */
typedef struct {
  sim_mode mode;
  const sim_model *model;   /* NULL with --mode sim */
  const cost_range *ranges; /* --algo best: the decision table, indices into algos */
  int nranges;
  const char *const *algos;
  int allow_sparse;
} sim_report_models;

typedef struct {
  const char *platform, *platform_path;
  int nodes, ranks_per_node, ranks;
  double wall_s; /* host seconds the simulation took */
  const sim_report_models *models; /* NULL: a plain simulation report */
  const char *timing;              /* --timing, by name */
} sim_run_info;

/* The point's time: simulated, or predicted for a model-only point. */
double sim_point_time(const sim_point *p);

/* algbw = bytes / time; busbw = algbw * 2(n-1)/n, as nccl-tests defines them (GB = 1e9). */
double sim_algbw(const sim_point *p);
double sim_busbw(const sim_point *p, int ranks);

void sim_report_table(FILE *f, const sim_run_info *run, const sim_results *r, int phases);
/* Return 0, or SA_EIO when the file cannot be written. */
int sim_report_json(const char *path, const sim_run_info *run, const sim_results *r);
int sim_report_csv(const char *path, const sim_run_info *run, const sim_results *r);

/* report_models.c: the models' part of the table (their parameters, NCCL's reference, the
 * --algo best decision table) and of the JSON. */
void sim_report_models_table(FILE *f, const sim_run_info *run, const sim_results *r);
void sim_report_models_json(cJSON *root, const sim_run_info *run);
void sim_report_models_point(cJSON *o, const sim_run_info *run, const sim_point *p);

#endif
