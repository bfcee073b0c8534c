/* nccl_ring.c: NCCL's ring allreduce as its kernels run it (src/device/all_reduce.h runRing,
 * v2.26.2): the buffer split among C channels, each channel a ring of all ranks laid over
 * the platform's links as NCCL's search would lay it (nccl_comm.c), each ring cut into
 * loops of p chunks (one per rank), each chunk into slices, several slices in flight per
 * connection (nccl_pipe.c).
 *
 * Algorithm: in each loop, rank at ring place i runs 2p-1 steps over chunks
 *   step 0: send chunk i-1
 *   steps 1..p-1: receive chunk i-1-s, add the own input, send it on (step p-1 leaves the
 *     full sum of chunk i, which is also written to the output)
 *   steps p..2p-3: receive a summed chunk, store it, send it on
 *   step 2p-2: receive the last summed chunk
 * each step one message per slice (Simple: 2 slices of a 2 MiB chunk, 4 in flight; LL and
 * LL128: one slice per chunk of 32 KiB / 576000 B, 8 in flight); the last loop's chunks
 * shrink to fit (ceil(rest / p), 16-byte aligned), and a slice is never cut below 32 KiB
 * (prims_simple.h). A slice is summed as it arrives and forwarded at once.
 * Restrictions: none: any p, count < p (empty chunks still send their empty slices, as NCCL
 *   posts every step), p = 1 is a copy.
 * Cost: launch + per channel, slices flowing through a pipeline of 2(p-1) hops: the first
 *   slice's way through every hop (link latency, protocol latency, its transfer and sum),
 *   then one slice per max(link time, reduction time) (models/cost_nccl_ring.c).
 *
 *   p = 3, one channel, one slice per chunk, chunks a b c at places 0 1 2:
 *     step 0:  c -> 1     a -> 2     b -> 0
 *     step 1:  b+ -> 1    c+ -> 2    a+ -> 0     (received, summed, sent on)
 *     step 2:  a* -> 1    b* -> 2    c* -> 0     (full sums, stored)
 *     step 3:  c* -> 1    a* -> 2    b* -> 0     (stored, sent on)
 *     step 4:  receive b*, c*, a*                (stored)
 */
#include "algos.h"
#include "nccl_pipe.h"
#include "nccl/nccl_proto.h"
#include "nccl_comm.h"

#include <stdlib.h>

static void ring_op(const ar_pipe_stream *s, long k, nccl_op *op) { nccl_ring_sched_op(s->ctx, k, op); }

int ar_nccl_ring(const void *sendbuf, void *recvbuf, size_t count, kn_dtype dt, MPI_Comm comm, const ar_params *p)
{
  int rank, size, rc, proto, nc;
  if (ar_begin(&sendbuf, recvbuf, count, dt, comm, p, &rank, &size, &rc))
    return rc;
  if ((rc = ar_pipe_launch(p, NCCL_ALGO_RING, &proto, &nc)) != 0)
    return rc;
  const ar_nccl_comm *t = p->nccl;
  ar_pipe_stream *st = calloc((size_t)nc, sizeof *st);
  nccl_ring_sched *cx = calloc((size_t)nc, sizeof *cx);
  rc = st && cx ? 0 : SA_ENOMEM;
  for (int c = 0; c < nc && rc == 0; c++) {
    int pos, prev, next;
    ar_nccl_comm_ring(t, c, rank, &pos, &prev, &next);
    nccl_ring_sched_init(&cx[c], size, pos, kn_part_off(count, nc, c), kn_part_len(count, nc, c), proto, kn_dtype_size(dt));
    st[c] = (ar_pipe_stream){.op = ring_op, .ctx = &cx[c], .nops = nccl_ring_sched_ops(&cx[c]), .nrecv = 1, .nsend = 1};
    st[c].recv_peer[0] = prev;
    st[c].send_peer[0] = next;
    st[c].recv_tag[0] = st[c].send_tag[0] = c;
    st[c].extra[0] = ar_nccl_comm_extra(t, &p->compute, prev, rank, NCCL_ALGO_RING, proto);
    st[c].gap[0] = ar_nccl_comm_gap(t, &p->compute, rank, next, NCCL_ALGO_RING, proto);
  }
  if (rc == 0)
    rc = ar_pipe_run(st, nc, nccl_slots(NCCL_ALGO_RING, proto), proto, sendbuf, recvbuf, dt, comm, p);
  ar_phase_end(p->phases, AR_PH_RING);
  free(st);
  free(cx);
  return rc;
}
