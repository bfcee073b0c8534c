// cuda_proto.cu: what one channel of NCCL's ring moves with each of its protocols, as far as
// the GPU's own multiprocessors decide it. A channel here is a ring of R blocks, each on its
// own multiprocessor as NCCL's channels are, each step receiving a slot from the block before
// it through a FIFO of NCCL_STEPS slots, adding its own input and sending the sum on: the
// recvReduceSend at the heart of NCCL's ring allreduce. LL sends 16-byte lines of two 4-byte
// values and two flags, LL128 128-byte lines of 15 data words and a flag word, Simple bulk
// slots announced by a counter. The FIFOs are in this GPU's memory: what is measured is the
// multiprocessors' side of a channel (loads, stores, polls, barriers), not NVLink's.
//
// The geometry is NCCL's at v2.26.2-1 (src/include/device.h, collectives.h): NCCL_STEPS 8;
// LL 512 threads, 8 lines per thread per step; LL128 640 threads, 120 words per thread per
// step; Simple 512 threads, 4 MiB of buffer, a slice of ALLREDUCE_SLICESTEPS = 2 steps.
#include <stdio.h>
#include <string.h>
#include <vector>

#include "cuda_bench.h"

enum { PR_LL, PR_LL128, PR_SIMPLE, PR_N };

#define PR_STEPS 8                                     /* NCCL_STEPS */
#define LL_LINES (8 * 512)                             /* lines of one LL step */
#define LL_PAYLOAD (LL_LINES * 8)                      /* 8 data bytes a 16-byte line */
#define LL128_WORDS_PER_THREAD 120                     /* NCCL_LL128_ELEMS_PER_THREAD */
#define LL128_LINES (640 / 32 * 32 * LL128_WORDS_PER_THREAD / 16) /* 128-byte lines a step */
#define LL128_PAYLOAD (LL128_LINES * 120)
#define SIMPLE_SLOT (2 * ((4 << 20) / PR_STEPS))       /* one slice: 2 steps of a 4 MiB buffer */
/* Slots of a FIFO: a step each for LL and LL128, a slice of two for Simple (4 MiB in all) */
#define PR_DEPTH(p) ((p) == PR_SIMPLE ? PR_STEPS / 2 : PR_STEPS)
/* Dynamic shared memory that keeps a second block off a multiprocessor (228 KB each on
 * Hopper, 164 KB on Ampere: more than half of either), so that every block has its own. */
#define PR_SMEM (120 << 10)

/* What the host needs of each protocol: its points' names (a channel streaming, one step's
 * cost), threads a block, bytes of a slot and of the payload it holds, the steps a block runs
 * (several milliseconds of steady streaming), a step's size in the kernel's units (LL and
 * LL128 lines, Simple bytes) when full and the least it can be cut to (LL a line a thread,
 * LL128 four lines a warp per load in flight, Simple one pass of its unrolled loop). */
static const struct {
  const char *op, *step_op;
  int threads;
  size_t slot, payload;
  int steps;
  int unit_full, unit_min;
} pr_proto[PR_N] = {
    {"ring_ll", "step_ll", 512, (size_t)LL_LINES * 16, LL_PAYLOAD, 256, LL_LINES, 512},
    {"ring_ll128", "step_ll128", 640, (size_t)LL128_LINES * 128, LL128_PAYLOAD, 48, LL128_LINES, 20 * 4 * 4},
    {"ring_simple", "step_simple", 512, SIMPLE_SLOT, SIMPLE_SLOT, 32, SIMPLE_SLOT, 512 * 16 * 8},
};
/* Payload bytes of a step of `unit` units */
static size_t pr_unit_bytes(int p, int unit)
{
  return p == PR_LL ? (size_t)unit * 8 : p == PR_LL128 ? (size_t)unit * 120 : (size_t)unit;
}
#define PR_MAX_BLOCKS (8 * 16) /* the largest set of rings measured (8 x 16; 2 x 32 for pairs) */

/* One connection: the slots, the steps the sender has written (Simple's tail) and the steps
 * the receiver has finished with (the head every protocol's sender waits on). */
struct pr_conn {
  char *slots;
  unsigned long long *tail, *head;
};

