/* cost_nccl_nvls.c: the model of NCCL's NVLS and NVLS tree (algos/nvls.c): every rank's
 * streams as nccl/nccl_nvls.h lays them out, replayed over the fluid network as the runner
 * runs them (cost_nccl_des.c), NVLS's bytes on the NVLinks and the switch's sums free. One
 * operation of a stream moves a chunk of every channel and head; past the sizes where
 * calcCollChunking shrinks the chunk, the operations repeat alike, and the replay is cut
 * short by the steady state (cost_nccl_steady), as the ring's and the tree's are. */
#include <stdlib.h>

#include "nccl/nccl_nvls.h"
#include "topo/trees.h"
#include "cost_models.h"
#include "cost_nccl_des.h"

static void nvls_op(const void *ctx, long k, nccl_op *op) { nccl_nvls_op(ctx, k, op); }

/* The whole replay (cost_nvls_time has checked the shape). */
static int replay(cost_ctx *c, uint64_t count, int algo, int channels, cost_result *r)
{
  int p = c->p, R = c->shape.rpn, nodes = c->shape.nodes, n = 0, rc = 0;
  cost_nccl_shape shape;
  cost_ctx_nccl_shape(c, &shape);
  double scale = nccl_nvls_wire_scale(R, shape.arch, shape.nvls_bw, c->net->compute.nvls_bw);
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
      st[i] = (cost_des_stream){.rank = rank,
                                .nrecv = x->nrecv,
                                .nsend = x->nsend,
                                .nops = nccl_nvls_ops(x),
                                .op = nvls_op,
                                .ctx = x,
                                .switch_recv = x->switch_recv,
                                .nvlink_scale = scale,
                                .copy_in = x->copy_in,
                                .copy_out = x->copy_out};
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

static int nvls_replay(cost_ctx *c, uint64_t count, int proto, int nc, cost_result *r)
{
  (void)proto;
  return replay(c, count, NCCL_ALGO_NVLS, nc, r);
}

static int nvls_tree_replay(cost_ctx *c, uint64_t count, int proto, int nc, cost_result *r)
{
  (void)proto;
  return replay(c, count, NCCL_ALGO_NVLS_TREE, nc, r);
}

/* Operations alike from where the chunk stops shrinking: the straight line through k and 2k
 * of them, k the least number of whole operations (each a chunk of every channel and head)
 * whose size keeps the full chunk, and at least NVLS_STEADY_OPS: with 16, within 0.3% of
 * the whole replay from 64 MiB to 8 GiB on 2 and 4 nodes of 8 H100 (4 were 20% off: the
 * first operations still fill the tree's pipeline). */
#define NVLS_STEADY_OPS 16

int cost_nvls_time(cost_ctx *c, uint64_t count, int algo, int channels, cost_result *r)
{
  int R = c->shape.rpn, nodes = c->shape.nodes;
  if (R < 2 || R > NCCL_NVLS_MAX_HEADS || (algo == NCCL_ALGO_NVLS) != (nodes == 1))
    return SA_ENONVLS;
  uint64_t elem = (uint64_t)c->shape.elem, bytes = count * elem;
  uint64_t chunk = nccl_nvls_chunk(algo, (double)bytes, channels, R, nodes);
  uint64_t op = (uint64_t)R * chunk / elem; /* elements a channel moves in one operation */
  uint64_t least = nccl_nvls_full_bytes(algo, channels, R, nodes);
  if (chunk % elem || bytes < least)
    return replay(c, count, algo, channels, r);
  uint64_t k = cost_ceil_div(cost_ceil_div(least, elem), op * (uint64_t)channels);
  return cost_nccl_steady(c, count, op, k < NVLS_STEADY_OPS ? NVLS_STEADY_OPS : k, NCCL_PROTO_SIMPLE, channels,
                          algo == NCCL_ALGO_NVLS ? nvls_replay : nvls_tree_replay, r);
}
