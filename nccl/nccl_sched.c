/* nccl_sched.c: NCCL's ring and tree schedules (see nccl_sched.h). */
#include "nccl_sched.h"

#include "nccl_proto.h"

static size_t up_to(size_t x, size_t a) { return (x + a - 1) / a * a; }

void nccl_ring_sched_init(nccl_ring_sched *r, int n, int pos, size_t off, size_t len, int proto, size_t elem)
{
  r->n = n;
  r->pos = pos;
  r->off = off;
  r->len = len;
  r->slices = nccl_slices_per_chunk(NCCL_ALGO_RING, proto);
  r->chunk = nccl_chunk_bytes(NCCL_ALGO_RING, proto) / elem;
  r->min_slice = r->chunk / (size_t)r->slices / 32;
  r->align = 16 / elem;
  r->m = n;
}

void nccl_ring_sched_cut(nccl_ring_sched *r, int m) { r->m = m < 2 ? 2 : m > r->n ? r->n : m; }

int nccl_ring_sched_even(const nccl_ring_sched *r)
{
  size_t loop = (size_t)r->n * r->chunk, rem = r->len % loop;
  /* as nccl_ring_sched_op's last loop: chunks of cc, the last ones short of rem */
  return rem == 0 || up_to((rem + (size_t)r->n - 1) / (size_t)r->n, r->align) * (size_t)r->n == rem;
}

long nccl_ring_sched_ops(const nccl_ring_sched *r)
{
  size_t loop = (size_t)r->n * r->chunk;
  return (long)((r->len + loop - 1) / loop) * (2L * r->m - 1) * r->slices;
}

void nccl_ring_sched_op(const nccl_ring_sched *r, long k, nccl_op *op)
{
  long steps = 2L * r->n - 1, cut = 2L * r->m - 1, per_loop = cut * r->slices;
  long loop = k / per_loop, t = (k / r->slices) % cut;
  if (t >= r->m) /* a cut ring: its copies and last receive are the whole ring's last ones */
    t += 2L * (r->n - r->m);
  int j = (int)(k % r->slices);
  size_t loop_count = (size_t)r->n * r->chunk, base = (size_t)loop * loop_count, rem = r->len - base;
  /* the last loop shrinks its chunks to fit (runRing) */
  size_t cc = rem < loop_count ? up_to((rem + (size_t)r->n - 1) / (size_t)r->n, r->align) : r->chunk;
  size_t c = (size_t)((((long)r->pos - 1 - t) % r->n + r->n) % r->n), at = c * cc;
  size_t nelem = at < rem ? (cc < rem - at ? cc : rem - at) : 0, soff = 0, sn = nelem;
  if (r->slices > 1) { /* prims_simple: slices of ceil(nelem / 16S) x 16, at least min_slice */
    size_t ss = (nelem + 16 * (size_t)r->slices - 1) / (16 * (size_t)r->slices) * 16;
    ss = ss > r->min_slice ? ss : r->min_slice;
    soff = (size_t)j * ss;
    sn = soff < nelem ? (ss < nelem - soff ? ss : nelem - soff) : 0;
  }
  size_t off = base + at + soff;
  op->off = r->off + (off < r->len ? off : r->len);
  op->n = sn;
  op->flags = t == 0 ? NCCL_OP_SEND
              : t < r->n ? NCCL_OP_RECV | NCCL_OP_REDUCE | NCCL_OP_SEND
              : t < steps - 1 ? NCCL_OP_RECV | NCCL_OP_SEND
                              : NCCL_OP_RECV;
}

/* floor(log2(n)) for n >= 1, as NCCL's log2i. */
static int log2i(int n)
{
  int l = 0;
  while (n >>= 1)
    l++;
  return l;
}

size_t nccl_tree_chunk(int proto, size_t len, size_t elem, int nodes, int ranks)
{
  size_t chunk = nccl_chunk_bytes(NCCL_ALGO_TREE, proto), bytes = len * elem;
  if (proto == NCCL_PROTO_LL128) { /* halved while the part is small (calcCollChunking) */
    double ppn = (double)ranks / nodes, steps = 1 + log2i(nodes) + 0.1 * ppn;
    while ((double)(bytes / chunk) < steps * 64 / ppn && chunk > 131072)
      chunk /= 2;
    while ((double)(bytes / chunk) < steps * 16 / ppn && chunk > 32768)
      chunk /= 2;
  }
  return chunk / elem;
}

double nccl_op_time(const sa_compute *c, int proto, unsigned flags, int nrecv, int nsend, size_t bytes)
{
  double t = 0, rate = proto == NCCL_PROTO_LL ? c->ll_bw : proto == NCCL_PROTO_LL128 ? c->ll128_bw : c->simple_bw;
  if ((flags & NCCL_OP_RECV) && (flags & NCCL_OP_REDUCE) && c->reduce_bw > 0 && bytes > 0)
    t += (nrecv + 2) / 3.0 * (double)bytes / c->reduce_bw;
  if ((flags & NCCL_OP_SEND) && rate > 0)
    t += nsend * (double)nccl_wire_bytes(proto, bytes) / rate;
  return t;
}

#define FLOOR_WORK 1e-3

double nccl_op_floor_s(const sa_compute *c, int proto, unsigned flags, int nsend, size_t bytes, double *seconds)
{
  if (proto != NCCL_PROTO_LL || !(flags & NCCL_OP_SEND) || c->ll_channel_bw <= 0 || bytes == 0)
    return 0;
  double floor_s = nsend * (double)nccl_wire_bytes(proto, bytes) / c->ll_channel_bw;
  if (*seconds < FLOOR_WORK * floor_s)
    *seconds = FLOOR_WORK * floor_s;
  return floor_s;
}

double nccl_op_time_nvls(const sa_compute *c, int proto, unsigned flags, int nrecv, int switch_recv, int nsend,
                         double copy_in, double copy_out, size_t bytes)
{
  int gpu = nrecv - switch_recv;
  double rate = c->nvls_copy_bw > 0 ? c->nvls_copy_bw : c->copy_bw; /* its copy warps', else the device's */
  double copy = 0;
  if (rate > 0 && (flags & NCCL_OP_COPY_IN))
    copy += (double)bytes / (rate * (copy_in > 0 ? copy_in : 1));
  if (rate > 0 && (flags & NCCL_OP_COPY_OUT))
    copy += (double)bytes / (rate * (copy_out > 0 ? copy_out : 1));
  return copy + nccl_op_time(c, proto, gpu > 0 ? flags : flags & ~(unsigned)NCCL_OP_REDUCE, gpu, nsend, bytes);
}
