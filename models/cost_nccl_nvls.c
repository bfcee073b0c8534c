/* cost_nccl_nvls.c: the model of NCCL's NVLS and NVLS tree (algos/nvls.c): every rank's
 * streams as nccl/nccl_nvls.h lays them out, replayed over the fluid network as the runner
 * runs them (cost_nccl_des.c), NVLS's bytes on the NVLinks and the switch's sums free. The
 * replay is not cut short by the steady state (cost_nccl_steady): NVLS's chunk depends on
 * the whole size, and one operation moves a chunk of every channel, so that even 8 GiB a
 * rank is a few hundred operations a stream. */
#include <stdlib.h>

#include "nccl/nccl_nvls.h"
#include "topo/trees.h"
#include "cost_models.h"
#include "cost_nccl_des.h"

static void nvls_op(const void *ctx, long k, nccl_op *op) { nccl_nvls_op(ctx, k, op); }

int cost_nvls_time(cost_ctx *c, uint64_t count, int algo, int channels, cost_result *r)
{
  int p = c->p, R = c->shape.rpn, nodes = c->shape.nodes, n = 0, rc = 0;
  if (R < 2 || R > NCCL_NVLS_MAX_HEADS || (algo == NCCL_ALGO_NVLS) != (nodes == 1))
    return SA_ENONVLS;
  cost_nccl_shape shape;
  cost_ctx_nccl_shape(c, &shape);
  double scale = nccl_nvls_wire_scale(R, shape.arch, shape.nvls_bw);
  nccl_nvls_stream *plan = calloc((size_t)p * NCCL_NVLS_MAX_STREAMS, sizeof *plan);
  cost_des_stream *st = calloc((size_t)p * NCCL_NVLS_MAX_STREAMS, sizeof *st);
  if (!plan || !st)
    rc = SA_ENOMEM;
  for (int rank = 0; rank < p && rc == 0; rank++) {
    nccl_nvls_tree tree[2];
    for (int t = 0; t < 2; t++) { /* as the runner takes them (algos/nvls.c) */
      topo_tree_node nd;
      topo_tree_two(nodes, t, rank / R, &nd);
      tree[t] = (nccl_nvls_tree){nd.parent, nd.nchild, {nd.child[0], nd.child[1], nd.child[2]}};
    }
    int k = nccl_nvls_streams(algo, rank, R, nodes, tree, (size_t)count, (size_t)c->shape.elem, channels, plan + n);
    for (int i = n; i < n + k; i++) {
      const nccl_nvls_stream *x = &plan[i];
      st[i] = (cost_des_stream){.rank = rank, .nrecv = x->nrecv, .nsend = x->nsend, .nops = nccl_nvls_ops(x),
                                .op = nvls_op, .ctx = x, .switch_recv = x->switch_recv,
                                .nvlink_scale = scale};
      for (int j = 0; j < x->nrecv; j++) {
        st[i].recv_peer[j] = x->recv_peer[j];
        st[i].recv_tag[j] = x->recv_tag[j];
      }
      for (int j = 0; j < x->nsend; j++) {
        st[i].send_peer[j] = x->send_peer[j];
        st[i].send_tag[j] = x->send_tag[j];
      }
    }
    n += k;
  }
  if (rc == 0)
    rc = cost_nccl_des_run(c, st, n, algo, NCCL_PROTO_SIMPLE, algo == NCCL_ALGO_NVLS ? AR_PH_NVLS : AR_PH_NVLS_TREE, r);
  free(st);
  free(plan);
  return rc;
}
