// cuda_common.cu: the fixed fields and the summary of a CUDA benchmark point.
#include <stdio.h>

#include "calib/stats.h"
#include "cuda_bench.h"

cal_point cb_point(const char *op, const char *dtype, double bytes, double count)
{
  cal_point p = cal_point_blank(op, "simcalib kernels");
  snprintf(p.device, sizeof p.device, "cuda");
  if (dtype)
    snprintf(p.dtype, sizeof p.dtype, "%s", dtype);
  p.bytes = bytes;
  p.count = count;
  p.ranks = 1;
  return p;
}

void cb_finish(cal_point *p, double *samples, int n)
{
  cal_summary s = cal_summarize(samples, (size_t)n);
  p->time_s = s.median;
  p->spread_s = s.q3 - s.q1;
  p->min_s = s.min;
  p->max_s = s.max;
  p->reps = n;
  cal_point_bandwidths(p);
}
