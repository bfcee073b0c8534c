// cuda_copy.cu: cudaMemcpy bandwidth device to device, host to device and back (pinned host
// memory, as NCCL and frameworks use), and peer to peer between GPUs 0 and 1.
#include <stdio.h>

#include "cuda_bench.h"

static int peer_copies(const cb_opts &o, md_data *d, void *src)
{
  int n = 0, can = 0;
  CB_CHECK(cudaGetDeviceCount(&n));
  if (n < 2)
    return 0;
  CB_CHECK(cudaDeviceCanAccessPeer(&can, 0, 1));
  if (!can) {
    fprintf(stderr, "simcalib_cuda: GPUs 0 and 1 cannot access each other: no peer-to-peer points\n");
    return 0;
  }
  void *dst = nullptr;
  CB_CHECK(cudaSetDevice(1));
  CB_CHECK(cudaMalloc(&dst, o.max_bytes));
  CB_CHECK(cudaSetDevice(0));
  cudaError_t e = cudaDeviceEnablePeerAccess(1, 0);
  if (e != cudaSuccess && e != cudaErrorPeerAccessAlreadyEnabled)
    CB_CHECK(e);
  int rc = 0;
  for (uint64_t s = o.min_bytes; rc == 0 && s <= o.max_bytes; s *= 4)
    rc = cb_time(
        o, [&]() { return cudaMemcpyPeer(dst, 1, src, 0, s) == cudaSuccess ? 0 : SA_ERUN; },
        cb_point("memcpy_p2p", nullptr, (double)s, (double)s), d);
  CB_CHECK(cudaFree(dst));
  return rc;
}

int cb_copies(const cb_opts &o, md_data *d)
{
  void *a = nullptr, *b = nullptr, *host = nullptr;
  CB_CHECK(cudaSetDevice(0));
  CB_CHECK(cudaMalloc(&a, o.max_bytes));
  CB_CHECK(cudaMalloc(&b, o.max_bytes));
  CB_CHECK(cudaMallocHost(&host, o.max_bytes));
  CB_CHECK(cudaMemset(a, 0, o.max_bytes));
  int rc = 0;
  for (uint64_t s = o.min_bytes; rc == 0 && s <= o.max_bytes; s *= 4) {
    struct {
      const char *op;
      void *dst;
      const void *src;
      cudaMemcpyKind kind;
    } copies[] = {{"memcpy", b, a, cudaMemcpyDeviceToDevice},
                  {"memcpy_h2d", a, host, cudaMemcpyHostToDevice},
                  {"memcpy_d2h", host, a, cudaMemcpyDeviceToHost}};
    for (auto &c : copies)
      if (rc == 0)
        rc = cb_time(
            o, [&]() { return cudaMemcpy(c.dst, c.src, s, c.kind) == cudaSuccess ? 0 : SA_ERUN; },
            cb_point(c.op, nullptr, (double)s, (double)s), d);
  }
  if (rc == 0)
    rc = peer_copies(o, d, a);
  CB_CHECK(cudaFreeHost(host));
  CB_CHECK(cudaFree(b));
  CB_CHECK(cudaFree(a));
  return rc;
}
