/* ar_phase.h: named phase boundaries recorded by an algorithm while it runs. */
#ifndef AR_PHASE_H
#define AR_PHASE_H

#define AR_MAX_PHASES 8

/* end[i] is the time since t0 at which phase i ended on this rank. Phases run one after
 * the other, so the runner can turn the slowest rank's ends into durations that add up to
 * the whole operation. */
typedef struct {
  int n;
  long long selected; /* top-k algorithms: elements chosen by this rank's selection, else -1 */
  double t0;
  const char *name[AR_MAX_PHASES];
  double end[AR_MAX_PHASES];
} ar_phases;

void ar_phases_reset(ar_phases *ph, double t0);
/* Marks the end of phase `name` now; marking the latest phase again moves its end. */
void ar_phase_end(ar_phases *ph, const char *name);

#endif
