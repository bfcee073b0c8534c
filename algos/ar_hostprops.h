/* ar_hostprops.h: the compute model of the host a rank runs on, from platform properties. */
#ifndef AR_HOSTPROPS_H
#define AR_HOSTPROPS_H

#include "ar.h"

/* Fills c from the calling rank's host properties under SMPI (missing ones are 0: not
 * charged); in a real run everything is 0, the hardware pays for itself. Returns 0, or
 * SA_EINVAL with a line on stderr naming a value out of its range (the driver refuses such
 * a platform when it loads it). */
int ar_compute_from_host(sa_compute *c);

/* One numeric property of the calling rank's host (0 when missing or in a real run). */
double ar_host_prop(const char *name);

/* The node index the platform gives the calling rank's host, or -1 when unknown. */
int ar_host_node(void);

#endif
