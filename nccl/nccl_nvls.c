/* nccl_nvls.c: NVLS's streams (see nccl_nvls.h). */
#include "nccl_nvls.h"

/* Mailbox tags, one per kind of message between two ranks and half of a shard. */
enum { TAG_PART = 1, TAG_SUM, TAG_UP, TAG_DOWN, TAGS };

/* Elements [off, off + len) of part i of n, as kernels/parts.h cuts a buffer: the first
 * count % n parts one element longer. */
static void part(size_t off0, size_t count, int n, int i, size_t *off, size_t *len)
{
  size_t q = count / (size_t)n, r = count % (size_t)n, u = (size_t)i;
  *off = off0 + u * q + (u < r ? u : r);
  *len = q + (u < r);
}

static void add_recv(nccl_nvls_stream *s, int peer, int tag)
{
  s->recv_peer[s->nrecv] = peer;
  s->recv_tag[s->nrecv++] = tag;
}

static void add_send(nccl_nvls_stream *s, int peer, int tag)
{
  s->send_peer[s->nsend] = peer;
  s->send_tag[s->nsend++] = tag;
}

void nccl_nvls_copy_warps(int has_up, int nranks, int *scatter, int *gather)
{
  int total = 20, bcast = has_up ? 4 : 0, reduce = has_up ? 5 : nranks <= 6 ? 7 : 5;
  *scatter = (total - reduce - bcast + 1) >> 1;
  *gather = (total - reduce - bcast) >> 1;
}

/* The streams of half h of the shards (of `halves`), with tree t across the nodes (NULL:
 * one node). */
static int half_streams(int h, int halves, int rank, int rpn, const nccl_nvls_tree *t, size_t count, size_t chunk,
                        nccl_nvls_stream *out)
{
  int local = rank % rpn, base = rank - local, n = 0, tag = TAGS * h;
  size_t off[NCCL_NVLS_MAX_HEADS] = {0}, len[NCCL_NVLS_MAX_HEADS] = {0};
  for (int j = 0; j < rpn; j++) {
    size_t o, l;
    part(0, count, rpn, j, &o, &l);
    part(o, l, halves, h, &off[j], &len[j]);
  }
  /* the other GPUs' shards: my part copied into the switch's buffer and read by the owner's
   * multimem.ld_reduce, the sum multicast back and copied out */
  for (int j = 0; j < rpn; j++) {
    if (j == local)
      continue;
    nccl_nvls_stream *to = &out[n++], *from = &out[n++];
    *to = (nccl_nvls_stream){.off = off[j], .len = len[j], .chunk = chunk, .flags = NCCL_OP_SEND | NCCL_OP_COPY_IN};
    add_send(to, base + j, tag + TAG_PART);
    *from = (nccl_nvls_stream){.off = off[j], .len = len[j], .chunk = chunk, .flags = NCCL_OP_RECV | NCCL_OP_COPY_OUT};
    add_recv(from, base + j, tag + TAG_SUM);
  }
  /* my shard: the switch's sum of the node (and the children's sums), then up or out */
  nccl_nvls_stream *up = &out[n++], *down = NULL;
  *up = (nccl_nvls_stream){.off = off[local],
                           .len = len[local],
                           .chunk = chunk,
                           .flags = NCCL_OP_RECV | NCCL_OP_REDUCE | NCCL_OP_SEND | NCCL_OP_COPY_IN};
  for (int j = 0; j < rpn; j++)
    if (j != local)
      add_recv(up, base + j, tag + TAG_PART);
  up->switch_recv = up->nrecv;
  for (int i = 0; t && i < t->nchild; i++)
    add_recv(up, t->child[i] * rpn + local, tag + TAG_UP);
  if (t && t->parent >= 0) {
    add_send(up, t->parent * rpn + local, tag + TAG_UP);
    down = &out[n++];
    *down = (nccl_nvls_stream){.off = up->off, .len = up->len, .chunk = chunk, .flags = NCCL_OP_RECV | NCCL_OP_SEND};
    add_recv(down, t->parent * rpn + local, tag + TAG_DOWN);
  }
  nccl_nvls_stream *last = down ? down : up; /* the total: to every GPU of the node and below */
  last->flags |= NCCL_OP_COPY_OUT;           /* and out of the switch's buffer into my own output */
  for (int j = 0; j < rpn; j++)
    if (j != local)
      add_send(last, base + j, tag + TAG_SUM);
  for (int i = 0; t && i < t->nchild; i++)
    add_send(last, t->child[i] * rpn + local, tag + TAG_DOWN);
  return n;
}

int nccl_nvls_streams(int algo, int rank, int rpn, int nodes, const nccl_nvls_tree tree[2], size_t count, size_t elem,
                      int channels, nccl_nvls_stream *out)
{
  int tree_on = algo == NCCL_ALGO_NVLS_TREE && nodes > 1, halves = tree_on ? 2 : 1, n = 0;
  size_t chunk = nccl_nvls_chunk(algo, (double)count * (double)elem, channels, rpn, nodes) * (size_t)channels / elem;
  chunk = chunk ? chunk : 1;
  int most_s, most_g; /* the platform's nvls_copy_bw is what the most move: no parent, 7 ranks on */
  nccl_nvls_copy_warps(0, 7, &most_s, &most_g);
  for (int h = 0; h < halves; h++) {
    const nccl_nvls_tree *t = tree_on ? &tree[h] : NULL;
    int k = half_streams(h, halves, rank, rpn, t, count, chunk, out + n), s, g;
    nccl_nvls_copy_warps(t && t->parent >= 0, rpn * nodes, &s, &g);
    for (int i = n; i < n + k; i++) { /* each warp moving as much as another */
      out[i].copy_in = (double)s / most_s;
      out[i].copy_out = (double)g / most_g;
    }
    n += k;
  }
  return n;
}

long nccl_nvls_ops(const nccl_nvls_stream *s) { return (long)((s->len + s->chunk - 1) / s->chunk); }

void nccl_nvls_op(const nccl_nvls_stream *s, long k, nccl_op *op)
{
  size_t at = (size_t)k * s->chunk;
  op->off = s->off + at;
  op->n = s->len - at < s->chunk ? s->len - at : s->chunk;
  op->flags = s->flags;
}
