/* nccl_tree.c: NCCL's tree allreduce as its kernels run it (src/device/all_reduce.h
 * runTreeSplit, v2.26.2): per channel, a chain through each node's GPUs hanging from the
 * GPU the node's tree edges attach to, and across nodes one of the two trees of NCCL's
 * double binary tree (the first half of the channels on tree 0, the second on tree 1,
 * nccl_comm.c). The channel's part of the buffer is cut into chunks, each one slice (Simple
 * 512 KiB, LL 32 KiB, LL128 576000 B, halved for LL128 while the part is small, as
 * calcCollChunking does), 8 in flight per connection.
 *
 * Algorithm: two streams per rank and channel, running at once as NCCL's split thread
 *   groups do: the reduction (receive a chunk from every child, add the own input, send the
 *   sum to the parent; a leaf sends its input) and the broadcast (receive the chunk's total
 *   from the parent, store it, send it to every child). The root does both in one: sum
 *   what its children sent, store it and send it straight back down.
 * Restrictions: none: any p, count < p (a channel without elements moves nothing), p = 1 is
 *   a copy.
 * Cost: launch + per channel, the first chunk up the tree and down again hop by hop, then one
 *   chunk per slowest hop or sum (models/cost_nccl_tree.c).
 *
 *   two nodes x 2 GPUs, tree 0 (node 0 root), chain head first:
 *     reduce:    r1 -> r0,  r3 -> r2,  r2 -> r0  (r0 = r0+r1+(r2+r3): the root)
 *     broadcast: r0 -> r1,  r0 -> r2,  r2 -> r3
 */
#include "algos.h"
#include "nccl_pipe.h"
#include "nccl/nccl_proto.h"
#include "nccl_comm.h"

#include <stdlib.h>

typedef struct {
  size_t off, len, chunk; /* the channel's elements, and elements per chunk */
  unsigned flags;
} tree_ctx;

static void tree_op(const ar_pipe_stream *s, long k, nccl_op *op)
{
  const tree_ctx *x = s->ctx;
  size_t at = (size_t)k * x->chunk;
  op->off = x->off + at;
  op->n = x->len - at < x->chunk ? x->len - at : x->chunk;
  op->flags = x->flags;
}

/* The streams of one channel: one at the root, two elsewhere. Returns how many. */
static int channel_streams(const ar_nccl_comm *t, const sa_compute *comp, int c, int rank, int proto,
                           const tree_ctx *proto_ctx, ar_pipe_stream *st, tree_ctx *cx)
{
  topo_tree_node nd;
  ar_nccl_comm_tree(t, c, rank, &nd);
  int up = 4 * c + 1, down = 4 * c + 2, n = 0;
  /* the reduction: children in, parent out (at the root: children in, children out) */
  cx[n] = *proto_ctx;
  cx[n].flags = (nd.nchild ? NCCL_OP_RECV | NCCL_OP_REDUCE : 0u) | NCCL_OP_SEND;
  st[n] = (ar_pipe_stream){.op = tree_op, .ctx = &cx[n], .nrecv = nd.nchild};
  for (int i = 0; i < nd.nchild; i++) {
    st[n].recv_peer[i] = nd.child[i];
    st[n].recv_tag[i] = up;
    st[n].extra[i] = ar_nccl_comm_extra(t, comp, nd.child[i], rank, NCCL_ALGO_TREE, proto);
  }
  if (nd.parent >= 0) {
    st[n].nsend = 1;
    st[n].send_peer[0] = nd.parent;
    st[n].send_tag[0] = up;
  } else {
    st[n].nsend = nd.nchild;
    for (int i = 0; i < nd.nchild; i++) {
      st[n].send_peer[i] = nd.child[i];
      st[n].send_tag[i] = down;
    }
  }
  n++;
  if (nd.parent < 0)
    return n;
  /* the broadcast: parent in, children out */
  cx[n] = *proto_ctx;
  cx[n].flags = NCCL_OP_RECV | (nd.nchild ? NCCL_OP_SEND : 0u);
  st[n] = (ar_pipe_stream){.op = tree_op, .ctx = &cx[n], .nrecv = 1, .nsend = nd.nchild};
  st[n].recv_peer[0] = nd.parent;
  st[n].recv_tag[0] = down;
  st[n].extra[0] = ar_nccl_comm_extra(t, comp, nd.parent, rank, NCCL_ALGO_TREE, proto);
  for (int i = 0; i < nd.nchild; i++) {
    st[n].send_peer[i] = nd.child[i];
    st[n].send_tag[i] = down;
  }
  return n + 1;
}

int ar_nccl_tree(const void *sendbuf, void *recvbuf, size_t count, kn_dtype dt, MPI_Comm comm, const ar_params *p)
{
  int rank, size, rc, proto, nc;
  if (ar_begin(&sendbuf, recvbuf, count, dt, comm, p, &rank, &size, &rc))
    return rc;
  if ((rc = ar_pipe_launch(p, NCCL_ALGO_TREE, &proto, &nc)) != 0)
    return rc;
  const ar_nccl_comm *t = p->nccl;
  ar_pipe_stream *st = calloc(2 * (size_t)nc, sizeof *st);
  tree_ctx *cx = calloc(2 * (size_t)nc, sizeof *cx);
  rc = st && cx ? 0 : SA_ENOMEM;
  size_t es = kn_dtype_size(dt);
  int n = 0;
  for (int c = 0; c < nc && rc == 0; c++) {
    tree_ctx part = {kn_part_off(count, nc, c), kn_part_len(count, nc, c), 0, 0};
    part.chunk = nccl_tree_chunk(proto, part.len, es, t->nodes, size);
    int k = channel_streams(t, &p->compute, c, rank, proto, &part, st + n, cx + n);
    for (int i = 0; i < k; i++)
      st[n + i].nops = (long)((part.len + part.chunk - 1) / part.chunk);
    n += k;
  }
  if (rc == 0)
    rc = ar_pipe_run(st, n, nccl_slots(NCCL_ALGO_TREE, proto), proto, sendbuf, recvbuf, dt, comm, p);
  ar_phase_end(p->phases, AR_PH_TREE);
  free(st);
  free(cx);
  return rc;
}
