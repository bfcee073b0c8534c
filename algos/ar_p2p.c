/* ar_p2p.c: what every algorithm does around its messages: the shared prologue, and
 * point-to-point calls with element counts checked against MPI's int range and MPI errors
 * turned into SA_EMPI. */
#include "ar.h"

#include <limits.h>

MPI_Datatype ar_mpi_type(ar_dtype dt)
{
  return dt == AR_FP16 ? MPI_UINT16_T : dt == AR_I32 ? MPI_UINT32_T : MPI_FLOAT;
}

/* Bytes of count elements for the trace, -1 when no peer takes part. */
static long long msg_bytes(size_t count, ar_dtype dt, int peer)
{
  return peer == MPI_PROC_NULL ? -1 : (long long)(count * ar_dtype_size(dt));
}

int ar_sendrecv(const void *sbuf, size_t scount, int dest, void *rbuf, size_t rcount, int src, ar_dtype dt,
                MPI_Comm comm, const ar_params *p)
{
  if (scount > INT_MAX || rcount > INT_MAX)
    return SA_EINVAL;
  MPI_Datatype t = ar_mpi_type(dt);
  double t0 = ar_trace_start(p->trace);
  int rc = MPI_Sendrecv(sbuf, (int)scount, t, dest, 0, rbuf, (int)rcount, t, src, 0, comm, MPI_STATUS_IGNORE);
  ar_trace_step(p->trace, AR_EV_SENDRECV, t0, comm, msg_bytes(scount, dt, dest), dest, msg_bytes(rcount, dt, src), src);
  return rc == MPI_SUCCESS ? 0 : SA_EMPI;
}

int ar_send(const void *buf, size_t count, ar_dtype dt, int dest, int tag, MPI_Comm comm, const ar_params *p)
{
  if (count > INT_MAX)
    return SA_EINVAL;
  double t0 = ar_trace_start(p->trace);
  int rc = MPI_Send(buf, (int)count, ar_mpi_type(dt), dest, tag, comm);
  ar_trace_step(p->trace, AR_EV_SEND, t0, comm, msg_bytes(count, dt, dest), dest, -1, -1);
  return rc == MPI_SUCCESS ? 0 : SA_EMPI;
}

int ar_recv(void *buf, size_t count, ar_dtype dt, int src, int tag, MPI_Comm comm, const ar_params *p)
{
  if (count > INT_MAX)
    return SA_EINVAL;
  double t0 = ar_trace_start(p->trace);
  int rc = MPI_Recv(buf, (int)count, ar_mpi_type(dt), src, tag, comm, MPI_STATUS_IGNORE);
  ar_trace_step(p->trace, AR_EV_RECV, t0, comm, -1, -1, msg_bytes(count, dt, src), src);
  return rc == MPI_SUCCESS ? 0 : SA_EMPI;
}

int ar_isend(const void *buf, size_t count, ar_dtype dt, int dest, int tag, MPI_Comm comm, const ar_params *p,
             MPI_Request *req)
{
  if (count > INT_MAX)
    return SA_EINVAL;
  ar_trace_post(p->trace, 1, comm, msg_bytes(count, dt, dest), dest);
  return MPI_Isend(buf, (int)count, ar_mpi_type(dt), dest, tag, comm, req) == MPI_SUCCESS ? 0 : SA_EMPI;
}

int ar_irecv(void *buf, size_t count, ar_dtype dt, int src, int tag, MPI_Comm comm, const ar_params *p,
             MPI_Request *req)
{
  if (count > INT_MAX)
    return SA_EINVAL;
  ar_trace_post(p->trace, 0, comm, msg_bytes(count, dt, src), src);
  return MPI_Irecv(buf, (int)count, ar_mpi_type(dt), src, tag, comm, req) == MPI_SUCCESS ? 0 : SA_EMPI;
}

int ar_waitall(int n, MPI_Request *req, const ar_params *p)
{
  double t0 = ar_trace_start(p->trace);
  int rc = MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
  ar_trace_step(p->trace, AR_EV_WAIT, t0, MPI_COMM_NULL, -1, -1, -1, -1);
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
