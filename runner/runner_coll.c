/* runner_coll.c: the runner's own collectives: the barrier before each allreduce timed from
 * a barrier, and small allreduces (the return codes every rank agrees on, the slowest rank's
 * time or the ranks' mean, the phases' ends, the clock), none of them timed. (--timing
 * nccl-tests keeps SMPI's own barrier and first allreduce: the skew they leave shows in its
 * steady state.)
 *
 * Under SMPI they are made of point-to-point messages. SMPI's default MPI_Allreduce is a
 * linear reduce to rank 0 and a broadcast, and rank 0 waits for its p - 1 receives with a
 * waitall that SimGrid 3.32 answers one waitany at a time over every request still open:
 * p^2/2 request visits, 4 s of wall time per call at 4096 ranks (measured), a minute at
 * 16384. A binomial tree up to rank 0 and back takes 2 (p - 1) messages in 2 log2(p) rounds
 * (recursive doubling would take p log2(p) messages). The sends are synchronous:
 * SimGrid keeps every eager (detached) send in flight in one list that it searches
 * linearly for each one that ends, so p small sends at once cost time quadratic in p. A
 * measured run (mpicc) calls MPI_Allreduce. */
#include "runner_coll.h"

#include <stdlib.h>

#include "common/sa_error.h"

/* MPI guarantees MPI_TAG_UB >= 32767; the algorithms' tags are small. */
#define COLL_TAG 32767

#ifdef SA_SMPI
/* acc[i] = op(acc[i], in[i]); the tree's order is fixed, so a sum is the same bit for bit */
static void combine(void *acc, const void *in, int n, MPI_Datatype t, MPI_Op op)
{
  int max = op == MPI_MAX, sum = op == MPI_SUM;
  for (int i = 0; i < n; i++)
    if (t == MPI_INT) {
      int *a = (int *)acc + i, b = ((const int *)in)[i];
      *a = sum ? *a + b : max ? (b > *a ? b : *a) : (b < *a ? b : *a);
    } else {
      double *a = (double *)acc + i, b = ((const double *)in)[i];
      *a = sum ? *a + b : max ? (b > *a ? b : *a) : (b < *a ? b : *a);
    }
}

int runner_exchange(const void *sbuf, void *rbuf, int n, MPI_Datatype t, int dest, int src, MPI_Comm comm)
{
  MPI_Request r[2];
  if (MPI_Irecv(rbuf, n, t, src, COLL_TAG, comm, &r[0]) != MPI_SUCCESS ||
      MPI_Issend(sbuf, n, t, dest, COLL_TAG, comm, &r[1]) != MPI_SUCCESS ||
      MPI_Waitall(2, r, MPI_STATUSES_IGNORE) != MPI_SUCCESS)
    return SA_EMPI;
  return 0;
}

/* SMPI's default barrier (Open MPI's basic linear one): every rank tells rank 0, which
 * answers each once all have: the release, which sets where each rank starts a timed
 * allreduce, goes as SMPI sends it, rank 0's eager sends all at once to ranks 1.. p-1. The
 * rest costs less and starts nothing at another time: rank 0 waits for the ranks one by one
 * (a waitall over p requests costs SimGrid p^2/2 request visits), and their messages are
 * synchronous (eager ones would wait in SimGrid's linear list; synchronous ones keep rank 0
 * from paying SMPI's receive overhead smpi/or for each, a shift of every rank alike). */
