/* runner_json.c: the runner's one output, a JSON file the driver reads back. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>

#include "runner.h"

static cJSON *point_json(const runner_config *cfg, const runner_point *pt)
{
  cJSON *o = cJSON_CreateObject(), *ph = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "algo", pt->algo);
  cJSON_AddNumberToObject(o, "bytes", (double)pt->bytes);
  cJSON_AddNumberToObject(o, "count", (double)pt->count);
  cJSON_AddStringToObject(o, "dtype", ar_dtype_name(cfg->dt));
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
  if (pt->sparse) {
    cJSON_AddNumberToObject(o, "density", cfg->params.density);
    cJSON_AddNumberToObject(o, "k", (double)pt->k);
    if (pt->rel_err >= 0)
      cJSON_AddNumberToObject(o, "sparse_rel_err", pt->rel_err);
  }
  for (int i = 0; i < pt->nphases; i++)
    cJSON_AddNumberToObject(ph, pt->phase_name[i], pt->phase_s[i]);
  cJSON_AddItemToObject(o, "phases", ph);
  if (pt->rc)
    cJSON_AddStringToObject(o, "error", sa_strerror(pt->rc));
  return o;
}

int runner_write(const runner_config *cfg, int ranks, const runner_point *pts, int npts)
{
  cJSON *root = cJSON_CreateObject(), *list = cJSON_CreateArray(), *comp = cJSON_CreateObject();
#ifdef AR_SMPI
  cJSON_AddStringToObject(root, "mode", "simulated");
#else
  cJSON_AddStringToObject(root, "mode", "measured");
#endif
  cJSON_AddNumberToObject(root, "ranks", ranks);
  cJSON_AddNumberToObject(root, "ranks_per_node", cfg->params.ranks_per_node);
  cJSON_AddNumberToObject(root, "iters", cfg->iters);
  cJSON_AddStringToObject(root, "timing", cfg->timing == RUNNER_TIMING_NCCL_TESTS ? "nccl-tests" : "barrier");
  for (int i = 0; i < SA_COMPUTE_N; i++)
    cJSON_AddNumberToObject(comp, sa_compute_name(i), sa_compute_get(&cfg->params.compute, i));
  cJSON_AddItemToObject(root, "compute", comp);
  for (int i = 0; i < npts; i++)
    cJSON_AddItemToArray(list, point_json(cfg, &pts[i]));
  cJSON_AddItemToObject(root, "points", list);

  char *text = cJSON_Print(root);
  cJSON_Delete(root);
  FILE *f = text ? fopen(cfg->result_path, "w") : NULL;
  int ok = f && fputs(text, f) >= 0;
  if (f && fclose(f) != 0)
    ok = 0;
  free(text);
  if (!ok)
    fprintf(stderr, "ar_runner: cannot write %s\n", cfg->result_path);
  return ok ? 0 : SA_EIO;
}
