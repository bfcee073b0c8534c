/* sparse_ref.c: the top-k references. They regenerate each rank's input from the --verify
 * pattern (as if gathered) and apply the algorithm's own sparse semantics. */
#include "sparse_ref.h"
#include "common/sa_error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algos/ar_parts.h"
#include "algos/topk_select.h"

/* ref[off + idx[i]] += x[idx[i]] for the k chosen indices of x[0..len). */
static int add_selected(void *ref, size_t off, const void *x, size_t len, ar_dtype dt, size_t k, int mstopk,
                        uint64_t seed)
{
  uint32_t *idx = malloc((k ? k : 1) * sizeof *idx);
  if (!idx)
    return SA_ENOMEM;
  size_t n = mstopk ? ar_mstopk(x, len, dt, k, AR_MSTOPK_SAMPLINGS, seed, idx, NULL) : ar_topk_exact(x, len, dt, k, idx);
  for (size_t i = 0; i < n && n != (size_t)-1; i++)
    ar_set(ref, off + idx[i], dt, ar_get(ref, off + idx[i], dt) + ar_get(x, idx[i], dt));
  free(idx);
  return n == (size_t)-1 ? SA_ENOMEM : 0;
}

int ar_sparse_reference(const char *algo, const ar_pattern *pat, int ranks, int rpn, size_t count, ar_dtype dt,
                        double density, void *ref)
{
  size_t es = ar_dtype_size(dt);
  int topk = strcmp(algo, "topk") == 0;
  if (!topk && strcmp(algo, "hitopk") != 0)
    return SA_EINVAL;
  void *x = malloc(count * es + es), *sum = malloc(count * es + es);
  int rc = x && sum ? 0 : -1;
  memset(ref, 0, count * es);
  if (topk) /* every rank's own top-k */
    for (int r = 0; r < ranks && rc == 0; r++) {
      ar_pattern_fill(pat, r, x, count, dt);
      rc = add_selected(ref, 0, x, count, dt, ar_topk_k(count, density), 0, 0);
    }
  else /* every node's sum, cut into the shards its ranks own, each sparsified by MSTopK */
    for (int node = 0; node < ranks / rpn && rc == 0; node++) {
      memset(sum, 0, count * es);
      for (int l = 0; l < rpn; l++) {
        ar_pattern_fill(pat, node * rpn + l, x, count, dt);
        ar_sum_host(sum, sum, x, count, dt);
      }
      for (int l = 0; l < rpn && rc == 0; l++) {
        int chunk = (l + 1) % rpn; /* ring reduce-scatter leaves local l with chunk l+1 */
        size_t off = ar_part_off(count, rpn, chunk), len = ar_part_len(count, rpn, chunk);
        rc = add_selected(ref, off, (const char *)sum + off * es, len, dt, ar_topk_k(len, density), 1,
                          ar_topk_seed(node, l));
      }
    }
  free(x);
  free(sum);
  return rc;
}

double ar_sparse_rel_err(const ar_pattern *pat, const void *x, size_t count, ar_dtype dt)
{
  double num = 0, den = 0;
  for (size_t i = 0; i < count; i++) {
    double want = ar_pattern_sum(pat, i), d = ar_get(x, i, dt) - want;
    num += d * d;
    den += want * want;
  }
  return den > 0 ? sqrt(num / den) : 0;
}
