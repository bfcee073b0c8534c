/* nccl_pipe.h: the slice pipeline NCCL's kernels run. A rank runs several streams at once (a
 * ring channel; a tree channel's reduction going up and its broadcast coming down), as NCCL
 * runs each channel on thread blocks of its own; each stream is a sequence of operations on
 * slices of the buffer (receive from its peers, reduce with the rank's input, send on), one
 * after the other; each connection holds a fixed number of slices in flight, NCCL's step
 * slots: receives are posted that many slices ahead, so a sender's slice moves as soon as
 * the receiver has a free slot, and a slice is sent on as soon as it is reduced, while the
 * next ones are already arriving. The sums of all the rank's streams are device work that
 * shares the GPU (its memory), the protocol's bytes on the wire and its per-hop latency beyond
 * the link's are added to every slice. Simulation only: a real cluster runs NCCL itself. */
#ifndef AR_NCCL_PIPE_H
#define AR_NCCL_PIPE_H

#include "ar.h"
#include "nccl/nccl_sched.h"

typedef struct ar_pipe_stream ar_pipe_stream;
/* Fills operation k (0 <= k < nops) of a stream. */
typedef void (*ar_pipe_op_fn)(const ar_pipe_stream *s, long k, nccl_op *op);

/* Internal per-connection state (nccl_pipe.c). */
typedef struct ar_pipe_conn ar_pipe_conn;

struct ar_pipe_stream {
  /* set by the algorithm */
  ar_pipe_op_fn op;
  const void *ctx; /* the generator's own description of the stream */
  long nops;
  int nrecv, nsend;
  int recv_peer[NCCL_MAX_PEERS], recv_tag[NCCL_MAX_PEERS];
  int send_peer[NCCL_MAX_PEERS], send_tag[NCCL_MAX_PEERS];
  double extra[NCCL_MAX_PEERS]; /* per receive peer: seconds a slice takes beyond the link's */
  double gap[NCCL_MAX_PEERS];   /* per send peer: the proxy's seconds before each slice leaves
                                 * (nccl_net_gap_s: a ring's connections across nodes); 0: none */
  int switch_recv;     /* NVLS: the first switch_recv receive peers are summed by the switch */
  double nvlink_scale; /* NVLS: bytes on an NVLink per byte sent (nccl_nvls_wire_scale); 0: 1 */
  double copy_in, copy_out; /* NVLS: its copy warps' share (nccl_nvls_stream); 0: 1 */
  /* kept by the pipeline */
  long k, recvs, rdone, rposted, sdone;
  ar_pipe_conn *conn;
  void *work;      /* the sum under way (a SimGrid activity), NULL when none */
  nccl_op cur;       /* its operation */
  double work_t0;  /* when it began */
};

/* The start of a call of NCCL's algorithm `algo`: the point's protocol and channel count
 * (the defaults: Simple, every channel laid out), and the kernel launch charged (NCCL's base
 * latency, phase AR_PH_LAUNCH). Returns 0, or SA_EINVAL without NCCL's channels. */
int ar_pipe_launch(const ar_params *p, int algo, int *proto, int *channels);

/* Runs the streams to completion with `slots` slices in flight per connection and the wire
 * bytes of protocol `proto`. Returns 0 or an SA_E* code (SA_EINVAL outside a simulation). */
int ar_pipe_run(ar_pipe_stream *streams, int nstreams, int slots, int proto, const void *in, void *out, kn_dtype dt,
           MPI_Comm comm, const ar_params *p);

#endif
