/* hostfile.h: which GPUs a run uses, written node-major for smpirun. */
#ifndef PLATFORM_HOSTFILE_H
#define PLATFORM_HOSTFILE_H

#include <stddef.h>

#include "platform.h"

/* Settles the shape of a run: nodes = *nodes or all, ranks per node = *rpn or the GPUs of a
 * node (the selected nodes must then all have the same count). Returns 0, or SA_EINVAL with err. */
int plat_layout(const plat_file *pf, int *nodes, int *rpn, char *err, size_t errlen);

/* Host i of the run: GPU i % rpn of node i / rpn. */
const char *plat_layout_host(const plat_file *pf, int rpn, int i);

/* Writes the nodes*rpn host names, one per line, node-major. Returns 0, PLAT_HOSTFILE_COUNTED
 * when a name holds a ':' and every line was written "name:1" (smpirun must then run in a
 * directory of the run's own: plat_launch.dir), or SA_EIO (errno says why). */
#define PLAT_HOSTFILE_COUNTED 1
int plat_hostfile_write(const plat_file *pf, int nodes, int rpn, const char *path);

#endif
