// cuda_nccl.cu: NCCL allreduce over every GPU of this node from one process (as nccl-tests'
// all_reduce_perf -g N does), out-of-place and in-place, sizes doubling like its -f 2; the
// points carry algbw and busbw with nccl-tests' definitions, so a measured GPU cluster
// lands directly in the measured-data schema.
#include <chrono>
#include <nccl.h>
#include <stdio.h>
#include <vector>

#include "cuda_bench.h"

#define NCCL_CHECK(call)                                                                    \
  do {                                                                                      \
    ncclResult_t r_ = (call);                                                               \
    if (r_ != ncclSuccess) {                                                                \
      fprintf(stderr, "simcalib_cuda: %s:%d: %s\n", __FILE__, __LINE__, ncclGetErrorString(r_)); \
      return SA_ERUN;                                                                      \
    }                                                                                       \
  } while (0)

struct nccl_run {
  int n;
  std::vector<ncclComm_t> comm;
  std::vector<cudaStream_t> stream;
  std::vector<float *> send, recv;
};

/* One batch of allreduces on every GPU, waited for; returns its wall time per allreduce. */
static int batch(nccl_run &r, size_t count, int inplace, int iters, double *seconds)
{
  auto t0 = std::chrono::steady_clock::now();
  for (int it = 0; it < iters; it++) {
    NCCL_CHECK(ncclGroupStart());
    for (int g = 0; g < r.n; g++)
      NCCL_CHECK(ncclAllReduce(r.send[g], inplace ? r.send[g] : r.recv[g], count, ncclFloat, ncclSum, r.comm[g],
                               r.stream[g]));
    NCCL_CHECK(ncclGroupEnd());
  }
  for (int g = 0; g < r.n; g++) {
    CB_CHECK(cudaSetDevice(g));
    CB_CHECK(cudaStreamSynchronize(r.stream[g]));
  }
  *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / iters;
  return 0;
}

static int sweep(const cb_opts &o, nccl_run &r, md_data *d)
{
  std::vector<double> samples((size_t)o.reps);
  for (uint64_t s = o.nccl_min; s <= o.nccl_max; s *= 2)
    for (int inplace = 0; inplace < 2; inplace++) {
      size_t count = (size_t)s / sizeof(float);
      double t;
      for (int w = 0; w < o.warmup; w++)
        if (batch(r, count, inplace, 1, &t) != 0)
          return SA_ERUN;
      for (int i = 0; i < o.reps; i++)
        if (batch(r, count, inplace, o.nccl_batch, &samples[(size_t)i]) != 0)
          return SA_ERUN;
      md_point p = md_point_blank("allreduce", "simcalib nccl");
      snprintf(p.device, sizeof p.device, "cuda");
      snprintf(p.dtype, sizeof p.dtype, "fp32");
      p.bytes = (double)count * sizeof(float);
      p.count = (double)count;
      p.ranks = r.n;
      p.inplace = inplace;
      cb_finish(&p, samples.data(), o.reps);
      if (md_data_add(d, &p) != 0)
        return SA_ENOMEM;
    }
  return 0;
}

int cb_nccl(const cb_opts &o, md_data *d)
{
  nccl_run r;
  CB_CHECK(cudaGetDeviceCount(&r.n));
  if (o.gpus > 0 && o.gpus < r.n)
    r.n = o.gpus;
  r.comm.resize((size_t)r.n);
  r.stream.resize((size_t)r.n);
  r.send.assign((size_t)r.n, nullptr);
  r.recv.assign((size_t)r.n, nullptr);
  std::vector<int> devs((size_t)r.n);
  for (int g = 0; g < r.n; g++) {
    devs[(size_t)g] = g;
    CB_CHECK(cudaSetDevice(g));
    CB_CHECK(cudaStreamCreate(&r.stream[(size_t)g]));
    CB_CHECK(cudaMalloc(&r.send[(size_t)g], o.nccl_max));
    CB_CHECK(cudaMalloc(&r.recv[(size_t)g], o.nccl_max));
    CB_CHECK(cudaMemset(r.send[(size_t)g], 0, o.nccl_max));
  }
  NCCL_CHECK(ncclCommInitAll(r.comm.data(), r.n, devs.data()));
  int rc = sweep(o, r, d);
  for (int g = 0; g < r.n; g++) {
    ncclCommDestroy(r.comm[(size_t)g]);
    CB_CHECK(cudaSetDevice(g));
    CB_CHECK(cudaFree(r.send[(size_t)g]));
    CB_CHECK(cudaFree(r.recv[(size_t)g]));
    CB_CHECK(cudaStreamDestroy(r.stream[(size_t)g]));
  }
  return rc;
}
