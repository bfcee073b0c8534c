/* tree.c: pipelined binary-tree allreduce: reduce toward the root, broadcast back.
 *
 * Algorithm: the data is cut into segments (--segment, default 1M); each segment is summed
 *   up the tree and then sent down it, a rank passing segment s on while it receives
 *   segment s+1. Topology-aware as NCCL's trees are: the ranks of a node form a
 *   chain (local 0 first), and the nodes' local-0 ranks form the in-order binary tree over
 *   the nodes (trees.c). With one rank per node it is the plain binary tree.
 * Restrictions: none; any p, any count (a part shorter than a segment is one segment).
 * Cost: with S segments of n/S bytes and depth D = (R - 1) + ceil(log2(m+1)) - 1 hops
 *   (R ranks per node, m nodes), each phase is the first segment's way through the tree,
 *   F = sum over its D hops of (alpha + k (n/S) beta, + k (n/S) gamma when reducing),
 *   then S - 1 more segments at one bottleneck hop each:
 *   Cost = 2 F + 2 (S - 1)(alpha + k (n/S) beta), F ~ D (alpha + k (n/S) beta),
 *   k = 2 children sharing the bottleneck (inter-node) link, 1 on a chain. A rank sums
 *   segment s while s+1 arrives, so the sums only count on the first segment's way; each
 *   segment pays the hop's latency, as a rank forwards it only once it has it all
 *   (models/cost_tree.c follows the actual tree, hop by hop).
 *
 *   reduce (m = 4 nodes, R = 2):     bcast: the same edges, downwards
 *        node1.0  <- node1.1
 *        /     \
 *   node0.0   node2.0                 node3.0 is node2.0's child
 *        ...
 */
#include "algos.h"
#include "tree_core.h"

int ar_tree(const void *sendbuf, void *recvbuf, size_t count, kn_dtype dt, MPI_Comm comm, const ar_params *p)
{
  int rank, size, rc;
  if (ar_begin(&sendbuf, recvbuf, count, dt, comm, p, &rank, &size, &rc))
    return rc;
  ar_tree_part part = {.off = 0, .len = count};
  rc = ar_tree_of_rank(p, rank, size, 0, &part.node);
  return rc ? rc : ar_tree_allreduce(sendbuf, recvbuf, dt, comm, p, &part, 1);
}
