/* cost_best.h: choosing an algorithm per message size from predicted times, and the
 * decision table of size ranges that results (as MPICH's JSON tuning files and NCCL's tuner
 * express their choices). */
#ifndef COST_BEST_H
#define COST_BEST_H

#include <stdint.h>

typedef struct {
  uint64_t lo, hi; /* bytes per rank: the first and last size of the sweep in the range */
  int algo;        /* index of the chosen candidate */
} cost_range;

/* times[a * nsizes + i]: candidate a's predicted time at size i (NaN: no prediction).
 * winner[i] gets the candidate with the smallest time (the first listed on ties), or -1
 * when none has a prediction. Returns the number of sizes with a winner. */
int cost_best_pick(const double *times, int ncand, int nsizes, int *winner);

/* Groups consecutive sizes with the same winner into ranges (out holds up to nsizes).
 * Returns the number of ranges. */
int cost_best_ranges(const uint64_t *sizes, const int *winner, int nsizes, cost_range *out);

#endif
