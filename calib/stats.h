/* stats.h: median and spread of repeated timings. */
#ifndef CAL_STATS_H
#define CAL_STATS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  double median, q1, q3, min, max;
} cal_summary;

/* Summarises n > 0 samples; sorts them in place. */
cal_summary cal_summarize(double *samples, size_t n);

#ifdef __cplusplus
}
#endif

#endif
