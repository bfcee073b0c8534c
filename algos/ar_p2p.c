/* ar_p2p.c: what every algorithm does around its messages: the shared prologue, and
 * point-to-point calls whose element counts may exceed MPI's int range (a message above
 * 2^31 - 1 elements travels as fewer, wider words) and whose MPI errors become SA_EMPI. */
#include "ar.h"

#include <limits.h>

#ifdef SA_SMPI
#include <simgrid/mailbox.h>

#include "ar_activity.h"
#endif

MPI_Datatype ar_mpi_type(kn_dtype dt)
{
  return dt == KN_FP16 ? MPI_UINT16_T : dt == KN_I32 ? MPI_UINT32_T : MPI_FLOAT;
}

/* Predefined MPI types of 8 and 16 bytes that carry a large message as fewer, wider words:
 * MPI only moves these bytes (the algorithms reduce them), and SMPI moves a predefined type
 * in place, where a derived one is copied through a buffer of the message's size. */
static const struct {
  size_t size;
  MPI_Datatype type;
} words[] = {{8, MPI_UINT64_T}, {16, MPI_C_DOUBLE_COMPLEX}};

/* Contiguous block types made for counts no word divides, kept for the run. */
#define BLOCK_TYPES 16
static struct {
  size_t count;
  kn_dtype dt;
  MPI_Datatype type;
  int n;
} blocks[BLOCK_TYPES];
static int nblocks;

/* The smallest divisor b of count with count / b within an int (b itself must be one too):
 * 0 when count has none, as for a prime above INT_MAX. */
static size_t block_of(size_t count)
{
  size_t lo = (count + INT_MAX - 1) / INT_MAX;
  for (size_t b = lo; b <= lo + (1u << 20) && b <= INT_MAX; b++)
    if (count % b == 0)
      return b;
  return 0;
}

int ar_msg(size_t count, kn_dtype dt, MPI_Datatype *type, int *n)
{
  size_t bytes = count * kn_dtype_size(dt);
  *type = ar_mpi_type(dt);
  *n = (int)count;
  if (count <= INT_MAX)
    return 0;
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
    if (bytes % words[i].size == 0 && bytes / words[i].size <= INT_MAX) {
      *type = words[i].type;
      *n = (int)(bytes / words[i].size);
      return 0;
    }
  for (int i = 0; i < nblocks; i++)
    if (blocks[i].count == count && blocks[i].dt == dt) {
      *type = blocks[i].type;
      *n = blocks[i].n;
      return 0;
    }
  size_t b = block_of(count);
  if (b == 0 || nblocks == BLOCK_TYPES)
    return SA_EINVAL;
  MPI_Datatype t;
  if (MPI_Type_contiguous((int)b, ar_mpi_type(dt), &t) != MPI_SUCCESS || MPI_Type_commit(&t) != MPI_SUCCESS)
    return SA_EMPI;
  blocks[nblocks].count = count;
  blocks[nblocks].dt = dt;
  blocks[nblocks].type = *type = t;
  blocks[nblocks++].n = *n = (int)(count / b);
  return 0;
}

/* Under SMPI (SimGrid 3.32), a message of 2 GiB or more is simulated right, but copied
 * through real memory whenever its byte count modulo 2^32 is 0 or 2^31 or more (the copy
 * takes its size as a 32-bit int): tens of GiB and minutes of wall time where one of 5 GiB
 * costs nothing (measured: a 2-rank ring, 4 GiB per rank (2 GiB messages): 12 GiB resident,
 * 18 s; 5 GiB per rank: 0.2 s). Every message of 2 GiB or more therefore goes in pieces of
 * at most 1 GiB, one after the other: the added latencies are a millionth of the time at
 * these sizes. A real MPI takes it whole. */
#define PIECE_BYTES ((size_t)1 << 30)

size_t ar_pieces(size_t count, kn_dtype dt)
{
#ifdef SA_SMPI
  size_t bytes = count * kn_dtype_size(dt);
  if (bytes > (size_t)INT_MAX)
    return (bytes + PIECE_BYTES - 1) / PIECE_BYTES;
#endif
  (void)dt;
  (void)count;
  return 1;
}

