/* ar_p2p.c: the point-to-point calls every algorithm makes, with element counts checked
 * against MPI's int range and MPI errors turned into AR_EMPI. */
#include "ar.h"

#include <limits.h>

MPI_Datatype ar_mpi_type(ar_dtype dt) { return dt == AR_FP16 ? MPI_UINT16_T : MPI_FLOAT; }

int ar_sendrecv(const void *sbuf, size_t scount, int dest, void *rbuf, size_t rcount, int src, ar_dtype dt,
                MPI_Comm comm)
{
  if (scount > INT_MAX || rcount > INT_MAX)
    return AR_EINVAL;
  MPI_Datatype t = ar_mpi_type(dt);
  int rc = MPI_Sendrecv(sbuf, (int)scount, t, dest, 0, rbuf, (int)rcount, t, src, 0, comm, MPI_STATUS_IGNORE);
  return rc == MPI_SUCCESS ? 0 : AR_EMPI;
}
