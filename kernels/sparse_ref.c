/* sparse_ref.c: the top-k references. They regenerate each rank's input from the --verify
 * pattern (as if gathered) and apply the algorithm's own sparse semantics. */
#include "sparse_ref.h"
#include "common/sa_error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parts.h"
#include "topk_select.h"

/* ref[off + idx[i]] += x[idx[i]] for the k chosen indices of x[0..len). */
static int add_selected(void *ref, size_t off, const void *x, size_t len, kn_dtype dt, size_t k, int mstopk,
                        uint64_t seed)
{
  uint32_t *idx = malloc((k ? k : 1) * sizeof *idx);
  if (!idx)
    return SA_ENOMEM;
  size_t n = mstopk ? kn_mstopk(x, len, dt, k, KN_MSTOPK_SAMPLINGS, seed, idx, NULL) : kn_topk_exact(x, len, dt, k, idx);
  for (size_t i = 0; i < n && n != (size_t)-1; i++)
    kn_set(ref, off + idx[i], dt, kn_get(ref, off + idx[i], dt) + kn_get(x, idx[i], dt));
  free(idx);
  return n == (size_t)-1 ? SA_ENOMEM : 0;
}

int kn_sparse_reference(const char *algo, const kn_pattern *pat, int ranks, int rpn, size_t count, kn_dtype dt,
                        double density, void *ref)
{
  size_t es = kn_dtype_size(dt);
  int topk = strcmp(algo, "topk") == 0;
  if (!topk && strcmp(algo, "hitopk") != 0)
    return SA_EINVAL;
  void *x = malloc(count * es + es), *sum = malloc(count * es + es);
  int rc = x && sum ? 0 : -1;
  memset(ref, 0, count * es);
  if (topk) /* every rank's own top-k */
    for (int r = 0; r < ranks && rc == 0; r++) {
      kn_pattern_fill(pat, r, x, count, dt);
      rc = add_selected(ref, 0, x, count, dt, kn_topk_k(count, density), 0, 0);
    }
  else /* every node's sum, cut into the shards its ranks own, each sparsified by MSTopK */
    for (int node = 0; node < ranks / rpn && rc == 0; node++) {
      memset(sum, 0, count * es);
      for (int l = 0; l < rpn; l++) {
        kn_pattern_fill(pat, node * rpn + l, x, count, dt);
        kn_sum(sum, sum, x, count, dt);
      }
      for (int l = 0; l < rpn && rc == 0; l++) {
        int chunk = (l + 1) % rpn; /* ring reduce-scatter leaves local l with chunk l+1 */
        size_t off = kn_part_off(count, rpn, chunk), len = kn_part_len(count, rpn, chunk);
        rc = add_selected(ref, off, (const char *)sum + off * es, len, dt, kn_topk_k(len, density), 1,
                          kn_topk_seed(node, l));
      }
    }
  free(x);
  free(sum);
  return rc;
}

double kn_sparse_rel_err(const kn_pattern *pat, const void *x, size_t count, kn_dtype dt)
{
  double num = 0, den = 0;
  for (size_t i = 0; i < count; i++) {
    double want = kn_pattern_sum(pat, i), d = kn_get(x, i, dt) - want;
    num += d * d;
    den += want * want;
  }
  return den > 0 ? sqrt(num / den) : 0;
}
