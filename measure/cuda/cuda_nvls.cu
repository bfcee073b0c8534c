// cuda_nvls.cu: what a few warps of one multiprocessor move through the NVSwitch's multicast
// address, as NCCL's NVLS stages move it: multimem.ld_reduce (the switch fetches the line from
// every GPU of the group and returns the sum) and multimem.st (the switch writes it into every
// GPU), 16 bytes a thread per instruction, 4 in flight (src/device/reduce_kernel.h and
// common_kernel.h, ncclNvlsUnrollBytes = 64 at v2.26.2-1). NCCL runs each NVLS tree stage on a
// fixed group of a channel's warps (all_reduce.h: scatter 6, reduce 5, broadcast 4, gather 5
// of 20): a stage's rate is what its warps keep in flight over the switch's round trip, which
// one GPU can measure, in a multicast group of itself. The same kernels through the plain
// (unicast) mapping of the same memory are the reference. Needs a GPU whose driver and fabric
// offer multicast (CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED: Hopper and later on NVSwitch);
// elsewhere it says so and measures nothing.
#include <cuda.h>
#include <stdio.h>

#include "cuda_bench.h"

#define NV_UNROLL 4           /* 16-byte packs in flight a thread (ncclNvlsUnrollBytes / 16) */
#define NV_REGION (16u << 20) /* bytes each block moves per pass */
#define NV_MAX_BLOCKS 32

/* The driver's calls this file makes, looked up at run time through the runtime (the binary
 * links no libcuda: it must start, for --help and bad options, where no driver is). */
struct nv_driver {
  decltype(&cuGetErrorString) error_string;
  decltype(&cuDeviceGet) device_get;
  decltype(&cuDeviceGetAttribute) device_attribute;
  decltype(&cuMulticastGetGranularity) mc_granularity;
  decltype(&cuMulticastCreate) mc_create;
  decltype(&cuMulticastAddDevice) mc_add_device;
  decltype(&cuMulticastBindMem) mc_bind_mem;
  decltype(&cuMemCreate) mem_create;
  decltype(&cuMemAddressReserve) address_reserve;
  decltype(&cuMemMap) mem_map;
  decltype(&cuMemSetAccess) set_access;
};

/* Multicast came with CUDA 12.1: the calls as that version of the driver's API has them. */
#define NV_DRIVER_API 12010

template <typename F> static int nv_sym(const char *name, F *fn)
{
  cudaDriverEntryPointQueryResult q;
  if (cudaGetDriverEntryPointByVersion(name, (void **)fn, NV_DRIVER_API, cudaEnableDefault, &q) == cudaSuccess &&
      q == cudaDriverEntryPointSuccess)
    return 0;
  fprintf(stderr, "simcalib_cuda: the driver has no %s: NVLS not measured\n", name);
  return 1;
}

static int nv_load(nv_driver *x)
{
  return nv_sym("cuGetErrorString", &x->error_string) || nv_sym("cuDeviceGet", &x->device_get) ||
         nv_sym("cuDeviceGetAttribute", &x->device_attribute) ||
         nv_sym("cuMulticastGetGranularity", &x->mc_granularity) || nv_sym("cuMulticastCreate", &x->mc_create) ||
         nv_sym("cuMulticastAddDevice", &x->mc_add_device) || nv_sym("cuMulticastBindMem", &x->mc_bind_mem) ||
         nv_sym("cuMemCreate", &x->mem_create) || nv_sym("cuMemAddressReserve", &x->address_reserve) ||
         nv_sym("cuMemMap", &x->mem_map) || nv_sym("cuMemSetAccess", &x->set_access);
}

/* Evaluates a driver call through dr; on failure says which and returns SA_ERUN. */
#define NV_CHECK(call)                                                                           \
  do {                                                                                           \
    CUresult e_ = (call);                                                                        \
    if (e_ != CUDA_SUCCESS) {                                                                    \
      const char *s_ = nullptr;                                                                  \
      dr.error_string(e_, &s_);                                                                  \
      fprintf(stderr, "simcalib_cuda: %s:%d: %s\n", __FILE__, __LINE__, s_ ? s_ : "CUDA error"); \
      return SA_ERUN;                                                                            \
    }                                                                                            \
  } while (0)

