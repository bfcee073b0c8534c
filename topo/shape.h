/* shape.h: everything a generated platform is made from (a topology and the spec's numbers
 * and settings), as one line of text. The generator writes it into the file it writes
 * (platform_xml.c); the driver, finding a file that is exactly what the generator writes for
 * its line (platform/zone_loader.c), has SimGrid build that platform from the line instead of
 * reading the XML (topo/zone.cpp): the same hosts, links and routes, with routes
 * computed per message in one flat zone rather than looked up through thousands of zones. */
#ifndef TOPO_SHAPE_H
#define TOPO_SHAPE_H

#include <stddef.h>

#include "platform_xml.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TOPO_SHAPE_PROP "simallreduce/shape"
/* a platform's latency factor (SMPI's syntax and meaning), a property of its root zone in
 * place of smpi/lat-factor in its <config>: the runner applies it, and takes the latency off
 * NCCL's slices (topo/sg_latency.h), which SimGrid refuses once smpi/lat-factor is set */
#define TOPO_LAT_FACTOR_PROP "simallreduce/lat-factor"
/* the variable naming the platform file to the loader (topo/zone.cpp) */
#define TOPO_SHAPE_FILE_ENV "SIMALLREDUCE_PLATFORM_XML"
/* a line's longest: its numbers and its three settings */
#define TOPO_SHAPE_LINE (4 * TOPO_SHAPE_TEXT)
#define TOPO_SHAPE_TEXT 4096 /* as long as a fit's SMPI settings (platform_base.h) */

/* A platform's shape: its topology and spec (the spec's strings point into the buffers; the
 * name and notes, which only the header comment holds, are not part of it). */
typedef struct {
  topo_cluster topo;
  topo_platform_spec spec;
  char lat_factor[TOPO_SHAPE_TEXT], bw_factor[TOPO_SHAPE_TEXT], recv_overhead[TOPO_SHAPE_TEXT];
} topo_shape;

/* The line for topology t and spec s into buf: 0, or SA_EINVAL when it has no line (a
 * setting too long, or holding a space or a character XML would escape) or buf is short. */
int topo_shape_format(const topo_cluster *t, const topo_platform_spec *s, char *buf, size_t len);

/* Reads a line back: 0, or SA_EPARSE (an unknown word, a number that is not one, a missing
 * part); numbers come back bit for bit. */
int topo_shape_parse(const char *line, topo_shape *out);

/* 1 when text (a platform file of len bytes) is exactly what the generator writes for the
 * shape it carries, a shape of NVSwitch nodes that topo_check accepts (out then holds it),
 * else 0 (shape_file.c says what "exactly" leaves out: the header comment's words). */
int topo_shape_of_file(const char *text, size_t len, topo_shape *out);

#ifdef __cplusplus
}
#endif

#endif
