/* tree_core.c: the pipelined tree reduction and broadcast. Each tree is its own state
 * machine fed by MPI_Waitany over every pending receive of every tree: a tree moves to its
 * next segment as soon as its own data is in, never waiting on another tree, so two trees
 * that cross the same ranks in opposite directions (twotree) pipeline independently. Each
 * stream has one receive in flight, the next one posted as soon as the previous arrives
 * (into the other of two buffers), so segment s+1 arrives while s is summed and sent, yet
 * consecutive segments do not split a link's bandwidth between them. */
#include "tree_core.h"

#include <stdlib.h>

#define SLOTS 2 /* receives kept posted per stream */

typedef struct {
  const ar_tree_part *t;
  size_t seg; /* elements per segment */
  int nseg;
  int next;   /* next segment to process */
  int tag;
  void *tmp[3][SLOTS];
  MPI_Request *rreq;  /* [stream * SLOTS + slot] inside the shared request array */
  int *done;          /* same layout: receive completed */
  int posted[3];      /* per stream: segments posted so far */
} tree_state;

static size_t seg_off(const tree_state *s, int k) { return s->t->off + (size_t)k * s->seg; }
static size_t seg_len(const tree_state *s, int k)
{
  size_t start = (size_t)k * s->seg;
  return start + s->seg <= s->t->len ? s->seg : s->t->len - start;
}

static int post(void *buf, size_t n, kn_dtype dt, int peer, int tag, MPI_Comm comm, const ar_params *p, MPI_Request *r,
                int recv)
{
  int nreq = 0; /* one request: segments are at most AR_TREE_MAX_SEGMENT, never in pieces */
  return recv ? ar_irecv(buf, n, dt, peer, tag, comm, p, r, &nreq) : ar_isend(buf, n, dt, peer, tag, comm, p, r, &nreq);
}

typedef struct {
  MPI_Request *req;
  int n;
} send_list;

static int wait_sends(send_list *l, const ar_params *p)
{
  int rc = l->n ? ar_waitall(l->n, l->req, p) : 0;
  l->n = 0;
  return rc;
}

/* The streams a tree receives from in a phase: its children when reducing, its parent when
 * broadcasting. */
static int nstreams(const tree_state *s, int bcast) { return bcast ? s->t->node.parent >= 0 : s->t->node.nchild; }
static int stream_peer(const tree_state *s, int bcast, int c) { return bcast ? s->t->node.parent : s->t->node.child[c]; }

static void *slot_buf(tree_state *s, int bcast, int c, int k, void *recvbuf, kn_dtype dt)
{
  return bcast ? ar_at(recvbuf, seg_off(s, k), dt) : s->tmp[c][k % SLOTS];
}

/* Posts the next receive of stream c when the previous one has arrived and the buffer it
 * would reuse has been processed. */
static int try_post(tree_state *s, int bcast, int c, void *recvbuf, kn_dtype dt, MPI_Comm comm, const ar_params *p)
{
  int k = s->posted[c];
  if (k >= s->nseg || (k > 0 && !s->done[c * SLOTS + (k - 1) % SLOTS]) || k - SLOTS >= s->next)
    return 0;
  int i = c * SLOTS + k % SLOTS;
  s->done[i] = 0;
  s->posted[c]++;
  return post(slot_buf(s, bcast, c, k, recvbuf, dt), seg_len(s, k), dt, stream_peer(s, bcast, c), s->tag + bcast,
              comm, p, &s->rreq[i], 1);
}

/* The wait since t0 that ended with receive slot i of a tree: the segment it held is the last
 * one posted to that slot. */
static void trace_arrival(const tree_state *s, int bcast, int i, double t0, kn_dtype dt, MPI_Comm comm,
                          const ar_params *p)
{
  if (!p->trace)
    return;
  int c = i / SLOTS, last = s->posted[c] - 1, k = last - ((last - i % SLOTS) % SLOTS + SLOTS) % SLOTS;
  ar_steps_step(p->trace, AR_EV_WAIT, t0, comm, -1, -1, (long long)(seg_len(s, k) * kn_dtype_size(dt)),
                stream_peer(s, bcast, c));
}

/* Segment k of a tree has all its input: sum and send up, or pass down. */
static int process(tree_state *s, int bcast, int k, const void *sendbuf, void *recvbuf, kn_dtype dt, MPI_Comm comm,
                   const ar_params *p, send_list *sends)
{
  const topo_tree_node *n = &s->t->node;
  size_t off = seg_off(s, k), len = seg_len(s, k);
  int rc = 0;
  if (bcast) {
    for (int c = 0; c < n->nchild && rc == 0; c++)
      rc = post(ar_at(recvbuf, off, dt), len, dt, n->child[c], s->tag + 1, comm, p, &sends->req[sends->n++], 0);
    return rc;
  }
  const void *mine = ar_cat(sendbuf, off, dt);
  for (int c = 0; c < n->nchild; c++) {
    ar_reduce(p, ar_at(recvbuf, off, dt), mine, s->tmp[c][k % SLOTS], len, dt);
    mine = ar_cat(recvbuf, off, dt);
  }
  if (n->parent >= 0)
    rc = post((void *)mine, len, dt, n->parent, s->tag, comm, p, &sends->req[sends->n++], 0);
  else if (n->nchild == 0) /* a tree of one rank */
    ar_copy(p, ar_at(recvbuf, off, dt), ar_cat(sendbuf, off, dt), len, dt);
  return rc;
}

