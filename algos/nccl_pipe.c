/* nccl_pipe.c: the slice pipeline (see nccl_pipe.h).
 *
 * The rank is one SMPI actor standing for all of a GPU's channels. Its loop: run the ready
 * operation whose data became visible first (a stream's next operation is ready when its
 * slices are in and visible and its send slots are free); when none is ready but a slice
 * that arrived is still within its protocol latency, wait until it becomes visible; when
 * nothing else can happen, wait for the next message to arrive or leave (a wait for any
 * slot of any connection). Only MPI's blocking calls advance SMPI's clock without
 * cost: MPI_Test and MPI_Testsome each inject smpi/test (100 us by default) into the caller,
 * so the loop never polls, and it learns of an arrival only when it next waits. A slice
 * becomes visible `extra` seconds after it arrived. Its arrival is exact when the rank was
 * blocked waiting for it; when the rank finds it already there (it was reducing, or waiting
 * for another slice to become visible), all it knows is that the slice arrived after the
 * rank last blocked, and that moment is taken: NCCL runs each channel on thread blocks of
 * its own, which would have seen the slice while this rank's other channels were busy.
 * Messages go through the point-to-point helpers (ar_p2p.c), counted in elements of the
 * run's type: a slice's bytes on the wire are always a whole number of them (Simple moves
 * the elements, LL 16-byte lines, LL128 128-byte lines).
 */
#include "nccl_pipe.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nccl_proto.h"
#include "nccl_topo.h"

#ifdef AR_SMPI
#include <simgrid/engine.h>

/* The simulated clock, read directly: MPI_Wtime under SMPI also reads the thread's CPU clock
 * twice (two system calls), and the loop reads the time after every wait. */
static double clock_now(void) { return simgrid_get_clock(); }
#else
static double clock_now(void) { return MPI_Wtime(); }
#endif

/* Simulated time every MPI call takes under SMPI (about 10 ns): a wait that took longer blocked. */
#define CALL_COST 5e-8

struct np_conn {
  np_stream *s;
  int peer;        /* index among the stream's receive (recv = 1) or send peers */
  int recv;
  MPI_Request *req;       /* [slots], inside the run's one request array */
  double *vis;            /* [slots]: when a received slice becomes visible */
  int *wire;              /* [slots]: bytes of a packed slice waiting to be sent */
  long issued, completed; /* sends posted and delivered */
  long through;           /* sends taken as delivered (their time passed while the rank was busy) */
  double lat;             /* the route's latency */
  double rate;            /* seconds per byte the link last gave beyond the latency */
  unsigned char *filled;  /* [slots]: received and seen */
  char *buf;              /* slot 0; slot i at buf + i * stride */
  size_t stride;
};

typedef struct {
  np_stream *streams;
  int nstreams, slots, proto, nconn;
  np_conn *conn;
  MPI_Request *req;
  double *vis;
  int *wire;
  unsigned char *filled;
  char *block;  /* every slot buffer */
  size_t slot_bytes;
  const void *in;
  void *out;
  ar_dtype dt;
  MPI_Comm comm;
  const ar_params *p;
  double now;   /* the rank's clock */
  double since; /* when the rank last returned from a wait that blocked */
} pipe_run;

static char *slot_buf(const np_conn *c, int slot) { return c->buf + (size_t)slot * c->stride; }

/* Walks every stream's operations once: how many receive, and the largest slice. */
static size_t survey(np_stream *s, int n)
{
  size_t largest = 0;
  for (int i = 0; i < n; i++) {
    s[i].k = s[i].recvs = s[i].rdone = s[i].rposted = s[i].sdone = 0;
    for (long k = 0; k < s[i].nops; k++) {
      np_op op;
      s[i].op(&s[i], k, &op);
      s[i].recvs += (op.flags & NP_RECV) != 0;
      largest = op.n > largest ? op.n : largest;
    }
  }
  return largest;
}

