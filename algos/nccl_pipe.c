/* nccl_pipe.c: the slice pipeline (see nccl_pipe.h).
 *
 * The rank is one SMPI actor for all its channels, run as an event loop: every stream takes
 * its next operation as soon as it is ready (its slices are in and visible, its send slots
 * free); one that takes GPU time (a sum, or the protocol's writing of what it sends, where
 * the platform charges it) starts at once beside the other streams' (NCCL runs each channel
 * on thread blocks of its own SMs): the host's CPU model shares its speed evenly among them,
 * as the channels share the GPU's memory; when it is done the slice is sent on. Between those
 * the rank waits for the first thing to happen:
 * a slice arriving, a slice delivered, a sum ending, or a slice that arrived becoming visible
 * (its protocol's latency passed). So a rank reacts to everything at the time it happens, as
 * a GPU running one thread block per channel would. Messages are SimGrid mailbox messages
 * (ar_mb_put, ar_mb_get, ar_wait_first in ar_p2p.c): a slice is delivered once the receiver has a
 * receive posted for it, as a synchronous send, and a connection sends its slices one at a
 * time (a FIFO of NCCL's steps: two slices sharing the link would both arrive late), each one
 * as soon as the bytes of the one before are in: the receiver sees it its route's latency
 * after its own bytes (sg_latency.h), so the slices cross back to back as NCCL's do. With
 * real data a slice carries a copy of its elements, which the receiver keeps in its slot. */
#include "nccl_pipe.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nccl/nccl_proto.h"
#include "topo/sg_latency.h"
#include "nccl_comm.h"

int ar_pipe_launch(const ar_params *p, int algo, int *proto, int *channels)
{
  const ar_nccl_comm *t = p->nccl;
  *proto = p->nccl_run.proto >= 0 ? p->nccl_run.proto : NCCL_PROTO_SIMPLE;
  *channels = p->nccl_run.channels > 0 ? p->nccl_run.channels : t ? t->channels : 1;
  if (!t || *channels > t->channels)
    return SA_EINVAL;
  ar_charge(nccl_start_s(&p->compute, algo, *proto));
  ar_phase_end(p->phases, AR_PH_LAUNCH);
  return 0;
}

#ifndef SA_SMPI
int ar_pipe_run(ar_pipe_stream *streams, int nstreams, int slots, int proto, const void *in, void *out, kn_dtype dt,
           MPI_Comm comm, const ar_params *p)
{
  (void)streams, (void)nstreams, (void)slots, (void)proto, (void)in, (void)out, (void)dt, (void)comm, (void)p;
  return SA_EINVAL; /* a real cluster runs NCCL itself */
}
#else
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/exec.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>

struct ar_pipe_conn {
  ar_pipe_stream *s;
  int peer, recv;                 /* index among the stream's receive (recv = 1) or send peers */
  sg_mailbox_t mb;
  sg_comm_t comm[NCCL_STEPS];     /* receive: the posted gets; send: the slice on its way */
  void *got[NCCL_STEPS];          /* what the gets receive */
  double vis[NCCL_STEPS];         /* receive: when the slice becomes visible */
  unsigned char filled[NCCL_STEPS];
  size_t wire[NCCL_STEPS], bytes[NCCL_STEPS]; /* send: packed slices */
  double per_wire;                /* bytes on the link per byte on the wire (nccl_nvlink_per_wire) */
  double route;                   /* receive: the route's latency the receiver pays (sg_latency.h); < 0: unknown */
  long issued, completed;         /* send: slices sent, and delivered */
  double gap;                     /* send: the proxy's time before each slice leaves */
  double send_at;                 /* send: when the slice the proxy holds leaves; < 0: none held */
  long arrived;                   /* receive: slices arrived */
  char *buf;                      /* real data: a slot's elements at buf + slot * stride */
};

typedef struct {
  ar_pipe_stream *streams;
  int nstreams, slots, proto, nconn;
  ar_pipe_conn *conn;
  size_t slot_bytes;
  struct payload *stamp; /* timing mode: what every slice of this rank carries */
  const void *in;
  void *out;
  kn_dtype dt;
  MPI_Comm comm;
  const ar_params *p;
  sa_compute gpu; /* p's compute, with NCCL's protocol ceilings where it gives none */
  double now;
  /* scratch for a wait: what is under way, and what each entry is */
  sg_comm_t *comms;
  sg_exec_t *execs;
  int *comm_of, *exec_of;
} pipe_run;

