/* computefit.h: fixed + per-unit cost fits of the measured kernels, and the platform's
 * compute properties (reduce_bw, reduce_lat, copy_bw, topk_a, topk_b) taken from them. */
#ifndef CAL_COMPUTEFIT_H
#define CAL_COMPUTEFIT_H

#include <cjson/cJSON.h>

#include "../models/fit.h"
#include "measured.h"

typedef struct {
  int has;
  double fixed_s, per_unit_s; /* time = fixed + per_unit * units */
  cost_fit_line line;
  double from, to;            /* unit range of the points used */
} cal_cost;

typedef struct {
  char device[8];
  cal_cost reduce_fp32, reduce_fp16, copy, mstopk, topk_exact; /* sums and copies per byte, selections per element */
  cal_cost h2d, d2h, p2p;                                        /* CUDA only */
} cal_compute;

/* Fits every kernel measured on `device` ("" picks cuda when present, else cpu). Returns 0,
 * or CAL_ENODATA when d holds no kernel points. */
int cal_compute_fit(const cal_data *d, const char *device, cal_compute *c);

cJSON *cal_compute_json(const cal_compute *c);

/* Host properties for the platform; 0, or CAL_ENODATA when reduce and memcpy are missing. */
typedef struct {
  double reduce_bw, reduce_lat, copy_bw, topk_a, topk_b;
} cal_compute_props;

int cal_compute_props_of(const cal_compute *c, cal_compute_props *p);

#endif
