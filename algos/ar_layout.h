/* ar_layout.h: what a run knows about where its ranks sit, set up once before any timing:
 * the communicators of a node and of a local index, and the rank order of each ring
 * channel. Algorithms read it from ar_params; building it is not part of an allreduce. */
#ifndef AR_LAYOUT_H
#define AR_LAYOUT_H

#include <mpi.h>

#define AR_MAX_CHANNELS 64

typedef struct {
  int rpn;          /* ranks per node */
  MPI_Comm node;    /* the ranks of this rank's node, by local index */
  MPI_Comm cross;   /* the ranks with this rank's local index, by node */
  int channels;
  int *order;       /* channels x rpn: local ranks in ring order for each channel */
  double *weight;   /* channels: share of the buffer each channel carries (sums to 1) */
} ar_layout;

/* Collective over comm. Returns 0 or an AR_E* code. */
int ar_layout_init(ar_layout *L, MPI_Comm comm, int rpn, int channels);
void ar_layout_free(ar_layout *L);

/* Chooses ring orders for `channels` rings through the `rpn` GPUs of one node, each ring
 * taking the links the earlier ones left least loaded, from the platform's routes between
 * the named hosts; weights follow each ring's bottleneck bandwidth. Without route
 * information (a real run) every channel gets the plain order and an equal share. */
void ar_ring_orders(const char *const *hosts, int rpn, int channels, int *order, double *weight);

#endif
