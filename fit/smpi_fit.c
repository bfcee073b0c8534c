/* smpi_fit.c: from piecewise alpha-beta fits to SMPI settings. With route latency L and
 * bandwidth B, SimGrid 3.32's SMPI model charges a message of S bytes
 *   lat_f(S) L + S / (bw_f(S) B) + or(S),  or(S) = o + p S only when S < 64 KiB
 * (checked here against simulated ping-pongs to within 0.5%), at a rate of at most
 * network/TCP-gamma / (2 L). For the reference class a
 * segment alpha + beta S is reproduced by lat_f = alpha / L and bw_f = 1 / (beta B); L is
 * its small-message latency and B its large-message bandwidth, so the largest messages,
 * which share links in an allreduce, move at the physical link rate (bw_f = 1 there). A
 * second class (La, Ba) adds two equations per segment, which o and p answer:
 *   lat_f = (a2 - a1) / (L2 - L1), o = a1 - lat_f L1,
 *   1 / bw_f = (b2 - b1) / (1/B2 - 1/B1), p = b1 - 1 / (bw_f B1). */
#include "smpi_fit.h"

#include <gsl/gsl_multifit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"

static size_t seg_index(const fit_smpi *s, double bytes)
{
  size_t k = 0;
  while (k + 1 < s->nseg && bytes >= s->thresh[k + 1])
    k++;
  return k;
}

double fit_smpi_predict(const fit_smpi *s, const fit_smpi_link *l, double bytes)
{
  size_t k = seg_index(s, bytes);
  /* SimGrid bounds a flow's rate by its window over the round trip of the route's own
   * (unfactored) latency: a long route latency slows large messages whatever the factors. */
  double rate = fmin(s->bw_f[k] * l->bandwidth_Bps, FIT_SMPI_TCP_GAMMA / (2 * l->latency_s));
  double t = s->lat_f[k] * l->latency_s + bytes / rate;
  return bytes < FIT_SMPI_DETACHED ? t + s->or_s[k] + s->or_per_byte[k] * bytes : t;
}

static double worst_error(const fit_smpi *s, const fit_smpi_link *l, const fit_net *nf)
{
  double worst = 0;
  for (size_t i = 0; i < nf->n; i++) {
    double e = fabs(fit_smpi_predict(s, l, nf->bytes[i]) - nf->time[i]) / nf->time[i];
    worst = e > worst ? e : worst;
  }
  return worst;
}

/* Latency of the first segment with one, bandwidth of the last with a per-byte cost. */
static int own_link(const fit_net *nf, fit_smpi_link *l)
{
  const fit_piecewise *pw = &nf->pw;
  l->has = 1;
  l->latency_s = l->bandwidth_Bps = 0;
  for (size_t k = 0; k < pw->nseg && l->latency_s <= 0; k++)
    l->latency_s = pw->line[k].c0;
  for (size_t k = pw->nseg; k > 0 && l->bandwidth_Bps <= 0; k--)
    if (pw->line[k - 1].c1 > 0)
      l->bandwidth_Bps = 1.0 / pw->line[k - 1].c1;
  return l->latency_s > 0 && l->bandwidth_Bps > 0 ? 0 : SA_EFIT;
}

static double capped_bw_factor(double inv) { return inv > 1.0 / FIT_BW_FACTOR_CAP ? 1.0 / inv : FIT_BW_FACTOR_CAP; }

/* Segments: every breakpoint of either class, and with two classes the detached threshold. */
static void segments(fit_smpi *s, const fit_net *a, const fit_net *b)
{
  double t[FIT_SMPI_MAX_SEG + 1];
  size_t n = 0;
  t[n++] = 0;
  for (int c = 0; c < 2; c++) {
    const fit_net *nf = c ? b : a;
    for (size_t k = 1; nf && k < nf->pw.nseg; k++)
      t[n++] = nf->bytes[nf->pw.first[k]];
  }
  if (a && b)
    t[n++] = FIT_SMPI_DETACHED;
  s->nseg = 0;
  for (;;) { /* ascending, without repeats */
    double next = INFINITY, last = s->nseg ? s->thresh[s->nseg - 1] : -1;
    for (size_t i = 0; i < n; i++)
      if (t[i] > last && t[i] < next)
        next = t[i];
    if (!isfinite(next))
      break;
    s->thresh[s->nseg++] = next;
  }
}

/* Factors from the reference line alone (no overhead). */
static void reference_only(fit_smpi *s, size_t k, const fit_line *r, const fit_smpi_link *rl)
{
  s->lat_f[k] = r->c0 > 0 ? r->c0 / rl->latency_s : 0;
  s->bw_f[k] = capped_bw_factor(r->c1 * rl->bandwidth_Bps);
  s->or_s[k] = s->or_per_byte[k] = 0;
}

