/* cuda_bench.h: the CUDA calibration benchmarks (copies, sum, MSTopK, exact top-k, NCCL's
 * protocols on one channel, multicast through the NVSwitch, NCCL allreduce) and what they
 * share: options, timing with CUDA events, error checks. */
#ifndef MEASURE_CUDA_CUDA_BENCH_H
#define MEASURE_CUDA_CUDA_BENCH_H

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "measured/measured.h"

struct cb_opts {
  uint64_t min_bytes, max_bytes; /* copies and sums, x4 steps */
  uint64_t min_elems, max_elems; /* selections, x4 steps */
  uint64_t nccl_min, nccl_max;   /* allreduce sweep, x2 steps */
  double density;                /* k = density * d */
  int reps, warmup, nccl_batch, gpus;
  int nccl;                      /* run the NCCL sweep */
  int kernels;                   /* run the copies, sums and selections */
  int protocols;                 /* run the protocols' rings */
  int nvls;                      /* run the multicast (NVLS) loads and stores */
  const char *out;
};

/* Evaluates a CUDA runtime call; on failure prints where and returns SA_ERUN from the
 * calling function (every benchmark returns int). */
#define CB_CHECK(call)                                                                      \
  do {                                                                                      \
    cudaError_t e_ = (call);                                                                \
    if (e_ != cudaSuccess) {                                                                \
      fprintf(stderr, "simcalib_cuda: %s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      return SA_ERUN;                                                                      \
    }                                                                                       \
  } while (0)

/* Times op() on the current device: warm-up runs, then reps samples of one run each, taken
 * between two CUDA events on the default stream; appends the point. */
template <typename Op>
int cb_time(const cb_opts &o, Op op, md_point p, md_data *d);

/* Each appends its points to d; 0 or a negative CAL_E* code. */
int cb_copies(const cb_opts &o, md_data *d);
int cb_reduce(const cb_opts &o, md_data *d);
int cb_topk(const cb_opts &o, md_data *d);
int cb_nccl(const cb_opts &o, md_data *d);
/* One channel of NCCL's ring per protocol on this GPU's multiprocessors (cuda_proto.cu):
 * points ring_ll, ring_ll128, ring_simple with bytes the payload each block sends, ranks the
 * blocks of a ring and count the rings (channels) running at once; points step_ll,
 * step_ll128, step_simple, one ring alone, with bytes the payload of one step, count the
 * steps each block runs and ranks the blocks of the ring. */
int cb_protocols(const cb_opts &o, md_data *d);
/* What w warps of one block move through the NVSwitch's multicast address (cuda_nvls.cu):
 * points nvls_ld_reduce, nvls_st and, through the plain mapping of the same memory, uc_ld
 * and uc_st, with bytes what each block moves, count the blocks at once and ranks the warps
 * of a block; nothing where the GPU offers no multicast. */
int cb_nvls(const cb_opts &o, md_data *d);

/* A point of this device benchmark with its fixed fields set. */
md_point cb_point(const char *op, const char *dtype, double bytes, double count);

/* Median etc. of samples into p (time in seconds), then algbw/busbw. */
void cb_finish(md_point *p, double *samples, int n);

#include "cuda_time.h"

#endif
