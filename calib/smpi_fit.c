/* smpi_fit.c: from piecewise alpha-beta fits to SMPI's piecewise factors. With route latency
 * L and bandwidth B, SMPI charges a message of S bytes lat_f(S) * L + S / (bw_f(S) * B)
 * (checked on SimGrid 3.32 to within 0.5%), so a segment alpha + beta S is reproduced by
 * lat_f = alpha / L and bw_f = 1 / (beta B). L is the reference class's small-message
 * latency and B its large-message bandwidth, so that the largest messages, which share
 * links in an allreduce, move at the physical link rate (bw_f = 1 there). */
#include "smpi_fit.h"

#include <gsl/gsl_multifit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cal_error.h"

static double seg_bw_factor(const cost_fit_line *l, double bw)
{
  if (l->c1 <= 0)
    return CAL_BW_FACTOR_CAP;
  double f = 1.0 / (l->c1 * bw);
  return f > CAL_BW_FACTOR_CAP ? CAL_BW_FACTOR_CAP : f;
}

static size_t factor_index(const cal_smpi *s, double bytes)
{
  size_t k = 0;
  while (k + 1 < s->nseg && bytes >= s->thresh[k + 1])
    k++;
  return k;
}

double cal_smpi_predict(const cal_smpi *s, const cal_smpi_link *l, double bytes)
{
  size_t k = factor_index(s, bytes);
  return s->lat_f[k] * l->latency_s + bytes / (s->bw_f[k] * l->bandwidth_Bps);
}

static double worst_error(const cal_smpi *s, const cal_smpi_link *l, const cal_netfit *nf)
{
  double worst = 0;
  for (size_t i = 0; i < nf->n; i++) {
    double e = fabs(cal_smpi_predict(s, l, nf->bytes[i]) - nf->time[i]) / nf->time[i];
    worst = e > worst ? e : worst;
  }
  return worst;
}

/* The reference class: latency of its first segment, bandwidth of its last one with a
 * per-byte cost. */
static int reference_link(const cal_netfit *nf, cal_smpi_link *l)
{
  const cost_fit_piecewise *pw = &nf->pw;
  l->latency_s = 0;
  for (size_t k = 0; k < pw->nseg && l->latency_s <= 0; k++)
    l->latency_s = pw->line[k].c0;
  l->bandwidth_Bps = 0;
  for (size_t k = pw->nseg; k > 0 && l->bandwidth_Bps <= 0; k--)
    if (pw->line[k - 1].c1 > 0)
      l->bandwidth_Bps = 1.0 / pw->line[k - 1].c1;
  l->has = 1;
  return l->latency_s > 0 && l->bandwidth_Bps > 0 ? 0 : CAL_EFIT;
}

/* The other class: weighted least squares of t = L lat_f(S) + (1/B) S / bw_f(S) over its
 * points; its own first latency and last bandwidth when that gives no positive L and B. */
static int other_link(const cal_smpi *s, const cal_netfit *nf, cal_smpi_link *l)
{
  size_t n = nf->n;
  gsl_matrix *X = gsl_matrix_alloc(n, 2), *cov = gsl_matrix_alloc(2, 2);
  gsl_vector *y = gsl_vector_alloc(n), *w = gsl_vector_alloc(n), *c = gsl_vector_alloc(2);
  gsl_multifit_linear_workspace *ws = gsl_multifit_linear_alloc(n, 2);
  int rc = X && cov && y && w && c && ws ? 0 : CAL_ENOMEM;
  double chisq;
  if (rc == 0) {
    for (size_t i = 0; i < n; i++) {
      size_t k = factor_index(s, nf->bytes[i]);
      gsl_matrix_set(X, i, 0, s->lat_f[k]);
      gsl_matrix_set(X, i, 1, nf->bytes[i] / s->bw_f[k]);
      gsl_vector_set(y, i, nf->time[i]);
      gsl_vector_set(w, i, 1.0 / (nf->time[i] * nf->time[i]));
    }
    if (gsl_multifit_wlinear(X, w, y, c, cov, &chisq, ws) != 0)
      rc = CAL_EFIT;
  }
  l->has = 1;
  if (rc == 0 && gsl_vector_get(c, 0) > 0 && gsl_vector_get(c, 1) > 0) {
    l->latency_s = gsl_vector_get(c, 0);
    l->bandwidth_Bps = 1.0 / gsl_vector_get(c, 1);
  } else if (rc != CAL_ENOMEM) {
    rc = reference_link(nf, l);
  }
  gsl_multifit_linear_free(ws);
  gsl_vector_free(c);
  gsl_vector_free(w);
  gsl_vector_free(y);
  gsl_matrix_free(cov);
  gsl_matrix_free(X);
  return rc;
}