static char *slot_buf(const pipe_run *r, const ar_pipe_conn *c, int slot) { return c->buf + (size_t)slot * r->slot_bytes; }

/* What a slice carries. SMPI copies a mailbox message as it copies an MPI one: the first
 * pointer's worth of bytes at the put's address into the get's pointer; a payload that
 * starts with its own address arrives as that address. */
typedef struct payload {
  struct payload *self;
  size_t bytes;
  sg_host_t from; /* the sender's host: the receiver pays the route's latency (sg_latency.h) */
  char data[];
} payload;

/* Timing mode's payloads, one per world rank, carrying no elements (SimGrid sends no null):
 * never freed, since a receiver reads one after its sender may have left the pipeline. */
static payload *stamps;

static payload *stamp(void)
{
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (!stamps && !(stamps = calloc((size_t)size, sizeof *stamps)))
    return NULL;
  stamps[rank] = (payload){&stamps[rank], 0, sg_host_self()};
  return &stamps[rank];
}

/* A connection's mailbox: its two ends' ranks in MPI_COMM_WORLD and its tag. */
static int mailbox(pipe_run *r, int from, int to, int tag, sg_mailbox_t *mb)
{
  MPI_Group g, world;
  int ends[2] = {from, to}, w[2];
  if (MPI_Comm_group(r->comm, &g) != MPI_SUCCESS)
    return SA_EMPI;
  int rc = MPI_Comm_group(MPI_COMM_WORLD, &world) == MPI_SUCCESS ? 0 : SA_EMPI;
  if (rc == 0 && MPI_Group_translate_ranks(g, 2, ends, world, w) != MPI_SUCCESS)
    rc = SA_EMPI;
  MPI_Group_free(&g);
  if (rc == 0)
    MPI_Group_free(&world);
  char name[64];
  snprintf(name, sizeof name, "nccl/%d/%d/%d", w[0], w[1], tag);
  if (rc == 0)
    *mb = sg_mailbox_by_name(name);
  return rc;
}

/* Walks every stream's operations once: how many receive, and the largest slice. */
static size_t survey(ar_pipe_stream *s, int n)
{
  size_t largest = 0;
  for (int i = 0; i < n; i++) {
    s[i].k = s[i].recvs = s[i].rdone = s[i].rposted = s[i].sdone = 0;
    s[i].work = NULL;
    for (long k = 0; k < s[i].nops; k++) {
      nccl_op op;
      s[i].op(&s[i], k, &op);
      s[i].recvs += (op.flags & NCCL_OP_RECV) != 0;
      largest = op.n > largest ? op.n : largest;
    }
  }
  return largest;
}

static int setup(pipe_run *r)
{
  int rank, rc = 0;
  r->slot_bytes = survey(r->streams, r->nstreams) * kn_dtype_size(r->dt);
  MPI_Comm_rank(r->comm, &rank);
  for (int i = 0; i < r->nstreams; i++)
    r->nconn += r->streams[i].nrecv + r->streams[i].nsend;
  size_t n = (size_t)r->nconn + 1;
  r->conn = calloc(n, sizeof *r->conn);
  r->comms = malloc(sizeof *r->comms * n * NCCL_STEPS);
  r->comm_of = malloc(sizeof *r->comm_of * n * NCCL_STEPS);
  r->execs = malloc(sizeof *r->execs * (size_t)(r->nstreams + 1));
  r->exec_of = malloc(sizeof *r->exec_of * (size_t)(r->nstreams + 1));
  if (!r->conn || !r->comms || !r->comm_of || !r->execs || !r->exec_of)
    return SA_ENOMEM;
  int c = 0;
  for (int i = 0; i < r->nstreams && rc == 0; i++) {
    ar_pipe_stream *s = &r->streams[i];
    s->conn = &r->conn[c];
    for (int j = 0; j < s->nrecv + s->nsend && rc == 0; j++, c++) {
      ar_pipe_conn *x = &r->conn[c];
      x->s = s;
      x->recv = j < s->nrecv;
      x->peer = x->recv ? j : j - s->nrecv;
      x->route = -1;
      x->gap = x->recv ? 0 : s->gap[x->peer];
      x->send_at = -1;
      x->per_wire = ar_nccl_comm_nvlink(r->p->nccl, x->recv ? s->recv_peer[x->peer] : rank,
                                        x->recv ? rank : s->send_peer[x->peer])
                        ? nccl_nvlink_per_wire(r->p->nccl->arch, s->nvlink_scale)
                        : 1;
      rc = x->recv ? mailbox(r, s->recv_peer[x->peer], rank, s->recv_tag[x->peer], &x->mb)
                   : mailbox(r, rank, s->send_peer[x->peer], s->send_tag[x->peer], &x->mb);
      if (rc == 0 && r->p->real_data && !(x->buf = malloc(r->slot_bytes * (size_t)r->slots + 1)))
        rc = SA_ENOMEM;
    }
  }
  if (rc == 0 && !r->p->real_data && !(r->stamp = stamp()))
    rc = SA_ENOMEM;
  return rc;
}

