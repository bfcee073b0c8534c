/* computefit.h: fixed + per-unit cost fits of the measured kernels, and the platform's
 * compute properties (reduce_bw, reduce_lat, copy_bw, topk_a/b, mstopk_a/b, scatter_a/b)
 * taken from them, in the units the algorithms charge them in (algos/sparse.c). */
#ifndef CAL_COMPUTEFIT_H
#define CAL_COMPUTEFIT_H

#include <cjson/cJSON.h>

#include "common/compute.h"
#include "fit.h"
#include "measured.h"

typedef struct {
  int has;
  double fixed_s, per_unit_s; /* time = fixed + per_unit * units */
  cal_fit_line line;
  double from, to;            /* unit range of the points used */
} cal_cost;

typedef struct {
  char device[8];
  cal_cost reduce_fp32, reduce_fp16, copy, mstopk; /* per byte (MSTopK: of its input) */
  cal_cost topk_exact, scatter;                     /* per input element, per (value, index) pair */
  cal_cost h2d, d2h, p2p;                                        /* CUDA only */
} cal_compute;

/* Fits every kernel measured on `device` ("" picks cuda when present, else cpu). Returns 0,
 * or SA_ENODATA when d holds no kernel points. */
int cal_compute_fit(const cal_data *d, const char *device, cal_compute *c);

cJSON *cal_compute_json(const cal_compute *c);

/* The platform's host properties (common/compute.h) from the fits; 0, or SA_ENODATA when
 * reduce and memcpy are missing. */
int cal_compute_props_of(const cal_compute *c, sa_compute *p);

#endif
