/* ar.h: the allreduce algorithm interface shared by every algorithm, the registry and the runner. */
#ifndef AR_H
#define AR_H

#include <mpi.h>
#include <stddef.h>

#include "algo_list.h"
#include "common/compute.h"
#include "common/sa_error.h"
#include "kernels/dtype.h"
#include "kernels/parts.h"
#include "ar_layout.h"
#include "ar_native.h"
#include "ar_phase.h"
#include "ar_steps.h"
#include "nccl/nccl_proto.h"

/* The buffers one rank holds from the shared arena (ar_memory.c), by slot. */
#define AR_ARENA_SLOTS 32
typedef struct {
  void *held[AR_ARENA_SLOTS];
} ar_arena;

/* Everything an algorithm may need beyond MPI_Allreduce's arguments. */
typedef struct {
  int ranks_per_node;   /* node-major layout: ranks r*R .. r*R+R-1 share node r */
  size_t segment_bytes; /* pipelining unit of the trees */
  int channels;         /* concurrent rings */
  double density;       /* top-k: k = density * count */
  double overlap;       /* top-k timing mode: fraction of shared indices */
  int real_data;        /* 1: buffers hold real values to move and reduce */
  sa_compute compute; /* device work, charged from the host's properties */
  ar_phases *phases;       /* where phase boundaries are recorded; may be NULL */
  ar_steps *trace;         /* where the helpers record each step (ar_steps.h); may be NULL */
  const ar_layout *layout; /* node communicators and ring orders; may be NULL */
  /* NCCL's algorithms (algos/nccl_*.c): their channels laid over the platform (NULL when
   * none runs) and what this point runs (nccl_proto.h; the driver chooses it) */
  const struct ar_nccl_comm *nccl;
  nccl_choice nccl_run;
  ar_arena *arena;         /* this rank's slots of the shared timing-mode buffers; may be NULL */
  ar_native *native;       /* this rank's exchanges as SimGrid messages (ar_native.c); NULL: MPI */
} ar_params;

typedef int (*ar_fn)(const void *sendbuf, void *recvbuf, size_t count, kn_dtype dt, MPI_Comm comm,
                     const ar_params *p);

typedef struct {
  const char *name;
  ar_fn fn;
  unsigned flags;
  const char *desc;
} ar_algo;

/* NULL-terminated table of every algorithm. */
extern const ar_algo ar_registry[];

const ar_algo *ar_find(const char *name);

/* Rank and size in comm: 0, or SA_EMPI. */
int ar_ranks(MPI_Comm comm, int *rank, int *size);

/* The prologue every dense algorithm shares: rank and size, MPI_IN_PLACE resolved into recvbuf,
 * and the calls with nothing to communicate done (count 0; one rank copies). Returns 1 when
 * the call is complete, with *rc its result, 0 when the algorithm has work to do. */
int ar_begin(const void **sendbuf, void *recvbuf, size_t count, kn_dtype dt, MPI_Comm comm, const ar_params *p,
             int *rank, int *size, int *rc);

/* Buffers for payloads and scratch: shared (no physical copy per rank) in SMPI timing
 * mode, real memory otherwise. With p->arena in SMPI timing mode, a rank's k-th buffer held
 * at once is slot k of an arena every rank shares: one mapping per slot for the whole run. */
void *ar_alloc(const ar_params *p, size_t bytes);
void ar_free(const ar_params *p, void *buf);
/* The arena's mappings replaced by bigger ones, freed: call when no rank holds any (between
 * points). ar_arena_release frees every mapping (the end of a run). Both idempotent. */
void ar_arena_collect(void);
void ar_arena_release(void);

/* dst = a + b over n elements: real arithmetic when the data is real, and the device
 * time it would take charged to the simulated clock. */
void ar_reduce(const ar_params *p, void *dst, const void *a, const void *b, size_t n, kn_dtype dt);
/* dst = src over n elements, with the device copy time charged. */
void ar_copy(const ar_params *p, void *dst, const void *src, size_t n, kn_dtype dt);
/* Charge seconds of device work to the simulated clock (nothing in a real run). */
void ar_charge(double seconds);
/* The device time of one pass over n elements that writes them, as a memset does (half a
 * copy's bytes), charged and recorded as step `what`. */
void ar_charge_pass(const ar_params *p, const char *what, size_t n, kn_dtype dt);

