// cuda_topk.cu: MSTopK ([Shi21] Algorithm 1, the same steps as kernels/topk_select.c's
// kn_mstopk: mean and max of |x|, the same binary search (kn_mstopk_thresholds) for two thresholds,
// every index above the upper one and a contiguous run of the band below it) and an exact
// top-k (stable sort of |x|, so ties go to the lower index), both on the GPU with Thrust, and
// the scatter-add of a selection's (value, index) pairs into a gradient-sized buffer, which
// the top-k algorithms do with what they receive (algos/sparse.c's ar_scatter_add).
#include <math.h>
#include <random>
#include <stdio.h>
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>
#include <vector>

#include "kernels/topk_select.h"
#include "cuda_bench.h"

struct abs_of {
  __host__ __device__ float operator()(float v) const { return fabsf(v); }
};

struct at_least {
  float t;
  __host__ __device__ bool operator()(float v) const { return fabsf(v) >= t; }
};

struct in_band {
  float hi, lo;
  __host__ __device__ bool operator()(float v) const
  {
    float a = fabsf(v);
    return a < hi && a >= lo;
  }
};

/* dst[idx[i]] += vals[i]; atomic, as pairs from several ranks may share an index. */
__global__ static void scatter_add_kernel(float *dst, const float *vals, const uint32_t *idx, size_t n)
{
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&dst[idx[i]], vals[i]);
}

static int scatter_add(float *dst, const float *vals, const uint32_t *idx, size_t n)
{
  const unsigned threads = 256;
  scatter_add_kernel<<<(unsigned)((n + threads - 1) / threads), threads>>>(dst, vals, idx, n);
  return cudaGetLastError() == cudaSuccess ? 0 : SA_ERUN;
}

/* |x| >= thres over the d elements on the GPU (ctx: a struct gpu_data). */
struct gpu_data {
  thrust::device_ptr<const float> x;
  size_t d;
};

static size_t count_on_gpu(double thres, void *ctx)
{
  const gpu_data *g = (const gpu_data *)ctx;
  return (size_t)thrust::count_if(thrust::device, g->x, g->x + g->d, at_least{(float)thres});
}

/* Writes exactly k indices to idx (band: scratch of d indices); returns 0 or SA_ERUN. */
static int mstopk(const float *x, size_t d, size_t k, uint32_t *idx, uint32_t *band, uint64_t seed)
{
  thrust::device_ptr<const float> p(x);
  thrust::device_ptr<uint32_t> out(idx), bnd(band);
  thrust::counting_iterator<uint32_t> first(0), last((uint32_t)d);
  double mean = thrust::transform_reduce(thrust::device, p, p + d, abs_of(), 0.0, thrust::plus<double>()) / (double)d;
  double u = thrust::transform_reduce(thrust::device, p, p + d, abs_of(), 0.0f, thrust::maximum<float>());
  double thres1, thres2;
  gpu_data g = {p, d};
  kn_mstopk_thresholds(mean, u, d, k, KN_MSTOPK_SAMPLINGS, count_on_gpu, &g, &thres1, &thres2);
  size_t n = (size_t)(thrust::copy_if(thrust::device, first, last, p, out, at_least{(float)thres1}) - out);
  size_t nb = (size_t)(thrust::copy_if(thrust::device, first, last, p, bnd, in_band{(float)thres1, (float)thres2}) - bnd);
  size_t need = k - n, start = 0;
  if (nb > need) {
    std::mt19937_64 rng(seed);
    start = std::uniform_int_distribution<size_t>(0, nb - need)(rng);
  }
  if (need > nb)
    need = nb;
  thrust::copy(thrust::device, bnd + start, bnd + start + need, out + n);
  return n + need == k ? 0 : SA_ERUN;
}

static int topk_exact(const float *x, size_t d, size_t k, uint32_t *idx, float *keys, uint32_t *order)
{
  thrust::device_ptr<const float> p(x);
  thrust::device_ptr<float> key(keys);
  thrust::device_ptr<uint32_t> ord(order), out(idx);
  thrust::transform(thrust::device, p, p + d, key, abs_of());
  thrust::sequence(thrust::device, ord, ord + d);
  thrust::stable_sort_by_key(thrust::device, key, key + d, ord, thrust::greater<float>());
  thrust::copy(thrust::device, ord, ord + k, out);
  thrust::sort(thrust::device, out, out + k);
  return cudaGetLastError() == cudaSuccess ? 0 : SA_ERUN;
}

int cb_topk(const cb_opts &o, md_data *d)
{
  size_t max = (size_t)o.max_elems;
  float *x = nullptr, *keys = nullptr;
  uint32_t *idx = nullptr, *scratch = nullptr;
  CB_CHECK(cudaSetDevice(0));
  CB_CHECK(cudaMalloc(&x, max * sizeof(float)));
  CB_CHECK(cudaMalloc(&keys, max * sizeof(float)));
  CB_CHECK(cudaMalloc(&idx, max * sizeof(uint32_t)));
  CB_CHECK(cudaMalloc(&scratch, max * sizeof(uint32_t)));
  /* gradient-like data: normal values, as the CPU kernels use */
  std::vector<float> host(max);
  std::mt19937 gen(12345);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (auto &v : host)
    v = normal(gen);
  CB_CHECK(cudaMemcpy(x, host.data(), max * sizeof(float), cudaMemcpyHostToDevice));
  int rc = 0;
  for (uint64_t n = o.min_elems; rc == 0 && n <= o.max_elems; n *= 4) {
    size_t k = (size_t)ceil(o.density * (double)n);
    double bytes = (double)n * sizeof(float);
    rc = cb_time(o, [&]() { return mstopk(x, (size_t)n, k, idx, scratch, 1); }, cb_point("mstopk", "fp32", bytes, (double)n),
                 d);
    if (rc == 0)
      rc = cb_time(o, [&]() { return topk_exact(x, (size_t)n, k, idx, keys, scratch); },
                   cb_point("topk_exact", "fp32", bytes, (double)n), d);
    /* the selection's k pairs into a buffer of n (keys: the values stand in for received
     * ones); bytes: a value and an index per pair */
    if (rc == 0)
      rc = cb_time(o, [&]() { return scatter_add(keys, x, idx, k); },
                   cb_point("scatter_add", "fp32", (double)k * (sizeof(float) + sizeof(uint32_t)), (double)k), d);
  }
  CB_CHECK(cudaFree(scratch));
  CB_CHECK(cudaFree(idx));
  CB_CHECK(cudaFree(keys));
  CB_CHECK(cudaFree(x));
  return rc;
}