enum { NV_LD_REDUCE, NV_ST, NV_UC_LD, NV_UC_ST, NV_N };
static const char *const nv_op[NV_N] = {"nvls_ld_reduce", "nvls_st", "uc_ld", "uc_st"};

/* Block b reads (ld) or writes (st) its region of `mem` in passes of 16-byte packs, each
 * thread NV_UNROLL at a time; what it read is added into out (so that no load is dead) and
 * checked against the value every pack holds (1.0f: the group's sum of one GPU). */
__global__ void nv_kernel(int kind, float4 *mem, float4 *out, size_t packs, int passes, unsigned long long *errors)
{
  float4 *base = mem + (size_t)blockIdx.x * packs;
  float acc = 0;
  unsigned bad = 0;
  const size_t step = (size_t)blockDim.x * NV_UNROLL;
  for (int pass = 0; pass < passes; pass++)
    for (size_t i = threadIdx.x; i < packs; i += step) {
      float4 v[NV_UNROLL];
#pragma unroll
      for (int u = 0; u < NV_UNROLL; u++) {
        size_t at = i + (size_t)u * blockDim.x;
        if (at >= packs)
          continue;
#if __CUDA_ARCH__ >= 900 /* multimem: Hopper on */
        if (kind == NV_LD_REDUCE)
          asm volatile("multimem.ld_reduce.relaxed.sys.global.add.v4.f32 {%0,%1,%2,%3}, [%4];"
                       : "=f"(v[u].x), "=f"(v[u].y), "=f"(v[u].z), "=f"(v[u].w)
                       : "l"(base + at)
                       : "memory");
        else if (kind == NV_ST)
          asm volatile("multimem.st.relaxed.sys.global.v4.f32 [%0], {%1,%2,%3,%4};" ::"l"(base + at), "f"(1.0f),
                       "f"(1.0f), "f"(1.0f), "f"(1.0f)
                       : "memory");
        else
#endif
            if (kind == NV_UC_LD)
          asm volatile("ld.relaxed.sys.global.v4.f32 {%0,%1,%2,%3}, [%4];"
                       : "=f"(v[u].x), "=f"(v[u].y), "=f"(v[u].z), "=f"(v[u].w)
                       : "l"(base + at)
                       : "memory");
        else
          asm volatile("st.relaxed.sys.global.v4.f32 [%0], {%1,%2,%3,%4};" ::"l"(base + at), "f"(1.0f), "f"(1.0f),
                       "f"(1.0f), "f"(1.0f)
                       : "memory");
      }
      if (kind == NV_LD_REDUCE || kind == NV_UC_LD)
#pragma unroll
        for (int u = 0; u < NV_UNROLL; u++)
          if (i + (size_t)u * blockDim.x < packs) {
            bad += v[u].x != 1.0f || v[u].y != 1.0f || v[u].z != 1.0f || v[u].w != 1.0f;
            acc += v[u].x;
          }
    }
  out[(size_t)blockIdx.x * blockDim.x + threadIdx.x].x = acc;
  if (bad)
    atomicAdd(errors, bad);
}

__global__ void nv_fill(float4 *mem, size_t n, float v)
{
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    mem[i] = make_float4(v, v, v, v);
}

/* One multicast group of this GPU alone over `size` bytes: *uc its plain mapping, *mc the
 * multicast one. Returns 0, SA_ERUN, or 1 when the GPU offers no multicast (said on stderr). */
