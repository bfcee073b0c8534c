/* ar_steps.h: a rank's timeline of one allreduce: every message step, wait and piece of
 * device work, with its bytes and peers, recorded by the shared helpers (ar_p2p.c,
 * ar_compute.c, ring_core.c, tree_core.c, sparse.c) when ar_params.trace is set. A NULL
 * recorder costs a pointer test: no clock is read, nothing is stored. Recording takes no
 * simulated time (under SMPI the clock is read without MPI_Wtime's injected delay). */
#ifndef ALGOS_AR_STEPS_H
#define ALGOS_AR_STEPS_H

#include <mpi.h>

/* Step names, one constant each, as the phase names are (algo_list.h). */
#define AR_EV_SENDRECV "sendrecv" /* a blocking exchange: a ring step, a halving/doubling step */
#define AR_EV_SEND "send"
#define AR_EV_RECV "recv"
#define AR_EV_ISEND "isend" /* instants: a non-blocking message posted */
#define AR_EV_IRECV "irecv"
#define AR_EV_WAIT "wait" /* blocked until posted messages complete */
#define AR_EV_REDUCE "reduce"
#define AR_EV_COPY "copy"
#define AR_EV_ZERO "zero"
#define AR_EV_COMPACT "compact"
#define AR_EV_SELECT "topk-select"
#define AR_EV_MSTOPK "mstopk"
#define AR_EV_SCATTER_ADD "scatter-add"
#define AR_EV_COLLECTIVE "MPI_Allreduce"

/* What an event is: communication (a blocking call or a wait), device work, or a
 * non-blocking message posted (an instant). */
typedef enum { AR_EV_COMM = 'c', AR_EV_WORK = 'w', AR_EV_POST = 'p' } ar_event_kind;

typedef struct {
  const char *name;         /* one of the AR_EV_* constants */
  char kind;                /* ar_event_kind */
  double t0, t1;            /* seconds on the run's clock; t1 = t0 for a post */
  long long sbytes, rbytes; /* sent and received, -1 where none; device work: its bytes in rbytes */
  int to, from;             /* peers as MPI_COMM_WORLD ranks, -1 where none or several */
} ar_event;

#define AR_STEPS_COMMS 8

typedef struct {
  ar_event *ev;
  int n, room, cap;  /* events held, allocated, at most */
  long long dropped; /* events past cap, not kept */
  int ncomm;         /* communicators whose ranks are translated to MPI_COMM_WORLD's */
  MPI_Comm comm[AR_STEPS_COMMS];
  int size[AR_STEPS_COMMS];
  int *world[AR_STEPS_COMMS];
} ar_steps;

/* A recorder keeping at most cap events per allreduce (the rest are counted as dropped). */
void ar_steps_init(ar_steps *tr, int cap);
/* Forgets the events and the communicators (a new allreduce starts). */
void ar_steps_clear(ar_steps *tr);
void ar_steps_free(ar_steps *tr);

/* The run's clock: simulated seconds under SMPI, MPI_Wtime otherwise. */
double ar_steps_clock(void);
/* The clock when tr records, 0 (without reading it) when tr is NULL: the start of a step. */
static inline double ar_steps_start(const ar_steps *tr) { return tr ? ar_steps_clock() : 0; }

/* A step of comm's point-to-point traffic from t0 until now; peers are ranks of comm
 * (MPI_PROC_NULL or -1 for none), bytes -1 for none. */
void ar_steps_step(ar_steps *tr, const char *name, double t0, MPI_Comm comm, long long sbytes, int to, long long rbytes,
                   int from);
/* Device work on `bytes` bytes from t0 until now. */
void ar_steps_work(ar_steps *tr, const char *name, double t0, long long bytes);
/* A non-blocking send (send = 1) or receive of `bytes` to or from peer (a rank of comm)
 * posted now. */
void ar_steps_post(ar_steps *tr, int send, MPI_Comm comm, long long bytes, int peer);

#endif
