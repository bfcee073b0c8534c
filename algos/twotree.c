/* twotree.c: double binary tree allreduce (two-tree, [SST09]; NCCL 2.4's tree, "TreeAR" in
 * [Shi21]): two complementary trees, each reducing and broadcasting half of the data.
 *
 * Algorithm: tree 0 is the in-order binary tree over the nodes, tree 1 the same tree shifted
 *   by one position, so every node is a leaf in at least one of them and interior in at
 *   most one: the leaves' idle links in one tree carry the other. Each tree is pipelined
 *   by segments as in tree.c and both run at once. Inside a node the ranks form a chain;
 *   tree 0 enters it at local rank 0 and runs upwards, tree 1 enters at local rank R-1 and
 *   runs downwards, so the two use opposite directions of every intra-node hop.
 * Restrictions: none; any p, any count (tree 1 gets the smaller half when count is odd).
 * Cost: each tree carries n/2 in S segments: per phase F + (S - 1)(alpha + k (n/2S) beta)
 *   as in tree.c, k = 2 messages on a node's busiest link (its two children in the tree
 *   where it is interior, or its two parents' links going up), which for large n gives
 *   the ring's bandwidth term at logarithmic latency: Cost ~ 2 (D + S - 1) alpha + 2 n beta
 *   + D (n/S) gamma (sums overlap the transfers but on the first segment's way).
 *
 *   nodes 0..6   tree 0:      3            tree 1:      2
 *                          1     5                   0     4
 *                         0 2   4 6                 6 1   3 5
 *   the interior of tree 1 (2 0 4) are leaves of tree 0, and the other way round but for 6.
 */
#include "algos.h"
#include "tree_core.h"

int ar_twotree(const void *sendbuf, void *recvbuf, size_t count, kn_dtype dt, MPI_Comm comm, const ar_params *p)
{
  int rank, size, rc;
  if (ar_begin(&sendbuf, recvbuf, count, dt, comm, p, &rank, &size, &rc))
    return rc;
  ar_tree_part parts[2];
  size_t half = count - count / 2;
  for (int t = 0; t < 2 && rc == 0; t++) {
    rc = ar_tree_of_rank(p, rank, size, t, &parts[t].node);
    parts[t].off = t ? half : 0;
    parts[t].len = t ? count - half : half;
  }
  return rc ? rc : ar_tree_allreduce(sendbuf, recvbuf, dt, comm, p, parts, 2);
}
