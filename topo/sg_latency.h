/* sg_latency.h: a platform's latency factor applied in SimGrid by the programs that run on it
 * (the runner, the ping-pong), and NCCL's slices given their latency where NCCL pays it,
 * under SMPI (sg_latency.cpp).
 *
 * NCCL keeps up to NCCL_STEPS steps of a connection in flight: its proxy posts each one to
 * the NIC as soon as the GPU has filled it (over NVLink the GPU writes them into the peer's
 * buffer one after another), so the slices cross the wire back to back and each one's
 * latency overlaps the bytes of the one before (src/transport/net.cc and
 * src/device/prims_simple.h, v2.26.2-1). SimGrid gives a message its route's latency before
 * its bytes, so slices sent one after another would leave the link idle for a latency
 * between them. Here a rank's messages take no latency while it runs the pipeline
 * (SimGrid's latency-factor callback, which then applies the platform's factor to every
 * other message as SMPI would), and the receiver sees each slice its route's latency after
 * its bytes are in. SimGrid 3.32 refuses that callback where smpi/lat-factor is set (by a
 * file's <config> or --cfg): there the slices keep their latency and cross one at a time,
 * and the models do the same (the platform's probe says which). The platforms written here
 * carry their factor as TOPO_LAT_FACTOR_PROP (shape.h) instead, which SimGrid alone ignores:
 * a program of one's own on them, under SimGrid alone, gives --cfg=smpi/lat-factor the
 * same value. */
#ifndef TOPO_SG_LATENCY_H
#define TOPO_SG_LATENCY_H

#ifdef SA_SMPI
#include <simgrid/forward.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Installs the callback, once per simulation, before any message. Returns 1 when the
 * slices take their latency at the receiver, 0 where SimGrid refused it, -1 for a latency
 * factor that does not parse. */
int topo_latency_init(void);

/* 1 while this rank's messages are slices of the pipeline (no latency), 0 after. */
void topo_latency_slices(int on);

/* The latency of the route from host `from` to this rank's, which the receiver adds to a
 * slice once its bytes are in; 0 where topo_latency_init did not install the callback. */
double topo_latency_route(sg_host_t from);

/* The platform's latency factor at a message of `bytes` (SMPI's meaning). */
double topo_latency_factor(double bytes);

#ifdef __cplusplus
}
#endif
#endif

#endif