/* One half of a segment for both classes at once: x_i = f L_i + o with f, o >= 0, where L_i
 * is a route's latency (or 1/bandwidth), f its factor and o the overhead every route pays.
 * (a1, a2) is met exactly when it lies in the cone (L1, L2) and (1, 1) span. Outside it
 * the best point lies on the nearer edge: o = 0 (the factor alone) or f = 0 (the overhead
 * alone), each at its smallest worse relative error; the better edge is taken. Returns 0,
 * or -1 when a coefficient is not positive and the reference's own settings stay. */
static int cone_fit(double L1, double L2, double a1, double a2, double *f, double *o)
{
  double dl = L2 - L1, lf = dl != 0 ? (a2 - a1) / dl : -1, off = a1 - lf * L1;
  if (lf >= 0 && off >= 0) {
    *f = lf;
    *o = off;
    return 0;
  }
  if (!(a1 > 0 && a2 > 0 && L1 > 0 && L2 > 0))
    return SA_EFIT;
  double c = 2 * a1 * a2 / (a1 + a2), ec = fabs(c - a1) / a1; /* f = 0: same relative error both ways */
  double g = 2 / (L1 / a1 + L2 / a2), eg = fabs(g * L1 - a1) / a1; /* o = 0 */
  *f = ec <= eg ? 0 : g;
  *o = ec <= eg ? c : 0;
  return 0;
}

/* Both lines, exactly where the solution is physical and as near as SMPI can come where it
 * is not; a half with a zero coefficient keeps the reference's settings. */
static void both(fit_smpi *s, size_t k, const fit_line *r, const fit_smpi_link *rl, const fit_line *o,
                 const fit_smpi_link *ol)
{
  reference_only(s, k, r, rl);
  double f, off;
  if (cone_fit(rl->latency_s, ol->latency_s, r->c0, o->c0, &f, &off) == 0) {
    s->lat_f[k] = f;
    s->or_s[k] = off;
  }
  if (cone_fit(1.0 / rl->bandwidth_Bps, 1.0 / ol->bandwidth_Bps, r->c1, o->c1, &f, &off) == 0) {
    s->bw_f[k] = capped_bw_factor(f);
    s->or_per_byte[k] = off;
  }
}

/* The other class's route: weighted least squares of t = L lat_f(S) + (1/B) S / bw_f(S) over
 * its points from the detached threshold up (all of them when fewer than two are there),
 * where the factors are the reference's; its own latency and bandwidth when that gives no
 * positive L and B. */
static int other_link(const fit_smpi *s, const fit_net *nf, fit_smpi_link *l)
{
  size_t first = 0;
  while (first < nf->n && nf->bytes[first] < FIT_SMPI_DETACHED)
    first++;
  if (nf->n - first < 2)
    first = 0;
  size_t n = nf->n - first;
  gsl_matrix *X = gsl_matrix_alloc(n, 2), *cov = gsl_matrix_alloc(2, 2);
  gsl_vector *y = gsl_vector_alloc(n), *w = gsl_vector_alloc(n), *c = gsl_vector_alloc(2);
  gsl_multifit_linear_workspace *ws = gsl_multifit_linear_alloc(n, 2);
  int rc = X && cov && y && w && c && ws ? 0 : SA_ENOMEM;
  double chisq;
  if (rc == 0) {
    for (size_t i = 0; i < n; i++) {
      size_t k = seg_index(s, nf->bytes[first + i]);
      gsl_matrix_set(X, i, 0, s->lat_f[k]);
      gsl_matrix_set(X, i, 1, nf->bytes[first + i] / s->bw_f[k]);
      gsl_vector_set(y, i, nf->time[first + i]);
      gsl_vector_set(w, i, 1.0 / (nf->time[first + i] * nf->time[first + i]));
    }
    if (gsl_multifit_wlinear(X, w, y, c, cov, &chisq, ws) != 0)
      rc = SA_EFIT;
  }
  l->has = 1;
  if (rc == 0 && gsl_vector_get(c, 0) > 0 && gsl_vector_get(c, 1) > 0) {
    l->latency_s = gsl_vector_get(c, 0);
    l->bandwidth_Bps = 1.0 / gsl_vector_get(c, 1);
  } else if (rc != SA_ENOMEM) {
    rc = own_link(nf, l);
  }
  gsl_multifit_linear_free(ws);
  gsl_vector_free(c);
  gsl_vector_free(w);
  gsl_vector_free(y);
  gsl_matrix_free(cov);
  gsl_matrix_free(X);
  return rc;
}

