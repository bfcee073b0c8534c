/* ar_native.h: exchanges as SimGrid messages under SMPI, timed as SMPI times them
 * (ar_native.c), and when SimGrid's settings allow them (ar_native_sg.cpp). */
#ifndef AR_NATIVE_H
#define AR_NATIVE_H

#include <mpi.h>
#include <stddef.h>

#ifdef AR_SMPI
#include <simgrid/forward.h>

#define AR_NATIVE_BOXES 8

/* One rank's state: its world rank, SMPI's eager limit, the mailboxes it used last, and its
 * eager messages still to collect (ar_native.c). */
typedef struct ar_native {
  int rank;
  long long detached_thresh;
  struct {
    sg_comm_t comm;
    void *carried; /* what it carries: its receiver marks it */
  } *eager;
  int neager, maxeager;
  int nbox, next;
  struct {
    int src, dst, cls;
    sg_mailbox_t mb;
  } box[AR_NATIVE_BOXES];
} ar_native;
#else
typedef struct ar_native ar_native;
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when SMPI adds no time of its own around a message under the run's settings (smpi/os,
 * smpi/ois and smpi/or zero, globally and on every host; smpi/async-small-thresh 0), so
 * that messages on mailboxes are timed as SMPI's; SMPI's eager limit in *detached_thresh. */
int ar_native_allowed(long long *detached_thresh);

#ifdef AR_SMPI
/* A message of `bytes` simulated bytes carrying the pointer payload to mailbox mb, and a
 * receive of one such pointer into *payload, both started, each with the reference the C
 * interface's waits and tests release. */
sg_comm_t ar_native_put(sg_mailbox_t mb, void *payload, long bytes);
sg_comm_t ar_native_get(sg_mailbox_t mb, void **payload);
#endif

#ifdef __cplusplus
}
#endif

#endif
