/* sparse.h: the pieces the top-k algorithms share: how many to keep, selection, pairs
 * travelling around a ring, scatter-add, and the run's accuracy reference. */
#ifndef AR_SPARSE_H
#define AR_SPARSE_H

#include <stdint.h>

/* Indices are 32-bit: a top-k algorithm takes at most 2^32 elements per rank (16 GiB of
 * fp32). */
#define AR_SPARSE_MAX_COUNT ((size_t)UINT32_MAX + 1)

#include <stdint.h>

#include "ar.h"
#include "ring_core.h"
#include "kernels/topk_select.h"

typedef enum { AR_SELECT_EXACT, AR_SELECT_MSTOPK } ar_selector;

/* Chooses k of x[0..len) into idx (indices relative to x) and vals (their values), for real
 * when the data is real, and charges the selector's device time. Returns the number chosen
 * (k, or len if smaller) or a negative AR_E* code. */
long ar_select(const ar_params *p, ar_selector how, const void *x, size_t len, kn_dtype dt, size_t k, uint64_t seed,
               uint32_t *idx, void *vals);

/* dst[idx[i]] += vals[i] for n pairs, and its device time. */
void ar_scatter_add(const ar_params *p, void *dst, const void *vals, const uint32_t *idx, size_t n, kn_dtype dt);

/* dst[0..n) = 0, and its device time. */
void ar_zero(const ar_params *p, void *dst, size_t n, kn_dtype dt);

/* Every rank of comm contributes k (value, index) pairs; afterwards allv/alli hold all
 * size*k of them, rank r's at slot (r+1) mod size, by two ring allgathers (values, then
 * indices), as TopK-SGD does [Shi21, eq. 3]. */
int ar_allgather_pairs(const ar_params *p, MPI_Comm comm, const void *vals, const uint32_t *idx, size_t k,
                       kn_dtype dt, void *allv, uint32_t *alli);

#endif
