/* nccl.c: "nccl", what NCCL itself would run: at each size the driver picks the algorithm,
 * protocol and channel count NCCL's tuner would (models/cost_nccl_choice.c) and the runner
 * hands them in ar_params; this runs that choice, NCCL's ring (nccl_ring.c), its tree
 * (nccl_tree.c), NVLS or NVLS tree (nvls.c).
 * Restrictions and steps: those of the algorithm chosen.
 * Cost: that of the algorithm chosen at the size, nccl-ring's, nccl-tree's, nvls's or nvls-tree's, with NCCL's
 *   protocol and channel count for it.
 */
#include "algos.h"
#include "nccl/nccl_proto.h"

int ar_nccl(const void *sendbuf, void *recvbuf, size_t count, kn_dtype dt, MPI_Comm comm, const ar_params *p)
{
  switch (p->nccl_run.algo) {
  case NCCL_ALGO_TREE: return ar_nccl_tree(sendbuf, recvbuf, count, dt, comm, p);
  case NCCL_ALGO_NVLS: return ar_nvls(sendbuf, recvbuf, count, dt, comm, p);
  case NCCL_ALGO_NVLS_TREE: return ar_nvls_tree(sendbuf, recvbuf, count, dt, comm, p);
  default: return ar_nccl_ring(sendbuf, recvbuf, count, dt, comm, p);
  }
}
