/* platform_base.h: what `simcalib platform` draws a platform from before the command line's
 * own choices: a ping-pong calibration, a preset server, a fit of collective measurements. */
#ifndef CAL_PLATFORM_BASE_H
#define CAL_PLATFORM_BASE_H

#include "calibration.h"
#include "platform_gen.h"
#include "presets.h"

typedef struct {
  cal_topo topo;
  cal_platform_spec spec;
  int has_gpus;          /* the base knows its GPUs per node */
  int inter_copied, intra_copied; /* ping-pong: a class not measured copies the other */
  char notes[8192];
  char set[3][4096];     /* the SMPI settings the spec points at */
  char name[128];
} cal_platform_base;

/* From a ping-pong calibration: a private link per GPU at the intra-node route's rate and
 * half its latency, one NIC per node (or nics) at the inter-node rate, one switch, the fitted
 * SMPI factors and receive overhead, the fitted compute properties. */
void cal_base_from_pingpong(const cal_calibration *c, const char *path, int nics, cal_platform_base *b);

/* From a preset: its node, NICs and fabric, the compute properties of its GPU, its sources. */
void cal_base_from_preset(const cal_preset *p, cal_platform_base *b);

/* From a cluster fit: its node, NICs and fabric with the fitted rates, the ramp as
 * smpi/bw-factor, its compute properties, and its notes (the preset's sources after them). */
void cal_base_from_cluster(const cal_cluster_cal *c, cal_platform_base *b);

#endif
