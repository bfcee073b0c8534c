/* naive.c: gather to a master, reduce there, broadcast back: the strawman of [PFN18] and
 * [Baidu17], whose master's traffic and work grow linearly with the number of ranks.
 *
 * Algorithm: every rank sends its vector to rank 0, which receives them all at once, sums
 *   them, and sends the result to every rank at once.
 * Restrictions: none. Rank 0 holds p-1 receive buffers of n bytes.
 * Cost: 2 alpha + 2 (p-1) n beta + n c + (p-1) n gamma (all transfers share the master's
 *   link; c: seconds per byte copied). On a cluster the p-R messages of other nodes share
 *   node 0's NIC and set the time, 2 (p-R) n beta_inter, the R-1 of node 0 overlap them.
 *
 *   gather:  1 -> 0, 2 -> 0, ..., p-1 -> 0      bcast:  0 -> 1, 0 -> 2, ..., 0 -> p-1
 */
#include <stdlib.h>

#include "algos.h"

int ar_naive(const void *sendbuf, void *recvbuf, size_t count, kn_dtype dt, MPI_Comm comm, const ar_params *p)
{
  int rank, size, rc;
  if (ar_begin(&sendbuf, recvbuf, count, dt, comm, p, &rank, &size, &rc))
    return rc;
  if (rank != 0) {
    rc = ar_send(sendbuf, count, dt, 0, 0, comm, p);
    ar_phase_end(p->phases, AR_PH_GATHER_REDUCE);
    if (rc == 0)
      rc = ar_recv(recvbuf, count, dt, 0, 1, comm, p);
    ar_phase_end(p->phases, AR_PH_BCAST);
    return rc;
  }

  void **tmp = calloc((size_t)size, sizeof *tmp);
  MPI_Request *req = calloc((size_t)size * ar_pieces(count, dt), sizeof *req);
  int nreq = 0;
  rc = tmp && req ? 0 : SA_ENOMEM;
  for (int i = 1; i < size && rc == 0; i++) {
    tmp[i] = ar_alloc(p, count * kn_dtype_size(dt));
    rc = tmp[i] ? ar_irecv(tmp[i], count, dt, i, 0, comm, p, req, &nreq) : SA_ENOMEM;
  }
  if (rc == 0 && nreq)
    rc = ar_waitall(nreq, req, p);
  if (rc == 0)
    ar_copy(p, recvbuf, sendbuf, count, dt);
  for (int i = 1; i < size && rc == 0; i++)
    ar_reduce(p, recvbuf, recvbuf, tmp[i], count, dt);
  ar_phase_end(p->phases, AR_PH_GATHER_REDUCE);

  nreq = 0;
  for (int i = 1; i < size && rc == 0; i++)
    rc = ar_isend(recvbuf, count, dt, i, 1, comm, p, req, &nreq);
  if (rc == 0 && nreq)
    rc = ar_waitall(nreq, req, p);
  ar_phase_end(p->phases, AR_PH_BCAST);
  for (int i = 1; tmp && i < size; i++)
    ar_free(p, tmp[i]);
  free(tmp);
  free(req);
  return rc;
}