static int nv_group(const nv_driver &dr, size_t *size, CUdeviceptr *uc, CUdeviceptr *mc)
{
  CUdevice dev;
  int supported = 0;
  NV_CHECK(dr.device_get(&dev, 0));
  NV_CHECK(dr.device_attribute(&supported, CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED, dev));
  if (!supported) {
    fprintf(stderr, "simcalib_cuda: this GPU offers no multicast (no NVSwitch, or its fabric manager): NVLS not "
                    "measured\n");
    return 1;
  }
  CUmulticastObjectProp mp = {};
  mp.numDevices = 1;
  mp.size = *size;
  mp.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  size_t gran = 0;
  NV_CHECK(dr.mc_granularity(&gran, &mp, CU_MULTICAST_GRANULARITY_RECOMMENDED));
  *size = (*size + gran - 1) / gran * gran;
  mp.size = *size;
  CUmemGenericAllocationHandle mch, memh;
  NV_CHECK(dr.mc_create(&mch, &mp));
  NV_CHECK(dr.mc_add_device(mch, dev));
  CUmemAllocationProp ap = {};
  ap.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  ap.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  ap.location.id = 0;
  ap.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  NV_CHECK(dr.mem_create(&memh, *size, &ap, 0));
  NV_CHECK(dr.mc_bind_mem(mch, 0, memh, 0, *size, 0));
  CUmemAccessDesc ad = {};
  ad.location = ap.location;
  ad.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  NV_CHECK(dr.address_reserve(uc, *size, gran, 0, 0));
  NV_CHECK(dr.mem_map(*uc, *size, 0, memh, 0));
  NV_CHECK(dr.set_access(*uc, *size, &ad, 1));
  NV_CHECK(dr.address_reserve(mc, *size, gran, 0, 0));
  NV_CHECK(dr.mem_map(*mc, *size, 0, mch, 0));
  NV_CHECK(dr.set_access(*mc, *size, &ad, 1));
  return 0;
}

int cb_nvls(const cb_opts &o, md_data *d)
{
  static const int warps_of[] = {1, 2, 4, 5, 6, 8, 16}, blocks_of[] = {1, 16, 32};
  CB_CHECK(cudaSetDevice(0));
  CB_CHECK(cudaFree(0)); /* the runtime's context, current for the driver calls */
  cudaFuncAttributes fa;
  CB_CHECK(cudaFuncGetAttributes(&fa, nv_kernel));
  if (fa.ptxVersion < 90 || fa.binaryVersion < 90) { /* JIT from older PTX has no multimem either */
    fprintf(stderr, "simcalib_cuda: built without Hopper code (make cuda NVCCFLAGS+=-arch=sm_90): NVLS not measured\n");
    return 0;
  }
  nv_driver dr;
  if (nv_load(&dr))
    return 0;
  size_t size = (size_t)NV_REGION * NV_MAX_BLOCKS;
  CUdeviceptr uc = 0, mc = 0;
  int rc = nv_group(dr, &size, &uc, &mc);
  if (rc != 0)
    return rc == 1 ? 0 : rc;
  float4 *out = nullptr;
  unsigned long long *errors = nullptr;
  CB_CHECK(cudaMalloc(&out, sizeof *out * NV_MAX_BLOCKS * 1024));
  CB_CHECK(cudaMalloc(&errors, sizeof *errors));
  nv_fill<<<1024, 256>>>((float4 *)uc, size / sizeof(float4), 1.0f);
  CB_CHECK(cudaGetLastError());
  CB_CHECK(cudaDeviceSynchronize());
  for (int k = 0; k < NV_N && rc == 0; k++)
    for (int bi = 0; bi < 3 && rc == 0; bi++)
      for (int wi = 0; wi < 7 && rc == 0; wi++) {
        int blocks = blocks_of[bi], warps = warps_of[wi];
        size_t packs = NV_REGION / sizeof(float4);
        float4 *mem = (float4 *)(k == NV_LD_REDUCE || k == NV_ST ? mc : uc);
        CB_CHECK(cudaMemset(errors, 0, sizeof *errors));
        md_point pt = cb_point(nv_op[k], "fp32", (double)NV_REGION, blocks);
        pt.ranks = warps;
        rc = cb_time(
            o,
            [&]() {
              nv_kernel<<<blocks, warps * 32>>>(k, mem, out, packs, 1, errors);
              return cudaGetLastError() == cudaSuccess ? 0 : SA_ERUN;
            },
            pt, d);
        unsigned long long bad = 0;
        CB_CHECK(cudaMemcpy(&bad, errors, sizeof bad, cudaMemcpyDeviceToHost));
        if (rc == 0 && d->n > 0)
          d->p[d->n - 1].errors = (long)bad;
        if (rc == 0 && (k == NV_ST || k == NV_UC_ST)) { /* what was stored reads back as 1.0f */
          nv_kernel<<<blocks, 256>>>(NV_UC_LD, (float4 *)uc, out, packs, 1, errors);
          CB_CHECK(cudaMemcpy(&bad, errors, sizeof bad, cudaMemcpyDeviceToHost));
          d->p[d->n - 1].errors = (long)bad;
        }
      }
  CB_CHECK(cudaFree(errors));
  CB_CHECK(cudaFree(out));
  return rc;
}
