/* cost_best.c: per-size choice of the fastest predicted algorithm, and its ranges. */
#include "cost_best.h"

#include <math.h>

int cost_best_pick(const double *times, int ncand, int nsizes, int *winner)
{
  int found = 0;
  for (int i = 0; i < nsizes; i++) {
    winner[i] = -1;
    for (int a = 0; a < ncand; a++) {
      double t = times[(long)a * nsizes + i];
      if (!isnan(t) && (winner[i] < 0 || t < times[(long)winner[i] * nsizes + i]))
        winner[i] = a;
    }
    found += winner[i] >= 0;
  }
  return found;
}

int cost_best_ranges(const uint64_t *sizes, const int *winner, int nsizes, cost_range *out)
{
  int n = 0;
  for (int i = 0; i < nsizes; i++) {
    if (winner[i] < 0)
      continue;
    if (n > 0 && out[n - 1].algo == winner[i] && (i == 0 || winner[i - 1] == winner[i])) {
      out[n - 1].hi = sizes[i];
      continue;
    }
    out[n++] = (cost_range){sizes[i], sizes[i], winner[i]};
  }
  return n;
}
