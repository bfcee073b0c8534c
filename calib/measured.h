/* measured.h: the one schema every measurement is written in (ping-pong, streaming
 * bandwidth, CPU and CUDA kernels, NCCL allreduce, imported nccl-tests and OSU logs), so that
 * the same file can feed `simcalib fit` and serve as a validation target. */
#ifndef CAL_MEASURED_H
#define CAL_MEASURED_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CAL_MEASURED_SCHEMA "simallreduce-measured-1"

/* One measured point. Strings are empty and numbers negative where they do not apply. */
typedef struct {
  char op[24];     /* pingpong, stream, allreduce, reduce, memcpy, mstopk, topk_exact, memcpy_h2d, ... */
  char path[8];    /* intra or inter for point-to-point ops */
  char device[8];  /* cpu or cuda for kernels */
  char dtype[8];   /* fp32, fp16, ... */
  char source[32]; /* who measured it: simcalib, nccl-tests, osu_latency, ... */
  double bytes;    /* message or buffer size, bytes */
  double count;    /* elements */
  int ranks;       /* processes taking part */
  int inplace;     /* nccl-tests: 1 in-place, 0 out-of-place */
  double time_s;   /* median time of one operation */
  double spread_s; /* interquartile range of the repetitions */
  double min_s, max_s;
  int reps;
  double algbw_GBps, busbw_GBps; /* nccl-tests definitions, GB = 1e9 bytes */
  long errors;                   /* nccl-tests #wrong */
} cal_point;

typedef struct {
  cal_point *p;
  size_t n, cap;
  char source[32];   /* what produced the file as a whole */
  char machine[128]; /* where it was measured, free text */
} cal_data;

/* A point with every optional field marked "not applicable". */
cal_point cal_point_blank(const char *op, const char *source);

/* Appends a copy of pt; returns 0 or SA_ENOMEM. */
int cal_data_add(cal_data *d, const cal_point *pt);
void cal_data_free(cal_data *d);

/* Fills algbw/busbw from bytes, time and ranks as nccl-tests defines them (busbw only for
 * allreduce: algbw * 2(n-1)/n; for point-to-point ops busbw = algbw). */
void cal_point_bandwidths(cal_point *pt);

/* Sets a point's time from n > 0 repeated timings (median, interquartile spread, min, max,
 * repetitions; sorts samples), then its bandwidths: bytes, count and ranks first. A median
 * of 0, a time below the clock's resolution, becomes 1 ns. */
void cal_point_summarize(cal_point *pt, double *samples, int n);

/* Writes d as JSON to path ("-" for stdout). Returns 0 or SA_EIO/SA_ENOMEM. */
int cal_data_write(const cal_data *d, const char *path);

/* Reads a file in this schema, appending its points to d. On error returns SA_EIO or
 * SA_EPARSE with err naming the problem. */
int cal_data_read(cal_data *d, const char *path, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
