/* training.c: --workload's iteration per algorithm (see training.h). */
#include "training.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algos/algo_list.h"
#include "common/sa_error.h"
#include "report.h"

int sim_training_open(sim_training *t, const char *workload, const char *scheme, int elem, char *err, size_t errlen)
{
  memset(t, 0, sizeof *t);
  snprintf(t->scheme, sizeof t->scheme, "%s", scheme ? scheme : "ddp");
  /* a name with a slash or ending in .json is a file; anything else one of ours */
  size_t n = strlen(workload);
  int file = strchr(workload, '/') || (n > 5 && strcmp(workload + n - 5, ".json") == 0);
  int rc = file ? train_workload_load(workload, &t->w, err, errlen) : train_workload_builtin(workload, 0, &t->w, err, errlen);
  if (rc == 0 && elem > 0)
    t->w.elem = elem; /* --dtype: the same model with gradients of another type */
  if (rc == 0) {
    int nb = train_buckets(&t->w, t->scheme, &t->b, err, errlen);
    rc = nb < 0 ? nb : 0;
    t->nb = nb < 0 ? 0 : nb;
  }
  if (rc != 0)
    sim_training_free(t);
  return rc;
}

void sim_training_free(sim_training *t)
{
  train_workload_free(&t->w);
  free(t->b);
  t->b = NULL;
  t->nb = 0;
}

static uint64_t bucket_bytes(const train_bucket *b) { return (uint64_t)llround(b->bytes); }

