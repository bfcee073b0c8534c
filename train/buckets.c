/* buckets.c: the gradients grouped as frameworks group them (train.h). Backprop makes the
 * gradients from the last layer to the first: a layer's is ready when its backward ends, the
 * backward times summed from the last layer. Layers without parameters make no gradient. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"
#include "util/sizes.h"
#include "train.h"

#define MIB (1024.0 * 1024.0)
/* PyTorch v2.5.0, torch/csrc/distributed/c10d/reducer.hpp: kDefaultFirstBucketBytes =
 * 1024 * 1024, kDefaultBucketBytesCap = 25 * 1024 * 1024 (distributed.py: bucket_cap_mb
 * defaults to 25, the first bucket dist._DEFAULT_FIRST_BUCKET_BYTES) */
#define DDP_FIRST_CAP (1 * MIB)
#define DDP_CAP (25 * MIB)
/* Horovod v0.19.1 (the version Shi et al. 2021 §5.1 ran), horovod/common/operations.cc:408
 * SetTensorFusionThresholdBytes(64 * 1024 * 1024), :416 SetCycleTimeMs(5) */
#define HVD_FUSION (64 * MIB)
#define HVD_CYCLE_S 0.005

typedef struct {
  train_bucket *b;
  int n;
} bucket_list;

static int push(bucket_list *l, int first, int last, double bytes, double ready_s)
{
  train_bucket *b = realloc(l->b, sizeof *b * (size_t)(l->n + 1));
  if (!b)
    return SA_ENOMEM;
  l->b = b;
  b[l->n++] = (train_bucket){.first = first, .last = last, .bytes = bytes, .ready_s = ready_s};
  return 0;
}

/* ready[i]: when layer i's gradient is ready, from the start of backprop */
static double *ready_times(const train_workload *w)
{
  double *r = malloc(sizeof *r * (size_t)(w->nlayers > 0 ? w->nlayers : 1));
  double t = 0;
  for (int i = w->nlayers - 1; r && i >= 0; i--)
    r[i] = t += w->layers[i].bwd_s;
  return r;
}

/* In reverse layer order, a bucket closes once it reaches its cap (cap_first for the first
 * one, cap after). at_most: close before a layer that would take it past the cap (a layer
 * larger than the cap goes alone); otherwise close with the layer that reaches or passes it,
 * as PyTorch's compute_bucket_assignment_by_size does (reducer.cpp: `bucket.size >=
 * bucket_size_limit` after adding the tensor), its buckets rebuilt after the first iteration
 * in the order the gradients came (Reducer::rebuild_buckets). Each is ready with its earliest
 * layer's gradient, the last of its gradients to come. */
static int by_size(const train_workload *w, const double *ready, double cap_first, double cap, int at_most,
                   bucket_list *l)
{
  double bytes = 0, limit = cap_first;
  int last = -1, first = -1;
  for (int i = w->nlayers - 1; i >= 0; i--) {
    double g = w->layers[i].params * w->elem;
    if (g <= 0)
      continue;
    if (at_most && last >= 0 && bytes + g > limit) {
      if (push(l, first, last, bytes, ready[first]))
        return SA_ENOMEM;
      bytes = 0, last = -1, limit = cap;
    }
    if (last < 0)
      last = i;
    first = i;
    bytes += g;
    if (bytes >= limit) {
      if (push(l, first, last, bytes, ready[first]))
        return SA_ENOMEM;
      bytes = 0, last = -1, limit = cap;
    }
  }
  return last >= 0 ? push(l, first, last, bytes, ready[first]) : 0;
}

/* Horovod's tensor fusion: at each cycle's tick (cycle, 2 cycle, ... from the start of
 * backprop) the gradients ready and not yet sent, in the order they came, are fused into
 * allreduces of at most the fusion threshold (one larger goes alone), ready at the tick. */
static int horovod(const train_workload *w, const double *ready, bucket_list *l)
{
  int next = w->nlayers - 1; /* the next gradient to send, in backprop order */
  for (double k = 1; next >= 0; k++) {
    /* straight to the first tick with a gradient ready: a long backward costs no idle ticks */
    if (ready[next] > k * HVD_CYCLE_S + 1e-12)
      k = ceil((ready[next] - 1e-12) / HVD_CYCLE_S);
    double tick = k * HVD_CYCLE_S;
    double bytes = 0;
    int last = -1, first = -1;
    /* 1e-12 s: a ready time that sums to a tick exactly is taken at it, whatever rounding */
    for (; next >= 0 && ready[next] <= tick + 1e-12; next--) {
      double g = w->layers[next].params * w->elem;
      if (g <= 0)
        continue;
      if (last >= 0 && bytes + g > HVD_FUSION) {
        if (push(l, first, last, bytes, tick))
          return SA_ENOMEM;
        bytes = 0, last = -1;
      }
      if (last < 0)
        last = next;
      first = next;
      bytes += g;
    }
    if (last >= 0 && push(l, first, last, bytes, tick))
      return SA_ENOMEM;
  }
  return 0;
}

int train_buckets(const train_workload *w, const char *scheme, train_bucket **out, char *err, size_t errlen)
{
  *out = NULL;
  if (!scheme || !*scheme) {
    snprintf(err, errlen, "no bucket scheme: want ddp, horovod or a size (16M)");
    return SA_EINVAL;
  }
  if (w->elem != 2 && w->elem != 4) {
    snprintf(err, errlen, "workload %s: %d bytes a gradient element, want 2 (fp16) or 4 (fp32)", w->name, w->elem);
    return SA_EINVAL;
  }
  int any = 0;
  for (int i = 0; i < w->nlayers; i++) {
    const train_layer *ly = &w->layers[i];
    if (!(ly->params >= 0) || !(ly->bwd_s >= 0)) {
      snprintf(err, errlen, "workload %s: layer %s has a negative gradient or backward time", w->name, ly->name);
      return SA_EINVAL;
    }
    any |= ly->params > 0;
  }
  if (!any) {
    snprintf(err, errlen, "workload %s: no layer has a gradient to allreduce", w->name);
    return SA_EINVAL;
  }
  uint64_t size = 0;
  int is_ddp = strcmp(scheme, "ddp") == 0, is_hvd = strcmp(scheme, "horovod") == 0, whole = strcmp(scheme, "whole") == 0;
  if (!is_ddp && !is_hvd && !whole) {
    char why[160];
    if (util_parse_size(scheme, &size, why, sizeof why)) {
      snprintf(err, errlen, "buckets '%s': want ddp, horovod, whole or a size (16M): %s", scheme, why);
      return SA_EINVAL;
    }
  }
  /* whole: every gradient in one allreduce once backprop is done, none overlapping it */
  double all = 0;
  for (int i = 0; whole && i < w->nlayers; i++)
    all += w->layers[i].params * w->elem;
  double *ready = ready_times(w);
  if (!ready)
    return SA_ENOMEM;
  bucket_list l = {0};
  int rc = is_hvd   ? horovod(w, ready, &l)
           : is_ddp ? by_size(w, ready, DDP_FIRST_CAP, DDP_CAP, 0, &l)
           : whole  ? by_size(w, ready, all, all, 1, &l)
                    : by_size(w, ready, (double)size, (double)size, 1, &l);
  free(ready);
  if (rc) {
    free(l.b);
    snprintf(err, errlen, "buckets: out of memory");
    return rc;
  }
  *out = l.b;
  return l.n;
}
