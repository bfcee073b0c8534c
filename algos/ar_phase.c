/* ar_phase.c: the phase recorder; a NULL recorder makes every call free. */
#include "ar_phase.h"

#include <mpi.h>
#include <string.h>

void ar_phases_reset(ar_phases *ph, double t0)
{
  memset(ph, 0, sizeof *ph);
  ph->selected = -1;
  ph->t0 = t0;
}

void ar_phase_end(ar_phases *ph, const char *name)
{
  if (!ph)
    return;
  double now = MPI_Wtime() - ph->t0;
  if (ph->n > 0 && strcmp(ph->name[ph->n - 1], name) == 0) {
    ph->end[ph->n - 1] = now;
    return;
  }
  if (ph->n == AR_MAX_PHASES)
    return;
  ph->name[ph->n] = name;
  ph->end[ph->n] = now;
  ph->n++;
}
