/* rhd.c: recursive halving-doubling allreduce (Rabenseifner [Rab04], cited by [PFN18]).
 *
 * Algorithm: with P the largest power of two <= p and r = p - P: (pre) ranks 0..2r-1 pair
 *   up, each even rank hands its whole vector to the odd one and sits out; the P ranks left
 *   renumber 0..P-1. (reduce-scatter) in log2 P steps of distance P/2, P/4, ..., 1 every
 *   rank swaps half of its current block range with the partner at that distance and sums
 *   the half it keeps, ending with block v of P; (allgather) the same steps in reverse,
 *   doubling the range each time; (post) odd ranks hand the result back to their pairs.
 * Restrictions: none; any p (the pre/post steps are the standard fix-up for p not a power
 *   of two), count < P leaves some blocks empty.
 * Cost: n c + 2 log2(P) alpha + 2 (P-1)/P n beta + (P-1)/P n gamma, plus, when r > 0,
 *   2 (alpha + n beta) + n gamma for the fix-up (c: seconds per byte copied; every rank
 *   first copies its input). Not topology-aware: on node-major ranks with R per node the
 *   steps at distances >= R pair every rank of a node with a rank of one other node, so
 *   R messages share the node's NIC and those steps cost R beta_inter per byte, the
 *   shorter ones beta_intra: sum over step k of 2 (alpha_k + n/2^(k+1) beta_k)
 *   (models/cost_rhd.c counts the messages on each link step by step).
 *
 *   P = 4, blocks A B C D:   dist 2: 0<->2, 1<->3 swap halves  (0,1 keep AB; 2,3 keep CD)
 *                            dist 1: 0<->1, 2<->3               (0:A 1:B 2:C 3:D summed)
 *                            then dist 1, dist 2 again, gathering.
 */
#include "algos.h"

/* Rank (in comm) of renumbered rank v. */
static int real_rank(int v, int r) { return v < r ? 2 * v + 1 : v + r; }

/* Element range of blocks [lo, hi) of P. */
static size_t boff(size_t count, int P, int b) { return kn_part_off(count, P, b); }

int ar_rhd(const void *sendbuf, void *recvbuf, size_t count, kn_dtype dt, MPI_Comm comm, const ar_params *p)
{
  int rank, size, rc;
  if (ar_begin(&sendbuf, recvbuf, count, dt, comm, p, &rank, &size, &rc))
    return rc;
  ar_copy(p, recvbuf, sendbuf, count, dt);
  int P = 1;
  while (P * 2 <= size)
    P *= 2;
  int r = size - P, v;
  void *tmp = ar_alloc(p, count * kn_dtype_size(dt));
  if (!tmp)
    return SA_ENOMEM;

  if (rank < 2 * r) {
    if (rank % 2 == 0) {
      rc = ar_sendrecv(recvbuf, count, rank + 1, NULL, 0, MPI_PROC_NULL, dt, comm, p);
      v = -1;
    } else {
      rc = ar_sendrecv(NULL, 0, MPI_PROC_NULL, tmp, count, rank - 1, dt, comm, p);
      if (rc == 0)
        ar_reduce(p, recvbuf, recvbuf, tmp, count, dt);
      v = rank / 2;
    }
  } else {
    v = rank - r;
  }
  if (r > 0)
    ar_phase_end(p->phases, AR_PH_PRE);

  int lo = 0, hi = P;
  for (int dist = P / 2; dist >= 1 && v >= 0 && rc == 0; dist /= 2) {
    int mid = lo + (hi - lo) / 2, upper = (v & dist) != 0;
    int klo = upper ? mid : lo, khi = upper ? hi : mid, glo = upper ? lo : mid, ghi = upper ? mid : hi;
    size_t koff = boff(count, P, klo), klen = boff(count, P, khi) - koff;
    size_t goff = boff(count, P, glo), glen = boff(count, P, ghi) - goff;
    int partner = real_rank(v ^ dist, r);
    rc = ar_sendrecv(ar_cat(recvbuf, goff, dt), glen, partner, tmp, klen, partner, dt, comm, p);
    if (rc == 0)
      ar_reduce(p, ar_at(recvbuf, koff, dt), ar_cat(recvbuf, koff, dt), tmp, klen, dt);
    lo = klo;
    hi = khi;
  }
  ar_phase_end(p->phases, AR_PH_RS);

  for (int dist = 1; dist < P && v >= 0 && rc == 0; dist *= 2) {
    int w = hi - lo, upper = (v & dist) != 0;
    int olo = upper ? lo - w : hi, ohi = olo + w;
    size_t moff = boff(count, P, lo), mlen = boff(count, P, hi) - moff;
    size_t ooff = boff(count, P, olo), olen = boff(count, P, ohi) - ooff;
    int partner = real_rank(v ^ dist, r);
    rc = ar_sendrecv(ar_cat(recvbuf, moff, dt), mlen, partner, ar_at(recvbuf, ooff, dt), olen, partner, dt, comm,
                     p);
    lo = upper ? olo : lo;
    hi = upper ? hi : ohi;
  }
  ar_phase_end(p->phases, AR_PH_AG);

  if (rank < 2 * r && rc == 0) {
    if (rank % 2)
      rc = ar_sendrecv(recvbuf, count, rank - 1, NULL, 0, MPI_PROC_NULL, dt, comm, p);
    else
      rc = ar_sendrecv(NULL, 0, MPI_PROC_NULL, recvbuf, count, rank + 1, dt, comm, p);
  }
  if (r > 0)
    ar_phase_end(p->phases, AR_PH_POST);
  ar_free(p, tmp);
  return rc;
}
