/* netfit.h: alpha-beta fits of point-to-point times for one path class (intra or inter
 * node), piecewise over message size where the MPI protocol changes. */
#ifndef FIT_NETFIT_H
#define FIT_NETFIT_H

#include <cjson/cJSON.h>

#include "fit.h"
#include "measured/measured.h"

/* Worst relative error a piecewise fit aims for, and the most segments it may use. */
#define FIT_NET_TOL 0.05
#define FIT_NET_MAX_SEG 8
/* Points a segment needs: three, so that every segment's line is tested by one point more
 * than it takes to draw it, and a single noisy size cannot get a segment of its own. */
#define FIT_NET_MIN_POINTS 3
/* ... unless no such fit meets the tolerance: a law that changes within one size step then
 * gets segments of two (fit_net_run keeps them only where they fit better). */
#define FIT_NET_MIN_POINTS_CHANGE 2

typedef struct {
  char path[8];
  char op[24];
  size_t n;
  double *bytes, *time; /* the points used, sorted by size, one per size (repeats averaged) */
  fit_piecewise pw;
} fit_net;

/* Fits time = alpha + beta * bytes to the points of d with this op and path. Returns 0,
 * SA_ENODATA when there are fewer than 2 sizes, SA_ENOMEM or SA_EFIT. */
int fit_net_run(const md_data *d, const char *op, const char *path, double tol, size_t max_seg,
                   fit_net *nf);

/* The segment holding `bytes`, and the fitted time there. */
const fit_line *fit_net_line(const fit_net *nf, double bytes);
double fit_net_eval(const fit_net *nf, double bytes);

/* {"path", "op", "points_used", "max_rel_err", "latency_s", "bandwidth_Bps", "segments": [...]} */
cJSON *fit_net_json(const fit_net *nf);

void fit_net_free(fit_net *nf);

#endif
