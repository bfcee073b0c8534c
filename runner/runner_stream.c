/* runner_stream.c: the runner's one output, JSON Lines the driver follows while the run
 * goes on (sim/follow.c reads them): a header line, one line per point written and
 * flushed as soon as the point is done, and an end line, whose absence marks a run that
 * stopped early. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/sa_error.h"
#include "runner.h"

struct runner_stream {
  FILE *f;
  const char *path;
  int npoints;
};

/* With --links: every link that carried anything, busiest first, and the window it was
 * measured over (runner/runner_links.h). */
static void links_json(cJSON *o, const runner_point *pt)
{
  cJSON *list = cJSON_AddArrayToObject(o, "links");
  for (int i = 0; i < pt->nlinks; i++) {
    const runner_link *l = &pt->links[i];
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "name", l->name);
    cJSON_AddNumberToObject(e, "rate_Bps", l->rate_Bps);
    cJSON_AddNumberToObject(e, "bytes", l->bytes);
    cJSON_AddNumberToObject(e, "busy_s", l->busy_s);
    cJSON_AddNumberToObject(e, "peak_Bps", l->peak_Bps);
    cJSON_AddItemToArray(list, e);
  }
  cJSON_AddNumberToObject(o, "links_window_s", pt->links_window_s);
}

static cJSON *point_json(const runner_config *cfg, const runner_point *pt)
{
  cJSON *o = cJSON_CreateObject(), *ph = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "record", "point");
  cJSON_AddStringToObject(o, "algo", pt->algo);
  cJSON_AddNumberToObject(o, "bytes", (double)pt->bytes);
  cJSON_AddNumberToObject(o, "count", (double)pt->count);
  cJSON_AddStringToObject(o, "dtype", kn_dtype_name(cfg->dt));
  cJSON_AddNumberToObject(o, "time_s", pt->time_s);
  cJSON_AddNumberToObject(o, "time_min_s", pt->tmin);
  cJSON_AddNumberToObject(o, "time_max_s", pt->tmax);
  /* every repetition, so that a reader can judge the spread its own way */
  if (pt->ntimes > 0)
    cJSON_AddItemToObject(o, "times_s", cJSON_CreateDoubleArray(pt->times, pt->ntimes));
  if (pt->verified < 0)
    cJSON_AddNullToObject(o, "verified");
  else
    cJSON_AddBoolToObject(o, "verified", pt->verified);
  cJSON_AddNumberToObject(o, "max_abs_err", pt->max_err);
  if (pt->nccl) { /* what NCCL's algorithm ran: its point's choice */
    char ch[NCCL_CHOICE_LEN];
    nccl_choice_format(pt->nccl, ch, sizeof ch);
    cJSON_AddStringToObject(o, "nccl", ch);
  }
  if (pt->sparse) {
    cJSON_AddNumberToObject(o, "density", cfg->params.density);
    cJSON_AddNumberToObject(o, "k", (double)pt->k);
    if (pt->rel_err >= 0)
      cJSON_AddNumberToObject(o, "sparse_rel_err", pt->rel_err);
  }
  for (int i = 0; i < pt->nphases; i++)
    cJSON_AddNumberToObject(ph, pt->phase_name[i], pt->phase_s[i]);
  cJSON_AddItemToObject(o, "phases", ph);
  if (pt->links)
    links_json(o, pt);
  if (pt->rc)
    cJSON_AddStringToObject(o, "error", sa_strerror(pt->rc));
  return o;
}

/* Writes o as one line and flushes it, so that a reader sees every finished point. */
static int put_line(runner_stream *s, cJSON *o)
{
  char *text = o ? cJSON_PrintUnformatted(o) : NULL;
  cJSON_Delete(o);
  int ok = text && fputs(text, s->f) >= 0 && fputc('\n', s->f) != EOF && fflush(s->f) == 0;
  cJSON_free(text);
  if (!ok)
    fprintf(stderr, "ar_runner: cannot write %s\n", s->path);
  return ok ? 0 : SA_EIO;
}

runner_stream *runner_stream_open(const runner_config *cfg, int ranks, double start_clock)
{
  runner_stream *s = calloc(1, sizeof *s);
  FILE *f = s ? fopen(cfg->result_path, "w") : NULL;
  if (!f) {
    fprintf(stderr, "ar_runner: cannot write %s\n", cfg->result_path);
    free(s);
    return NULL;
  }
  *s = (runner_stream){f, cfg->result_path, 0};
  cJSON *root = cJSON_CreateObject(), *comp = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "record", "header");
#ifdef SA_SMPI
  cJSON_AddStringToObject(root, "mode", "simulated");
#else
  cJSON_AddStringToObject(root, "mode", "measured");
#endif
  cJSON_AddNumberToObject(root, "ranks", ranks);
  cJSON_AddNumberToObject(root, "ranks_per_node", cfg->params.ranks_per_node);
  cJSON_AddNumberToObject(root, "iters", cfg->iters);
  cJSON_AddStringToObject(root, "timing", cfg->timing == RUNNER_TIMING_NCCL_TESTS ? "nccl-tests" : "barrier");
  cJSON_AddNumberToObject(root, "points", cfg->njobs);
  if (!isnan(start_clock)) /* where the first point starts on the simulated clock */
    cJSON_AddNumberToObject(root, "start_clock_s", start_clock);
  for (int i = 0; i < SA_COMPUTE_N; i++)
    if (sa_compute_written(&cfg->params.compute, i))
      cJSON_AddNumberToObject(comp, sa_compute_name(i), sa_compute_get(&cfg->params.compute, i));
  cJSON_AddItemToObject(root, "compute", comp);
  if (put_line(s, root) != 0) {
    fclose(f);
    free(s);
    return NULL;
  }
  return s;
}

int runner_stream_point(runner_stream *s, const runner_config *cfg, const runner_point *pt, double next_clock)
{
  cJSON *o = point_json(cfg, pt);
  if (!isnan(next_clock))
    cJSON_AddNumberToObject(o, "next_clock_s", next_clock);
  s->npoints++;
  return put_line(s, o);
}

int runner_stream_close(runner_stream *s, int status)
{
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "record", "end");
  cJSON_AddNumberToObject(o, "points", s->npoints);
  cJSON_AddNumberToObject(o, "status", status);
  int rc = put_line(s, o);
  if (fclose(s->f) != 0)
    rc = SA_EIO;
  free(s);
  return rc;
}
