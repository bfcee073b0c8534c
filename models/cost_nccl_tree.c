/* cost_nccl_tree.c: the model of NCCL's tree (algos/nccl_tree.c): the same streams through
 * the same trees (topo/channels.c), per rank and channel a reduction (receive a chunk
 * from every child, sum it with the own input, send it to the parent; the root sends it
 * straight back down) and a broadcast (receive from the parent, send to every child), run
 * by the replay of the pipeline over a fluid network (cost_nccl_des.c). A tree's links are
 * shared by the other channels' chunks and by the other direction's only while both are on
 * them: the first chunks of a channel go up and down through links that the others reach
 * later, which no fixed sharing pattern captures. The time is the slowest rank's, from its
 * own start, after NCCL's launch latency. */
#include <stdlib.h>

#include "kernels/parts.h"
#include "nccl/nccl_sched.h"
#include "cost_models.h"
#include "cost_nccl_des.h"
#include "cost_nccl_layout.h"

/* One stream's part of the buffer: elements [off, off + len) in chunks of `chunk`. */
typedef struct {
  size_t off, len, chunk;
  unsigned flags;
} tree_part;

static void tree_op(const void *ctx, long k, nccl_op *op)
{
  const tree_part *x = ctx;
  size_t at = (size_t)k * x->chunk;
  op->off = x->off + at;
  op->n = x->len - at < x->chunk ? x->len - at : x->chunk;
  op->flags = x->flags;
}

/* The streams of rank r in channel ch (as nccl_tree.c's channel_streams): one at the root,
 * two elsewhere. Returns how many. */
static int channel_streams(const cost_ctx *c, const cost_nccl_layout *t, int ch, int r, const tree_part *part,
                           cost_des_stream *st, tree_part *px)
{
  int parent, child[3], nchild, up = 4 * ch + 1, down = 4 * ch + 2;
  topo_tree_rank(&t->rings, c->shape.nodes, ch, r, &parent, child, &nchild);
  long nops = part->len ? (long)((part->len + part->chunk - 1) / part->chunk) : 0;
  px[0] = *part;
  px[0].flags = (nchild ? NCCL_OP_RECV | NCCL_OP_REDUCE : 0u) | NCCL_OP_SEND;
  st[0] = (cost_des_stream){.rank = r, .nrecv = nchild, .nops = nops, .op = tree_op, .ctx = &px[0]};
  for (int i = 0; i < nchild; i++) {
    st[0].recv_peer[i] = child[i];
    st[0].recv_tag[i] = up;
  }
  st[0].nsend = parent >= 0 ? 1 : nchild;
  for (int i = 0; i < st[0].nsend; i++) {
    st[0].send_peer[i] = parent >= 0 ? parent : child[i];
    st[0].send_tag[i] = parent >= 0 ? up : down;
  }
  if (parent < 0)
    return 1;
  px[1] = *part;
  px[1].flags = NCCL_OP_RECV | (nchild ? NCCL_OP_SEND : 0u);
  st[1] = (cost_des_stream){.rank = r, .nrecv = 1, .nsend = nchild, .nops = nops, .op = tree_op, .ctx = &px[1]};
  st[1].recv_peer[0] = parent;
  st[1].recv_tag[0] = down;
  for (int i = 0; i < nchild; i++) {
    st[1].send_peer[i] = child[i];
    st[1].send_tag[i] = down;
  }
  return 2;
}

static int replay(cost_ctx *c, uint64_t count, int proto, int nc, cost_result *r)
{
  cost_nccl_layout *t;
  int rc = cost_nccl_layout_of(c, &t), p = c->p, n = 0;
  if (rc)
    return rc;
  if (nc < 1 || nc > t->channels)
    return SA_EINVAL;
  size_t es = (size_t)c->shape.elem;
  cost_des_stream *st = malloc(sizeof *st * 2 * (size_t)(nc * p));
  tree_part *px = malloc(sizeof *px * 2 * (size_t)(nc * p));
  if (!st || !px) {
    free(st);
    free(px);
    return SA_ENOMEM;
  }
  /* quick: the first `keep` channels of each tree stand for that tree's. One on a node (its
   * channels alike); across nodes, as many as the quick count (the NICs: a tree's channels
   * are pinned to NICs in turn, and one standing for all would put every channel's bytes on
   * one NIC: 4 times the time at 16 MiB and more on 2 x 8 H100) */
  int half[2] = {nc / 2, nc - nc / 2}, keep[2] = {0, 0};
  for (int h = 0; h < 2; h++) {
    keep[h] = !c->shape.nccl_quick || nc < 2 ? half[h] : c->shape.nodes == 1 ? 1 : c->shape.nccl_quick;
    keep[h] = keep[h] < half[h] ? keep[h] : half[h];
  }
  for (int rank = 0; rank < p; rank++) /* a rank's streams together, channel by channel */
    for (int ch = 0; ch < nc; ch++) {
      int h = ch >= half[0], at = ch - (h ? half[0] : 0); /* its tree, its place among the tree's */
      if (at >= keep[h])
        continue;
      tree_part part = {kn_part_off((size_t)count, nc, ch), kn_part_len((size_t)count, nc, ch), 0, 0};
      part.chunk = nccl_tree_chunk(proto, part.len, es, c->shape.nodes, p);
      int k = channel_streams(c, t, ch, rank, &part, st + n, px + n);
      for (int i = 0; keep[h] < half[h] && i < k; i++)
        st[n + i].weight = (double)half[h] / keep[h];
      n += k;
    }
  rc = cost_nccl_des_run(c, st, n, NCCL_ALGO_TREE, proto, AR_PH_TREE, r);
  free(st);
  free(px);
  return rc;
}

/* Chunks after the pipeline has filled come one per slowest hop: from this many chunks on,
 * the straight line (more while LL128 still halves its chunks at that length). */
#define TREE_STEADY_CHUNKS 48

int cost_nccl_tree_time(cost_ctx *c, uint64_t count, int proto, int nc, cost_result *r)
{
  size_t es = (size_t)c->shape.elem, len = (size_t)cost_ceil_div(count, (uint64_t)nc);
  size_t chunk = nccl_tree_chunk(proto, len, es, c->shape.nodes, c->p);
  uint64_t k = TREE_STEADY_CHUNKS;
  while (k * chunk < len && nccl_tree_chunk(proto, k * chunk, es, c->shape.nodes, c->p) != chunk)
    k *= 2;
  return cost_nccl_steady(c, count, chunk, k, proto, nc, replay, r);
}
