// cuda_reduce.cu: the sum of two buffers on the GPU, fp32 and fp16 (added in fp32
// arithmetic, stored as half, like the host kn_sum), one grid-stride kernel.
#include <cuda_fp16.h>
#include <stdio.h>

#include "cuda_bench.h"

__global__ static void sum_f32(float *dst, const float *a, const float *b, size_t n)
{
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    dst[i] = a[i] + b[i];
}

__global__ static void sum_f16(__half *dst, const __half *a, const __half *b, size_t n)
{
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    dst[i] = __float2half(__half2float(a[i]) + __half2float(b[i]));
}

/* Enough blocks to fill the GPU a few times over, the grid-stride loop does the rest. */
static unsigned blocks_for(size_t n, int threads)
{
  size_t b = (n + (size_t)threads - 1) / (size_t)threads;
  return (unsigned)(b < 4096 ? (b ? b : 1) : 4096);
}

int cb_reduce(const cb_opts &o, md_data *d)
{
  void *a = nullptr, *b = nullptr, *dst = nullptr;
  const int threads = 256;
  CB_CHECK(cudaSetDevice(0));
  CB_CHECK(cudaMalloc(&a, o.max_bytes));
  CB_CHECK(cudaMalloc(&b, o.max_bytes));
  CB_CHECK(cudaMalloc(&dst, o.max_bytes));
  CB_CHECK(cudaMemset(a, 0, o.max_bytes));
  CB_CHECK(cudaMemset(b, 0, o.max_bytes));
  int rc = 0;
  for (uint64_t s = o.min_bytes; rc == 0 && s <= o.max_bytes; s *= 4) {
    size_t n32 = s / sizeof(float), n16 = s / sizeof(__half);
    rc = cb_time(
        o,
        [&]() {
          sum_f32<<<blocks_for(n32, threads), threads>>>((float *)dst, (const float *)a, (const float *)b, n32);
          return cudaGetLastError() == cudaSuccess ? 0 : SA_ERUN;
        },
        cb_point("reduce", "fp32", (double)s, (double)n32), d);
    if (rc == 0)
      rc = cb_time(
          o,
          [&]() {
            sum_f16<<<blocks_for(n16, threads), threads>>>((__half *)dst, (const __half *)a, (const __half *)b, n16);
            return cudaGetLastError() == cudaSuccess ? 0 : SA_ERUN;
          },
          cb_point("reduce", "fp16", (double)s, (double)n16), d);
  }
  CB_CHECK(cudaFree(dst));
  CB_CHECK(cudaFree(b));
  CB_CHECK(cudaFree(a));
  return rc;
}
