/* stats.c: median and quartiles of repeated timings, with GSL. The median, not the mean:
 * one preempted repetition on a busy host must not move the figure. */
#include "stats.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

md_summary md_summarize(double *samples, size_t n)
{
  md_summary s = {0, 0, 0, 0, 0};
  if (n == 0)
    return s;
  gsl_sort(samples, 1, n);
  s.median = gsl_stats_median_from_sorted_data(samples, 1, n);
  s.q1 = gsl_stats_quantile_from_sorted_data(samples, 1, n, 0.25);
  s.q3 = gsl_stats_quantile_from_sorted_data(samples, 1, n, 0.75);
  s.min = samples[0];
  s.max = samples[n - 1];
  return s;
}
