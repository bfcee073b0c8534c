/* report.h: results as a table on stdout (nccl-tests style), JSON and CSV. */
#ifndef SIM_REPORT_H
#define SIM_REPORT_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "modeling.h"
#include "provenance.h"
#include "results.h"
#include "topo/fit_cover.h"

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
  const sim_opts *opts;            /* the options the result files record (NULL: none) */
  const sim_provenance *prov;      /* how the run was made (NULL: not said) */
  int links;                       /* --links N: the busiest N links of each point, 0: none */
  const char *timing;              /* --timing, by name (NULL: barrier) */
  const topo_cover *cover;         /* what the platform's fit saw (NULL: not a fitted platform) */
  const char *whatif;              /* --what-if's faults, in words (NULL: a healthy run) */
  const struct sim_training *training; /* --workload: its step after the table (NULL: none) */
} sim_run_info;

/* --mode of the run (sim when there are no models) */
sim_mode sim_run_mode(const sim_run_info *run);

/* The point's time: simulated, or predicted for a model-only point. */
double sim_point_time(const sim_point *p);

/* --what-if: the point's time over its healthy one, NaN where there is none (a healthy run,
 * a point without a time). */
double sim_point_slowdown(const sim_run_info *run, const sim_point *p);

/* algbw = bytes / time; busbw = algbw * 2(n-1)/n, as nccl-tests defines them (GB = 1e9). */
double sim_algbw(const sim_point *p);
double sim_busbw(const sim_point *p, int ranks);

/* The table: its two header lines (mode: the run's, "simulated"), one row per point as it
 * arrives, and what follows the rows (sparse notes, phases, the models' lines, wall time). */
void sim_report_table_head(FILE *f, const sim_run_info *run, const char *mode);
void sim_report_table_row(FILE *f, const sim_run_info *run, const sim_point *p);
void sim_report_table_tail(FILE *f, const sim_run_info *run, const sim_results *r, int phases);

/* JSON: one result; the run's fields (platform, shape, mode, options, provenance with
 * wall_s, or without it when wall_s < 0); the options --resume compares; the compute. */
cJSON *sim_report_point_json(const sim_run_info *run, const sim_point *p);
cJSON *sim_report_head_json(const sim_run_info *run, const char *mode, double wall_s);
cJSON *sim_report_options(const sim_opts *o);
void sim_report_compute_json(cJSON *root, const sa_compute *c);
/* The --json document. Returns 0, or SA_EIO when the file cannot be written. */
int sim_report_json(const char *path, const sim_run_info *run, const sim_results *r, double wall_s, char *err,
                    size_t errlen);

/* report_csv.c: the provenance comment and column names, a row, the closing comment. */
void sim_report_csv_head(FILE *f, const sim_run_info *run);
void sim_report_csv_row(FILE *f, const sim_run_info *run, const sim_point *p);
void sim_report_csv_tail(FILE *f, int npoints, double wall_s);

/* report_models.c: the models' part of the table (their parameters, NCCL's reference, the
 * --algo best decision table) and of the JSON. */
void sim_report_models_table(FILE *f, const sim_run_info *run, const sim_results *r);
void sim_report_models_json(cJSON *root, const sim_run_info *run, const sim_results *r);
void sim_report_models_point(cJSON *o, const sim_run_info *run, const sim_point *p);

#endif
