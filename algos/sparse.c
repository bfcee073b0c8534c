/* sparse.c: selection, scatter-add and pair exchange for the top-k algorithms, each doing
 * the real work on real data and charging its device time from the platform. */
#include "sparse.h"

#include <string.h>


long ar_select(const ar_params *p, ar_selector how, const void *x, size_t len, kn_dtype dt, size_t k, uint64_t seed,
               uint32_t *idx, void *vals)
{
  size_t n = k < len ? k : len;
  if (n == 0)
    return 0;
  double t0 = ar_steps_start(p->trace);
  if (p->real_data) {
    n = how == AR_SELECT_EXACT ? kn_topk_exact(x, len, dt, k, idx)
                               : kn_mstopk(x, len, dt, k, KN_MSTOPK_SAMPLINGS, seed, idx, NULL);
    if (n == (size_t)-1)
      return SA_ENOMEM;
    size_t es = kn_dtype_size(dt);
    for (size_t i = 0; i < n; i++)
      memcpy(ar_at(vals, i, dt), ar_cat(x, idx[i], dt), es);
  }
  const sa_compute *c = &p->compute;
  ar_charge(how == AR_SELECT_EXACT ? c->topk_a + c->topk_b * (double)len
                                   : c->mstopk_a + c->mstopk_b * (double)(len * kn_dtype_size(dt)));
  ar_steps_work(p->trace, how == AR_SELECT_EXACT ? AR_EV_SELECT : AR_EV_MSTOPK, t0,
                (long long)(len * kn_dtype_size(dt)));
  return (long)n;
}

void ar_scatter_add(const ar_params *p, void *dst, const void *vals, const uint32_t *idx, size_t n, kn_dtype dt)
{
  if (n == 0)
    return;
  double t0 = ar_steps_start(p->trace);
  if (p->real_data)
    kn_scatter_add(dst, vals, idx, n, dt);
  ar_charge(p->compute.scatter_a + p->compute.scatter_b * (double)n);
  ar_steps_work(p->trace, AR_EV_SCATTER_ADD, t0, (long long)(n * (kn_dtype_size(dt) + sizeof *idx)));
}

void ar_zero(const ar_params *p, void *dst, size_t n, kn_dtype dt)
{
  if (n == 0)
    return;
  if (p->real_data)
    memset(dst, 0, n * kn_dtype_size(dt));
  ar_charge_pass(p, AR_EV_ZERO, n, dt);
}

int ar_allgather_pairs(const ar_params *p, MPI_Comm comm, const void *vals, const uint32_t *idx, size_t k,
                       kn_dtype dt, void *allv, uint32_t *alli)
{
  ar_ring_spec r;
  int rc = 0, size;
  if (MPI_Comm_size(comm, &size) != MPI_SUCCESS)
    return SA_EMPI;
  rc = ar_ring_plain(comm, 0, (size_t)size * k, &r);
  if (rc)
    return rc;
  size_t slot = ar_ring_chunk_off(&r, r.pos + 1);
  ar_copy(p, ar_at(allv, slot, dt), vals, k, dt);
  ar_copy(p, ar_at(alli, slot, KN_I32), idx, k, KN_I32);
  rc = ar_ring_allgather(allv, dt, comm, p, &r, 1);
  return rc ? rc : ar_ring_allgather(alli, KN_I32, comm, p, &r, 1);
}
