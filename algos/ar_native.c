/* ar_native.c: the simulated runner's exchanges (ar_sendrecv) as SimGrid messages on
 * mailboxes, timed as SMPI times an MPI_Sendrecv but without its request machinery.
 *
 * Why: SMPI spends much of a message's wall time on requests, matching, datatype handling
 * and reading the CPU clock around each call: a 1024-rank ring of 256 MiB (128 nodes of 8
 * H100) took 27.8 s of wall time through MPI_Sendrecv, 17.9 s on mailboxes, with the same
 * simulated time to the last bit.
 *
 * What SimGrid simulates stays the same: the message SMPI would start, with SMPI's 16-byte
 * envelope added to its size (smpi_request.cpp, Request::start, SimGrid 3.32), the send
 * posted before the receive as MPI_Sendrecv posts them, eager (the sender goes on at once)
 * below smpi/send-is-detached-thresh, rendezvous above. One mailbox per sender, receiver and
 * communicator keeps MPI's non-overtaking order; both sides of every exchange come through
 * here. Real data travels as a copy taken when the message is posted, as SMPI copies an
 * eager one. Only used when SMPI would add no time of its own around a message (smpi/os,
 * smpi/ois, smpi/or zero, smpi/async-small-thresh 0: ar_native_allowed), and on the
 * communicators whose ranks map to world ranks without a call (the world, the layout's node
 * and cross ones); anything else goes through MPI.
 *
 * An eager message is not detached in SimGrid's sense, as SMPI detaches it: SimGrid 3.32
 * keeps every detached message in one list and walks it to remove each one that ends
 * (CommImpl::finish), a cost quadratic in the messages in flight (16384 ranks sending
 * 16 KiB each at once). The sender keeps it, its receiver marks it when it has it, and the
 * sender's next exchange collects it with a wait that returns at once. */
#include "ar.h"

#ifdef SA_SMPI
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/comm.h>
#include <simgrid/mailbox.h>

/* SMPI's envelope: tag, source and communicator travel with every message. */
#define ENVELOPE_BYTES 16

/* What a message carries: for real data its bytes, copied when sent; for an eager one the
 * mark its receiver sets once it has it, so that its sender collects it without waiting. */
typedef struct {
  int eager, done;
  size_t bytes;
  unsigned char data[];
} payload;

/* What a timing-mode rendezvous message carries: SimGrid sends no null payload, and there
 * is nothing to carry or to mark. */
static payload no_data;

void ar_native_init(ar_native *n, int world_rank, long long detached_thresh)
{
  memset(n, 0, sizeof *n);
  n->rank = world_rank;
  n->detached_thresh = detached_thresh;
}

/* Keeps an eager message to collect once its receiver has it. */
static int keep_eager(ar_native *n, sg_comm_t c, payload *pl)
{
  if (n->neager == n->maxeager) {
    int more = n->maxeager ? 2 * n->maxeager : 8;
    void *e = realloc(n->eager, sizeof *n->eager * (size_t)more);
    if (!e)
      return SA_ENOMEM;
    n->eager = e;
    n->maxeager = more;
  }
  n->eager[n->neager].comm = c;
  n->eager[n->neager++].carried = pl;
  return 0;
}

/* Collects the eager messages their receivers have: their wait returns at once, and is
 * what takes them off this rank's list of activities in SimGrid (a test would leave them
 * there, and the list grows with every message). */
static void collect_eager(ar_native *n)
{
  int kept = 0;
  for (int i = 0; i < n->neager; i++) {
    payload *pl = n->eager[i].carried;
    if (pl->done) {
      sg_comm_wait(n->eager[i].comm);
      free(pl);
    } else {
      n->eager[kept++] = n->eager[i];
    }
  }
  n->neager = kept;
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

/* What one message of bytes from buf carries (NULL in timing mode: nothing to carry):
 * &no_data for a timing-mode rendezvous one, else a copy its receiver or sender frees. */
static payload *carried(const void *buf, size_t bytes, int eager, int real)
{
  if (!real && !eager)
    return &no_data;
  size_t n = real ? bytes : 0;
  payload *pl = malloc(sizeof *pl + n);
  if (!pl)
    return NULL;
  pl->eager = eager;
  pl->done = 0;
  pl->bytes = bytes;
  if (n)
    memcpy(pl->data, buf, n);
  return pl;
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
  int rc = 0, real = p->real_data, eager = to >= 0 && (long long)sbytes < n->detached_thresh;
  payload *out = NULL;
  if (to >= 0 && !(out = carried(sbuf, sbytes, eager, real)))
    return SA_ENOMEM;
  sg_comm_t put = NULL, get = NULL, comms[2];
  size_t nc = 0;
  void *got = NULL;
  ar_native_start(to >= 0 ? box(n, me, to, c) : NULL, out, (long)(sbytes + ENVELOPE_BYTES), &put,
                  from >= 0 ? box(n, from, me, c) : NULL, &got, &get);
  if (put && eager)
    rc = keep_eager(n, put, out);
  else if (put)
    comms[nc++] = put;
  if (get)
    comms[nc++] = get;
  /* Each waited alone as a wait for any of one: SimGrid 3.32's plain wait on a message in
   * flight also starts a sleep on the rank's CPU, to hear of a host's failure, and ends it
   * with the message (an action in the CPU's solver each time); a wait for any starts none.
   * The same times to the last bit; a 1024-rank ring of 64 MiB in 8.5 s instead of 9.1. */
  for (size_t i = 0; i < nc; i++)
    sg_comm_wait_any(&comms[i], 1);
  if (n->neager)
    collect_eager(n);
  payload *pl = got;
  if (pl && real && pl->bytes != rbytes)
    rc = SA_EMPI; /* MPI would have failed the receive: the algorithm is wrong */
  else if (pl && real && rbytes)
    memcpy(rbuf, pl->data, rbytes);
  if (pl && pl->eager)
    pl->done = 1; /* its sender frees it */
  else if (pl != &no_data)
    free(pl);
  return rc;
}

void ar_native_free(ar_native *n)
{
  collect_eager(n);
  free(n->eager);
  n->eager = NULL;
}
#else
/* A real MPI run exchanges through MPI: nothing here. */
typedef int ar_native_unused;
#endif