int cal_smpi_fit(const cal_netfit *intra, const cal_netfit *inter, const char *reference, cal_smpi *s)
{
  memset(s, 0, sizeof *s);
  if (!intra && !inter)
    return CAL_ENODATA;
  if (!reference)
    reference = inter ? "inter" : "intra";
  int ref_inter = strcmp(reference, "inter") == 0;
  const cal_netfit *ref = ref_inter ? inter : intra, *other = ref_inter ? intra : inter;
  if (!ref)
    return CAL_ENODATA;
  snprintf(s->reference, sizeof s->reference, "%s", ref_inter ? "inter" : "intra");
  cal_smpi_link *rl = ref_inter ? &s->inter : &s->intra, *ol = ref_inter ? &s->intra : &s->inter;
  int rc = reference_link(ref, rl);
  if (rc != 0)
    return rc;
  s->nseg = ref->pw.nseg;
  for (size_t k = 0; k < s->nseg; k++) {
    const cost_fit_line *l = &ref->pw.line[k];
    s->thresh[k] = k ? ref->bytes[ref->pw.first[k]] : 0;
    s->lat_f[k] = l->c0 > 0 ? l->c0 / rl->latency_s : 0;
    s->bw_f[k] = seg_bw_factor(l, rl->bandwidth_Bps);
  }
  rl->max_rel_err = worst_error(s, rl, ref);
  if (other) {
    rc = other_link(s, other, ol);
    if (rc == 0)
      ol->max_rel_err = worst_error(s, ol, other);
  }
  return rc;
}

void cal_smpi_factor_string(const cal_smpi *s, int bw, char *buf, size_t len)
{
  size_t used = 0;
  buf[0] = '\0';
  for (size_t k = 0; k < s->nseg && used < len; k++)
    used += (size_t)snprintf(buf + used, len - used, "%s%.0f:%.6g", k ? ";" : "", s->thresh[k],
                             bw ? s->bw_f[k] : s->lat_f[k]);
}

static cJSON *link_json(const cal_smpi_link *l)
{
  if (!l->has)
    return cJSON_CreateNull();
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "latency_s", l->latency_s);
  cJSON_AddNumberToObject(o, "bandwidth_Bps", l->bandwidth_Bps);
  cJSON_AddNumberToObject(o, "max_rel_err", l->max_rel_err);
  return o;
}

cJSON *cal_smpi_json(const cal_smpi *s)
{
  char lat[1024], bw[1024];
  cal_smpi_factor_string(s, 0, lat, sizeof lat);
  cal_smpi_factor_string(s, 1, bw, sizeof bw);
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "reference", s->reference);
  cJSON_AddStringToObject(o, "lat_factor", lat);
  cJSON_AddStringToObject(o, "bw_factor", bw);
  cJSON_AddItemToObject(o, "intra", link_json(&s->intra));
  cJSON_AddItemToObject(o, "inter", link_json(&s->inter));
  return o;
}

static int link_from_json(const cJSON *o, cal_smpi_link *l)
{
  memset(l, 0, sizeof *l);
  if (!o || cJSON_IsNull(o))
    return 0;
  const cJSON *lat = cJSON_GetObjectItemCaseSensitive(o, "latency_s");
  const cJSON *bw = cJSON_GetObjectItemCaseSensitive(o, "bandwidth_Bps");
  const cJSON *err = cJSON_GetObjectItemCaseSensitive(o, "max_rel_err");
  if (!cJSON_IsNumber(lat) || !cJSON_IsNumber(bw) || lat->valuedouble < 0 || bw->valuedouble <= 0)
    return CAL_EPARSE;
  l->has = 1;
  l->latency_s = lat->valuedouble;
  l->bandwidth_Bps = bw->valuedouble;
  l->max_rel_err = cJSON_IsNumber(err) ? err->valuedouble : 0;
  return 0;
}

/* "T0:f0;T1:f1;..." with T0 = 0, increasing thresholds and non-negative factors. */
static int parse_factors(const char *str, int bw, cal_smpi *s)
{
  size_t k = 0;
  for (const char *p = str; *p && k < CAL_NET_MAX_SEG; k++) {
    char *end;
    double t = strtod(p, &end), f;
    if (end == p || *end != ':')
      return CAL_EPARSE;
    p = end + 1;
    f = strtod(p, &end);
    if (end == p || (*end && *end != ';') || f < 0 || (k == 0 && t != 0) || (k && t <= s->thresh[k - 1]))
      return CAL_EPARSE;
    if (bw && f <= 0)
      return CAL_EPARSE;
    if (!bw)
      s->thresh[k] = t;
    else if (k >= s->nseg || t != s->thresh[k])
      return CAL_EPARSE;
    (bw ? s->bw_f : s->lat_f)[k] = f;
    p = *end ? end + 1 : end;
  }
  if (!bw)
    s->nseg = k;
  return k > 0 && k == s->nseg ? 0 : CAL_EPARSE;
}

int cal_smpi_from_json(const cJSON *o, cal_smpi *s)
{
  memset(s, 0, sizeof *s);
  const cJSON *ref = cJSON_GetObjectItemCaseSensitive(o, "reference");
  const cJSON *lat = cJSON_GetObjectItemCaseSensitive(o, "lat_factor");
  const cJSON *bw = cJSON_GetObjectItemCaseSensitive(o, "bw_factor");
  if (!cJSON_IsString(ref) || !cJSON_IsString(lat) || !cJSON_IsString(bw))
    return CAL_EPARSE;
  snprintf(s->reference, sizeof s->reference, "%s", ref->valuestring);
  if (parse_factors(lat->valuestring, 0, s) || parse_factors(bw->valuestring, 1, s) ||
      link_from_json(cJSON_GetObjectItemCaseSensitive(o, "intra"), &s->intra) ||
      link_from_json(cJSON_GetObjectItemCaseSensitive(o, "inter"), &s->inter))
    return CAL_EPARSE;
  return s->intra.has || s->inter.has ? 0 : CAL_EPARSE;
}