int runner_barrier(MPI_Comm comm)
{
  int rank, size, rc = 0;
  if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS || MPI_Comm_size(comm, &size) != MPI_SUCCESS)
    return SA_EMPI;
  if (rank > 0) {
    if (MPI_Ssend(NULL, 0, MPI_BYTE, 0, COLL_TAG, comm) != MPI_SUCCESS ||
        MPI_Recv(NULL, 0, MPI_BYTE, 0, COLL_TAG, comm, MPI_STATUS_IGNORE) != MPI_SUCCESS)
      return SA_EMPI;
    return 0;
  }
  MPI_Request *r = malloc(sizeof *r * (size_t)(size > 1 ? size - 1 : 1));
  if (!r)
    return SA_ENOMEM;
  for (int i = 1; i < size && rc == 0; i++)
    rc = MPI_Irecv(NULL, 0, MPI_BYTE, i, COLL_TAG, comm, &r[i - 1]) == MPI_SUCCESS ? 0 : SA_EMPI;
  for (int i = 1; i < size && rc == 0; i++)
    rc = MPI_Wait(&r[i - 1], MPI_STATUS_IGNORE) == MPI_SUCCESS ? 0 : SA_EMPI;
  for (int i = 1; i < size && rc == 0; i++)
    rc = MPI_Isend(NULL, 0, MPI_BYTE, i, COLL_TAG, comm, &r[i - 1]) == MPI_SUCCESS ? 0 : SA_EMPI;
  /* eager sends are done as soon as they are posted */
  for (int i = 1; i < size && rc == 0; i++)
    rc = MPI_Wait(&r[i - 1], MPI_STATUS_IGNORE) == MPI_SUCCESS ? 0 : SA_EMPI;
  free(r);
  return rc;
}

int runner_allreduce(void *buf, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
  unsigned char in[RUNNER_COLL_MAX * sizeof(double)];
  MPI_Request r[32];
  int rank, size, rc = 0, nreq = 0, mask = 1;
  if (n < 0 || n > RUNNER_COLL_MAX || (t != MPI_INT && t != MPI_DOUBLE) ||
      (op != MPI_MAX && op != MPI_MIN && op != MPI_SUM))
    return SA_EINVAL;
  if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS || MPI_Comm_size(comm, &size) != MPI_SUCCESS)
    return SA_EMPI;
  /* a binomial tree: each rank combines its children's values with its own, then hands
   * them to its parent (rank - its lowest set bit) ... */
  for (; mask < size && rc == 0; mask <<= 1) {
    if (rank & mask) {
      rc = MPI_Ssend(buf, n, t, rank - mask, COLL_TAG, comm) == MPI_SUCCESS ? 0 : SA_EMPI;
      break;
    }
    if (rank + mask < size) {
      rc = MPI_Recv(in, n, t, rank + mask, COLL_TAG, comm, MPI_STATUS_IGNORE) == MPI_SUCCESS ? 0 : SA_EMPI;
      if (rc == 0)
        combine(buf, in, n, t, op);
    }
  }
  /* ... and rank 0's result comes back down the same tree */
  if (rc == 0 && rank > 0)
    rc = MPI_Recv(buf, n, t, rank - mask, COLL_TAG, comm, MPI_STATUS_IGNORE) == MPI_SUCCESS ? 0 : SA_EMPI;
  for (mask >>= 1; mask > 0 && rc == 0; mask >>= 1)
    if (rank + mask < size)
      rc = MPI_Issend(buf, n, t, rank + mask, COLL_TAG, comm, &r[nreq++]) == MPI_SUCCESS ? 0 : SA_EMPI;
  if (nreq && MPI_Waitall(nreq, r, MPI_STATUSES_IGNORE) != MPI_SUCCESS)
    rc = SA_EMPI;
  return rc;
}
#else
int runner_exchange(const void *sbuf, void *rbuf, int n, MPI_Datatype t, int dest, int src, MPI_Comm comm)
{
  return MPI_Sendrecv(sbuf, n, t, dest, COLL_TAG, rbuf, n, t, src, COLL_TAG, comm, MPI_STATUS_IGNORE) == MPI_SUCCESS
             ? 0
             : SA_EMPI;
}

int runner_barrier(MPI_Comm comm) { return MPI_Barrier(comm) == MPI_SUCCESS ? 0 : SA_EMPI; }

int runner_allreduce(void *buf, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
  return MPI_Allreduce(MPI_IN_PLACE, buf, n, t, op, comm) == MPI_SUCCESS ? 0 : SA_EMPI;
}
#endif
