/* workload_json.c: a workload from a JSON file (docs/training.md gives its form):
 *   {"name": "...", "batch": 256, "dtype": "fp16"|"fp32", "single_sps": 1150, "opt_s": 0,
 *    "source": "...", "layers": [{"name": "...", "params": N, "flops": F} | {"name": "...",
 *    "params": N, "fwd_s": T, "bwd_s": T}, ...]}
 * Every layer gives FLOPs (the time then split from single_sps as for the built-ins,
 * workload.c) or every layer gives its times; dtype defaults to fp16, opt_s to 0. Anything
 * else is refused in one line naming the field: a typo must not pass as a default. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"
#include "util/textfile.h"
#include "train.h"
#include "workload.h"

/* A number field >= 0: 1 when present (in *v), 0 when absent, SA_EINVAL with err when not a
 * finite non-negative number. */
static int number(const cJSON *o, const char *key, const char *where, double *v, char *err, size_t errlen)
{
  const cJSON *f = cJSON_GetObjectItemCaseSensitive(o, key);
  if (!f)
    return 0;
  if (!cJSON_IsNumber(f) || !isfinite(f->valuedouble) || f->valuedouble < 0) {
    snprintf(err, errlen, "%s: '%s' must be a number >= 0", where, key);
    return SA_EINVAL;
  }
  *v = f->valuedouble;
  return 1;
}

/* Refuses a key not in allowed (NULL-terminated). */
static int known_keys(const cJSON *o, const char *const *allowed, const char *where, char *err, size_t errlen)
{
  for (const cJSON *f = o->child; f; f = f->next) {
    int ok = 0;
    for (const char *const *a = allowed; *a && !ok; a++)
      ok = strcmp(*a, f->string) == 0;
    if (!ok) {
      snprintf(err, errlen, "%s: unknown field '%s'", where, f->string);
      return SA_EINVAL;
    }
  }
  return 0;
}

static int string(const cJSON *o, const char *key, const char *where, size_t max, const char **s, char *err,
                  size_t errlen)
{
  const cJSON *f = cJSON_GetObjectItemCaseSensitive(o, key);
  if (!cJSON_IsString(f) || !f->valuestring[0] || strlen(f->valuestring) >= max) {
    snprintf(err, errlen, "%s: '%s' must be a string of 1 to %zu characters", where, key, max - 1);
    return SA_EINVAL;
  }
  *s = f->valuestring;
  return 0;
}

static int layer(train_workload *w, const cJSON *o, int i, int *timed, char *err, size_t errlen)
{
  static const char *const keys[] = {"name", "params", "flops", "fwd_s", "bwd_s", NULL};
  char where[48];
  snprintf(where, sizeof where, "layers[%d]", i);
  if (!cJSON_IsObject(o)) {
    snprintf(err, errlen, "%s: must be an object", where);
    return SA_EINVAL;
  }
  const char *name;
  double params = 0, flops = 0, fwd = 0, bwd = 0;
  int rc = known_keys(o, keys, where, err, errlen);
  rc = rc ? rc : string(o, "name", where, sizeof w->layers[0].name, &name, err, errlen);
  if (rc)
    return rc;
  int has_p = number(o, "params", where, &params, err, errlen);
  int has_f = has_p < 0 ? 0 : number(o, "flops", where, &flops, err, errlen);
  int has_fw = has_f < 0 ? 0 : number(o, "fwd_s", where, &fwd, err, errlen);
  int has_bw = has_fw < 0 ? 0 : number(o, "bwd_s", where, &bwd, err, errlen);
  if (has_p < 0 || has_f < 0 || has_fw < 0 || has_bw < 0)
    return SA_EINVAL;
  if (!has_p || params != floor(params)) {
    snprintf(err, errlen, "%s: 'params' must be a whole number of gradient elements", where);
    return SA_EINVAL;
  }
  if (has_f == (has_fw || has_bw) || has_fw != has_bw) {
    snprintf(err, errlen, "%s: give either 'flops' or both 'fwd_s' and 'bwd_s'", where);
    return SA_EINVAL;
  }
  if (*timed >= 0 && *timed != has_fw) {
    snprintf(err, errlen, "%s: every layer gives 'flops' or every layer its times, not some of each", where);
    return SA_EINVAL;
  }
  *timed = has_fw;
  if (train_add_layer(w, name, params, flops)) {
    snprintf(err, errlen, "%s: out of memory", where);
    return SA_ENOMEM;
  }
  w->layers[w->nlayers - 1].fwd_s = fwd;
  w->layers[w->nlayers - 1].bwd_s = bwd;
  return 0;
}

