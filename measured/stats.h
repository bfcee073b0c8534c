/* stats.h: median and spread of repeated timings. */
#ifndef MEASURED_STATS_H
#define MEASURED_STATS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  double median, q1, q3, min, max;
} md_summary;

/* Summarises n > 0 samples; sorts them in place. */
md_summary md_summarize(double *samples, size_t n);

#ifdef __cplusplus
}
#endif

#endif
