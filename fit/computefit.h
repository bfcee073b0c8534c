/* computefit.h: fixed + per-unit cost fits of the measured kernels, and the platform's
 * compute properties (reduce_bw, reduce_lat, copy_bw, topk_a/b, mstopk_a/b, scatter_a/b)
 * taken from them, in the units the algorithms charge them in (algos/sparse.c). */
#ifndef FIT_COMPUTEFIT_H
#define FIT_COMPUTEFIT_H

#include <cjson/cJSON.h>

#include "common/compute.h"
#include "fit.h"
#include "measured/measured.h"

typedef struct {
  int has;
  double fixed_s, per_unit_s; /* time = fixed + per_unit * units */
  fit_line line;
  double from, to;            /* unit range of the points used */
} fit_cost;

typedef struct {
  char device[8];
  fit_cost reduce_fp32, reduce_fp16, copy, mstopk; /* per byte (MSTopK: of its input) */
  fit_cost topk_exact, scatter;                     /* per input element, per (value, index) pair */
  fit_cost h2d, d2h, p2p;                                        /* CUDA only */
} fit_compute;

/* Fits every kernel measured on `device` ("" picks cuda when present, else cpu). Returns 0,
 * or SA_ENODATA when d holds no kernel points. */
int fit_compute_run(const md_data *d, const char *device, fit_compute *c);

cJSON *fit_compute_json(const fit_compute *c);

/* The platform's host properties (common/compute.h) from the fits; 0, or SA_ENODATA when
 * reduce and memcpy are missing. */
int fit_compute_props_of(const fit_compute *c, sa_compute *p);

#endif
