/* report_links.c: the --links block of the table and the JSON (report_links.h). */
#include "report_links.h"

#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"

static int num(const cJSON *o, const char *key, double *out)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  *out = cJSON_IsNumber(v) ? v->valuedouble : 0;
  return cJSON_IsNumber(v) && v->valuedouble >= 0;
}

int sim_links_read(const cJSON *point, sim_links *l)
{
  memset(l, 0, sizeof *l);
  const cJSON *list = cJSON_GetObjectItemCaseSensitive(point, "links"), *it;
  if (!list)
    return 0;
  if (!cJSON_IsArray(list) || !num(point, "links_window_s", &l->window_s))
    return SA_EPARSE;
  l->v = calloc((size_t)cJSON_GetArraySize(list) + 1, sizeof *l->v);
  if (!l->v)
    return SA_ENOMEM;
  cJSON_ArrayForEach(it, list)
  {
    sim_link *k = &l->v[l->n];
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(it, "name");
    /* the runner's lines and the driver's outputs have peak_Bps; files written before
     * these had only the peak's utilization */
    double util = 0;
    int ok = cJSON_IsString(name) && num(it, "rate_Bps", &k->rate_Bps) && num(it, "bytes", &k->bytes) &&
             num(it, "busy_s", &k->busy_s);
    if (ok && !num(it, "peak_Bps", &k->peak_Bps)) {
      ok = num(it, "peak_util", &util);
      k->peak_Bps = util * k->rate_Bps;
    }
    if (!ok) {
      sim_links_free(l);
      return SA_EPARSE;
    }
    if (!(k->name = strdup(name->valuestring))) {
      sim_links_free(l);
      return SA_ENOMEM;
    }
    l->n++;
  }
  return 0;
}

void sim_links_free(sim_links *l)
{
  for (int i = 0; i < l->n; i++)
    free(l->v[i].name);
  free(l->v);
  memset(l, 0, sizeof *l);
}

double sim_link_mean_util(const sim_link *k, double window_s)
{
  return k->rate_Bps > 0 && window_s > 0 ? k->bytes / (k->rate_Bps * window_s) : 0;
}

double sim_link_peak_util(const sim_link *k) { return k->rate_Bps > 0 ? k->peak_Bps / k->rate_Bps : 0; }

void sim_links_print(FILE *f, const char *algo, const char *size, const sim_links *l, int n, double steady_s)
{
  int shown = n < l->n ? n : l->n, width = 24;
  for (int i = 0; i < shown; i++)
    width = (int)strlen(l->v[i].name) > width ? (int)strlen(l->v[i].name) : width;
  fprintf(f, "# links of %s at %s: the %d busiest of %d that carried traffic, over %.2f us:\n", algo, size, shown, l->n,
          l->window_s * 1e6);
  /* back to back, each rank is timed from its own entry into the timed allreduce (the
   * runner's time_steady), but the links see every rank's: from the first entry, while
   * others still finish the allreduce before, to the last exit */
  if (steady_s > 0)
    fprintf(f,
            "#   (back to back, the ranks enter the timed allreduce apart: the window, first entry to last exit, is "
            "%.2f us longer than the row's time, each rank timed from its own entry, and holds the previous "
            "allreduce's end)\n",
            (l->window_s - steady_s) * 1e6);
  if (shown == 0)
    return;
  /* bytes in MiB, as sizes are (64M = 64 x 2^20): a ring's 2(p-1)/p of 64M reads as such */
  fprintf(f, "#   %-*s %11s %12s %12s %7s %7s\n", width, "link", "rate(GB/s)", "bytes(MiB)", "busy(us)", "mean%",
          "peak%");
  for (int i = 0; i < shown; i++) {
    const sim_link *k = &l->v[i];
    fprintf(f, "#   %-*s %11.3f %12.3f %12.2f %7.1f %7.1f\n", width, k->name, k->rate_Bps / 1e9,
            k->bytes / (1024.0 * 1024.0), k->busy_s * 1e6, 100 * sim_link_mean_util(k, l->window_s),
            100 * sim_link_peak_util(k));
  }
}

void sim_links_json(cJSON *point, const sim_links *l)
{
  cJSON *list = cJSON_AddArrayToObject(point, "links");
  for (int i = 0; i < l->n; i++) {
    const sim_link *k = &l->v[i];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", k->name);
    cJSON_AddNumberToObject(o, "rate_Bps", k->rate_Bps);
    cJSON_AddNumberToObject(o, "bytes", k->bytes);
    cJSON_AddNumberToObject(o, "busy_s", k->busy_s);
    cJSON_AddNumberToObject(o, "peak_Bps", k->peak_Bps); /* what --resume reads back */
    cJSON_AddNumberToObject(o, "mean_util", sim_link_mean_util(k, l->window_s));
    cJSON_AddNumberToObject(o, "peak_util", sim_link_peak_util(k));
    cJSON_AddItemToArray(list, o);
  }
  cJSON_AddNumberToObject(point, "links_window_s", l->window_s);
}