/* Element [i] of a buffer, as a byte pointer (ar_cat for const buffers). */
static inline void *ar_at(void *buf, size_t i, kn_dtype dt) { return (char *)buf + i * kn_dtype_size(dt); }
static inline const void *ar_cat(const void *buf, size_t i, kn_dtype dt)
{
  return (const char *)buf + i * kn_dtype_size(dt);
}

/* The MPI datatype that carries elements of dt (fp16 travels as 16-bit words: MPI never
 * reduces it, the algorithms do). */
MPI_Datatype ar_mpi_type(kn_dtype dt);

/* A message of count elements of dt as MPI counts them: n elements of type, n within an int.
 * Above INT_MAX elements: 8- or 16-byte predefined words where they divide the bytes (every
 * even count up to 16 GiB), else blocks of a contiguous type whose length divides count
 * (kept for the run; SMPI copies such a message through real memory). Returns 0, SA_EINVAL
 * for a count with no such divisor (a prime above INT_MAX), or SA_EMPI. */
int ar_msg(size_t count, kn_dtype dt, MPI_Datatype *type, int *n);

/* How many MPI messages one message of count elements travels as: 1, except under SMPI for
 * the sizes it copies through real memory (ar_p2p.c), at most AR_MAX_PIECES (16 GiB). */
#define AR_MAX_PIECES 16
size_t ar_pieces(size_t count, kn_dtype dt);

/* Point-to-point calls of element counts (through ar_pieces and ar_msg), each recorded in
 * p->trace: the same MPI calls an algorithm would make itself, so use these rather than
 * MPI's. Each returns 0, SA_EMPI or SA_EINVAL. The non-blocking ones post ar_pieces(count,
 * dt) requests at r[*nreq], advancing *nreq. ar_sendrecv exchanges the pieces pairwise, one
 * pair after the other; a NULL buffer goes with a count of 0. */
int ar_sendrecv(const void *sbuf, size_t scount, int dest, void *rbuf, size_t rcount, int src, kn_dtype dt,
                MPI_Comm comm, const ar_params *p);
int ar_send(const void *buf, size_t count, kn_dtype dt, int peer, int tag, MPI_Comm comm, const ar_params *p);

#ifdef SA_SMPI
/* Exchanges on mailboxes (ar_native.c): one rank's state for its world rank and SMPI's eager
 * limit, and its release (the eager messages it still holds collected); whether an exchange
 * on comm goes on mailboxes (p->native set, a communicator whose ranks map to world ranks);
 * one exchange of bytes (either side MPI_PROC_NULL): 0 or SA_E*. */
void ar_native_init(ar_native *n, int world_rank, long long detached_thresh);
void ar_native_free(ar_native *n);
int ar_native_takes(MPI_Comm comm, const ar_params *p);
int ar_native_sendrecv(const void *sbuf, size_t sbytes, int dest, void *rbuf, size_t rbytes, int src, MPI_Comm comm,
                       const ar_params *p);
#endif
int ar_recv(void *buf, size_t count, kn_dtype dt, int peer, int tag, MPI_Comm comm, const ar_params *p);
int ar_isend(const void *buf, size_t count, kn_dtype dt, int peer, int tag, MPI_Comm comm, const ar_params *p,
             MPI_Request *r, int *nreq);
int ar_irecv(void *buf, size_t count, kn_dtype dt, int peer, int tag, MPI_Comm comm, const ar_params *p,
             MPI_Request *r, int *nreq);
/* MPI_Waitall, recorded as a wait. */
int ar_waitall(int n, MPI_Request *req, const ar_params *p);

#ifdef SA_SMPI
#include <simgrid/forward.h>
/* Messages on SimGrid mailboxes, under SMPI, for an algorithm that must react to each
 * arrival, delivery and piece of device work the moment it happens, which MPI's calls cannot
 * tell (MPI_Test costs simulated time, a wait cannot end at a given time): NCCL's pipeline
 * (nccl_pipe.c). A put of `bytes` on the wire from this rank to `peer` (ranks of comm, for
 * the trace) is delivered once the receiver's get is posted, as a synchronous send; both
 * are recorded in p->trace as posted messages. ar_wait_first is ar_wait_any (ar_activity.h),
 * recorded as a wait. */
sg_comm_t ar_mb_put(sg_mailbox_t mb, void *payload, size_t bytes, int peer, MPI_Comm comm, const ar_params *p);
sg_comm_t ar_mb_get(sg_mailbox_t mb, void **payload, size_t bytes, int peer, MPI_Comm comm, const ar_params *p);
int ar_wait_first(sg_comm_t *comms, int ncomm, sg_exec_t *execs, int nexec, double timeout, const ar_params *p);
#endif

#endif
