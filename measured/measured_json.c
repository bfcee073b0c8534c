/* measured_json.c: optional fields of measured-data JSON (see measured_json.h). */
#include "measured_json.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>

void md_json_add_str(cJSON *o, const char *key, const char *v)
{
  if (v[0])
    cJSON_AddStringToObject(o, key, v);
}

void md_json_add_num(cJSON *o, const char *key, double v)
{
  if (v >= 0)
    cJSON_AddNumberToObject(o, key, v);
}

void md_json_get_str(const cJSON *o, const char *key, char *dst, size_t len)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  if (cJSON_IsString(v))
    snprintf(dst, len, "%s", v->valuestring);
}

double md_json_get_num(const cJSON *o, const char *key, int *bad)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  if (!v || cJSON_IsNull(v))
    return -1;
  if (!cJSON_IsNumber(v) || v->valuedouble < 0) {
    *bad = 1;
    return -1;
  }
  return v->valuedouble;
}

int md_json_count_of(const cJSON *v, int *bad)
{
  if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0) || v->valuedouble > INT_MAX ||
      v->valuedouble != floor(v->valuedouble)) {
    *bad = 1;
    return -1;
  }
  return (int)v->valuedouble;
}

int md_json_get_count(const cJSON *o, const char *key, int *bad)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  if (!v || cJSON_IsNull(v))
    return -1;
  return md_json_count_of(v, bad);
}
