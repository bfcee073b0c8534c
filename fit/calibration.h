/* calibration.h: the calibration file `simcalib fit` writes and `simcalib platform` reads. */
#ifndef FIT_CALIBRATION_H
#define FIT_CALIBRATION_H

#include <stddef.h>

#include "clustercal.h"
#include "computefit.h"
#include "smpi_fit.h"

#define FIT_CALIBRATION_SCHEMA "simallreduce-calibration-1"

typedef struct {
  int has_smpi;    /* a ping-pong was fitted: smpi */
  fit_smpi smpi;
  fit_cluster_cal cluster; /* allreduce runs were fitted (cluster.has) */
  int has_compute;
  sa_compute compute;
  char compute_device[8];
  char machine[128];
} fit_calibration;

/* Reads what a platform needs from a calibration file: a ping-pong's SMPI settings, a
 * cluster fit, or both. Returns 0, or SA_EIO/SA_EPARSE with err naming the problem. */
int fit_calibration_read(const char *path, fit_calibration *c, char *err, size_t errlen);

#endif