static void teardown(pipe_run *r)
{
  for (int i = 0; r->conn && i < r->nconn; i++)
    free(r->conn[i].buf);
  free(r->conn);
  free(r->comms);
  free(r->comm_of);
  free(r->execs);
  free(r->exec_of);
}

/* Keeps `slots` receives posted ahead of the stream's operations. */
static void post_recvs(pipe_run *r, ar_pipe_stream *s)
{
  while (s->rposted < s->recvs && s->rposted < s->rdone + r->slots) {
    int slot = (int)(s->rposted % r->slots);
    for (int j = 0; j < s->nrecv; j++) {
      ar_pipe_conn *c = &s->conn[j];
      c->filled[slot] = 0;
      c->got[slot] = NULL;
      c->comm[slot] = ar_mb_get(c->mb, &c->got[slot], nccl_wire_bytes(r->proto, r->slot_bytes), s->recv_peer[j], r->comm,
                             r->p);
    }
    s->rposted++;
  }
}

/* Sends the connection's next packed slice once the one before is delivered, and where the
 * connection has a proxy, its gap after that (the proxy holds it until send_at). */
static int issue(pipe_run *r, ar_pipe_conn *c)
{
  ar_pipe_stream *s = c->s;
  if (c->issued >= s->sdone || c->issued > c->completed)
    return 0;
  if (c->gap > 0) {
    if (c->send_at < 0)
      c->send_at = r->now + c->gap;
    if (c->send_at > r->now)
      return 0;
    c->send_at = -1;
  }
  int slot = (int)(c->issued % r->slots);
  payload *pl = r->p->real_data ? malloc(sizeof *pl + c->bytes[slot]) : r->stamp;
  if (!pl)
    return SA_ENOMEM;
  if (r->p->real_data) {
    *pl = (payload){pl, c->bytes[slot], sg_host_self()};
    memcpy(pl->data, slot_buf(r, c, slot), c->bytes[slot]);
  }
  c->issued++;
  c->comm[slot] = ar_mb_put(c->mb, pl, c->wire[slot], s->send_peer[c->peer], r->comm, r->p);
  return 0;
}

enum { BLOCKED, LATER, READY };

/* Whether the stream's next operation can start now; *t: when its data became visible. */
static int readiness(const pipe_run *r, const ar_pipe_stream *s, const nccl_op *op, double *t)
{
  *t = -INFINITY;
  if (op->flags & NCCL_OP_RECV) {
    int slot = (int)(s->rdone % r->slots);
    for (int j = 0; j < s->nrecv; j++) {
      if (!s->conn[j].filled[slot])
        return BLOCKED;
      const ar_pipe_conn *c = &s->conn[j];
      double v = c->vis[slot];
      if (c->route > 0) /* the slice's own size: the op that takes it up moves as many elements */
        v += c->route * topo_latency_factor(ceil((double)nccl_wire_bytes(r->proto, op->n * kn_dtype_size(r->dt)) * c->per_wire));
      *t = v > *t ? v : *t;
    }
  }
  /* a slot is free once the slice it held `slots` slices ago is delivered */
  for (int j = 0; (op->flags & NCCL_OP_SEND) && j < s->nsend; j++)
    if (s->sdone - s->conn[s->nrecv + j].completed >= r->slots)
      return BLOCKED;
  return *t <= r->now ? READY : LATER;
}