/* Moves the other class's route latency (and per-byte cost 1/B) just far enough from the
 * reference's that every eager segment can be met exactly with non-negative settings: with
 * L2 < L1, lat_f >= 0 and o >= 0 hold when L2 / L1 <= a2 / a1 in every segment; with L2 > L1
 * when L2 / L1 >= a2 / a1. The same holds for 1/B and the per-byte costs. */
static double feasible(double own, double ref, const double *ratio, size_t n)
{
  double lo = INFINITY, hi = 0;
  for (size_t k = 0; k < n; k++) {
    lo = ratio[k] < lo ? ratio[k] : lo;
    hi = ratio[k] > hi ? ratio[k] : hi;
  }
  if (n == 0 || !(lo > 0))
    return own;
  if (own < ref && own > ref * lo)
    return ref * lo;
  if (own > ref && own < ref * hi)
    return ref * hi;
  return own;
}

static void make_feasible(const fit_smpi *s, const fit_net *ref, const fit_net *other, const fit_smpi_link *rl,
                          fit_smpi_link *ol)
{
  double ra[FIT_SMPI_MAX_SEG], rb[FIT_SMPI_MAX_SEG];
  size_t na = 0, nb = 0;
  for (size_t k = 0; k < s->nseg && s->thresh[k] < FIT_SMPI_DETACHED; k++) {
    const fit_line *r = fit_net_line(ref, s->thresh[k]), *o = fit_net_line(other, s->thresh[k]);
    if (r->c0 > 0 && o->c0 > 0)
      ra[na++] = o->c0 / r->c0;
    if (r->c1 > 0 && o->c1 > 0)
      rb[nb++] = o->c1 / r->c1;
  }
  ol->latency_s = feasible(ol->latency_s, rl->latency_s, ra, na);
  ol->bandwidth_Bps = 1.0 / feasible(1.0 / ol->bandwidth_Bps, 1.0 / rl->bandwidth_Bps, rb, nb);
}

int fit_smpi_run(const fit_net *intra, const fit_net *inter, const char *reference, fit_smpi *s)
{
  memset(s, 0, sizeof *s);
  if (!intra && !inter)
    return SA_ENODATA;
  if (!reference)
    reference = inter ? "inter" : "intra";
  int ref_inter = strcmp(reference, "inter") == 0;
  const fit_net *ref = ref_inter ? inter : intra, *other = ref_inter ? intra : inter;
  if (!ref)
    return SA_ENODATA;
  snprintf(s->reference, sizeof s->reference, "%s", ref_inter ? "inter" : "intra");
  fit_smpi_link *rl = ref_inter ? &s->inter : &s->intra, *ol = ref_inter ? &s->intra : &s->inter;
  int rc = own_link(ref, rl);
  if (rc != 0)
    return rc;
  segments(s, ref, other);
  for (size_t k = 0; k < s->nseg; k++)
    reference_only(s, k, fit_net_line(ref, s->thresh[k]), rl);
  if (other) {
    rc = other_link(s, other, ol);
    if (rc == 0)
      make_feasible(s, ref, other, rl, ol);
    for (size_t k = 0; rc == 0 && k < s->nseg && s->thresh[k] < FIT_SMPI_DETACHED; k++)
      both(s, k, fit_net_line(ref, s->thresh[k]), rl, fit_net_line(other, s->thresh[k]), ol);
    if (rc == 0)
      ol->max_rel_err = worst_error(s, ol, other);
  }
  rl->max_rel_err = worst_error(s, rl, ref);
  return rc;
}

void fit_smpi_factor_string(const fit_smpi *s, int which, char *buf, size_t len)
{
  size_t used = 0;
  buf[0] = '\0';
  for (size_t k = 0; k < s->nseg && used < len; k++) {
    const char *sep = k ? ";" : "";
    if (which == FIT_SMPI_OR)
      used += (size_t)snprintf(buf + used, len - used, "%s%.0f:%.9g:%.9g", sep, k ? s->thresh[k] - 1 : 0, s->or_s[k],
                               s->or_per_byte[k]);
    else
      used += (size_t)snprintf(buf + used, len - used, "%s%.0f:%.9g", sep, s->thresh[k],
                               which == FIT_SMPI_BW ? s->bw_f[k] : s->lat_f[k]);
  }
}

static cJSON *link_json(const fit_smpi_link *l)
{
  if (!l->has)
    return cJSON_CreateNull();
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "latency_s", l->latency_s);
  cJSON_AddNumberToObject(o, "bandwidth_Bps", l->bandwidth_Bps);
  cJSON_AddNumberToObject(o, "max_rel_err", l->max_rel_err);
  return o;
}

