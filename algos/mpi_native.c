/* mpi_native.c: "mpi", the MPI library's own MPI_Allreduce as a reference.
 *
 * Algorithm: whatever the library selects (under SMPI its smpi/allreduce selector,
 *   which --cfg=smpi/allreduce:NAME changes).
 * Restrictions: none; above 2^30 elements the call is made once per piece of at most 2^30
 *   (MPI counts are ints), one after the other.
 * Cost: the library's; under SMPI the sums are charged at the platform's reduce_bw like
 *   every other algorithm's, through a user-defined MPI_Op.
 */
#include "algos.h"
#include "ar_hostprops.h"

static kn_dtype op_dtype(const MPI_Datatype *t) { return *t == MPI_FLOAT ? KN_FP32 : KN_FP16; }

/* Charge the sum the device would do; each rank reads its own host's speed, and only the
 * two properties a sum needs: this runs at every step of the library's algorithm. */
static void charge_sum(int len, kn_dtype dt)
{
  double bw = ar_host_prop("reduce_bw");
  if (bw > 0 && len > 0)
    ar_charge(ar_host_prop("reduce_lat") + (double)len * (double)kn_dtype_size(dt) / bw);
}

static void op_sum(void *in, void *inout, int *len, MPI_Datatype *t)
{
  kn_sum(inout, inout, in, (size_t)*len, op_dtype(t));
  charge_sum(*len, op_dtype(t));
}

/* Timing mode: the payload is shared garbage, only the time counts. */
static void op_charge(void *in, void *inout, int *len, MPI_Datatype *t)
{
  (void)in;
  (void)inout;
  charge_sum(*len, op_dtype(t));
}

int ar_mpi(const void *sendbuf, void *recvbuf, size_t count, kn_dtype dt, MPI_Comm comm, const ar_params *p)
{
  if (count == 0)
    return 0;
  MPI_Op op = MPI_SUM;
  int own_op = 0;
#ifndef SA_SMPI
  if (dt == KN_FP16)
#endif
  {
    if (MPI_Op_create(p->real_data ? op_sum : op_charge, 1, &op) != MPI_SUCCESS)
      return SA_EMPI;
    own_op = 1;
  }
  double t0 = ar_steps_start(p->trace);
  int rc = MPI_SUCCESS;
  const size_t piece = (size_t)1 << 30;
  for (size_t off = 0; off < count && rc == MPI_SUCCESS; off += piece) {
    size_t n = count - off < piece ? count - off : piece;
    rc = MPI_Allreduce(sendbuf == MPI_IN_PLACE ? MPI_IN_PLACE : ar_cat(sendbuf, off, dt), ar_at(recvbuf, off, dt), (int)n,
                       ar_mpi_type(dt), op, comm);
  }
  long long bytes = (long long)(count * kn_dtype_size(dt));
  ar_steps_step(p->trace, AR_EV_COLLECTIVE, t0, comm, bytes, -1, bytes, -1);
  ar_phase_end(p->phases, AR_PH_ALLREDUCE);
  if (own_op)
    MPI_Op_free(&op);
  return rc == MPI_SUCCESS ? 0 : SA_EMPI;
}
