/* platform_xml.h: a SimGrid platform file in the project's conventions (docs/platforms.md),
 * drawn from a topology (cluster.h), with SMPI's settings, the compute properties and a header
 * comment saying where every number comes from. */
#ifndef TOPO_PLATFORM_XML_H
#define TOPO_PLATFORM_XML_H

#include <stdio.h>

#include "common/compute.h"
#include "cluster.h"

typedef struct {
  const char *name;         /* the platform's name, first in its header comment */
  const char *notes;        /* the header comment's text after the shape: sources, fits */
  int has_compute;          /* compute properties on every host (else none: not charged) */
  sa_compute compute;
  const char *lat_factor;   /* smpi/lat-factor, smpi/bw-factor in <config>; NULL: "0:1" */
  const char *bw_factor;
  const char *recv_overhead; /* smpi/or as a host property; NULL: none */
  double host_speed;        /* flop/s: only converts charged seconds (NULL: 1 Tf) */
} topo_platform_spec;

/* v as the file writes it, into buf: in `digits` significant digits where they read back as
 * v exactly, else in the 17 that always do. The figures read back are the ones the fit chose,
 * bit for bit: NCCL's replays follow their events' order, which a figure's last bits can
 * change (a fit of L02 whose sums' rate was written in 9 digits put its 64 MiB 1.9% off the
 * fit's own table: models/cost_nccl_des.c). The loader that builds a generated file from its
 * shape (zone.cpp) reads its figures through this too. */
const char *topo_xml_number(char *buf, size_t len, int digits, double v);

/* Writes the platform: a world zone (Full routing over its leaves) holding, per leaf of the
 * fabric, a zone (DijkstraCache: a star, routes computed per source and kept) of one zone per
 * GPU (host node<i>-gpu<j>, property node=i, the compute properties) joined to the leaf's
 * switch by the GPU's way to its NIC; leaves joined through their uplinks; GPUs of one node
 * joined by bypass routes (their intra-node path) in the zone that holds them both. Nothing
 * in it grows faster than the number of GPUs times the GPUs of a node. Returns 0, or SA_EIO
 * (or SA_ENOMEM) as soon as a write to f fails: a stream that refuses more stops it. */
int topo_platform_xml(FILE *f, const topo_cluster *t, const topo_platform_spec *s);

/* The header comment's description of a topology (kind, links, NICs, fabric), for notes. */
void topo_describe(const topo_cluster *t, char *buf, size_t len);

#endif
