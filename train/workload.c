/* workload.c: adding layers, splitting time by FLOPs, freeing (see workload.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"
#include "workload.h"

int train_add_layer(train_workload *w, const char *name, double params, double flops)
{
  /* the array doubles whenever its count reaches a power of two (16 first) */
  int n = w->nlayers;
  if (n == 0 || (n >= 16 && (n & (n - 1)) == 0)) {
    size_t cap = n < 16 ? 16 : (size_t)n * 2;
    train_layer *l = realloc(w->layers, cap * sizeof *l);
    if (!l)
      return SA_ENOMEM;
    w->layers = l;
  }
  train_layer *l = &w->layers[n];
  memset(l, 0, sizeof *l);
  snprintf(l->name, sizeof l->name, "%s", name);
  l->params = params;
  l->flops = flops;
  w->nlayers = n + 1;
  return 0;
}

double train_params_total(const train_workload *w)
{
  double s = 0;
  for (int i = 0; i < w->nlayers; i++)
    s += w->layers[i].params;
  return s;
}

double train_flops_total(const train_workload *w)
{
  double s = 0;
  for (int i = 0; i < w->nlayers; i++)
    s += w->layers[i].flops;
  return s;
}

int train_split_times(train_workload *w, char *err, size_t errlen)
{
  double total = train_flops_total(w);
  if (!(w->single_sps > 0)) {
    snprintf(err, errlen, "workload %s: no single-GPU throughput to split its time by FLOPs", w->name);
    return SA_EINVAL;
  }
  if (w->batch <= 0) {
    snprintf(err, errlen, "workload %s: batch %d is not a positive number of samples", w->name, w->batch);
    return SA_EINVAL;
  }
  if (!(total > 0)) {
    snprintf(err, errlen, "workload %s: its layers' FLOPs add up to nothing to split its time by", w->name);
    return SA_EINVAL;
  }
  /* one GPU's iteration holds its optimizer's step too: the layers share the rest */
  double iter_s = w->batch / w->single_sps - w->opt_s;
  if (!(iter_s > 0)) {
    snprintf(err, errlen, "workload %s: its optimizer's %g s take all of one GPU's iteration (%g s)", w->name, w->opt_s,
             w->batch / w->single_sps);
    return SA_EINVAL;
  }
  for (int i = 0; i < w->nlayers; i++) {
    double share = iter_s * w->layers[i].flops / total;
    /* backward ~ 2 x forward (Kaplan et al. 2020 §2.1, workload.h) */
    w->layers[i].fwd_s = share / 3;
    w->layers[i].bwd_s = share * 2 / 3;
  }
  return 0;
}

void train_workload_free(train_workload *w)
{
  free(w->layers);
  w->layers = NULL;
  w->nlayers = 0;
}
