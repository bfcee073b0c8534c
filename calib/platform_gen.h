/* platform_gen.h: a SimGrid platform in the project's conventions from a calibration. */
#ifndef CAL_PLATFORM_GEN_H
#define CAL_PLATFORM_GEN_H

#include <stdio.h>

#include "calibration.h"

typedef struct {
  int nodes, gpus_per_node, nics;
  const char *name;       /* for the header comment */
  const char *calib_path; /* idem */
} cal_shape;

/* Route parameters the generator uses for each class (a class not measured copies the
 * other), and the link parameters that give them. */
typedef struct {
  double intra_lat, intra_bw, inter_lat, inter_bw; /* routes */
  double gpu_link_lat, nic_link_lat;               /* per link: routes add them up */
  int intra_copied, inter_copied, inter_clamped;
} cal_links;

void cal_links_of(const cal_calibration *c, cal_links *l);

/* Writes the platform: one host per GPU named node<i>-gpu<j> with property node=i and the
 * compute properties, one cluster zone per node (per NIC with nics > 1), a NIC link per
 * node (per rail) into an empty fabric zone with a switch router, Floyd routing, and the
 * SMPI factors in <config>. Returns 0 or -1 on a write error. */
int cal_platform_write(FILE *f, const cal_calibration *c, const cal_shape *s);

#endif
