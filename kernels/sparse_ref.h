/* sparse_ref.h: what the top-k algorithms must return, computed from every rank's input
 * without any communication: the reference --verify checks them against. No MPI here. */
#ifndef KERNELS_SPARSE_REF_H
#define KERNELS_SPARSE_REF_H

#include "verify.h"

/* Fills ref[0..count) with the result of sparse algorithm `algo` ("topk" or "hitopk") on
 * the pattern's inputs of `ranks` ranks, `rpn` per node, at `density`: the same selections
 * (exact top-k per rank; seeded MSTopK per node and shard) applied to the same data, summed
 * in the element type. Returns 0, SA_EINVAL for an unknown algorithm or SA_ENOMEM. */
int kn_sparse_reference(const char *algo, const kn_pattern *pat, int ranks, int rpn, size_t count, kn_dtype dt,
                        double density, void *ref);

/* ||x - dense||_2 / ||dense||_2, dense being the pattern's exact sum: what sparsifying cost. */
double kn_sparse_rel_err(const kn_pattern *pat, const void *x, size_t count, kn_dtype dt);

#endif