/* The end of an operation: the received slices taken up, the slice sent on. */
static int finish(pipe_run *r, ar_pipe_stream *s)
{
  const ar_params *p = r->p;
  const nccl_op *op = &s->cur;
  size_t es = kn_dtype_size(r->dt), bytes = op->n * es;
  int rc = 0;
  if (s->work)
    ar_steps_work(p->trace, AR_EV_REDUCE, s->work_t0, (long long)bytes);
  s->work = NULL;
  if (op->flags & NCCL_OP_RECV) {
    for (int j = 0; j < s->nrecv; j++)
      s->conn[j].filled[s->rdone % r->slots] = 0;
    s->rdone++;
    post_recvs(r, s);
  }
  if (op->flags & NCCL_OP_SEND) {
    int slot = (int)(s->sdone % r->slots);
    const char *from = op->flags & NCCL_OP_RECV ? (const char *)ar_at(r->out, op->off, r->dt)
                                           : (const char *)ar_cat(r->in, op->off, r->dt);
    for (int j = 0; j < s->nsend; j++) {
      ar_pipe_conn *c = &s->conn[s->nrecv + j];
      if (p->real_data)
        memcpy(slot_buf(r, c, slot), from, bytes);
      c->bytes[slot] = bytes;
      c->wire[slot] = (size_t)ceil((double)nccl_wire_bytes(r->proto, bytes) * c->per_wire);
    }
    s->sdone++;
    for (int j = 0; j < s->nsend && rc == 0; j++)
      rc = issue(r, &s->conn[s->nrecv + j]);
  }
  s->k++;
  return rc;
}

/* Seconds of GPU time an operation takes (nccl_sched.h: the sum, and the protocol's writing
 * of what it sends). */
static double sum_time(const pipe_run *r, const ar_pipe_stream *s, const nccl_op *op)
{
  return nccl_op_time_nvls(&r->gpu, r->proto, op->flags, s->nrecv, s->switch_recv, s->nsend, s->copy_in, s->copy_out,
                           op->n * kn_dtype_size(r->dt));
}

/* Starts a ready operation: the received slices combined (with real data), the sum's device
 * time started; an operation with nothing to sum ends at once. */
static int start(pipe_run *r, ar_pipe_stream *s, const nccl_op *op)
{
  const ar_params *p = r->p;
  size_t bytes = op->n * kn_dtype_size(r->dt);
  double seconds = sum_time(r, s, op);
  double floor_s = nccl_op_floor_s(&r->gpu, r->proto, op->flags, s->nsend, bytes, &seconds);
  s->cur = *op;
  if (op->flags & NCCL_OP_RECV) {
    int slot = (int)(s->rdone % r->slots);
    char *dst = (char *)ar_at(r->out, op->off, r->dt);
    const char *src = (const char *)ar_cat(r->in, op->off, r->dt);
    for (int j = 0; p->real_data && j < s->nrecv; j++) {
      const char *got = slot_buf(r, &s->conn[j], slot);
      if (!(op->flags & NCCL_OP_REDUCE))
        memcpy(dst, got, bytes);
      else
        kn_sum(dst, j == 0 ? src : dst, got, op->n, r->dt);
    }
  }
  if (seconds > 0) {
    double flops = seconds * sg_host_get_speed(sg_host_self());
    s->work_t0 = ar_steps_start(p->trace);
    s->work = sg_actor_exec_init(flops);
    if (floor_s > seconds) /* one channel moves no faster, however idle the GPU */
      sg_exec_set_bound(s->work, flops / floor_s);
    sg_exec_start(s->work);
    return 0;
  }
  return finish(r, s);
}

/* What happened: a slice arrived (it becomes visible after its protocol's latency; its
 * elements go into the receiver's slot), a slice was delivered (the next one leaves), or a
 * sum ended. */