/* Runs one phase of every tree to completion. */
static int run_phase(tree_state *st, int nparts, int bcast, const void *sendbuf, void *recvbuf, kn_dtype dt,
                     MPI_Comm comm, const ar_params *p, MPI_Request *all, int nall, send_list *sends)
{
  int rc = 0;
  for (int i = 0; i < nall; i++)
    all[i] = MPI_REQUEST_NULL;
  for (int t = 0; t < nparts && rc == 0; t++) {
    st[t].next = 0;
    for (int c = 0; c < nstreams(&st[t], bcast) && rc == 0; c++) {
      st[t].posted[c] = 0;
      rc = try_post(&st[t], bcast, c, recvbuf, dt, comm, p);
    }
  }
  for (int progress = 1; rc == 0 && progress;) {
    progress = 0;
    for (int t = 0; t < nparts && rc == 0; t++) {
      tree_state *s = &st[t];
      while (rc == 0 && s->next < s->nseg) {
        int k = s->next, ready = 1;
        for (int c = 0; c < nstreams(s, bcast); c++)
          ready &= s->posted[c] > k && s->done[c * SLOTS + k % SLOTS];
        if (!ready)
          break;
        rc = process(s, bcast, k, sendbuf, recvbuf, dt, comm, p, sends);
        s->next++;
        for (int c = 0; c < nstreams(s, bcast) && rc == 0; c++)
          rc = try_post(s, bcast, c, recvbuf, dt, comm, p);
        progress = 1;
      }
    }
    if (rc == 0 && !progress) { /* nothing ready: wait for any receive of any tree */
      int idx;
      double t0 = ar_steps_start(p->trace);
      if (MPI_Waitany(nall, all, &idx, MPI_STATUS_IGNORE) != MPI_SUCCESS)
        rc = SA_EMPI;
      else if (idx != MPI_UNDEFINED) {
        int t = idx / (3 * SLOTS);
        st[t].done[idx % (3 * SLOTS)] = 1;
        trace_arrival(&st[t], bcast, idx % (3 * SLOTS), t0, dt, comm, p);
        rc = try_post(&st[t], bcast, idx % (3 * SLOTS) / SLOTS, recvbuf, dt, comm, p);
        progress = 1;
      }
    }
  }
  return rc ? rc : wait_sends(sends, p);
}

int ar_tree_allreduce(const void *sendbuf, void *recvbuf, kn_dtype dt, MPI_Comm comm, const ar_params *p,
                      const ar_tree_part *parts, int nparts)
{
  size_t seg = (p->segment_bytes < AR_TREE_MAX_SEGMENT ? p->segment_bytes : AR_TREE_MAX_SEGMENT) / kn_dtype_size(dt);
  int nall = nparts * 3 * SLOTS, total = 1;
  tree_state *st = calloc((size_t)nparts, sizeof *st);
  MPI_Request *all = calloc((size_t)nall, sizeof *all);
  int *done = calloc((size_t)nall, sizeof *done);
  int rc = st && all && done ? 0 : SA_ENOMEM;
  for (int i = 0; i < nparts && rc == 0; i++) {
    st[i].t = &parts[i];
    st[i].seg = seg ? seg : 1;
    st[i].nseg = (int)((parts[i].len + st[i].seg - 1) / st[i].seg);
    st[i].tag = 2 * i;
    st[i].rreq = all + i * 3 * SLOTS;
    st[i].done = done + i * 3 * SLOTS;
    total += st[i].nseg * 3;
    for (int c = 0; c < parts[i].node.nchild && rc == 0; c++)
      for (int b = 0; b < SLOTS && rc == 0; b++)
        rc = (st[i].tmp[c][b] = ar_alloc(p, st[i].seg * kn_dtype_size(dt))) ? 0 : SA_ENOMEM;
  }
  send_list sends = {calloc((size_t)total, sizeof(MPI_Request)), 0};
  if (!sends.req)
    rc = SA_ENOMEM;
  if (rc == 0)
    rc = run_phase(st, nparts, 0, sendbuf, recvbuf, dt, comm, p, all, nall, &sends);
  ar_phase_end(p->phases, AR_PH_REDUCE);
  if (rc == 0)
    rc = run_phase(st, nparts, 1, sendbuf, recvbuf, dt, comm, p, all, nall, &sends);
  ar_phase_end(p->phases, AR_PH_BCAST);

  for (int i = 0; st && i < nparts; i++)
    for (int c = 0; c < 3; c++)
      for (int b = 0; b < SLOTS; b++)
        ar_free(p, st[i].tmp[c][b]);
  free(sends.req);
  free(all);
  free(done);
  free(st);
  return rc;
}

int ar_tree_of_rank(const ar_params *p, int rank, int size, int which, topo_tree_node *out)
{
  int rpn = p->ranks_per_node > 0 && size % p->ranks_per_node == 0 ? p->ranks_per_node : 1, nodes = size / rpn;
  topo_tree_node *inter = malloc(sizeof *inter * (size_t)nodes);
  if (!inter)
    return SA_ENOMEM;
  for (int n = 0; n < nodes; n++)
    topo_tree_two(nodes, which, n, &inter[n]);
  topo_tree_chain(nodes, rpn, which, inter, rank, out);
  free(inter);
  return 0;
}