/* Piece i of a message of count elements: its first element and length. */
static size_t piece(size_t count, kn_dtype dt, size_t i, size_t *len)
{
  size_t k = ar_pieces(count, dt), per = k == 1 ? count : PIECE_BYTES / kn_dtype_size(dt), off = i * per;
  *len = off >= count ? 0 : count - off < per ? count - off : per;
  return off;
}

/* How a message is posted. */
enum { POST_RECV, POST_SEND };

/* Posts every piece of a message: a receive into buf, or a send from it. */
static int post(void *buf, size_t count, kn_dtype dt, int peer, int tag, MPI_Comm comm, MPI_Request *r, int *nreq,
                int how)
{
  size_t k = ar_pieces(count, dt), len, off;
  int rc = 0;
  for (size_t i = 0; i < k && rc == 0; i++) {
    MPI_Datatype t;
    int n;
    off = piece(count, dt, i, &len);
    rc = ar_msg(len, dt, &t, &n);
    void *at = ar_at(buf, off, dt);
    if (rc == 0)
      rc = (how == POST_RECV ? MPI_Irecv(at, n, t, peer, tag, comm, &r[*nreq])
                             : MPI_Isend(at, n, t, peer, tag, comm, &r[*nreq])) == MPI_SUCCESS
               ? 0
               : SA_EMPI;
    *nreq += rc == 0;
  }
  return rc;
}

/* Bytes of count elements for the trace, -1 when no peer takes part. */
static long long msg_bytes(size_t count, kn_dtype dt, int peer)
{
  return peer == MPI_PROC_NULL ? -1 : (long long)(count * kn_dtype_size(dt));
}

int ar_isend(const void *buf, size_t count, kn_dtype dt, int peer, int tag, MPI_Comm comm, const ar_params *p,
             MPI_Request *r, int *nreq)
{
  ar_steps_post(p->trace, 1, comm, msg_bytes(count, dt, peer), peer);
  return post((void *)buf, count, dt, peer, tag, comm, r, nreq, POST_SEND); /* MPI_Isend reads it only */
}



int ar_irecv(void *buf, size_t count, kn_dtype dt, int peer, int tag, MPI_Comm comm, const ar_params *p,
             MPI_Request *r, int *nreq)
{
  ar_steps_post(p->trace, 0, comm, msg_bytes(count, dt, peer), peer);
  return post(buf, count, dt, peer, tag, comm, r, nreq, POST_RECV);
}

int ar_waitall(int n, MPI_Request *req, const ar_params *p)
{
  double t0 = ar_steps_start(p->trace);
  int rc = MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
  ar_steps_step(p->trace, AR_EV_WAIT, t0, MPI_COMM_NULL, -1, -1, -1, -1);
  return rc == MPI_SUCCESS ? 0 : SA_EMPI;
}

#ifdef SA_SMPI
sg_comm_t ar_mb_put(sg_mailbox_t mb, void *payload, size_t bytes, int peer, MPI_Comm comm, const ar_params *p)
{
  ar_steps_post(p->trace, 1, comm, (long long)bytes, peer);
  return sg_mailbox_put_async(mb, payload, (long)bytes);
}

sg_comm_t ar_mb_get(sg_mailbox_t mb, void **payload, size_t bytes, int peer, MPI_Comm comm, const ar_params *p)
{
  ar_steps_post(p->trace, 0, comm, (long long)bytes, peer);
  return sg_mailbox_get_async(mb, payload);
}

int ar_wait_first(sg_comm_t *comms, int ncomm, sg_exec_t *execs, int nexec, double timeout, const ar_params *p)
{
  double t0 = ar_steps_start(p->trace);
  int idx = ar_wait_any(comms, ncomm, execs, nexec, timeout);
  ar_steps_step(p->trace, AR_EV_WAIT, t0, MPI_COMM_NULL, -1, -1, -1, -1);
  return idx;
}
#endif

