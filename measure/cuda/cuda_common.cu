// cuda_common.cu: the fixed fields and the summary of a CUDA benchmark point.
#include <stdio.h>

#include "cuda_bench.h"

md_point cb_point(const char *op, const char *dtype, double bytes, double count)
{
  md_point p = md_point_blank(op, "simcalib kernels");
  snprintf(p.device, sizeof p.device, "cuda");
  if (dtype)
    snprintf(p.dtype, sizeof p.dtype, "%s", dtype);
  p.bytes = bytes;
  p.count = count;
  p.ranks = 1;
  return p;
}

void cb_finish(md_point *p, double *samples, int n)
{
  md_point_summarize(p, samples, n);
}