static int ascending(const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

int sim_training_sizes(const sim_training *t, uint64_t **sizes)
{
  *sizes = malloc(sizeof **sizes * (size_t)(t->nb + 1));
  if (!*sizes)
    return SA_ENOMEM;
  int n = 0;
  for (int i = 0; i < t->nb; i++)
    if (bucket_bytes(&t->b[i]) > 0)
      (*sizes)[n++] = bucket_bytes(&t->b[i]);
  qsort(*sizes, (size_t)n, sizeof **sizes, ascending);
  int m = 0;
  for (int i = 0; i < n; i++)
    if (m == 0 || (*sizes)[m - 1] != (*sizes)[i])
      (*sizes)[m++] = (*sizes)[i];
  return m;
}

/* The time of algo at bytes among the results (NaN: none), and in *gpu the part of it a
 * top-k selection takes on the GPU (its phase, simulated or predicted as the time is). */
static double time_of(const sim_results *r, const char *algo, uint64_t bytes, double *gpu)
{
  *gpu = 0;
  for (int i = 0; i < r->npoints; i++) {
    const sim_point *p = &r->points[i];
    if (p->bytes != bytes || strcmp(p->algo, algo) != 0)
      continue;
    int n = p->simulated ? p->nphases : p->model_nphases;
    for (int k = 0; k < n; k++) {
      const char *name = p->simulated ? p->phase_name[k] : p->model_phase_name[k];
      if (strcmp(name, AR_PH_SELECT) == 0 || strcmp(name, AR_PH_MSTOPK) == 0)
        *gpu += p->simulated ? p->phase_s[k] : p->model_phase_s[k];
    }
    return sim_point_time(p);
  }
  return NAN;
}

/* Each algorithm of the results in the order it first appears: its step. 0, or -1 where a
 * bucket has no time (an algorithm without a model under --mode model). */
static int step_of(const sim_training *t, const sim_results *r, const char *algo, train_step *s)
{
  double *ar = malloc(sizeof *ar * (size_t)(t->nb + 1)), *gpu = malloc(sizeof *gpu * (size_t)(t->nb + 1));
  int rc = ar && gpu ? 0 : SA_ENOMEM;
  for (int i = 0; rc == 0 && i < t->nb; i++) {
    gpu[i] = 0;
    ar[i] = bucket_bytes(&t->b[i]) > 0 ? time_of(r, algo, bucket_bytes(&t->b[i]), &gpu[i]) : 0;
    rc = isnan(ar[i]) ? -1 : 0;
  }
  if (rc == 0)
    rc = train_overlap(&t->w, t->b, t->nb, ar, gpu, s);
  free(ar);
  free(gpu);
  return rc;
}

/* Whether point i is the first of its algorithm. */
static int first_of_algo(const sim_results *r, int i)
{
  for (int j = 0; j < i; j++)
    if (strcmp(r->points[j].algo, r->points[i].algo) == 0)
      return 0;
  return 1;
}

static double params_of(const train_workload *w)
{
  double p = 0;
  for (int i = 0; i < w->nlayers; i++)
    p += w->layers[i].params;
  return p;
}

/* One GPU's throughput: the measured one the workload names, else its compute's. */
static double single_sps(const train_workload *w)
{
  return w->single_sps > 0 ? w->single_sps : w->batch / train_compute_s(w);
}

void sim_training_table(FILE *f, const sim_training *t, const sim_results *r, int ranks)
{
  const train_workload *w = &t->w;
  double one = single_sps(w);
  fprintf(f, "# training step: %s, local batch %d, %s gradients, %.1fM parameters in %d buckets (%s), %d GPUs\n",
          w->name, w->batch, w->elem == 2 ? "fp16" : "fp32", params_of(w) / 1e6, t->nb, t->scheme, ranks);
  fprintf(f, "#   one GPU: %.2f ms of compute per iteration, %.1f samples/s; efficiency = samples/s over %d x that\n",
          1e3 * train_compute_s(w), one, ranks);
  fprintf(f, "# %10s %12s %12s %12s %14s %11s\n", "algo", "iter(ms)", "comm(ms)", "exposed(ms)", "samples/s",
          "efficiency");
  for (int i = 0; i < r->npoints; i++) {
    if (!first_of_algo(r, i))
      continue;
    train_step s = {0};
    if (step_of(t, r, r->points[i].algo, &s) != 0) {
      fprintf(f, "  %10s %12s %12s %12s %14s %11s\n", r->points[i].algo, "-", "-", "-", "-", "-");
      continue;
    }
    double sps = w->batch * (double)ranks / s.iter_s;
    fprintf(f, "  %10s %12.2f %12.2f %12.2f %14.1f %10.1f%%\n", r->points[i].algo, 1e3 * s.iter_s, 1e3 * s.comm_s,
            1e3 * s.exposed_s, sps, 100 * sps / (ranks * one));
    train_step_free(&s);
  }
}

/* the trace's processes of the steps, past any node's */
#define TRAINING_PID 1000000

void sim_training_trace(sim_trace *tr, const sim_training *t, const sim_results *r, int ranks)
{
  (void)ranks;
  sim_trace_begin_spans(tr);
  double at = 0;
  for (int i = 0, k = 0; i < r->npoints; i++) {
    train_step s = {0};
    if (!first_of_algo(r, i) || step_of(t, r, r->points[i].algo, &s) != 0)
      continue;
    char name[160];
    int pid = TRAINING_PID + k++;
    snprintf(name, sizeof name, "training step: %s, %s", t->w.name, r->points[i].algo);
    sim_trace_thread(tr, pid, 0, name, "GPU: forward, backprop, optimizer", pid);
    sim_trace_thread(tr, pid, 1, name, "stream: the buckets' allreduces", pid);
    double fwd = 0, bwd = 0;
    for (int l = 0; l < t->w.nlayers; l++) {
      fwd += t->w.layers[l].fwd_s;
      bwd += t->w.layers[l].bwd_s;
    }
    sim_trace_span(tr, "forward", at, at + fwd, pid, 0);
    sim_trace_span(tr, "backprop", at + fwd, at + fwd + bwd, pid, 0);
    sim_trace_span(tr, "optimizer", at + s.iter_s - t->w.opt_s, at + s.iter_s, pid, 0);
    for (int b = 0; b < t->nb; b++) {
      snprintf(name, sizeof name, "bucket %d (%.2f MiB)", b, t->b[b].bytes / 1048576);
      sim_trace_span(tr, name, at + fwd + s.start_s[b], at + fwd + s.end_s[b], pid, 1);
    }
    train_step_free(&s);
  }
}

cJSON *sim_training_json(const sim_training *t, const sim_results *r, int ranks)
{
  const train_workload *w = &t->w;
  cJSON *o = cJSON_CreateObject(), *buckets = cJSON_AddArrayToObject(o, "buckets"), *algos;
  cJSON_AddStringToObject(o, "workload", w->name);
  cJSON_AddStringToObject(o, "buckets_scheme", t->scheme);
  cJSON_AddNumberToObject(o, "batch", w->batch);
  cJSON_AddStringToObject(o, "dtype", w->elem == 2 ? "fp16" : "fp32");
  cJSON_AddNumberToObject(o, "params", params_of(w));
  cJSON_AddNumberToObject(o, "compute_s", train_compute_s(w));
  cJSON_AddNumberToObject(o, "single_gpu_samples_per_s", single_sps(w));
  cJSON_AddStringToObject(o, "source", w->source);
  for (int i = 0; i < t->nb; i++) {
    cJSON *b = cJSON_CreateObject();
    cJSON_AddNumberToObject(b, "bytes", (double)bucket_bytes(&t->b[i]));
    cJSON_AddNumberToObject(b, "ready_s", t->b[i].ready_s);
    cJSON_AddNumberToObject(b, "first_layer", t->b[i].first);
    cJSON_AddNumberToObject(b, "last_layer", t->b[i].last);
    cJSON_AddItemToArray(buckets, b);
  }
  algos = cJSON_AddArrayToObject(o, "algos");
  for (int i = 0; i < r->npoints; i++) {
    train_step s = {0};
    if (!first_of_algo(r, i) || step_of(t, r, r->points[i].algo, &s) != 0)
      continue;
    cJSON *a = cJSON_CreateObject(), *sl = cJSON_CreateArray();
    double sps = w->batch * (double)ranks / s.iter_s;
    cJSON_AddStringToObject(a, "algo", r->points[i].algo);
    cJSON_AddNumberToObject(a, "iter_s", s.iter_s);
    cJSON_AddNumberToObject(a, "comm_s", s.comm_s);
    cJSON_AddNumberToObject(a, "exposed_s", s.exposed_s);
    cJSON_AddNumberToObject(a, "samples_per_s", sps);
    cJSON_AddNumberToObject(a, "efficiency", sps / (ranks * single_sps(w)));
    for (int k = 0; k < t->nb; k++) { /* each bucket's allreduce, from the start of backprop */
      cJSON *x = cJSON_CreateObject();
      cJSON_AddNumberToObject(x, "start_s", s.start_s[k]);
      cJSON_AddNumberToObject(x, "end_s", s.end_s[k]);
      cJSON_AddItemToArray(sl, x);
    }
    cJSON_AddItemToObject(a, "buckets", sl);
    cJSON_AddItemToArray(algos, a);
    train_step_free(&s);
  }
  return o;
}
