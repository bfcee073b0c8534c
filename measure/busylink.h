/* busylink.h: per-message times on a busy link, for fits whose per-byte cost should come
 * from the streaming test (messages back to back) rather than from the ping-pong. */
#ifndef MEASURE_BUSYLINK_H
#define MEASURE_BUSYLINK_H

#include "measured/measured.h"

/* The op of the points meas_busy_points makes. */
#define MEAS_BUSY_OP "busy"

/* For each path class with both tests, appends to out one point per streamed size S:
 * time = the ping-pong's one-way time at its smallest size (the latency) + what the
 * streaming time per message at S adds over the smallest streamed message (whose time is
 * per-message work the latency holds already), or the ping-pong's time at S where that is
 * longer. A shaper's bucket (tc tbf, a switch's credit) lets an idle link pass a first packet
 * at once, which a ping-pong, idle between messages, counts as bandwidth; back-to-back
 * messages, as in a collective, find the bucket empty. Returns the number of points made,
 * or SA_ENOMEM. */
int meas_busy_points(const md_data *d, md_data *out);

#endif
