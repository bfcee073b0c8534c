/* cuda_time.h: the body of cb_time (a template, so it lives in a header). */
#ifndef MEASURE_CUDA_CUDA_TIME_H
#define MEASURE_CUDA_CUDA_TIME_H

#include <stdio.h>
#include <vector>

#include "common/sa_error.h"

template <typename Op>
int cb_time(const cb_opts &o, Op op, md_point p, md_data *d)
{
  cudaEvent_t start, stop;
  CB_CHECK(cudaEventCreate(&start));
  CB_CHECK(cudaEventCreate(&stop));
  std::vector<double> samples((size_t)o.reps);
  int rc = 0;
  for (int r = -o.warmup; r < o.reps && rc == 0; r++) {
    CB_CHECK(cudaEventRecord(start));
    rc = op();
    CB_CHECK(cudaEventRecord(stop));
    CB_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CB_CHECK(cudaEventElapsedTime(&ms, start, stop));
    if (r >= 0)
      samples[(size_t)r] = ms * 1e-3;
  }
  CB_CHECK(cudaEventDestroy(start));
  CB_CHECK(cudaEventDestroy(stop));
  if (rc != 0)
    return rc;
  cb_finish(&p, samples.data(), o.reps);
  return md_data_add(d, &p);
}

#endif
