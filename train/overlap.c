/* overlap.c: one iteration's timeline (see train.h). */
#include <stdlib.h>

#include "common/sa_error.h"
#include "train.h"

double train_compute_s(const train_workload *w)
{
  double t = w->opt_s;
  for (int i = 0; i < w->nlayers; i++)
    t += w->layers[i].fwd_s + w->layers[i].bwd_s;
  return t;
}

int train_overlap(const train_workload *w, const train_bucket *b, int n, const double *ar_s, const double *gpu_s,
                  train_step *out)
{
  double fwd = 0, bwd = 0;
  for (int i = 0; i < w->nlayers; i++) {
    fwd += w->layers[i].fwd_s;
    bwd += w->layers[i].bwd_s;
  }
  out->start_s = malloc(sizeof *out->start_s * (size_t)(n + 1));
  out->end_s = malloc(sizeof *out->end_s * (size_t)(n + 1));
  if (!out->start_s || !out->end_s) {
    train_step_free(out);
    return SA_ENOMEM;
  }
  /* one stream: a bucket's allreduce waits for its gradients and for the one before it; its
   * GPU part (selection) runs on the GPU as the bucket is ready, pushing backprop back */
  double free_at = 0, pushed = 0;
  out->comm_s = 0;
  for (int i = 0; i < n; i++) {
    double gpu = gpu_s ? gpu_s[i] : 0, ready = b[i].ready_s + pushed;
    pushed += gpu;
    out->start_s[i] = ready > free_at ? ready : free_at;
    out->end_s[i] = free_at = (ready + gpu > out->start_s[i] ? ready + gpu : out->start_s[i]) + ar_s[i] - gpu;
    out->comm_s += ar_s[i];
  }
  bwd += pushed;
  out->compute_s = fwd + bwd - pushed + w->opt_s;
  out->iter_s = fwd + (free_at > bwd ? free_at : bwd) + w->opt_s;
  out->exposed_s = out->iter_s - out->compute_s;
  return 0;
}

void train_step_free(train_step *s)
{
  free(s->start_s);
  free(s->end_s);
  s->start_s = s->end_s = NULL;
}