static int happened(pipe_run *r, int idx, int ncomm)
{
  if (idx >= ncomm)
    return finish(r, &r->streams[r->exec_of[idx - ncomm]]);
  ar_pipe_conn *c = &r->conn[r->comm_of[idx] / NCCL_STEPS];
  int slot = r->comm_of[idx] % NCCL_STEPS;
  c->comm[slot] = NULL;
  if (!c->recv) {
    c->completed++;
    return issue(r, c);
  }
  c->arrived++;
  c->filled[slot] = 1;
  payload *got = c->got[slot];
  c->vis[slot] = r->now + c->s->extra[c->peer];
  if (c->route < 0) /* the connection's one sender */
    c->route = topo_latency_route(got->from);
  if (c->buf) { /* real data: the payload is the receiver's */
    memcpy(slot_buf(r, c, slot), got->data, got->bytes < r->slot_bytes ? got->bytes : r->slot_bytes);
    free(got);
  }
  c->got[slot] = NULL;
  return 0;
}

static int loop(pipe_run *r)
{
  int rc = 0;
  for (int i = 0; i < r->nstreams; i++)
    post_recvs(r, &r->streams[i]);
  r->now = simgrid_get_clock();
  while (rc == 0) {
    double soonest = INFINITY;
    int more = 0;
    nccl_op op;
    for (int i = 0; i < r->nconn && rc == 0; i++) { /* the slices the proxies hold, due now */
      ar_pipe_conn *c = &r->conn[i];
      if (c->send_at >= 0 && c->send_at <= r->now)
        rc = issue(r, c);
    }
    /* every stream takes what is ready, up to its first sum, which shares the GPU with the
     * other streams' under way */
    for (int i = 0; i < r->nstreams && rc == 0; i++) {
      ar_pipe_stream *s = &r->streams[i];
      while (rc == 0 && !s->work && s->k < s->nops) {
        double t;
        s->op(s, s->k, &op);
        int st = readiness(r, s, &op, &t);
        if (st == LATER)
          soonest = t < soonest ? t : soonest;
        if (st != READY)
          break;
        rc = start(r, s, &op);
      }
    }
    for (int i = 0; i < r->nstreams; i++)
      more |= r->streams[i].k < r->streams[i].nops;
    /* a connection's slices arrive in the order they were sent, one at a time: only its
     * next one can end (a wait over every posted receive costs SimGrid as much per event) */
    int ncomm = 0, nexec = 0;
    for (int i = 0; i < r->nconn; i++) {
      const ar_pipe_conn *c = &r->conn[i];
      if (c->send_at >= 0) { /* a slice its proxy holds, due later */
        more = 1;
        soonest = c->send_at < soonest ? c->send_at : soonest;
      }
      int q = (int)((c->recv ? c->arrived : c->completed) % r->slots);
      if (c->comm[q]) {
        r->comm_of[ncomm] = i * NCCL_STEPS + q;
        r->comms[ncomm++] = c->comm[q];
      }
    }
    for (int i = 0; i < r->nstreams; i++)
      if (r->streams[i].work) {
        r->exec_of[nexec] = i;
        r->execs[nexec++] = r->streams[i].work;
      }
    if (rc || (!more && ncomm == 0))
      break;
    if (ncomm + nexec == 0 && isinf(soonest))
      return SA_EINVAL; /* nothing under way, nothing to come: the streams do not match */
    double timeout = isinf(soonest) ? -1 : soonest - r->now;
    int idx = ncomm + nexec ? ar_wait_first(r->comms, ncomm, r->execs, nexec, timeout, r->p) : -1;
    if (ncomm + nexec == 0)
      sg_actor_sleep_for(timeout);
    r->now = simgrid_get_clock();
    if (idx >= 0)
      rc = happened(r, idx, ncomm);
    else
      r->now = soonest > r->now ? soonest : r->now; /* what was waited for is visible */
  }
  return rc;
}

int ar_pipe_run(ar_pipe_stream *streams, int nstreams, int slots, int proto, const void *in, void *out, kn_dtype dt,
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
  r.gpu = p->compute;
  if (p->nccl)
    nccl_gpu_protocol_rates(&r.gpu, p->nccl->arch, p->nccl->node_channels, p->nccl->nodes);
  int rc = setup(&r);
  topo_latency_slices(1);
  if (rc == 0)
    rc = loop(&r);
  topo_latency_slices(0);
  teardown(&r);
  return rc;
}
#endif
