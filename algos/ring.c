/* ring.c: ring allreduce, reduce-scatter then allgather around rings of all ranks, with
 * --channels C rings running at once on disjoint parts of the buffer.
 *
 * Algorithm: the buffer is cut into p chunks [Baidu17], indexed as in the baidu-allreduce
 *   code comments. In reduce-scatter step i (i = 0..p-2) rank j sends chunk (j-i) mod p to
 *   j+1 and receives chunk (j-i-1) mod p from j-1, adding it to its own copy; rank j then
 *   holds the full sum of chunk (j+1) mod p. In allgather step i rank j sends chunk
 *   (j-i+1) mod p and receives chunk (j-i) mod p. With C channels, channel c runs the same
 *   schedule on its share of the buffer, visiting each node's GPUs in its own order (chosen
 *   from the platform's links, see ring_orders.c), nodes in node order.
 * Restrictions: none. Any p; count < p leaves some chunks empty (their messages carry
 *   nothing but still pay latency); p = 1 is a copy.
 * Cost: 2(p-1) alpha + 2 (p-1)/p n beta + (p-1)/p n gamma
 *   (n bytes per rank). The steps run in lock step, so each costs the ring's slowest hop:
 *   alpha and beta are that hop's latency and time per byte, the inter-node hop on a
 *   cluster (models/cost_ring.c). With C channels every step moves C messages of n/(pC)
 *   and sums each one (C sum launches); channels through the same links share them.
 *
 *   p = 3, chunks a b c          rank0      rank1      rank2
 *   reduce-scatter step 0:      a -> 1     b -> 2     c -> 0
 *   reduce-scatter step 1:      c+ -> 1    a+ -> 2    b+ -> 0
 *   allgather step 0:           b* -> 1    c* -> 2    a* -> 0
 *   allgather step 1:           a* -> 1    b* -> 2    c* -> 0
 */
#include <stdlib.h>

#include "algos.h"
#include "ar_layout.h"
#include "ring_core.h"

/* Ring of channel c: node by node, each node's GPUs in the channel's order. */
static void channel_ring(const ar_layout *L, int c, int rank, int size, size_t off, size_t len, ar_ring_spec *r)
{
  int rpn = L->rpn, nodes = size / rpn, node = rank / rpn;
  const int *o = L->order + c * rpn;
  int at = 0;
  while (o[at] != rank % rpn)
    at++;
  r->n = size;
  r->pos = node * rpn + at;
  r->next = at + 1 < rpn ? node * rpn + o[at + 1] : ((node + 1) % nodes) * rpn + o[0];
  r->prev = at > 0 ? node * rpn + o[at - 1] : ((node + nodes - 1) % nodes) * rpn + o[rpn - 1];
  r->off = off;
  r->len = len;
}

int ar_ring(const void *sendbuf, void *recvbuf, size_t count, kn_dtype dt, MPI_Comm comm, const ar_params *p)
{
  int rank, size, rc;
  if (ar_begin(&sendbuf, recvbuf, count, dt, comm, p, &rank, &size, &rc))
    return rc;
  const ar_layout *L = p->layout;
  int nch = L && L->rpn == p->ranks_per_node && size % L->rpn == 0 ? L->channels : 1;
  ar_ring_spec *rings = calloc((size_t)nch, sizeof *rings);
  if (!rings)
    return SA_ENOMEM;
  size_t done = 0;
  double cum = 0;
  for (int c = 0; c < nch && rc == 0; c++) {
    cum += nch > 1 ? L->weight[c] : 1.0;
    size_t end = c == nch - 1 ? count : (size_t)(cum * (double)count);
    end = end < done ? done : end > count ? count : end;
    if (nch == 1)
      rc = ar_ring_plain(comm, 0, count, &rings[0]);
    else
      channel_ring(L, c, rank, size, done, end - done, &rings[c]);
    done = end;
  }
  if (rc == 0)
    rc = ar_ring_reduce_scatter(sendbuf, recvbuf, dt, comm, p, rings, nch);
  ar_phase_end(p->phases, AR_PH_RS);
  if (rc == 0)
    rc = ar_ring_allgather(recvbuf, dt, comm, p, rings, nch);
  ar_phase_end(p->phases, AR_PH_AG);
  free(rings);
  return rc;
}
