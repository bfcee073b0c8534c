/* hitopk.c: HiTopKComm, the hierarchical top-k aggregation of [Shi21] (Algorithm 2, Fig. 3):
 * sparsify only what must cross the slow network, after summing inside the node.
 *
 * Algorithm, for m nodes of n ranks, density rho, d elements:
 *   (1) intra-rs: the node's ranks reduce-scatter the gradient around the intra-node ring,
 *       local rank l ending with the node's sum of shard (l+1) mod n (d/n elements);
 *   (2) mstopk: each rank picks k~ = rho*d/n of its shard with MSTopK (Algorithm 1, seeded);
 *   (3) inter-ag: the m ranks holding the same shard, one per node, allgather the k~ values
 *       and k~ indices around an inter-node ring (n such rings run at once, one per local
 *       index); each adds the m*k~ pairs into a zeroed shard and keeps the union of their
 *       indices with the summed values;
 *   (4) intra-ag: the node's ranks allgather those sparse unions (values and indices,
 *       sizes exchanged first) and each adds all n of them into its zeroed result.
 *   The result is sum over nodes of TopK(node sum of each shard): not the dense sum.
 *   In timing mode the data is not real, so the union's size is [Shi21]'s worst case for
 *   eq. 10, all m*k~ indices distinct, or k~ (1 + (m-1)(1-F)) with --overlap F.
 * Restrictions: p a multiple of R = --ranks-per-node; nodes alike; at most 2^32 elements
 *   (32-bit indices).
 * Cost [Shi21, eqs. 7-10]: (n-1) alpha_intra + (n-1)/n d s beta_intra + (n-1)/n d gamma
 *   + t_mstopk(d/n) + 2 (m-1) alpha_inter + (m-1) k~ (s_v + s_i) n beta_inter
 *   + t_zero(d/n) + t_scatter(m k~) + 3 (n-1) alpha_intra + (n-1) u (s_v + s_i) beta_intra
 *   + t_zero(d) + n t_scatter(u) (two allgathers of m-1 steps, values then indices; the
 *   union zeroes and rereads its shard; the result is zeroed before the n unions are added)
 *   (s: element bytes, s_v + s_i: bytes of a pair, u = m k~ at worst; the inter-node rings
 *   of a node share its NIC, hence n beta_inter).
 *
 *   node0: g0..g3 --rs--> shard0..3 --mstopk--> k~ pairs --ag across nodes--> union --ag in node
 *   node1: g0..g3 --rs--> shard0..3 --mstopk--> k~ pairs --^                         --> result
 */
#include <stdlib.h>
#include <string.h>

#include "algos.h"
#include "sparse.h"

typedef struct {
  uint32_t *idx, *alli, *uidx;
  void *vals, *allv, *uval, *acc;
  unsigned char *touched;
  size_t *counts, *displs;
} hitopk_bufs;

static void bufs_free(const ar_params *p, hitopk_bufs *b)
{
  ar_free(p, b->idx);
  ar_free(p, b->alli);
  ar_free(p, b->uidx);
  ar_free(p, b->vals);
  ar_free(p, b->allv);
  ar_free(p, b->uval);
  ar_free(p, b->acc);
  free(b->touched);
  free(b->counts);
  free(b->displs);
}

/* Step (3)'s union: the m*k~ pairs added into a zeroed shard, the touched indices kept in
 * ascending order with their sums. Timing mode only charges the work and sizes the union. */
static size_t make_union(const ar_params *p, hitopk_bufs *b, size_t shard, size_t pairs, size_t k, int m, kn_dtype dt)
{
  ar_zero(p, b->acc, shard, dt);
  ar_scatter_add(p, b->acc, b->allv, b->alli, pairs, dt);
  /* compacting the touched indices reads the shard once more */
  ar_charge_pass(p, AR_EV_COMPACT, shard, dt);
  if (!p->real_data) {
    double u = (double)k * (1.0 + (m - 1) * (1.0 - p->overlap));
    size_t n = (size_t)(u + 0.5);
    return n > pairs ? pairs : n > shard ? shard : n;
  }
  memset(b->touched, 0, shard);
  for (size_t i = 0; i < pairs; i++)
    b->touched[b->alli[i]] = 1;
  size_t n = 0;
  for (size_t i = 0; i < shard; i++)
    if (b->touched[i]) {
      b->uidx[n] = (uint32_t)i;
      memcpy(ar_at(b->uval, n, dt), ar_cat(b->acc, i, dt), kn_dtype_size(dt));
      n++;
    }
  return n;
}

