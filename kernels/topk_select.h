/* topk_select.h: choosing k of d gradient elements by magnitude: MSTopK, the approximate
 * multi-sampling selection of [Shi21] (Algorithm 1), and an exact top-k. No MPI here. */
#ifndef KERNELS_TOPK_SELECT_H
#define KERNELS_TOPK_SELECT_H

#include <stddef.h>
#include <stdint.h>

#include "dtype.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Number of threshold samplings [Shi21] uses (section 5.2). */
#define KN_MSTOPK_SAMPLINGS 30

/* MSTopK: binary search for two thresholds between mean(|x|) and max(|x|) with `samplings`
 * probes, then every index with |x| >= thres1 and the rest of k drawn as one contiguous run,
 * from a start chosen by a generator seeded with `seed`, of the indices in the band
 * [thres2, thres1). Writes exactly min(k, d) indices, ascending within each of the two
 * groups, to idx and returns that number; *thres1 (if not NULL) receives the upper
 * threshold (infinity when no probe kept at most k). Returns (size_t)-1 on allocation
 * failure. */
size_t kn_mstopk(const void *x, size_t d, kn_dtype dt, size_t k, int samplings, uint64_t seed, uint32_t *idx,
                 double *thres1);

/* How many of the d magnitudes are at least thres (ctx: the data, wherever it lives). */
typedef size_t (*kn_count_fn)(double thres, void *ctx);

/* MSTopK's threshold search ([Shi21] Algorithm 1, lines 4-24), shared by the host selection
 * above and the GPU one the CUDA calibration times: `samplings` probes between mean and u
 * (mean and max of |x|). *thres1 gets the probe keeping the most elements, at most k
 * (infinity when none kept at most k), *thres2 the probe keeping the fewest above k (0 when
 * none did). */
void kn_mstopk_thresholds(double mean, double u, size_t d, size_t k, int samplings, kn_count_fn count, void *ctx,
                          double *thres1, double *thres2);

/* Exact top-k by selection (expected O(d), no full sort): the k largest |x|, ties broken by
 * the lower index. Writes min(k, d) indices in ascending order; returns that number, or
 * (size_t)-1 on allocation failure. */
size_t kn_topk_exact(const void *x, size_t d, kn_dtype dt, size_t k, uint32_t *idx);

/* k for len elements at density rho: rho*len rounded, at least 1 when len > 0. */
size_t kn_topk_k(size_t len, double density);

/* Seed of the MSTopK band draw made by local rank `local` of node `node`: the algorithm and
 * the verification reference must draw the same. */
uint64_t kn_topk_seed(int node, int local);

#ifdef __cplusplus
}
#endif

#endif
