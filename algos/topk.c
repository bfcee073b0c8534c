/* topk.c: TopK-SGD aggregation, "NaiveAG" in [Shi21]: every rank keeps the k = rho*d largest
 * magnitudes of its own gradient, the pairs are allgathered, and every rank adds them all.
 *
 * Algorithm: (select) exact top-k of the rank's whole input (TopK-SGD's selection; its GPU
 *   cost is the platform's topk_a + topk_b per element); (allgather) two ring allgathers
 *   over all ranks, the k values then the k indices [Shi21, eq. 3]; (scatter-add) the
 *   result is zeroed and the p*k pairs added into it. The result is the sum over ranks of
 *   each rank's top-k: not the dense sum.
 * Restrictions: any p; k = round(rho*count), at least 1 (count = 0 returns); at most 2^32
 *   elements (32-bit indices).
 * Cost: t_select + 2 (p-1) alpha + (p-1) k (s_v + s_i) beta + k (s_v + s_i) c + t_zero
 *   + t_scatter(p k) (two ring allgathers of p-1 steps, k values then k indices, after the
 *   rank's own pairs are copied into place at c seconds per byte;
 *   s_v, s_i: bytes of a value and an index; [Shi21] eq. 3 writes the allgather as
 *   alpha log p + 4 (p-1) beta k for fp32, with a logarithmic allgather; NCCL's, used by
 *   NaiveAG, is the ring).
 *
 *   rank r: x_r --select--> (v_r, i_r) --allgather--> (v_0..v_p-1, i_0..i_p-1)
 *           result = 0; result[i_q] += v_q for every q
 */
#include <stdlib.h>

#include "algos.h"
#include "sparse.h"

int ar_topk(const void *sendbuf, void *recvbuf, size_t count, kn_dtype dt, MPI_Comm comm, const ar_params *p)
{
  int rank, size, rc = ar_ranks(comm, &rank, &size);
  if (rc || count == 0)
    return rc;
  if (count > AR_SPARSE_MAX_COUNT)
    return SA_EINVAL;
  const void *send = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf; /* read before recvbuf is zeroed */
  size_t k = kn_topk_k(count, p->density), es = kn_dtype_size(dt);
  if (p->phases)
    p->phases->selected = (long long)k;
  uint32_t *idx = ar_alloc(p, k * sizeof *idx), *alli = ar_alloc(p, (size_t)size * k * sizeof *alli);
  void *vals = ar_alloc(p, k * es), *allv = ar_alloc(p, (size_t)size * k * es);
  rc = idx && alli && vals && allv ? 0 : SA_ENOMEM;
  long got = rc ? 0 : ar_select(p, AR_SELECT_EXACT, send, count, dt, k, 0, idx, vals);
  if (got < 0)
    rc = (int)got;
  ar_phase_end(p->phases, AR_PH_SELECT);
  if (rc == 0)
    rc = ar_allgather_pairs(p, comm, vals, idx, k, dt, allv, alli);
  ar_phase_end(p->phases, AR_PH_AG);
  if (rc == 0) {
    ar_zero(p, recvbuf, count, dt);
    ar_scatter_add(p, recvbuf, allv, alli, (size_t)size * k, dt);
  }
  ar_phase_end(p->phases, AR_PH_SCATTER_ADD);
  ar_free(p, idx);
  ar_free(p, alli);
  ar_free(p, vals);
  ar_free(p, allv);
  return rc;
}
