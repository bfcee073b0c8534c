/* ar_native.h: exchanges as SimGrid messages under SMPI, timed as SMPI times them
 * (ar_native.c), and when SimGrid's settings allow them (ar_native_sg.cpp). */
#ifndef AR_NATIVE_H
#define AR_NATIVE_H

#include <mpi.h>
#include <stddef.h>

#ifdef SA_SMPI
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

#ifdef SA_SMPI
/* One exchange's messages, started together in one call into SimGrid's kernel: when
 * put_mb is set, a message of `bytes` simulated bytes carrying the pointer payload to it
 * (into *put); then, when get_mb is set, a receive of one such pointer into *got (into
 * *get). Each message holds the reference the C interface's waits release. */
void ar_native_start(sg_mailbox_t put_mb, void *payload, long bytes, sg_comm_t *put, sg_mailbox_t get_mb, void **got,
                     sg_comm_t *get);
#endif

#ifdef __cplusplus
}
#endif

#endif