static int setup(pipe_run *r)
{
  int slots = r->slots;
  size_t es = ar_dtype_size(r->dt), largest = survey(r->streams, r->nstreams);
  r->slot_bytes = nccl_wire_bytes(r->proto, largest * es);
  if (r->slot_bytes > INT_MAX)
    return SA_EINVAL;
  r->nconn = 0;
  for (int i = 0; i < r->nstreams; i++)
    r->nconn += r->streams[i].nrecv + r->streams[i].nsend;
  size_t nslot = (size_t)r->nconn * (size_t)slots + 1;
  r->conn = calloc((size_t)r->nconn + 1, sizeof *r->conn);
  r->req = malloc(sizeof *r->req * nslot);
  r->vis = calloc(nslot, sizeof *r->vis);
  r->wire = calloc(nslot, sizeof *r->wire);
  r->filled = calloc(nslot, 1);
  /* real data: a slot of its own for every slice in flight; timing mode: one shared block
   * (SMPI_SHARED_MALLOC) that every slot aliases, since nothing reads it */
  r->block = r->p->real_data ? calloc(nslot, r->slot_bytes + 1) : ar_alloc(r->p, r->slot_bytes + 1);
  if (!r->conn || !r->req || !r->vis || !r->wire || !r->filled || !r->block)
    return SA_ENOMEM;
  for (size_t i = 0; i < nslot; i++)
    r->req[i] = MPI_REQUEST_NULL;
  int c = 0;
  for (int i = 0; i < r->nstreams; i++) {
    np_stream *s = &r->streams[i];
    s->conn = &r->conn[c];
    for (int j = 0; j < s->nrecv + s->nsend; j++, c++) {
      np_conn *x = &r->conn[c];
      size_t at = (size_t)c * (size_t)slots;
      x->s = s;
      x->recv = j < s->nrecv;
      x->peer = x->recv ? j : j - s->nrecv;
      x->req = r->req + at;
      x->vis = r->vis + at;
      x->wire = r->wire + at;
      x->filled = r->filled + at;
      x->stride = r->p->real_data ? r->slot_bytes + 1 : 0;
      x->buf = r->block + (r->p->real_data ? at * x->stride : 0);
      x->lat = x->recv ? 0 : s->send_lat[x->peer];
      x->rate = !x->recv && s->send_bw[x->peer] > 0 ? 1 / s->send_bw[x->peer] : INFINITY;
    }
  }
  return 0;
}

static void teardown(pipe_run *r)
{
  if (r->block && r->p->real_data)
    free(r->block);
  else if (r->block)
    ar_free(r->p, r->block);
  free(r->conn);
  free(r->req);
  free(r->vis);
  free(r->wire);
  free(r->filled);
}

/* Keeps `slots` receives posted ahead of the stream's operations. */
static int post_recvs(pipe_run *r, np_stream *s)
{
  size_t es = ar_dtype_size(r->dt);
  while (s->rposted < s->recvs && s->rposted < s->rdone + r->slots) {
    int slot = (int)(s->rposted % r->slots), one = 0, rc;
    for (int j = 0; j < s->nrecv; j++) {
      np_conn *c = &s->conn[j];
      c->filled[slot] = 0;
      one = 0;
      if ((rc = ar_irecv(slot_buf(c, slot), r->slot_bytes / es, r->dt, s->recv_peer[j], s->recv_tag[j], r->comm, r->p,
                         &c->req[slot], &one)) != 0)
        return rc;
    }
    s->rposted++;
  }
  return 0;
}

enum { BLOCKED, LATER, READY };

/* Whether op (the stream's next) can run now; *t: when its data became visible. */
static int readiness(const pipe_run *r, const np_stream *s, const np_op *op, double *t)
{
  *t = -INFINITY;
  if (op->flags & NP_RECV) {
    int slot = (int)(s->rdone % r->slots);
    for (int j = 0; j < s->nrecv; j++) {
      if (!s->conn[j].filled[slot])
        return BLOCKED;
      *t = s->conn[j].vis[slot] > *t ? s->conn[j].vis[slot] : *t;
    }
  }
  for (int j = 0; (op->flags & NP_SEND) && j < s->nsend; j++) {
    const np_conn *c = &s->conn[s->nrecv + j];
    if (s->sdone - r->slots >= c->issued || c->req[s->sdone % r->slots] != MPI_REQUEST_NULL)
      return BLOCKED; /* the slot still holds a slice not yet delivered */
  }
  return *t <= r->now ? READY : LATER;
}

static long delivered(const np_conn *c) { return c->through > c->completed ? c->through : c->completed; }

