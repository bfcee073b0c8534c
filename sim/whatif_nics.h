/* whatif_nics.h: the NIC faults of --what-if (nic-down:NODE-K, rail-down:K; common/whatif.h)
 * as a platform of their own. SimGrid's routes are fixed once a platform is loaded, so a GPU
 * whose NIC is gone needs another route out of its node: the platform is drawn again by the
 * generator from the shape line of the run's platform, with those NICs left out and each
 * orphaned GPU routed to the NIC NCCL would give it (topo/cluster.c, topo_nic_used;
 * docs/platforms.md "NICs down"). The healthy run keeps the original file. */
#ifndef SIM_WHATIF_NICS_H
#define SIM_WHATIF_NICS_H

#include <stddef.h>

#include "common/whatif.h"

/* Writes the platform of platform_path with the NICs w[0 .. n-1] take down into directory
 * dir, as <its name>-<what is down>.xml, its path in out_path. Kinds other than
 * SA_WI_NIC_DOWN and SA_WI_RAIL_DOWN are ignored; with none of those nothing is written and
 * out_path is "". Returns 0; SA_EINVAL with a one-line err naming the spec (a node or NIC
 * the platform does not have, a node left with no NIC, more than TOPO_MAX_DOWN NICs down one
 * by one, a platform with no shape line or one edited since the generator wrote it); SA_EIO
 * (err says why) when a file cannot be read or written. */
int sim_whatif_nics_platform(const char *platform_path, const sa_whatif *w, int n, const char *dir, char *out_path,
                             size_t out_len, char *err, size_t errlen);

/* One line for the run's header saying what was rebuilt in the platform sim_whatif_nics_platform
 * wrote (its path), e.g. "rail 3 down: GPU 3 of every node reaches NIC 4 over NVLink (PXN); 7
 * NICs per node". Returns 0, or SA_EINVAL / SA_EIO (buf then says why) when the file has no
 * shape line or cannot be read. */
int sim_whatif_nics_describe(const char *degraded_path, char *buf, size_t len);

#endif