int ar_hitopk(const void *sendbuf, void *recvbuf, size_t count, kn_dtype dt, MPI_Comm comm, const ar_params *p)
{
  int rank, size, rc = ar_ranks(comm, &rank, &size);
  if (rc || count == 0)
    return rc;
  if (count > AR_SPARSE_MAX_COUNT)
    return SA_EINVAL;
  if (sendbuf == MPI_IN_PLACE)
    sendbuf = recvbuf;
  int rpn = p->ranks_per_node > 0 ? p->ranks_per_node : 1;
  if (size % rpn != 0 || !p->layout || p->layout->rpn != rpn)
    return SA_ELAYOUT;
  MPI_Comm node = p->layout->node, cross = p->layout->cross;
  int m = size / rpn, n = rpn;
  size_t es = kn_dtype_size(dt);
  hitopk_bufs b = {0};

  ar_ring_spec intra;
  rc = ar_ring_plain(node, 0, count, &intra);
  if (rc == 0)
    rc = ar_ring_reduce_scatter(sendbuf, recvbuf, dt, node, p, &intra, 1);
  ar_phase_end(p->phases, AR_PH_INTRA_RS);

  int mine = (intra.pos + 1) % n;
  size_t off = ar_ring_chunk_off(&intra, mine), shard = ar_ring_chunk_len(&intra, mine);
  size_t k = kn_topk_k(shard, p->density), pairs = (size_t)m * k, maxshard = ar_ring_chunk_len(&intra, 0);
  if (p->phases)
    p->phases->selected = (long long)k;
  b.idx = ar_alloc(p, k * 4 + 4);
  b.vals = ar_alloc(p, k * es + es);
  b.alli = ar_alloc(p, pairs * 4 + 4);
  b.allv = ar_alloc(p, pairs * es + es);
  b.acc = ar_alloc(p, shard * es + es);
  /* unions of every rank of the node: room for n of the largest any of them can make */
  size_t ucap = (size_t)m * kn_topk_k(maxshard, p->density);
  ucap = ucap < maxshard ? ucap : maxshard;
  b.uidx = ar_alloc(p, (size_t)n * ucap * 4 + 4);
  b.uval = ar_alloc(p, (size_t)n * ucap * es + es);
  b.touched = p->real_data ? malloc(shard + 1) : NULL;
  b.counts = calloc((size_t)n, sizeof *b.counts);
  b.displs = calloc((size_t)n, sizeof *b.displs);
  if (rc == 0 && (!b.idx || !b.vals || !b.alli || !b.allv || !b.acc || !b.uidx || !b.uval || !b.counts ||
                  !b.displs || (p->real_data && !b.touched)))
    rc = SA_ENOMEM;
  long got = 0;
  if (rc == 0)
    got = ar_select(p, AR_SELECT_MSTOPK, ar_cat(recvbuf, off, dt), shard, dt, k,
                    kn_topk_seed(rank / rpn, rank % rpn), b.idx, b.vals);
  if (got < 0)
    rc = (int)got;
  ar_phase_end(p->phases, AR_PH_MSTOPK);

  if (rc == 0)
    rc = ar_allgather_pairs(p, cross, b.vals, b.idx, k, dt, b.allv, b.alli);
  size_t u = rc == 0 ? make_union(p, &b, shard, pairs, k, m, dt) : 0;
  ar_phase_end(p->phases, AR_PH_INTER_AG);

  /* Step (4): the union sizes go around the node's ring first, then the unions, each
   * rank's at its own displacement; the unions sit in the buffers' first part meanwhile. */
  uint32_t *sizes = rc == 0 ? ar_alloc(p, (size_t)n * 4) : NULL;
  size_t *one = calloc((size_t)n, sizeof *one), *at = calloc((size_t)n, sizeof *at);
  if (rc == 0 && (!sizes || !one || !at))
    rc = SA_ENOMEM;
  int l = intra.pos;
  if (rc == 0) {
    for (int i = 0; i < n; i++) {
      one[i] = 1;
      at[i] = (size_t)i;
    }
    sizes[l] = (uint32_t)u;
    rc = ar_ring_allgatherv(sizes, one, at, KN_I32, node, p);
  }
  for (int i = 0; i < n && rc == 0; i++) {
    b.counts[i] = p->real_data ? sizes[i] : u; /* timing mode: every union has the same size */
    b.displs[i] = i ? b.displs[i - 1] + b.counts[i - 1] : 0;
  }
  if (rc == 0 && l > 0 && b.displs[l] > 0) { /* move this rank's union to its displacement */
    memmove(ar_at(b.uval, b.displs[l], dt), b.uval, p->real_data ? u * es : 0);
    memmove(b.uidx + b.displs[l], b.uidx, p->real_data ? u * 4 : 0);
  }
  if (rc == 0)
    rc = ar_ring_allgatherv(b.uval, b.counts, b.displs, dt, node, p);
  if (rc == 0)
    rc = ar_ring_allgatherv(b.uidx, b.counts, b.displs, KN_I32, node, p);
  if (rc == 0) {
    ar_zero(p, recvbuf, count, dt);
    for (int i = 0; i < n; i++) {
      size_t soff = ar_ring_chunk_off(&intra, (i + 1) % n);
      ar_scatter_add(p, ar_at(recvbuf, soff, dt), ar_at(b.uval, b.displs[i], dt), b.uidx + b.displs[i], b.counts[i],
                     dt);
    }
  }
  ar_phase_end(p->phases, AR_PH_INTRA_AG);
  ar_free(p, sizes);
  free(one);
  free(at);
  bufs_free(p, &b);
  return rc;
}