static int workload(train_workload *w, const cJSON *root, char *err, size_t errlen)
{
  static const char *const keys[] = {"name", "batch", "dtype", "single_sps", "opt_s", "source", "layers", NULL};
  if (!cJSON_IsObject(root)) {
    snprintf(err, errlen, "must be a JSON object");
    return SA_EINVAL;
  }
  const char *name, *dtype = "fp16";
  int rc = known_keys(root, keys, "workload", err, errlen);
  rc = rc ? rc : string(root, "name", "workload", sizeof w->name, &name, err, errlen);
  if (!rc && cJSON_GetObjectItemCaseSensitive(root, "dtype"))
    rc = string(root, "dtype", "workload", 8, &dtype, err, errlen);
  if (rc)
    return rc;
  snprintf(w->name, sizeof w->name, "%s", name);
  if (strcmp(dtype, "fp16") != 0 && strcmp(dtype, "fp32") != 0) {
    snprintf(err, errlen, "workload: 'dtype' must be fp16 or fp32, not '%s'", dtype);
    return SA_EINVAL;
  }
  w->elem = dtype[2] == '1' ? 2 : 4;
  const cJSON *src = cJSON_GetObjectItemCaseSensitive(root, "source");
  if (src && !cJSON_IsString(src)) {
    snprintf(err, errlen, "workload: 'source' must be a string");
    return SA_EINVAL;
  }
  snprintf(w->source, sizeof w->source, "%s", src ? src->valuestring : "a workload file");
  double batch = 0;
  int has_b = number(root, "batch", "workload", &batch, err, errlen);
  if (has_b < 0)
    return SA_EINVAL;
  if (!has_b || batch < 1 || batch > 1e9 || batch != floor(batch)) {
    snprintf(err, errlen, "workload: 'batch' must be a whole number of samples >= 1");
    return SA_EINVAL;
  }
  w->batch = (int)batch;
  if (number(root, "opt_s", "workload", &w->opt_s, err, errlen) < 0)
    return SA_EINVAL;
  int has_sps = number(root, "single_sps", "workload", &w->single_sps, err, errlen);
  if (has_sps < 0)
    return SA_EINVAL;
  const cJSON *layers = cJSON_GetObjectItemCaseSensitive(root, "layers");
  if (!cJSON_IsArray(layers) || cJSON_GetArraySize(layers) == 0) {
    snprintf(err, errlen, "workload: 'layers' must be a non-empty array");
    return SA_EINVAL;
  }
  int timed = -1, i = 0;
  for (const cJSON *l = layers->child; l; l = l->next)
    if ((rc = layer(w, l, i++, &timed, err, errlen)))
      return rc;
  if (timed)
    return 0;
  if (!has_sps || !(w->single_sps > 0)) {
    snprintf(err, errlen, "workload: 'single_sps' (> 0) is needed to split the time by the layers' FLOPs");
    return SA_EINVAL;
  }
  return train_split_times(w, err, errlen);
}

int train_workload_load(const char *path, train_workload *w, char *err, size_t errlen)
{
  memset(w, 0, sizeof *w);
  char *text = util_read_text(path);
  if (!text) {
    snprintf(err, errlen, "cannot read workload file %s", path);
    return SA_EIO;
  }
  cJSON *root = cJSON_Parse(text);
  free(text);
  if (!root) {
    snprintf(err, errlen, "%s: not valid JSON", path);
    return SA_EPARSE;
  }
  char why[384];
  int rc = workload(w, root, why, sizeof why);
  cJSON_Delete(root);
  if (rc) {
    snprintf(err, errlen, "%s: %s", path, why);
    train_workload_free(w);
  }
  return rc;
}
