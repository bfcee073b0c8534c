/* ring.c: ring allreduce, reduce-scatter then allgather around one ring of all ranks.
 *
 * Algorithm: the buffer is cut into p chunks [Baidu17], indexed as in the baidu-allreduce
 *   code comments. In reduce-scatter step i (i = 0..p-2) rank j sends chunk (j-i) mod p to
 *   j+1 and receives chunk (j-i-1) mod p from j-1, adding it to its own copy; rank j then
 *   holds the full sum of chunk (j+1) mod p.
 *   In allgather step i rank j sends chunk (j-i+1) mod p and receives chunk (j-i) mod p.
 * Restrictions: none. Any p; count < p leaves some chunks empty (their messages carry
 *   nothing but still pay latency); p = 1 is a copy.
 * Cost: 2(p-1) alpha + 2 (p-1)/p n beta + (p-1)/p n gamma
 *   (n bytes per rank; the slowest link of the ring sets beta).
 *
 *   p = 3, chunks a b c          rank0      rank1      rank2
 *   reduce-scatter step 0:      a -> 1     b -> 2     c -> 0
 *   reduce-scatter step 1:      c+ -> 1    a+ -> 2    b+ -> 0
 *   allgather step 0:           b* -> 1    c* -> 2    a* -> 0
 *   allgather step 1:           a* -> 1    b* -> 2    c* -> 0
 */
#include "algos.h"

static int mod(int a, int n) { return ((a % n) + n) % n; }

int ar_ring(const void *sendbuf, void *recvbuf, size_t count, ar_dtype dt, MPI_Comm comm, const ar_params *p)
{
  int rank, size, rc = 0;
  if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS || MPI_Comm_size(comm, &size) != MPI_SUCCESS)
    return AR_EMPI;
  if (sendbuf == MPI_IN_PLACE)
    sendbuf = recvbuf;
  if (count == 0)
    return 0;
  if (size == 1) {
    ar_copy(p, recvbuf, sendbuf, count, dt);
    return 0;
  }

  void *tmp = ar_alloc(p, ar_part_len(count, size, 0) * ar_dtype_size(dt));
  if (!tmp)
    return AR_ENOMEM;
  int next = mod(rank + 1, size), prev = mod(rank - 1, size);

  /* Step 0 sends straight from sendbuf and every received chunk is summed with sendbuf
   * into recvbuf, so out-of-place needs no initial copy. */
  for (int i = 0; i < size - 1 && rc == 0; i++) {
    int s = mod(rank - i, size), r = mod(rank - i - 1, size);
    const void *from = i == 0 ? sendbuf : recvbuf;
    size_t rlen = ar_part_len(count, size, r), roff = ar_part_off(count, size, r);
    rc = ar_sendrecv(ar_cat(from, ar_part_off(count, size, s), dt), ar_part_len(count, size, s), next, tmp, rlen,
                     prev, dt, comm);
    if (rc == 0)
      ar_reduce(p, ar_at(recvbuf, roff, dt), ar_cat(sendbuf, roff, dt), tmp, rlen, dt);
  }
  ar_phase_end(p->phases, "reduce-scatter");

  for (int i = 0; i < size - 1 && rc == 0; i++) {
    int s = mod(rank - i + 1, size), r = mod(rank - i, size);
    rc = ar_sendrecv(ar_cat(recvbuf, ar_part_off(count, size, s), dt), ar_part_len(count, size, s), next,
                     ar_at(recvbuf, ar_part_off(count, size, r), dt), ar_part_len(count, size, r), prev, dt, comm);
  }
  ar_phase_end(p->phases, "allgather");

  ar_free(p, tmp);
  return rc;
}
