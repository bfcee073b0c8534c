/* ring_core.c: ring reduce-scatter and allgather, many rings in lock step. Each step posts
 * every ring's receive and send before waiting, so rings on disjoint links run at once. */
#include "ring_core.h"

#include <stdlib.h>

static int mod(int a, int n) { return ((a % n) + n) % n; }

int ar_ring_plain(MPI_Comm comm, size_t off, size_t len, ar_ring_spec *r)
{
  if (MPI_Comm_rank(comm, &r->pos) != MPI_SUCCESS || MPI_Comm_size(comm, &r->n) != MPI_SUCCESS)
    return SA_EMPI;
  r->next = mod(r->pos + 1, r->n);
  r->prev = mod(r->pos - 1, r->n);
  r->off = off;
  r->len = len;
  return 0;
}

size_t ar_ring_chunk_off(const ar_ring_spec *r, int c) { return r->off + kn_part_off(r->len, r->n, mod(c, r->n)); }
size_t ar_ring_chunk_len(const ar_ring_spec *r, int c) { return kn_part_len(r->len, r->n, mod(c, r->n)); }

/* One step of every ring: receive chunk rc[k] of ring k into rbuf[k] while sending chunk
 * sc[k] from sbuf. Tags keep the rings apart when two rings join the same pair of ranks.
 * A single ring makes one MPI_Sendrecv: the same two messages, but under SMPI every MPI
 * call reads the thread's CPU clock twice (a system call), and three calls a step cost a
 * third of a 128-rank ring's wall time. */
static int exchange(const void *sbuf, void *const *rbuf, kn_dtype dt, MPI_Comm comm, const ar_params *q,
                    const ar_ring_spec *rings, int nrings, const int *sc, const int *rc, MPI_Request *req)
{
  int nreq = 0;
  for (int k = 0; k < nrings; k++) {
    size_t rl = ar_ring_chunk_len(&rings[k], rc[k]), sl = ar_ring_chunk_len(&rings[k], sc[k]);
    const void *src = ar_cat(sbuf, ar_ring_chunk_off(&rings[k], sc[k]), dt);
    if (nrings == 1)
      return ar_sendrecv(src, sl, rings[0].next, rbuf[0], rl, rings[0].prev, dt, comm, q);
    int e = ar_irecv(rbuf[k], rl, dt, rings[k].prev, k, comm, q, req, &nreq);
    if (e || (e = ar_isend(src, sl, dt, rings[k].next, k, comm, q, req, &nreq)))
      return e;
  }
  return ar_waitall(nreq, req, q);
}

/* The exchange, recorded as one step with every ring's bytes (and its peers for one ring). */
static int step(const void *sbuf, void *const *rbuf, kn_dtype dt, MPI_Comm comm, const ar_params *p,
                const ar_ring_spec *rings, int nrings, const int *sc, const int *rc, MPI_Request *req)
{
  double t0 = ar_steps_start(p->trace);
  ar_params q = *p; /* the messages untraced: the step is recorded as one */
  q.trace = NULL;
  int status = exchange(sbuf, rbuf, dt, comm, &q, rings, nrings, sc, rc, req);
  if (p->trace) {
    long long sent = 0, got = 0;
    for (int k = 0; k < nrings; k++) {
      sent += (long long)(ar_ring_chunk_len(&rings[k], sc[k]) * kn_dtype_size(dt));
      got += (long long)(ar_ring_chunk_len(&rings[k], rc[k]) * kn_dtype_size(dt));
    }
    ar_steps_step(p->trace, AR_EV_SENDRECV, t0, comm, sent, nrings == 1 ? rings[0].next : -1, got,
                  nrings == 1 ? rings[0].prev : -1);
  }
  return status;
}

/* Scratch for the rings' steps: requests for nrings pairs of messages (each in up to
 * AR_MAX_PIECES pieces), chunk indices and buffers. */
typedef struct {
  MPI_Request *req;
  int *sc, *rc;
  void **rbuf;
} step_state;

