/* ar_compute.c: device work (sums, copies) done for real when the data is real, and
 * charged to the simulated clock from the platform's compute parameters under SMPI. */
#include "ar.h"

#include <string.h>

#ifdef SA_SMPI
#include <simgrid/actor.h>
#endif

void ar_charge(double seconds)
{
#ifdef SA_SMPI
  /* The device's time is the platform's compute properties' (reduce_bw, ...), not the host's
   * flop rate, and each GPU's host runs its rank alone: a sleep of that time is what an
   * execution of it at the host's speed would take, at a fifth of SimGrid's cost per call
   * (no CPU share to solve; 14.9 s instead of 17.9 s for that ring, ar_native.c). */
  if (seconds > 0)
    sg_actor_sleep_for(seconds);
#else
  (void)seconds; /* a real run pays for the work itself */
#endif
}

void ar_reduce(const ar_params *p, void *dst, const void *a, const void *b, size_t n, kn_dtype dt)
{
  if (n == 0)
    return;
  double t0 = ar_steps_start(p->trace);
  if (p->real_data)
    kn_sum(dst, a, b, n, dt);
  if (p->compute.reduce_bw > 0)
    ar_charge(p->compute.reduce_lat + (double)(n * kn_dtype_size(dt)) / p->compute.reduce_bw);
  ar_steps_work(p->trace, AR_EV_REDUCE, t0, (long long)(n * kn_dtype_size(dt)));
}

void ar_copy(const ar_params *p, void *dst, const void *src, size_t n, kn_dtype dt)
{
  if (n == 0 || dst == src)
    return;
  double t0 = ar_steps_start(p->trace);
  if (p->real_data)
    memmove(dst, src, n * kn_dtype_size(dt));
  if (p->compute.copy_bw > 0)
    ar_charge((double)(n * kn_dtype_size(dt)) / p->compute.copy_bw);
  ar_steps_work(p->trace, AR_EV_COPY, t0, (long long)(n * kn_dtype_size(dt)));
}

void ar_charge_pass(const ar_params *p, const char *what, size_t n, kn_dtype dt)
{
  if (n == 0 || !(p->compute.copy_bw > 0))
    return;
  double t0 = ar_steps_start(p->trace);
  ar_charge((double)(n * kn_dtype_size(dt)) / (2 * p->compute.copy_bw));
  ar_steps_work(p->trace, what, t0, (long long)(n * kn_dtype_size(dt)));
}
