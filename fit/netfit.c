/* netfit.c: piecewise alpha-beta fits of ping-pong times, weighted by 1/t^2 so that the fit
 * minimises relative error: a 1 us latency matters as much as a 50 ms transfer. */
#include "netfit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"

static int by_bytes(const void *a, const void *b)
{
  const double *x = a, *y = b;
  return (x[0] > y[0]) - (x[0] < y[0]);
}

/* Pairs (bytes, time) of the matching points, sorted, repeats of a size averaged. */
static int collect(const md_data *d, const char *op, const char *path, fit_net *nf)
{
  double *pairs = malloc(sizeof(double) * 2 * (d->n ? d->n : 1));
  if (!pairs)
    return SA_ENOMEM;
  size_t m = 0;
  for (size_t i = 0; i < d->n; i++)
    if (strcmp(d->p[i].op, op) == 0 && strcmp(d->p[i].path, path) == 0 && d->p[i].bytes > 0) {
      pairs[2 * m] = d->p[i].bytes;
      pairs[2 * m + 1] = d->p[i].time_s;
      m++;
    }
  qsort(pairs, m, 2 * sizeof(double), by_bytes);
  nf->bytes = malloc(sizeof(double) * (m ? m : 1));
  nf->time = malloc(sizeof(double) * (m ? m : 1));
  if (!nf->bytes || !nf->time) {
    free(pairs);
    return SA_ENOMEM;
  }
  for (size_t i = 0; i < m;) {
    size_t j = i;
    double sum = 0;
    for (; j < m && pairs[2 * j] == pairs[2 * i]; j++)
      sum += pairs[2 * j + 1];
    nf->bytes[nf->n] = pairs[2 * i];
    nf->time[nf->n++] = sum / (double)(j - i);
    i = j;
  }
  free(pairs);
  return 0;
}

/* The fewest segments of at least per points each whose worst relative error is at most tol
 * (at most max_seg), or the best there is; minimax over segments, weighted lines. */
static int fit_segments(const fit_net *nf, const double *w, size_t per, double tol, size_t max_seg,
                        fit_piecewise *pw)
{
  size_t max_k = nf->n / per < max_seg ? nf->n / per : max_seg;
  return fit_piecewise_auto(nf->bytes, nf->time, w, nf->n, max_k, per, tol, FIT_NONNEG | FIT_MINIMAX,
                                 pw);
}

int fit_net_run(const md_data *d, const char *op, const char *path, double tol, size_t max_seg,
                   fit_net *nf)
{
  memset(nf, 0, sizeof *nf);
  snprintf(nf->path, sizeof nf->path, "%s", path);
  snprintf(nf->op, sizeof nf->op, "%s", op);
  double *w = NULL;
  int rc = collect(d, op, path, nf);
  if (rc == 0 && nf->n < 2)
    rc = SA_ENODATA;
  if (rc == 0 && !(w = malloc(sizeof(double) * nf->n)))
    rc = SA_ENOMEM;
  if (rc == 0) {
    for (size_t i = 0; i < nf->n; i++)
      w[i] = 1.0 / (nf->time[i] * nf->time[i]);
    size_t per = nf->n >= FIT_NET_MIN_POINTS ? FIT_NET_MIN_POINTS : nf->n;
    if (fit_segments(nf, w, per, tol, max_seg, &nf->pw) != 0)
      rc = SA_EFIT;
    /* A law that holds over fewer than three sizes (shared memory here: 4M at 10 GB/s, 16M
     * at 5.5 GB/s, 8M in between as the buffers outgrow the cache) has no three-point
     * segment of its own; two-point segments may take it, kept where they fit better. */
    fit_piecewise two;
    size_t two_per = FIT_NET_MIN_POINTS_CHANGE;
    if (rc == 0 && nf->pw.max_rel_err > tol && per > two_per && nf->n >= 2 * two_per &&
        fit_segments(nf, w, two_per, tol, max_seg, &two) == 0) {
      if (two.max_rel_err < nf->pw.max_rel_err) {
        fit_piecewise_free(&nf->pw);
        nf->pw = two;
      } else {
        fit_piecewise_free(&two);
      }
    }
  }
  free(w);
  if (rc != 0)
    fit_net_free(nf);
  return rc;
}

const fit_line *fit_net_line(const fit_net *nf, double bytes)
{
  return &nf->pw.line[fit_piecewise_find(&nf->pw, nf->bytes, bytes)];
}

double fit_net_eval(const fit_net *nf, double bytes) { return fit_eval(fit_net_line(nf, bytes), bytes); }

static const char *pinned_name(int p) { return p == 1 ? "beta=0" : p == 2 ? "alpha=0" : "none"; }

static cJSON *segment_json(const fit_net *nf, size_t s)
{
  const fit_line *l = &nf->pw.line[s];
  size_t first = nf->pw.first[s], last = first + nf->pw.count[s] - 1;
  cJSON *o = cJSON_CreateObject(), *pts = cJSON_AddArrayToObject(o, "points");
  cJSON_AddNumberToObject(o, "from_bytes", nf->bytes[first]);
  cJSON_AddNumberToObject(o, "to_bytes", nf->bytes[last]);
  cJSON_AddNumberToObject(o, "points_used", (double)nf->pw.count[s]);
  cJSON_AddNumberToObject(o, "alpha_s", l->c0);
  cJSON_AddNumberToObject(o, "beta_s_per_byte", l->c1);
  if (l->c1 > 0)
    cJSON_AddNumberToObject(o, "bandwidth_Bps", 1.0 / l->c1);
  else
    cJSON_AddNullToObject(o, "bandwidth_Bps");
  cJSON_AddNumberToObject(o, "r2", l->r2);
  cJSON_AddNumberToObject(o, "max_rel_err", l->max_rel_err);
  cJSON_AddStringToObject(o, "pinned", pinned_name(l->pinned));
  for (size_t i = first; i <= last; i++) {
    double fit = fit_eval(l, nf->bytes[i]);
    cJSON *p = cJSON_CreateObject();
    cJSON_AddNumberToObject(p, "bytes", nf->bytes[i]);
    cJSON_AddNumberToObject(p, "time_s", nf->time[i]);
    cJSON_AddNumberToObject(p, "fit_s", fit);
    cJSON_AddNumberToObject(p, "residual_s", nf->time[i] - fit);
    cJSON_AddNumberToObject(p, "rel_err", (nf->time[i] - fit) / nf->time[i]);
    cJSON_AddItemToArray(pts, p);
  }
  return o;
}

cJSON *fit_net_json(const fit_net *nf)
{
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "path", nf->path);
  cJSON_AddStringToObject(o, "op", nf->op);
  cJSON_AddNumberToObject(o, "points_used", (double)nf->n);
  cJSON_AddNumberToObject(o, "max_rel_err", nf->pw.max_rel_err);
  cJSON_AddNumberToObject(o, "latency_s", nf->pw.line[0].c0);
  const fit_line *last = &nf->pw.line[nf->pw.nseg - 1];
  if (last->c1 > 0)
    cJSON_AddNumberToObject(o, "bandwidth_Bps", 1.0 / last->c1);
  else
    cJSON_AddNullToObject(o, "bandwidth_Bps");
  cJSON *segs = cJSON_AddArrayToObject(o, "segments");
  for (size_t s = 0; s < nf->pw.nseg; s++)
    cJSON_AddItemToArray(segs, segment_json(nf, s));
  return o;
}

void fit_net_free(fit_net *nf)
{
  free(nf->bytes);
  free(nf->time);
  fit_piecewise_free(&nf->pw);
  memset(nf, 0, sizeof *nf);
}
