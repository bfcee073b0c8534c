/* kernels_cpu.h: timing the host implementations of the work the simulation charges as
 * compute: sums (fp32, fp16), copies, MSTopK, exact top-k and the scatter-add of received pairs. */
#ifndef MEASURE_KERNELS_CPU_H
#define MEASURE_KERNELS_CPU_H

#include <stdint.h>

#include "measured/measured.h"

typedef struct {
  uint64_t min_bytes, max_bytes; /* sum and memcpy buffers, x4 steps */
  uint64_t min_elems, max_elems; /* top-k inputs, x4 steps */
  double density;                /* k = density * d */
  int reps, min_reps;
  uint64_t budget;               /* bytes touched per size before repetitions are cut */
} meas_kernel_opts;

void meas_kernel_opts_default(meas_kernel_opts *o);

/* Appends every point to d. Returns 0, SA_ENOMEM, or SA_ERUN when a selection fails. */
int meas_kernels_cpu(const meas_kernel_opts *o, md_data *d);

#endif
