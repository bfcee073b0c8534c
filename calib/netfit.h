/* netfit.h: alpha-beta fits of point-to-point times for one path class (intra or inter
 * node), piecewise over message size where the MPI protocol changes. */
#ifndef CAL_NETFIT_H
#define CAL_NETFIT_H

#include <cjson/cJSON.h>

#include "fit.h"
#include "measured.h"

/* Worst relative error a piecewise fit aims for, and the most segments it may use. */
#define CAL_NET_TOL 0.05
#define CAL_NET_MAX_SEG 8
/* Points a segment needs: three, so that every segment's line is tested by one point more
 * than it takes to draw it, and a single noisy size cannot get a segment of its own. */
#define CAL_NET_MIN_POINTS 3
/* ... unless no such fit meets the tolerance: a law that changes within one size step then
 * gets segments of two (cal_netfit_run keeps them only where they fit better). */
#define CAL_NET_MIN_POINTS_CHANGE 2

typedef struct {
  char path[8];
  char op[24];
  size_t n;
  double *bytes, *time; /* the points used, sorted by size, one per size (repeats averaged) */
  cal_fit_piecewise pw;
} cal_netfit;

/* Fits time = alpha + beta * bytes to the points of d with this op and path. Returns 0,
 * SA_ENODATA when there are fewer than 2 sizes, SA_ENOMEM or SA_EFIT. */
int cal_netfit_run(const cal_data *d, const char *op, const char *path, double tol, size_t max_seg,
                   cal_netfit *nf);

/* The segment holding `bytes`, and the fitted time there. */
const cal_fit_line *cal_netfit_line(const cal_netfit *nf, double bytes);
double cal_netfit_eval(const cal_netfit *nf, double bytes);

/* {"path", "op", "points_used", "max_rel_err", "latency_s", "bandwidth_Bps", "segments": [...]} */
cJSON *cal_netfit_json(const cal_netfit *nf);

void cal_netfit_free(cal_netfit *nf);

#endif
