/* link_change.h: one change of a SimGrid link's bandwidth and latency, by the name --links
 * prints (--what-if link:... and background:...): the runner makes it before it sends
 * anything, the platform's probe before it reads the routes, so that the simulation and the
 * cost models see the same degraded link. */
#ifndef TOPO_LINK_CHANGE_H
#define TOPO_LINK_CHANGE_H

#ifdef __cplusplus
extern "C" {
#endif

/* Multiplies the bandwidth of link `name` by factor and adds add_lat seconds to its latency,
 * in the SimGrid engine of this process. A split-duplex link's bare name (node3-nic2) stands
 * for both of its directions (node3-nic2_UP and node3-nic2_DOWN). Returns 0, or SA_EINVAL
 * when the platform has no link of that name. */
int topo_link_change(const char *name, double factor, double add_lat);

#ifdef __cplusplus
}
#endif

#endif
