/* ring_core.h: reduce-scatter and allgather around rings, several rings (channels) at once,
 * each over its own part of the buffer. ring, hier and hitopk are built from these. */
#ifndef AR_RING_CORE_H
#define AR_RING_CORE_H

#include "ar.h"

/* One ring: this rank's neighbours and place in it, and the part of the buffer it carries. */
typedef struct {
  int n;          /* ranks in the ring */
  int pos;        /* this rank's place, 0..n-1 */
  int next, prev; /* ranks (in the communicator) to send to and receive from */
  size_t off, len; /* element range of the buffer the ring reduces */
} ar_ring_spec;

/* The ring over all of comm in rank order, carrying [off, off+len). */
int ar_ring_plain(MPI_Comm comm, size_t off, size_t len, ar_ring_spec *r);

/* Chunk c of a ring's range: the range cut into n parts. */
size_t ar_ring_chunk_off(const ar_ring_spec *r, int c);
size_t ar_ring_chunk_len(const ar_ring_spec *r, int c);

/* All rings of one call have the same n. */

/* Reduce-scatter: afterwards recvbuf holds, in every ring's chunk (pos+1) mod n, the sum
 * over the ring of sendbuf's values. Step 0 reads sendbuf (which may equal recvbuf), so no
 * initial copy is made; chunks other than the owned one are left partially summed. */
int ar_ring_reduce_scatter(const void *sendbuf, void *recvbuf, kn_dtype dt, MPI_Comm comm, const ar_params *p,
                           const ar_ring_spec *rings, int nrings);

/* Allgather: every rank starts owning chunk (pos+1) mod n of every ring and ends with all. */
int ar_ring_allgather(void *recvbuf, kn_dtype dt, MPI_Comm comm, const ar_params *p, const ar_ring_spec *rings,
                      int nrings);

/* Allgather of blocks of different sizes around the ring of comm in rank order: rank r
 * owns block r, of counts[r] elements at offset displs[r] of buf; afterwards every rank
 * holds every block. */
int ar_ring_allgatherv(void *buf, const size_t *counts, const size_t *displs, kn_dtype dt, MPI_Comm comm,
                       const ar_params *p);

#endif