/* Sends the connection's packed slices in order, one at a time: a connection is a FIFO of
 * NCCL's steps, and two slices sharing the link would both arrive late. (NCCL also spends a
 * slice's latency while the one before crosses; SimGrid would share the link between them,
 * so here each slice pays its latency: a few percent of a slice over NVLink, more over a
 * network hop with small slices.) Synchronous sends, so that a send is done when its slice
 * is delivered whatever its size (SMPI would send a small one eagerly, done at once while its
 * bytes are on the way). */
static int issue(pipe_run *r, np_conn *c)
{
  np_stream *s = c->s;
  if (c->issued >= s->sdone || c->issued > delivered(c))
    return 0;
  int slot = (int)(c->issued % r->slots), one = 0;
  c->issued++;
  c->vis[slot] = r->now; /* a send slot keeps the time its slice left */
  return ar_issend(slot_buf(c, slot), (size_t)c->wire[slot] / ar_dtype_size(r->dt), r->dt, s->send_peer[c->peer],
                   s->send_tag[c->peer], r->comm, r->p, &c->req[slot], &one);
}

/* The connection whose slice on its way, holding back a queued one, should be delivered
 * first, no later than *until (then updated); or NULL. */
static np_conn *next_due(pipe_run *r, double *until)
{
  np_conn *next = NULL;
  for (int i = 0; i < r->nconn; i++) {
    np_conn *c = &r->conn[i];
    long old = delivered(c);
    if (c->recv || c->issued >= c->s->sdone || old >= c->issued)
      continue;
    int slot = (int)(old % r->slots);
    double due = c->vis[slot] + c->lat + c->wire[slot] * c->rate;
    if (due <= *until) {
      *until = due;
      next = c;
    }
  }
  return next;
}

/* Device time the rank spends until `until` (a reduction, or waiting for a slice to become
 * visible). It cannot see a delivery meanwhile, but NCCL's link would go on with the next
 * slice at once: the time is cut where a connection's slice should be delivered (from the
 * rate it last showed), and the next one leaves there. */
static int busy(pipe_run *r, double until)
{
  for (;;) {
    double t = until;
    np_conn *next = next_due(r, &t);
    if (t > r->now) {
      ar_charge(t - r->now);
      r->now = clock_now(); /* SimGrid's clock, not a sum of ours: waits compare with it */
    }
    if (!next)
      return 0;
    next->through = delivered(next) + 1;
    int rc = issue(r, next);
    if (rc)
      return rc;
  }
}

/* Runs a ready operation: combine what arrived, charge the reduction, send the slice on. */
static int execute(pipe_run *r, np_stream *s, const np_op *op)
{
  const ar_params *p = r->p;
  size_t es = ar_dtype_size(r->dt), bytes = op->n * es;
  char *dst = (char *)ar_at(r->out, op->off, r->dt);
  const char *src = (const char *)ar_cat(r->in, op->off, r->dt);
  int rc = 0;
  if (op->flags & NP_RECV) {
    int slot = (int)(s->rdone % r->slots);
    for (int j = 0; p->real_data && j < s->nrecv; j++) {
      const char *got = slot_buf(&s->conn[j], slot);
      if (!(op->flags & NP_REDUCE))
        memcpy(dst, got, bytes);
      else
        ar_sum_host(dst, j == 0 ? src : dst, got, op->n, r->dt);
    }
    /* a fused kernel reads every input once and writes once: (k + 2) / 3 of a two-input
     * sum's memory traffic for k received slices */
    if ((op->flags & NP_REDUCE) && p->compute.reduce_bw > 0 && bytes > 0) {
      double t0 = ar_trace_start(p->trace);
      rc = busy(r, r->now + (s->nrecv + 2) / 3.0 * (double)bytes / p->compute.reduce_bw);
      ar_trace_work(p->trace, AR_EV_REDUCE, t0, (long long)bytes);
    }
    for (int j = 0; j < s->nrecv; j++)
      s->conn[j].filled[slot] = 0;
    s->rdone++;
    if (rc == 0)
      rc = post_recvs(r, s);
  }
  if (op->flags & NP_SEND) {
    int slot = (int)(s->sdone % r->slots), wire = (int)nccl_wire_bytes(r->proto, bytes);
    const char *from = op->flags & NP_RECV ? dst : src;
    for (int j = 0; j < s->nsend; j++) {
      np_conn *c = &s->conn[s->nrecv + j];
      if (p->real_data)
        memcpy(slot_buf(c, slot), from, bytes);
      c->wire[slot] = wire;
    }
    s->sdone++;
    for (int j = 0; j < s->nsend && rc == 0; j++)
      rc = issue(r, &s->conn[s->nrecv + j]);
  }
  s->k++;
  return rc;
}

