/* nvls.c: "nvls" and "nvls-tree", NCCL's NVLS allreduce inside an NVSwitch node and its NVLS
 * tree across nodes (src/device/all_reduce.h, v2.26.2), as nccl/nccl_nvls.h lays them out:
 * per rank, a stream sending its part of each other GPU's shard and one receiving that
 * shard's sum, and its own shard's stream: the switch's sum of the node (no GPU time), then
 * on one node the multicast to every GPU; across nodes up the tree (the children's sums added
 * on the GPU) and the total down again, multicast on every node (each half of a shard on
 * one of NCCL's two trees). The messages inside a node put NVLS's own bytes on the NVLinks
 * (nccl_nvls_wire_scale).
 * Restrictions: an NVSwitch node of Hopper or later GPUs, 2 to 16 GPUs a node (the driver
 *   checks: models/cost_nccl_choice.c); nvls on one node, nvls-tree on several; Simple only.
 *   Any count, count < p included (a shard without elements moves nothing).
 * Cost: NCCL's NVLS latency (25 us) + the buffer at NCCL's model of NVLS (n heads x the
 *   NVLS search's bandwidth a head x 5/6), whose ports carry (1 + 1/n) of it each way;
 *   across nodes a shard up and down the tree, pipelined with it (models/cost_nccl_nvls.c).
 *
 *   one node of 4: rank 1's shard is [N/4, N/2)
 *     parts:  r0 -> r1, r2 -> r1, r3 -> r1       (r1 = r0 + r1 + r2 + r3: the switch's sum)
 *     sums:   r1 -> r0, r1 -> r2, r1 -> r3       (the multicast)
 */
#include "algos.h"
#include "nccl/nccl_nvls.h"
#include "nccl_comm.h"
#include "nccl_pipe.h"
#include "topo/trees.h"

#include <stdlib.h>

static void nvls_op(const ar_pipe_stream *s, long k, nccl_op *op) { nccl_nvls_op(s->ctx, k, op); }

static int nvls_run(int algo, const void *sendbuf, void *recvbuf, size_t count, kn_dtype dt, MPI_Comm comm,
                    const ar_params *p)
{
  int rank, size, rc;
  if (ar_begin(&sendbuf, recvbuf, count, dt, comm, p, &rank, &size, &rc))
    return rc;
  const ar_nccl_comm *t = p->nccl;
  if (!t || t->rpn < 2 || t->rpn > NCCL_NVLS_MAX_HEADS || (algo == NCCL_ALGO_NVLS) != (t->nodes == 1))
    return SA_ENONVLS;
  int channels = p->nccl_run.channels > 0 ? p->nccl_run.channels : nccl_nvls_channels(t->arch);
  ar_charge(nccl_start_s(&p->compute, algo, NCCL_PROTO_SIMPLE));
  ar_phase_end(p->phases, AR_PH_LAUNCH);
  nccl_nvls_tree tree[2];
  for (int k = 0; k < 2; k++) { /* this node in NCCL's two trees over the nodes */
    topo_tree_node nd;
    topo_tree_two(t->nodes, k, rank / t->rpn, &nd);
    tree[k] = (nccl_nvls_tree){nd.parent, nd.nchild, {nd.child[0], nd.child[1], nd.child[2]}};
  }
  nccl_nvls_stream *plan = calloc(NCCL_NVLS_MAX_STREAMS, sizeof *plan);
  ar_pipe_stream *st = calloc(NCCL_NVLS_MAX_STREAMS, sizeof *st);
  rc = plan && st ? 0 : SA_ENOMEM;
  int n = rc ? 0
             : nccl_nvls_streams(algo, rank, t->rpn, t->nodes, tree, count, kn_dtype_size(dt), channels, plan);
  for (int i = 0; i < n; i++) {
    const nccl_nvls_stream *x = &plan[i];
    st[i] = (ar_pipe_stream){.op = nvls_op,
                             .ctx = x,
                             .nops = nccl_nvls_ops(x),
                             .nrecv = x->nrecv,
                             .nsend = x->nsend,
                             .switch_recv = x->switch_recv,
                             .nvlink_scale = t->nvls_scale,
                             .copy_in = x->copy_in,
                             .copy_out = x->copy_out};
    for (int j = 0; j < x->nrecv; j++) {
      st[i].recv_peer[j] = x->recv_peer[j];
      st[i].recv_tag[j] = x->recv_tag[j];
      st[i].extra[j] = ar_nccl_comm_extra(t, &p->compute, x->recv_peer[j], rank, algo, NCCL_PROTO_SIMPLE);
    }
    for (int j = 0; j < x->nsend; j++) {
      st[i].send_peer[j] = x->send_peer[j];
      st[i].send_tag[j] = x->send_tag[j];
    }
  }
  if (rc == 0)
    rc = ar_pipe_run(st, n, nccl_slots(algo, NCCL_PROTO_SIMPLE), NCCL_PROTO_SIMPLE, sendbuf, recvbuf, dt, comm, p);
  ar_phase_end(p->phases, algo == NCCL_ALGO_NVLS ? AR_PH_NVLS : AR_PH_NVLS_TREE);
  free(st);
  free(plan);
  return rc;
}

int ar_nvls(const void *sendbuf, void *recvbuf, size_t count, kn_dtype dt, MPI_Comm comm, const ar_params *p)
{
  return nvls_run(NCCL_ALGO_NVLS, sendbuf, recvbuf, count, dt, comm, p);
}

int ar_nvls_tree(const void *sendbuf, void *recvbuf, size_t count, kn_dtype dt, MPI_Comm comm, const ar_params *p)
{
  return nvls_run(NCCL_ALGO_NVLS_TREE, sendbuf, recvbuf, count, dt, comm, p);
}