cJSON *fit_smpi_json(const fit_smpi *s)
{
  char buf[2048];
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "reference", s->reference);
  fit_smpi_factor_string(s, FIT_SMPI_LAT, buf, sizeof buf);
  cJSON_AddStringToObject(o, "lat_factor", buf);
  fit_smpi_factor_string(s, FIT_SMPI_BW, buf, sizeof buf);
  cJSON_AddStringToObject(o, "bw_factor", buf);
  fit_smpi_factor_string(s, FIT_SMPI_OR, buf, sizeof buf);
  cJSON_AddStringToObject(o, "or", buf);
  cJSON_AddNumberToObject(o, "send_is_detached_thresh", FIT_SMPI_DETACHED);
  cJSON_AddItemToObject(o, "intra", link_json(&s->intra));
  cJSON_AddItemToObject(o, "inter", link_json(&s->inter));
  return o;
}

static int link_from_json(const cJSON *o, fit_smpi_link *l)
{
  memset(l, 0, sizeof *l);
  if (!o || cJSON_IsNull(o))
    return 0;
  const cJSON *lat = cJSON_GetObjectItemCaseSensitive(o, "latency_s");
  const cJSON *bw = cJSON_GetObjectItemCaseSensitive(o, "bandwidth_Bps");
  const cJSON *err = cJSON_GetObjectItemCaseSensitive(o, "max_rel_err");
  if (!cJSON_IsNumber(lat) || !cJSON_IsNumber(bw) || lat->valuedouble < 0 || bw->valuedouble <= 0)
    return SA_EPARSE;
  l->has = 1;
  l->latency_s = lat->valuedouble;
  l->bandwidth_Bps = bw->valuedouble;
  l->max_rel_err = cJSON_IsNumber(err) ? err->valuedouble : 0;
  return 0;
}

/* Parses one setting back: segment k's threshold (or its value minus one for smpi/or) must
 * match thresh[k], set by the lat_factor pass. */
static int parse_setting(const char *str, int which, fit_smpi *s)
{
  size_t k = 0;
  for (const char *p = str; *p; k++) {
    double v[3];
    int nv = which == FIT_SMPI_OR ? 3 : 2;
    char *end = (char *)p;
    for (int i = 0; i < nv; i++) {
      const char *at = i ? end + 1 : p;
      if (i && *end != ':')
        return SA_EPARSE;
      v[i] = strtod(at, &end);
      if (end == at || v[i] < 0)
        return SA_EPARSE;
    }
    if (k >= FIT_SMPI_MAX_SEG || (*end && *end != ';'))
      return SA_EPARSE;
    double t = which == FIT_SMPI_OR && k ? v[0] + 1 : v[0];
    if (which == FIT_SMPI_LAT) {
      if ((k == 0 && t != 0) || (k && t <= s->thresh[k - 1]))
        return SA_EPARSE;
      s->thresh[k] = t;
      s->lat_f[k] = v[1];
    } else if (k >= s->nseg || t != s->thresh[k]) {
      return SA_EPARSE;
    } else if (which == FIT_SMPI_BW) {
      if (v[1] <= 0)
        return SA_EPARSE;
      s->bw_f[k] = v[1];
    } else {
      s->or_s[k] = v[1];
      s->or_per_byte[k] = v[2];
    }
    p = *end ? end + 1 : end;
  }
  if (which == FIT_SMPI_LAT)
    s->nseg = k;
  return k > 0 && k == s->nseg ? 0 : SA_EPARSE;
}

int fit_smpi_from_json(const cJSON *o, fit_smpi *s)
{
  memset(s, 0, sizeof *s);
  const cJSON *ref = cJSON_GetObjectItemCaseSensitive(o, "reference");
  const cJSON *set[3] = {cJSON_GetObjectItemCaseSensitive(o, "lat_factor"), cJSON_GetObjectItemCaseSensitive(o, "bw_factor"),
                         cJSON_GetObjectItemCaseSensitive(o, "or")};
  if (!cJSON_IsString(ref))
    return SA_EPARSE;
  snprintf(s->reference, sizeof s->reference, "%s", ref->valuestring);
  for (int i = 0; i < 3; i++)
    if (!cJSON_IsString(set[i]) || parse_setting(set[i]->valuestring, i, s) != 0)
      return SA_EPARSE;
  if (link_from_json(cJSON_GetObjectItemCaseSensitive(o, "intra"), &s->intra) ||
      link_from_json(cJSON_GetObjectItemCaseSensitive(o, "inter"), &s->inter))
    return SA_EPARSE;
  return s->intra.has || s->inter.has ? 0 : SA_EPARSE;
}