int ar_sendrecv(const void *sbuf, size_t scount, int dest, void *rbuf, size_t rcount, int src, kn_dtype dt,
                MPI_Comm comm, const ar_params *p)
{
  double t0 = ar_steps_start(p->trace);
  size_t ks = ar_pieces(scount, dt), kr = ar_pieces(rcount, dt);
  int rc = 0;
#ifdef SA_SMPI
  if (ar_native_takes(comm, p)) { /* the same messages, piece by piece, on mailboxes */
    for (size_t i = 0; i < (ks > kr ? ks : kr) && rc == 0; i++) {
      size_t sl, rl, so = piece(scount, dt, i, &sl), ro = piece(rcount, dt, i, &rl), es = kn_dtype_size(dt);
      rc = ar_native_sendrecv(sbuf ? ar_cat(sbuf, so, dt) : NULL, sl * es, i < ks ? dest : MPI_PROC_NULL,
                              rbuf ? ar_at(rbuf, ro, dt) : NULL, rl * es, i < kr ? src : MPI_PROC_NULL, comm, p);
    }
    ar_steps_step(p->trace, AR_EV_SENDRECV, t0, comm, msg_bytes(scount, dt, dest), dest, msg_bytes(rcount, dt, src),
                  src);
    return rc;
  }
#endif
  /* piece i of what goes out with piece i of what comes in; a side with fewer pieces sends
   * or receives nothing for the rest */
  for (size_t i = 0; i < (ks > kr ? ks : kr) && rc == 0; i++) {
    size_t sl, rl, so = piece(scount, dt, i, &sl), ro = piece(rcount, dt, i, &rl);
    MPI_Datatype st, rt;
    int sn, rn;
    rc = ar_msg(sl, dt, &st, &sn);
    if (rc == 0)
      rc = ar_msg(rl, dt, &rt, &rn);
    if (rc == 0 && MPI_Sendrecv(sbuf ? ar_cat(sbuf, so, dt) : NULL, sn, st, i < ks ? dest : MPI_PROC_NULL, 0,
                                rbuf ? ar_at(rbuf, ro, dt) : NULL, rn, rt, i < kr ? src : MPI_PROC_NULL, 0, comm,
                                MPI_STATUS_IGNORE) != MPI_SUCCESS)
      rc = SA_EMPI;
  }
  ar_steps_step(p->trace, AR_EV_SENDRECV, t0, comm, msg_bytes(scount, dt, dest), dest, msg_bytes(rcount, dt, src), src);
  return rc;
}

/* Blocking sends and receives: the pieces posted, then waited for, one step in the trace. */
int ar_send(const void *buf, size_t count, kn_dtype dt, int peer, int tag, MPI_Comm comm, const ar_params *p)
{
  MPI_Request r[AR_MAX_PIECES];
  double t0 = ar_steps_start(p->trace);
  int n = 0, rc = post((void *)buf, count, dt, peer, tag, comm, r, &n, POST_SEND);
  if (rc == 0 && MPI_Waitall(n, r, MPI_STATUSES_IGNORE) != MPI_SUCCESS)
    rc = SA_EMPI;
  ar_steps_step(p->trace, AR_EV_SEND, t0, comm, msg_bytes(count, dt, peer), peer, -1, -1);
  return rc;
}

int ar_recv(void *buf, size_t count, kn_dtype dt, int peer, int tag, MPI_Comm comm, const ar_params *p)
{
  MPI_Request r[AR_MAX_PIECES];
  double t0 = ar_steps_start(p->trace);
  int n = 0, rc = post(buf, count, dt, peer, tag, comm, r, &n, POST_RECV);
  if (rc == 0 && MPI_Waitall(n, r, MPI_STATUSES_IGNORE) != MPI_SUCCESS)
    rc = SA_EMPI;
  ar_steps_step(p->trace, AR_EV_RECV, t0, comm, -1, -1, msg_bytes(count, dt, peer), peer);
  return rc;
}

int ar_ranks(MPI_Comm comm, int *rank, int *size)
{
  return MPI_Comm_rank(comm, rank) == MPI_SUCCESS && MPI_Comm_size(comm, size) == MPI_SUCCESS ? 0 : SA_EMPI;
}

int ar_begin(const void **sendbuf, void *recvbuf, size_t count, kn_dtype dt, MPI_Comm comm, const ar_params *p,
             int *rank, int *size, int *rc)
{
  if ((*rc = ar_ranks(comm, rank, size)) != 0)
    return 1;
  if (*sendbuf == MPI_IN_PLACE)
    *sendbuf = recvbuf;
  if (count > 0 && *size == 1) {
    ar_copy(p, recvbuf, *sendbuf, count, dt);
    ar_phase_end(p->phases, AR_PH_COPY);
  }
  return count == 0 || *size == 1;
}
