/* ar_p2p.c: what every algorithm does around its messages: the shared prologue, and
 * point-to-point calls with element counts checked against MPI's int range and MPI errors
 * turned into SA_EMPI. */
#include "ar.h"

#include <limits.h>

MPI_Datatype ar_mpi_type(ar_dtype dt)
{
  return dt == AR_FP16 ? MPI_UINT16_T : dt == AR_I32 ? MPI_UINT32_T : MPI_FLOAT;
}

int ar_sendrecv(const void *sbuf, size_t scount, int dest, void *rbuf, size_t rcount, int src, ar_dtype dt,
                MPI_Comm comm)
{
  if (scount > INT_MAX || rcount > INT_MAX)
    return SA_EINVAL;
  MPI_Datatype t = ar_mpi_type(dt);
  int rc = MPI_Sendrecv(sbuf, (int)scount, t, dest, 0, rbuf, (int)rcount, t, src, 0, comm, MPI_STATUS_IGNORE);
  return rc == MPI_SUCCESS ? 0 : SA_EMPI;
}

int ar_ranks(MPI_Comm comm, int *rank, int *size)
{
  return MPI_Comm_rank(comm, rank) == MPI_SUCCESS && MPI_Comm_size(comm, size) == MPI_SUCCESS ? 0 : SA_EMPI;
}

int ar_begin(const void **sendbuf, void *recvbuf, size_t count, ar_dtype dt, MPI_Comm comm, const ar_params *p,
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
