/* ar_activity.h: what the runner's NCCL pipeline (nccl_pipe.c) needs of SimGrid, under SMPI,
 * that SimGrid 3.32's C interface lacks (ar_activity.cpp, over its C++ interface): a wait for
 * the first of several activities (messages on mailboxes, device work) to finish or for a
 * time to pass. The C interface waits on messages
 * or on device work, not both, and when its time passes first it drops the messages it was
 * given (sg_comm_wait_any_for releases every reference, even of those still under way). */
#ifndef AR_ACTIVITY_H
#define AR_ACTIVITY_H

#ifdef SA_SMPI
#include <simgrid/forward.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Waits for the first of ncomm messages and nexec pieces of device work (started with the C
 * interface, each holding the caller's reference) to finish, or for `timeout` seconds (< 0:
 * no limit). Returns its index (comms first: i < ncomm is comms[i], else execs[i - ncomm]),
 * its reference released, or -1 when the time passed first (every reference kept). */
int ar_wait_any(sg_comm_t *comms, int ncomm, sg_exec_t *execs, int nexec, double timeout);

#ifdef __cplusplus
}
#endif
#endif

#endif