static int state_init(step_state *s, int nrings)
{
  s->req = malloc(sizeof *s->req * 2 * AR_MAX_PIECES * (size_t)nrings);
  s->sc = malloc(sizeof(int) * 2 * (size_t)nrings);
  s->rbuf = calloc((size_t)nrings, sizeof *s->rbuf);
  s->rc = s->sc ? s->sc + nrings : NULL;
  return s->req && s->sc && s->rbuf ? 0 : SA_ENOMEM;
}

static void state_free(step_state *s, const ar_params *p, int nscratch)
{
  for (int k = 0; s->rbuf && k < nscratch; k++)
    ar_free(p, s->rbuf[k]);
  free(s->req);
  free(s->sc);
  free(s->rbuf);
}

int ar_ring_reduce_scatter(const void *sendbuf, void *recvbuf, kn_dtype dt, MPI_Comm comm, const ar_params *p,
                           const ar_ring_spec *rings, int nrings)
{
  step_state s;
  int rc = state_init(&s, nrings), steps = rings[0].n - 1;
  for (int k = 0; k < nrings && rc == 0; k++) {
    s.rbuf[k] = ar_alloc(p, ar_ring_chunk_len(&rings[k], 0) * kn_dtype_size(dt));
    rc = s.rbuf[k] ? 0 : SA_ENOMEM;
    if (rings[k].n == 1) /* a ring of one owns its whole range already */
      ar_copy(p, ar_at(recvbuf, rings[k].off, dt), ar_cat(sendbuf, rings[k].off, dt), rings[k].len, dt);
  }
  for (int i = 0; i < steps && rc == 0; i++) {
    for (int k = 0; k < nrings; k++) {
      s.sc[k] = rings[k].pos - i;
      s.rc[k] = rings[k].pos - i - 1;
    }
    /* step 0 sends straight from sendbuf, later steps forward what was just summed */
    rc = step(i == 0 ? sendbuf : recvbuf, s.rbuf, dt, comm, p, rings, nrings, s.sc, s.rc, s.req);
    for (int k = 0; k < nrings && rc == 0; k++) {
      size_t off = ar_ring_chunk_off(&rings[k], s.rc[k]);
      ar_reduce(p, ar_at(recvbuf, off, dt), ar_cat(sendbuf, off, dt), s.rbuf[k], ar_ring_chunk_len(&rings[k], s.rc[k]),
                dt);
    }
  }
  state_free(&s, p, nrings);
  return rc;
}

int ar_ring_allgather(void *recvbuf, kn_dtype dt, MPI_Comm comm, const ar_params *p, const ar_ring_spec *rings, int nrings)
{
  step_state s;
  int rc = state_init(&s, nrings), steps = rings[0].n - 1;
  for (int i = 0; i < steps && rc == 0; i++) {
    for (int k = 0; k < nrings; k++) {
      s.sc[k] = rings[k].pos - i + 1;
      s.rc[k] = rings[k].pos - i;
      s.rbuf[k] = ar_at(recvbuf, ar_ring_chunk_off(&rings[k], s.rc[k]), dt);
    }
    rc = step(recvbuf, s.rbuf, dt, comm, p, rings, nrings, s.sc, s.rc, s.req);
  }
  state_free(&s, p, 0);
  return rc;
}

int ar_ring_allgatherv(void *buf, const size_t *counts, const size_t *displs, kn_dtype dt, MPI_Comm comm,
                       const ar_params *p)
{
  int rank, size, rc = ar_ranks(comm, &rank, &size);
  for (int i = 0; i < size - 1 && rc == 0; i++) {
    int s = mod(rank - i, size), r = mod(rank - i - 1, size);
    rc = ar_sendrecv(ar_cat(buf, displs[s], dt), counts[s], mod(rank + 1, size), ar_at(buf, displs[r], dt), counts[r],
                     mod(rank - 1, size), dt, comm, p);
  }
  return rc;
}