/* Waits for the next slot to complete and records it. */
static int wait_one(pipe_run *r)
{
  int idx, rc;
  double before = r->now;
  if ((rc = ar_waitany(r->nconn * r->slots, r->req, &idx, r->p)) != 0)
    return rc;
  if (idx == MPI_UNDEFINED)
    return SA_EINVAL; /* nothing in flight, nothing ready: the streams do not match */
  r->now = clock_now();
  if (r->now > before + CALL_COST)
    r->since = r->now;
  np_conn *c = &r->conn[idx / r->slots];
  int slot = idx % r->slots;
  if (c->recv) {
    c->filled[slot] = 1;
    c->vis[slot] = r->since + c->s->extra[c->peer];
    return 0;
  }
  c->completed++;
  /* seen as it happened (the rank was waiting for it): the rate the link gives it now */
  double took = r->now - c->vis[slot] - c->lat;
  if (r->since == r->now && c->wire[slot] > 0 && took > 0)
    c->rate = took / c->wire[slot];
  return issue(r, c);
}

static int loop(pipe_run *r)
{
  int rc = 0;
  for (int i = 0; i < r->nstreams && rc == 0; i++)
    rc = post_recvs(r, &r->streams[i]);
  r->now = r->since = clock_now();
  while (rc == 0) {
    int best = -1, left = 0;
    double best_t = 0, soonest = INFINITY;
    np_op op, best_op = {0, 0, 0};
    for (int i = 0; i < r->nconn; i++) /* sends still queued behind one on its way */
      left |= !r->conn[i].recv && r->conn[i].issued < r->conn[i].s->sdone;
    for (int i = 0; i < r->nstreams; i++) {
      np_stream *s = &r->streams[i];
      if (s->k >= s->nops)
        continue;
      left = 1;
      double t;
      s->op(s, s->k, &op);
      int st = readiness(r, s, &op, &t);
      if (st == READY && (best < 0 || t < best_t)) {
        best = i;
        best_t = t;
        best_op = op;
      } else if (st == LATER && t < soonest) {
        soonest = t;
      }
    }
    if (!left)
      break;
    if (best >= 0)
      rc = execute(r, &r->streams[best], &best_op);
    else if (soonest < INFINITY)
      rc = busy(r, soonest);
    else
      rc = wait_one(r);
  }
  int wrc = ar_waitall(r->nconn * r->slots, r->req, r->p);
  return rc ? rc : wrc;
}

int np_launch(const ar_params *p, int algo, int *proto, int *channels)
{
  const nccl_topo *t = p->nccl;
  *proto = p->nccl_run.proto >= 0 ? p->nccl_run.proto : NCCL_PROTO_SIMPLE;
  *channels = p->nccl_run.channels > 0 ? p->nccl_run.channels : t ? t->channels : 1;
  if (!t || *channels > t->channels)
    return SA_EINVAL;
  ar_charge(nccl_launch_s(algo, *proto));
  ar_phase_end(p->phases, AR_PH_LAUNCH);
  return 0;
}

int np_run(np_stream *streams, int nstreams, int slots, int proto, const void *in, void *out, ar_dtype dt,
           MPI_Comm comm, const ar_params *p)
{
  pipe_run r;
  memset(&r, 0, sizeof r);
  r.streams = streams;
  r.nstreams = nstreams;
  r.slots = slots < 1 ? 1 : slots > NCCL_STEPS ? NCCL_STEPS : slots;
  r.proto = proto;
  r.in = in;
  r.out = out;
  r.dt = dt;
  r.comm = comm;
  r.p = p;
  int rc = setup(&r);
  if (rc == 0)
    rc = loop(&r);
  teardown(&r);
  return rc;
}

