/* validation.h: measured allreduce points next to their simulation: the pairing, the errors
 * and their summary, as `simcalib validate` reports them. No I/O besides cJSON. */
#ifndef VALIDATE_VALIDATION_H
#define VALIDATE_VALIDATION_H

#include <cjson/cJSON.h>
#include <stddef.h>

#define VAL_ALGO_LEN 32

typedef struct {
  char algo[VAL_ALGO_LEN];
  double bytes;
  double measured_s;             /* median over repetitions */
  double q1_s, q3_s, min_s, max_s; /* of the repetitions; q1 = q3 = median with one */
  int reps;
  double simulated_s;
  double model_s; /* NAN when no cost model gave one */
  double error;   /* (simulated - measured) / measured */
} val_point;

typedef struct {
  size_t n;
  double median_abs, geomean_abs, max_abs;
  size_t worst; /* index of the point with the largest |error| */
} val_summary;

/* Floor under |error| in the geometric mean, so that one exact match does not make it 0. */
#define VAL_GEOMEAN_FLOOR 1e-4

/* (simulated - measured) / measured. */
double val_error(double simulated, double measured);

/* Summary of the points' |error|; returns SA_ENODATA when n is 0. */
int val_summarize(const val_point *p, size_t n, val_summary *s);

/* How far a simulated time lies from a published range [lo, hi], relative to the nearer
 * end: 0 inside it, (sim - hi) / hi above, (sim - lo) / lo below. */
double val_range_error(double sim, double lo, double hi);

/* The measured points of one runner result file (mode "measured"): appends to *p (grown with
 * realloc; *n points, *cap room) and reports its shape. Returns 0, SA_EPARSE with why in
 * err, or SA_ENOMEM. */
int val_read_measured(const cJSON *doc, val_point **p, size_t *n, size_t *cap, int *ranks, int *rpn, char *err,
                          size_t errlen);

/* The allreduce points of run `run` (-1: the only one) of a measured-data file (an imported
 * nccl-tests or OSU log), out-of-place or in-place, of min_bytes or more, named algo (NULL:
 * nccl, NCCL's own choice, for a nccl-tests run, ring for others), their
 * time the log's (one number, the tool's own average); appends as val_read_measured
 * does. Returns 0, SA_EIO or SA_EPARSE with why in err, or SA_ENOMEM. */
int val_read_imported(const char *path, const char *algo, int run, int inplace, double min_bytes, val_point **p,
                          size_t *n, size_t *cap, int *ranks, int *rpn, char *err, size_t errlen);

/* Looks up algo at bytes in a simallreduce --json document's "results": its time_s, or its
 * model_time_s when want_model (falling back on time_s in a document whose "mode" is
 * "model"). Returns the time, or a negative number when the point is not there. */
double val_lookup(const cJSON *doc, const char *algo, double bytes, int want_model);

/* The validation document: shape, link rate (NULL: null), points, summary. */
cJSON *val_json(int hosts, int rpn, const char *link_rate, const val_point *p, size_t n, const val_summary *s);

#endif
