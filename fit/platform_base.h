/* platform_base.h: what `simcalib platform` draws a platform from before the command line's
 * own choices: a ping-pong calibration, a preset server, a fit of collective measurements. */
#ifndef FIT_PLATFORM_BASE_H
#define FIT_PLATFORM_BASE_H

#include "calibration.h"
#include "topo/platform_xml.h"
#include "topo/presets.h"

typedef struct {
  topo_cluster topo;
  topo_platform_spec spec;
  int has_gpus;          /* the base knows its GPUs per node */
  int inter_copied, intra_copied; /* ping-pong: a class not measured copies the other */
  char notes[8192];
  char set[3][4096];     /* the SMPI settings the spec points at */
  char name[128];
} fit_platform_base;

/* From a ping-pong calibration: a private link per GPU at the intra-node route's rate and
 * half its latency, one NIC per node (or nics) at the inter-node rate, one switch, the fitted
 * SMPI factors and receive overhead, the fitted compute properties. */
void fit_base_from_pingpong(const fit_calibration *c, const char *path, int nics, fit_platform_base *b);

/* From a preset: its node, NICs and fabric, the compute properties of its GPU, its sources;
 * nic_given: the NIC's rate comes from elsewhere (--nic-rate), and the notes leave the
 * preset's out. */
void fit_base_from_preset(const topo_preset *p, int nic_given, fit_platform_base *b);

/* From a cluster fit: its node, NICs and fabric with the fitted rates, the ramp as
 * smpi/bw-factor, its compute properties, and its notes (the preset's sources after them). */
void fit_base_from_cluster(const fit_cluster_cal *c, fit_platform_base *b);

#endif