__device__ static unsigned long long ld_vol(const unsigned long long *p)
{
  unsigned long long v;
  asm volatile("ld.volatile.global.u64 %0, [%1];" : "=l"(v) : "l"(p));
  return v;
}

__device__ static void st_vol(unsigned long long *p, unsigned long long v)
{
  asm volatile("st.volatile.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

/* The slot of step s is free once the receiver has finished step s - depth. */
__device__ static void wait_free(const pr_conn &out, int s, int depth)
{
  if (threadIdx.x == 0)
    while ((long long)ld_vol(out.head) < (long long)s - depth + 1)
      ;
  __syncthreads();
}

__device__ static void post_head(const pr_conn &in, int s)
{
  __syncthreads();
  if (threadIdx.x == 0)
    st_vol(in.head, (unsigned long long)s);
}

/* LL: value v of step s goes out as {v, s+1, v, s+1}: two floats and their flags. */
__device__ static void ll_step(const pr_conn &in, const pr_conn &out, const float *src, int s, int recv, int send,
                               int lines, unsigned long long *errors)
{
  uint4 *slot_in = (uint4 *)(in.slots + (size_t)((s - 1) % PR_STEPS) * LL_LINES * 16);
  uint4 *slot_out = (uint4 *)(out.slots + (size_t)(s % PR_STEPS) * LL_LINES * 16);
  const float2 *mine = (const float2 *)(src + (size_t)s * lines * 2);
  unsigned bad = 0;
  for (int l = threadIdx.x; l < lines; l += blockDim.x) {
    float2 v = send ? mine[l] : make_float2(0, 0);
    if (recv) {
      uint4 g;
      do
        asm volatile("ld.volatile.global.v4.u32 {%0,%1,%2,%3}, [%4];"
                     : "=r"(g.x), "=r"(g.y), "=r"(g.z), "=r"(g.w)
                     : "l"(slot_in + l));
      while (g.y != (unsigned)s || g.w != (unsigned)s);
      bad += __uint_as_float(g.x) != (float)s || __uint_as_float(g.z) != (float)s;
      v.x += __uint_as_float(g.x);
      v.y += __uint_as_float(g.z);
    }
    if (send)
      asm volatile("st.volatile.global.v4.u32 [%0], {%1,%2,%3,%4};" ::"l"(slot_out + l), "r"(__float_as_uint(v.x)),
                   "r"((unsigned)s + 1), "r"(__float_as_uint(v.y)), "r"((unsigned)s + 1)
                   : "memory");
  }
  if (bad)
    atomicAdd(errors, bad);
}

/* LL128: a warp writes four 128-byte lines at a time, 16 bytes a thread; the eighth thread
 * of each line carries one data word and the flag (NCCL relies on NVLink keeping a warp's
 * line whole; the errors counted say whether this GPU's own memory does). Each thread holds
 * NCCL_LL128_SHMEM_ELEMS_PER_THREAD = 8 words in flight, four loads of 16 bytes, as
 * prims_ll128.h's recvReduceSendCopy does. */
#define LL128_INFLIGHT 4
__device__ static void ll128_step(const pr_conn &in, const pr_conn &out, const float *src, int s, int recv, int send,
                                  int lines, unsigned long long *errors)
{
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, sub = lane % 8;
  const int lines_per_warp = lines / (blockDim.x / 32);
  ulonglong2 *slot_in = (ulonglong2 *)(in.slots + (size_t)((s - 1) % PR_STEPS) * LL128_LINES * 128);
  ulonglong2 *slot_out = (ulonglong2 *)(out.slots + (size_t)(s % PR_STEPS) * LL128_LINES * 128);
  const float2 *mine = (const float2 *)(src + (size_t)s * lines * 30);
  unsigned bad = 0;
  for (int i = 0; i < lines_per_warp; i += 4 * LL128_INFLIGHT) {
    float2 a[LL128_INFLIGHT], b[LL128_INFLIGHT];
    ulonglong2 g[LL128_INFLIGHT];
    int line[LL128_INFLIGHT];
#pragma unroll
    for (int k = 0; k < LL128_INFLIGHT; k++) {
      line[k] = warp * lines_per_warp + i + 4 * k + lane / 8;
      size_t word = (size_t)line[k] * 15 + (size_t)sub * 2; /* payload words before this thread's */
      a[k] = send ? mine[word] : make_float2(0, 0);
      b[k] = send && sub < 7 ? mine[word + 1] : make_float2(0, 0);
    }
    if (recv) {
      bool again;
      do {
        again = false;
#pragma unroll
        for (int k = 0; k < LL128_INFLIGHT; k++) {
          asm volatile("ld.volatile.global.v2.u64 {%0,%1}, [%2];"
                       : "=l"(g[k].x), "=l"(g[k].y)
                       : "l"(slot_in + line[k] * 8 + sub));
          again |= sub == 7 && g[k].y != (unsigned long long)s;
        }
      } while (__any_sync(0xffffffffu, again));
#pragma unroll
      for (int k = 0; k < LL128_INFLIGHT; k++) {
        float2 ga, gb;
        memcpy(&ga, &g[k].x, 8);
        memcpy(&gb, &g[k].y, 8);
        bad += ga.x != (float)s || ga.y != (float)s || (sub < 7 && (gb.x != (float)s || gb.y != (float)s));
        a[k].x += ga.x, a[k].y += ga.y, b[k].x += gb.x, b[k].y += gb.y;
      }
    }
    if (send)
#pragma unroll
      for (int k = 0; k < LL128_INFLIGHT; k++) {
        unsigned long long x, y;
        memcpy(&x, &a[k], 8);
        memcpy(&y, &b[k], 8);
        if (sub == 7)
          y = (unsigned long long)s + 1;
        asm volatile("st.volatile.global.v2.u64 [%0], {%1,%2};" ::"l"(slot_out + line[k] * 8 + sub), "l"(x), "l"(y)
                     : "memory");
      }
  }
  if (bad)
    atomicAdd(errors, bad);
}

/* Simple: the slice is read and written with plain 16-byte accesses, eight in flight a
 * thread (ncclCollUnroll at v2.26.2-1: 8 from sm_80 on); the sender's tail, stored after a
 * fence, says it is whole. */
#define SIMPLE_UNROLL 8
__device__ static void simple_step(const pr_conn &in, const pr_conn &out, const float *src, int s, int recv,
                                   int send, int bytes, unsigned long long *errors)
{
  if (recv) {
    if (threadIdx.x == 0)
      while ((long long)ld_vol(in.tail) < (long long)s)
        ;
    __syncthreads();
  }
  const float4 *slot_in = (const float4 *)(in.slots + (size_t)((s - 1) % PR_DEPTH(PR_SIMPLE)) * SIMPLE_SLOT);
  float4 *slot_out = (float4 *)(out.slots + (size_t)(s % PR_DEPTH(PR_SIMPLE)) * SIMPLE_SLOT);
  const float4 *mine = (const float4 *)(src + (size_t)s * (bytes / 4));
  unsigned bad = 0;
  for (int i = threadIdx.x; i < bytes / 16; i += blockDim.x * SIMPLE_UNROLL) {
    float4 v[SIMPLE_UNROLL], g[SIMPLE_UNROLL];
#pragma unroll
    for (int k = 0; k < SIMPLE_UNROLL; k++) {
      v[k] = send ? mine[i + k * blockDim.x] : make_float4(0, 0, 0, 0);
      if (recv)
        g[k] = slot_in[i + k * blockDim.x];
    }
#pragma unroll
    for (int k = 0; k < SIMPLE_UNROLL; k++) {
      if (recv) {
        bad += g[k].x != (float)s || g[k].w != (float)s;
        v[k].x += g[k].x, v[k].y += g[k].y, v[k].z += g[k].z, v[k].w += g[k].w;
      }
      if (send)
        slot_out[i + k * blockDim.x] = v[k];
    }
  }
  if (bad)
    atomicAdd(errors, bad);
  if (send) {
    __syncthreads();
    if (threadIdx.x == 0) {
      __threadfence();
      st_vol(out.tail, (unsigned long long)s + 1);
    }
  }
}

/* Block b is rank b % R of channel b / R. Step 0 sends its input, steps 1..S-1 receive,
 * add and send, step S only receives: every value sent at step s is s + 1 (the inputs are
 * ones), which each receiver checks. */
/* NCCL's kernels are built for their largest block (NCCL_MAX_NTHREADS 640), one a
 * multiprocessor: registers to match, or LL128's 640 threads would not fit */
__global__ static void __launch_bounds__(640, 1) pr_ring(int proto, int ranks, int steps, int unit, pr_conn *conns,
                                                        const float *src, size_t src_per_block,
                                                        unsigned long long *errors)
{
  extern __shared__ char keep_others_off[];
  (void)keep_others_off;
  const int c = blockIdx.x / ranks, r = blockIdx.x % ranks;
  const pr_conn in = conns[c * ranks + r], out = conns[c * ranks + (r + 1) % ranks];
  const float *mine = src + (size_t)blockIdx.x * src_per_block;
  for (int s = 0; s <= steps; s++) {
    int recv = s > 0, send = s < steps;
    if (send)
      wait_free(out, s, PR_DEPTH(proto));
    if (proto == PR_LL)
      ll_step(in, out, mine, s, recv, send, unit, errors);
    else if (proto == PR_LL128)
      ll128_step(in, out, mine, s, recv, send, unit, errors);
    else
      simple_step(in, out, mine, s, recv, send, unit, errors);
    if (recv)
      post_head(in, s);
  }
}

__global__ static void pr_fill(float *p, size_t n, float v)
{
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    p[i] = v;
}

/* Times o.reps runs (after o.warmup) of one ring: every FIFO emptied and every flag unseen
 * before each, outside the timed kernel; the errors of all runs go into p. */
static int time_ring(const cb_opts &o, int p, int ranks, int nch, int steps, int unit, pr_conn *conns, char *slots,
                     unsigned long long *counters, float *src, unsigned long long *errors, md_point *pt)
{
  int blocks = ranks * nch;
  size_t src_per_block = pr_unit_bytes(p, unit) * (size_t)steps / sizeof(float);
  cudaEvent_t start, stop;
  CB_CHECK(cudaEventCreate(&start));
  CB_CHECK(cudaEventCreate(&stop));
  std::vector<double> samples((size_t)o.reps);
  long bad = 0;
  for (int r = -o.warmup; r < o.reps; r++) {
    CB_CHECK(cudaMemset(slots, 0, pr_proto[p].slot * PR_DEPTH(p) * blocks));
    CB_CHECK(cudaMemset(counters, 0, sizeof *counters * 2 * blocks));
    CB_CHECK(cudaMemset(errors, 0, sizeof *errors));
    int proto = p;
    void *args[] = {&proto, &ranks, &steps, &unit, &conns, &src, &src_per_block, &errors};
    CB_CHECK(cudaEventRecord(start));
    CB_CHECK(cudaLaunchCooperativeKernel((void *)pr_ring, blocks, pr_proto[p].threads, args, PR_SMEM));
    CB_CHECK(cudaEventRecord(stop));
    CB_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CB_CHECK(cudaEventElapsedTime(&ms, start, stop));
    unsigned long long e = 0;
    CB_CHECK(cudaMemcpy(&e, errors, sizeof e, cudaMemcpyDeviceToHost));
    bad += (long)e;
    if (r >= 0)
      samples[(size_t)r] = ms * 1e-3;
  }
  CB_CHECK(cudaEventDestroy(start));
  CB_CHECK(cudaEventDestroy(stop));
  cb_finish(pt, samples.data(), o.reps);
  pt->errors = bad;
  return 0;
}

int cb_protocols(const cb_opts &o, md_data *d)
{
  static const int ranks_of[] = {2, 8}, channels_of[] = {1, 2, 4, 8, 16, 32};
  CB_CHECK(cudaSetDevice(0));
  cudaDeviceProp prop;
  CB_CHECK(cudaGetDeviceProperties(&prop, 0));
  if (!prop.cooperativeLaunch) {
    fprintf(stderr, "simcalib_cuda: this GPU cannot launch cooperative kernels; protocols not measured\n");
    return 0;
  }
  CB_CHECK(cudaFuncSetAttribute(pr_ring, cudaFuncAttributeMaxDynamicSharedMemorySize, PR_SMEM));
  size_t slots_max = 0, src_max = 0;
  for (int p = 0; p < PR_N; p++) {
    slots_max = pr_proto[p].slot * PR_DEPTH(p) > slots_max ? pr_proto[p].slot * PR_DEPTH(p) : slots_max;
    size_t s = pr_proto[p].payload * (size_t)pr_proto[p].steps;
    src_max = s > src_max ? s : src_max;
  }
  char *slots = nullptr;
  float *src = nullptr;
  unsigned long long *counters = nullptr, *errors = nullptr;
  pr_conn *conns = nullptr;
  CB_CHECK(cudaMalloc(&slots, slots_max * PR_MAX_BLOCKS));
  CB_CHECK(cudaMalloc(&src, src_max * PR_MAX_BLOCKS));
  CB_CHECK(cudaMalloc(&counters, sizeof *counters * 2 * PR_MAX_BLOCKS));
  CB_CHECK(cudaMalloc(&errors, sizeof *errors));
  CB_CHECK(cudaMalloc(&conns, sizeof *conns * PR_MAX_BLOCKS));
  pr_fill<<<1024, 256>>>(src, src_max * PR_MAX_BLOCKS / sizeof(float), 1.0f);
  CB_CHECK(cudaGetLastError());
  int rc = 0;
  for (int p = 0; p < PR_N && rc == 0; p++) {
    pr_conn host[PR_MAX_BLOCKS];
    for (int i = 0; i < PR_MAX_BLOCKS; i++)
      host[i] = pr_conn{slots + (size_t)i * pr_proto[p].slot * PR_DEPTH(p), counters + 2 * i, counters + 2 * i + 1};
    CB_CHECK(cudaMemcpy(conns, host, sizeof host, cudaMemcpyHostToDevice));
    for (int ri = 0; ri < 2 && rc == 0; ri++)
      for (int ci = 0; ci < 6 && rc == 0; ci++) {
        int ranks = ranks_of[ri], nch = channels_of[ci], blocks = ranks * nch, steps = pr_proto[p].steps;
        int per_sm = 0;
        CB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, pr_ring, pr_proto[p].threads, PR_SMEM));
        if (blocks > PR_MAX_BLOCKS || blocks > per_sm * prop.multiProcessorCount) {
          fprintf(stderr, "simcalib_cuda: %s: %d rings of %d blocks do not fit on this GPU at once; not measured\n",
                  pr_proto[p].op, nch, ranks);
          continue;
        }
        md_point pt = cb_point(pr_proto[p].op, "fp32", (double)pr_proto[p].payload * steps, nch);
        pt.ranks = ranks;
        rc = time_ring(o, p, ranks, nch, steps, pr_proto[p].unit_full, conns, slots, counters, src, errors, &pt);
        if (rc == 0)
          rc = md_data_add(d, &pt);
      }
    /* A step's own cost: one channel moving the same payload in steps of a full one, about a
     * half, a quarter ... down to the least step, so that time = steps x (a step's fixed cost)
     * + bytes / rate separates the two. Each step waits on the step its neighbour finished
     * just before (recvReduceSend), so a step's fixed cost is one hop of the pipeline as the
     * multiprocessors see it: the flag or counter written, fenced, seen by the poller. */
    int most = pr_proto[p].unit_full / pr_proto[p].unit_min; /* least steps in a full one */
    for (int ri = 0; ri < 2 && rc == 0; ri++)
      for (int div = 1; most / (div / 2 ? div / 2 : 1) > 1 && rc == 0; div *= 2) {
        int unit = (most / div > 1 ? most / div : 1) * pr_proto[p].unit_min;
        int steps = (int)((size_t)pr_proto[p].steps * pr_proto[p].unit_full / (size_t)unit);
        md_point pt = cb_point(pr_proto[p].step_op, "fp32", (double)pr_unit_bytes(p, unit), steps);
        pt.ranks = ranks_of[ri];
        rc = time_ring(o, p, ranks_of[ri], 1, steps, unit, conns, slots, counters, src, errors, &pt);
        if (rc == 0)
          rc = md_data_add(d, &pt);
      }
  }
  CB_CHECK(cudaFree(conns));
  CB_CHECK(cudaFree(errors));
  CB_CHECK(cudaFree(counters));
  CB_CHECK(cudaFree(src));
  CB_CHECK(cudaFree(slots));
  return rc;
}
