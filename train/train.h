/* train.h: a training step as data parallelism runs it (docs/training.md): a model's layers
 * in forward order, each with the bytes of its gradient and its forward and backward time
 * on one GPU; the gradients grouped into buckets as a framework groups them; each bucket's
 * allreduce started once its last gradient is ready and the one before it is done (one
 * stream, as NCCL serialises a stream's collectives), overlapping the rest of backprop. */
#ifndef TRAIN_TRAIN_H
#define TRAIN_TRAIN_H

#include <stddef.h>

typedef struct {
  char name[48];
  double params; /* elements of its gradient (0: none) */
  double flops;  /* its forward FLOPs per sample (the split of compute time) */
  double fwd_s, bwd_s; /* on one GPU, for the local batch */
} train_layer;

typedef struct {
  char name[64];
  train_layer *layers; /* forward order */
  int nlayers;
  int batch;           /* local batch: samples per GPU per iteration */
  int elem;            /* bytes per gradient element: 2 (fp16) or 4 (fp32) */
  double opt_s;        /* the optimizer's step after the last allreduce (LARS, SGD) */
  double single_sps;   /* one GPU's throughput, samples/s, when measured (0: from the times) */
  char source[1024];   /* where the layers, times and batch come from */
} train_workload;

/* A built-in workload by name (train_workload_names lists them): its layers from the
 * architecture's paper, its times from a published single-GPU throughput split by FLOPs.
 * batch 0: the workload's own. Returns 0, or SA_EINVAL with err. */
int train_workload_builtin(const char *name, int batch, train_workload *w, char *err, size_t errlen);
/* A workload from a JSON file (docs/training.md gives its form). 0, SA_EIO, SA_EPARSE or
 * SA_EINVAL with err. */
int train_workload_load(const char *path, train_workload *w, char *err, size_t errlen);
const char *train_workload_names(void);
void train_workload_free(train_workload *w);

/* One iteration's compute on one GPU: forward, backward, optimizer. */
double train_compute_s(const train_workload *w);

/* A bucket: the gradients of layers [first, last] (forward indices; backprop makes them
 * from last to first), bytes in all, ready when the last of them is (seconds from the start
 * of backprop). */
typedef struct {
  int first, last;
  double bytes;
  double ready_s;
} train_bucket;

/* Buckets as a framework makes them: "ddp" (PyTorch DDP: 25 MiB buckets in reverse layer
 * order, the first one 1 MiB), "horovod" (tensor fusion: every 5 ms cycle the gradients
 * ready fused into allreduces of at most 64 MiB), "whole" (one allreduce of every gradient
 * after backprop: no overlap), or a size ("16M": buckets of that many bytes in reverse
 * order). *out malloc'd; returns the count, or SA_EINVAL with err. */
int train_buckets(const train_workload *w, const char *scheme, train_bucket **out, char *err, size_t errlen);

/* The timeline of one iteration given each bucket's allreduce time ar_s[i]: bucket i starts
 * at max(its ready time, the end of bucket i-1); backprop ends at the sum of the backward
 * times; the step is forward + max(backprop's end, the last allreduce's end) + optimizer.
 * gpu_s (NULL: none) is the part of each allreduce that runs on the GPU itself, where
 * backprop runs (a top-k selection): done on the GPU as its bucket becomes ready, it delays
 * the rest of backprop and the buckets after it, and the allreduce's other part starts
 * after it. */
typedef struct {
  double iter_s;     /* one iteration */
  double compute_s;  /* forward + backward + optimizer, on one GPU */
  double comm_s;     /* every allreduce's time, summed */
  double exposed_s;  /* iter_s - compute_s: communication not hidden by backprop */
  double *start_s, *end_s; /* [bucket]: from the start of backprop (owned; may be NULL) */
} train_step;
int train_overlap(const train_workload *w, const train_bucket *b, int n, const double *ar_s, const double *gpu_s,
                  train_step *out);
void train_step_free(train_step *s);

#endif
