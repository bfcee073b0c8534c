/* hier.c: hierarchical allreduce, the 2D-torus allreduce ("2DTAR" in [Shi21], after Mikami
 * et al. 2018 and Cho et al. 2019).
 *
 * Algorithm: (1) intra-rs: the R ranks of each node reduce-scatter the buffer around a ring
 *   inside the node, leaving local rank l with the node's sum of chunk (l+1) mod R;
 *   (2) inter-ar: the m ranks holding the same chunk, one per node, allreduce it around a
 *   ring between nodes (R such rings run at once and share each node's NIC);
 *   (3) intra-ag: the node's ranks allgather the chunks around the intra-node ring.
 *   The node layout comes from --ranks-per-node and the node-major rank order, never from
 *   MPI_COMM_TYPE_SHARED (one SimGrid host per GPU makes every "shared" group one rank).
 * Restrictions: p must be a multiple of R; nodes are assumed alike.
 * Cost: 2(R-1) alpha_intra + 2(m-1) alpha_inter + 2 (R-1)/R n beta_intra
 *       + 2 (m-1)/m (n/R) R beta_inter + ((R-1)/R n + (m-1)/(mR) n) gamma
 *   (the inter-node term carries n/R per ring but R rings share one NIC: R beta_inter).
 *
 *   node0: g0 g1 g2 g3 --rs--> g0:c1 g1:c2 g2:c3 g3:c0 --ar across nodes--> --ag--> all
 *   node1: g0 g1 g2 g3 --rs--> g0:c1 g1:c2 g2:c3 g3:c0   (g_l of every node together)
 */
#include "algos.h"
#include "ring_core.h"

int ar_hier(const void *sendbuf, void *recvbuf, size_t count, kn_dtype dt, MPI_Comm comm, const ar_params *p)
{
  int rank, size, rc;
  if (ar_begin(&sendbuf, recvbuf, count, dt, comm, p, &rank, &size, &rc))
    return rc;
  int rpn = p->ranks_per_node > 0 ? p->ranks_per_node : 1;
  if (size % rpn != 0)
    return SA_ELAYOUT;
  /* The runner builds the node and cross communicators once; a caller without them pays
   * for two splits here. */
  MPI_Comm node = MPI_COMM_NULL, cross = MPI_COMM_NULL;
  int own = !(p->layout && p->layout->rpn == rpn);
  if (own) {
    if (MPI_Comm_split(comm, rank / rpn, rank % rpn, &node) != MPI_SUCCESS ||
        MPI_Comm_split(comm, rank % rpn, rank / rpn, &cross) != MPI_SUCCESS)
      rc = SA_EMPI;
  } else {
    node = p->layout->node;
    cross = p->layout->cross;
  }
  ar_ring_spec intra, inter;
  if (rc == 0)
    rc = ar_ring_plain(node, 0, count, &intra);
  if (rc == 0)
    rc = ar_ring_reduce_scatter(sendbuf, recvbuf, dt, node, p, &intra, 1);
  ar_phase_end(p->phases, AR_PH_INTRA_RS);

  int mine = (intra.pos + 1) % intra.n;
  if (rc == 0)
    rc = ar_ring_plain(cross, ar_ring_chunk_off(&intra, mine), ar_ring_chunk_len(&intra, mine), &inter);
  if (rc == 0)
    rc = ar_ring_reduce_scatter(recvbuf, recvbuf, dt, cross, p, &inter, 1);
  if (rc == 0)
    rc = ar_ring_allgather(recvbuf, dt, cross, p, &inter, 1);
  ar_phase_end(p->phases, AR_PH_INTER_AR);

  if (rc == 0)
    rc = ar_ring_allgather(recvbuf, dt, node, p, &intra, 1);
  ar_phase_end(p->phases, AR_PH_INTRA_AG);
  if (own) {
    if (node != MPI_COMM_NULL)
      MPI_Comm_free(&node);
    if (cross != MPI_COMM_NULL)
      MPI_Comm_free(&cross);
  }
  return rc;
}
