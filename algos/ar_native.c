/* ar_native.c: the simulated runner's exchanges (ar_sendrecv) as SimGrid messages on
 * mailboxes, timed as SMPI times an MPI_Sendrecv but without its request machinery.
 *
 * Why: SMPI spends much of a message's wall time on requests, matching, datatype handling
 * and reading the CPU clock around each call: a 1024-rank ring of 256 MiB (128 nodes of 8
 * H100) took 27.8 s of wall time through MPI_Sendrecv, 17.9 s on mailboxes, with the same
 * simulated time to the last bit. What SimGrid simulates stays
 * the same: the message SMPI would start, with SMPI's 16-byte envelope added to its size
 * (smpi_request.cpp, Request::start, SimGrid 3.32), sent after the receive is posted, the
 * send posted first as MPI_Sendrecv posts it, detached (the sender goes on at once) below
 * smpi/send-is-detached-thresh, rendezvous above. Only used when SMPI would add no time of
 * its own around a message (smpi/os, smpi/ois, smpi/or zero, smpi/async-small-thresh 0:
 * ar_native_allowed), on the communicators whose ranks map to world ranks without a call
 * (the world, the layout's node and cross ones); anything else goes through MPI.
 * Mailbox order is MPI's non-overtaking order: one mailbox per sender, receiver and
 * communicator, and both sides of every exchange go through here. Real data travels as a
 * copy taken when the message is posted (SMPI copies a detached message the same way). */
#include "ar.h"

#ifdef AR_SMPI
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/comm.h>
#include <simgrid/mailbox.h>

/* SMPI's envelope: tag, source and communicator travel with every message. */
#define ENVELOPE_BYTES 16

/* A real message: its bytes, copied when sent. */
typedef struct {
  size_t bytes;
  unsigned char data[];
} payload;

/* What a timing-mode message carries: SimGrid sends no null payload, and the bytes are not
 * real. */
static char no_data;

void ar_native_drop(void *pl)
{
  if (pl != &no_data)
    free(pl);
}

void ar_native_init(ar_native *n, int world_rank, long long detached_thresh)
{
  memset(n, 0, sizeof *n);
  n->rank = world_rank;
  n->detached_thresh = detached_thresh;
}

/* Communicator classes with known rank maps. */
enum { COMM_WORLD, COMM_NODE, COMM_CROSS, COMM_OTHER };

static int comm_class(MPI_Comm comm, const ar_params *p)
{
  if (comm == MPI_COMM_WORLD)
    return COMM_WORLD;
  if (p->layout && comm == p->layout->node)
    return COMM_NODE;
  if (p->layout && comm == p->layout->cross)
    return COMM_CROSS;
  return COMM_OTHER;
}

/* World rank of rank r of a communicator of class c, seen from world rank me. */
static int world_of(int c, int r, int me, int rpn)
{
  return c == COMM_WORLD ? r : c == COMM_NODE ? (me / rpn) * rpn + r : r * rpn + me % rpn;
}

/* The mailbox from world rank src to world rank dst for class c, from a small cache: a
 * rank talks to few peers, and naming a mailbox costs a string and a lookup. */
static sg_mailbox_t box(ar_native *n, int src, int dst, int c)
{
  for (int i = 0; i < n->nbox; i++)
    if (n->box[i].src == src && n->box[i].dst == dst && n->box[i].cls == c)
      return n->box[i].mb;
  char name[64];
  snprintf(name, sizeof name, "ar-p2p:%d:%d:%d", src, dst, c);
  sg_mailbox_t mb = sg_mailbox_by_name(name);
  int at = n->nbox < AR_NATIVE_BOXES ? n->nbox++ : n->next++ % AR_NATIVE_BOXES;
  n->box[at].src = src;
  n->box[at].dst = dst;
  n->box[at].cls = c;
  n->box[at].mb = mb;
  return mb;
}

/* Posts one message of bytes from buf (NULL in timing mode: nothing to carry). Returns the
 * message to wait for, or NULL when it went detached. */
static sg_comm_t post_send(ar_native *n, sg_mailbox_t mb, const void *buf, size_t bytes, int real, int *rc)
{
  void *pl = &no_data;
  if (real) {
    payload *m = malloc(sizeof *m + bytes);
    if (!m) {
      *rc = SA_ENOMEM;
      return NULL;
    }
    m->bytes = bytes;
    if (bytes)
      memcpy(m->data, buf, bytes);
    pl = m;
  }
  return ar_native_put(mb, pl, (long)(bytes + ENVELOPE_BYTES), (long long)bytes < n->detached_thresh);
}

int ar_native_takes(MPI_Comm comm, const ar_params *p)
{
  int c = p->native ? comm_class(comm, p) : COMM_OTHER;
  return c == COMM_WORLD || (c != COMM_OTHER && p->layout->rpn >= 1);
}

int ar_native_sendrecv(const void *sbuf, size_t sbytes, int dest, void *rbuf, size_t rbytes, int src, MPI_Comm comm,
                       const ar_params *p)
{
  ar_native *n = p->native;
  int c = comm_class(comm, p);
  int rpn = c == COMM_WORLD ? 1 : p->layout->rpn, me = n->rank;
  int to = dest == MPI_PROC_NULL ? -1 : world_of(c, dest, me, rpn);
  int from = src == MPI_PROC_NULL ? -1 : world_of(c, src, me, rpn);
  if (to == me && from == me) { /* to itself: MPI copies, no message */
    if (p->real_data && rbuf != sbuf)
      memmove(rbuf, sbuf, sbytes < rbytes ? sbytes : rbytes);
    return 0;
  }
  int rc = 0, real = p->real_data;
  sg_comm_t comms[2];
  size_t nc = 0;
  void *got = NULL;
  if (to >= 0) {
    sg_comm_t s = post_send(n, box(n, me, to, c), sbuf, sbytes, real, &rc);
    if (s)
      comms[nc++] = s;
  }
  if (rc == 0 && from >= 0)
    comms[nc++] = ar_native_get(box(n, from, me, c), &got);
  if (nc)
    sg_comm_wait_all(comms, nc);
  if (got && got != &no_data) {
    payload *pl = got;
    if (pl->bytes != rbytes)
      rc = SA_EMPI; /* MPI would have failed the receive: the algorithm is wrong */
    else if (rbytes)
      memcpy(rbuf, pl->data, rbytes);
  }
  ar_native_drop(got);
  return rc;
}
#else
/* A real MPI run exchanges through MPI: nothing here. */
typedef int ar_native_unused;
#endif
