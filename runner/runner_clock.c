/* runner_clock.c: where on the simulated clock each point starts.
 *
 * SimGrid computes event times on its absolute clock, so the same point started at another
 * clock value comes out different in the last bits of its time (durations are differences of
 * absolute times). A sweep resumed after an interruption starts its first point at another
 * clock than the interrupted run did, unless both start it at the same, recorded, time. So
 * every point starts in the same state at a time the run chooses and records:
 *  - the ranks agree on a start time S past the clock of every rank (two small allreduces:
 *    the latest clock, then again, their difference being what one costs);
 *  - each rank r sleeps first until S - (n + 1 - r) us, one rank at a time in rank order,
 *    then until S exactly: all ranks wake at S, in the same order whatever ran before, with
 *    nothing in flight.
 * The second sleep is from a time w in [S/2, S], so S - w is exact (Sterbenz) and w + (S - w)
 * is S itself.
 * A point's time must not depend on where it starts either (a size alone and inside a sweep
 * gave NCCL's 4 GiB ring 34930.15 and 34935.16 us: its ranks tie everywhere, and a tie that
 * rounds the other way reorders events). Between 2^12 and 2^13 s doubles are evenly spaced
 * (2^-40 s), so a time S + x there rounds as x does, whatever S is: the first point starts at
 * 2^12 s, and a sweep's simulated time stays below 2^12 s (hours of transfers at the largest
 * sizes would be needed to leave it). Outside SimGrid (a measured run) nothing of this applies. */
#include <math.h>

#include "runner.h"
#include "runner_coll.h"

#ifdef SA_SMPI
#include <simgrid/actor.h>
#include <simgrid/engine.h>

/* the spacing of the ranks' first wake-ups, far above SimGrid's timing precision (1e-9 s) */
#define STAGGER_S 1e-6
/* where the first point starts (see the top of this file) */
#define CLOCK_BASE_S 4096.0

double runner_clock_next(double start_at)
{
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double first = simgrid_get_clock(), second;
  runner_allreduce(&first, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  second = simgrid_get_clock();
  runner_allreduce(&second, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  /* past every rank by four allreduces, room for the staggered wake-ups, and at least twice
   * the stagger so that every first wake-up is in [S/2, S]; whole microseconds */
  double lead = 4 * (second - first) + (size + 1) * STAGGER_S;
  double s = ceil(fmax(second + lead, 2 * (size + 1) * STAGGER_S) * 1e6) / 1e6;
  s = start_at >= s ? start_at : s;
  return s >= CLOCK_BASE_S ? s : CLOCK_BASE_S;
}

void runner_clock_wait(double t, int rank, int size)
{
  double first = t - (size + 1 - rank) * STAGGER_S;
  if (simgrid_get_clock() < first)
    sg_actor_sleep_until(first);
  double now = simgrid_get_clock();
  if (now < t)
    sg_actor_sleep_for(t - now);
}
#else
double runner_clock_next(double start_at)
{
  (void)start_at;
  return NAN;
}

void runner_clock_wait(double t, int rank, int size)
{
  (void)t;
  (void)rank;
  (void)size;
}
#endif
