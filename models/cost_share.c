/* cost_share.c: how messages sent at once share the links, as SimGrid's network model shares
 * them: weighted max-min fairness (every message on a saturated link gets the same rate
 * times its penalty, the penalty being its route's latency + weight-S * sum of 1/bandwidth,
 * so long routes get less, or 1 on a route of no latency), each message bounded by what it
 * would get alone and by TCP's window over its latency, a FATPIPE link never shared, and with
 * cross traffic 5% of each message's rate charged to its reverse route. Messages of one step
 * have one size, so the fluid evolution (rates recomputed as messages finish) scales with it:
 * each message's time per byte is computed once, for one byte. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cost_ctx.h"

/* SimGrid's cross traffic: each message also loads its reverse route by 5% of its rate. */
#define COST_CROSSTRAFFIC 0.05


void cost_hops_add(cost_hops *s, cost_hop h)
{
  for (int i = 0; i < s->n; i++)
    if (s->h[i].lat >= h.lat && s->h[i].kappa >= h.kappa)
      return;
  int m = 0;
  for (int i = 0; i < s->n; i++)
    if (!(h.lat >= s->h[i].lat && h.kappa >= s->h[i].kappa))
      s->h[m++] = s->h[i];
  s->n = m;
  if (s->n < COST_MAX_CLASSES) {
    s->h[s->n++] = h;
    return;
  }
  /* full: merge into the hop nearest in latency, keeping the worse of both terms */
  int best = 0;
  for (int i = 1; i < s->n; i++)
    if (fabs(s->h[i].lat - h.lat) < fabs(s->h[best].lat - h.lat))
      best = i;
  s->h[best].lat = s->h[best].lat > h.lat ? s->h[best].lat : h.lat;
  s->h[best].kappa = s->h[best].kappa > h.kappa ? s->h[best].kappa : h.kappa;
}

int cost_route_use_add(cost_route_use *f, int key, double coef)
{
  for (int i = 0; i < f->n; i++)
    if (f->key[i] == key) {
      f->coef[i] += coef;
      return 0;
    }
  if (f->n == COST_MAX_USES)
    return SA_EINVAL;
  f->key[f->n] = key;
  f->coef[f->n++] = coef;
  return 0;
}

int cost_route_use_of(const cost_ctx *c, int src, int dst, cost_route_use *f)
{
  memset(f, 0, sizeof *f);
  cost_path p, back;
  int rc = cost_path_of(c, src, dst, &p);
  if (rc)
    return rc;
  f->lat = p.lat;
  f->bw = p.bw;
  f->bound = p.bw;
  if (c->net->tcp_gamma > 0)
    f->bound = fmin(f->bound, c->net->tcp_gamma / (2.0 * p.lat));
  /* SimGrid 3.32 makes a message that has no latency to pay with penalty 1 and never changes
   * it (src/surf/network_cm02.cpp: a variable made at 1.0; one made at 0 takes latency plus
   * weight-S once its latency is paid): on a route of no latency every message gets an even
   * share, whatever its links' bandwidths (tests/data/platforms/zerolat4.xml) */
  f->penalty = p.lat > 0 ? p.lat + c->net->weight_s * p.inv_bw : 1;
  for (int i = 0; i < p.n && rc == 0; i++)
    if (c->net->rt.links[p.key[i] / c->owners].shared)
      rc = cost_route_use_add(f, p.key[i], 1.0);
  if (rc == 0 && c->net->crosstraffic && (rc = cost_path_of(c, dst, src, &back)) == 0)
    for (int i = 0; i < back.n && rc == 0; i++)
      if (c->net->rt.links[back.key[i] / c->owners].shared)
        rc = cost_route_use_add(f, back.key[i], COST_CROSSTRAFFIC);
  return rc;
}

void cost_share_rates(const cost_ctx *c, const cost_route_use *const *u, const unsigned char *active, int n,
                      double *rate, double *load, double *denom, unsigned char *fixed)
{
  int left = 0;
  for (int i = 0; i < n; i++) {
    fixed[i] = !active[i];
    left += active[i];
    for (int k = 0; active[i] && k < u[i]->n; k++)
      load[u[i]->key[k]] = denom[u[i]->key[k]] = 0;
  }
  for (int i = 0; i < n; i++)
    for (int k = 0; active[i] && k < u[i]->n; k++)
      denom[u[i]->key[k]] += u[i]->coef[k] / u[i]->penalty;
  while (left > 0) {
    /* the lowest level at which something saturates, and every flow held at it; the links'
     * loads and shares move only once every flow held at this level is known */
    double level = INFINITY;
    for (int pass = 0; pass < 2; pass++)
      for (int i = 0; i < n; i++) {
        if (fixed[i] == 1)
          continue;
        double mine = u[i]->bound * u[i]->penalty;
        for (int k = 0; k < u[i]->n; k++) {
          int key = u[i]->key[k];
          mine = fmin(mine, fmax(c->net->rt.links[key / c->owners].bw - load[key], 0) / denom[key]);
        }
        if (pass == 0) {
          level = fmin(level, mine);
        } else if (mine <= level * (1 + 1e-9)) {
          rate[i] = fmin(level / u[i]->penalty, u[i]->bound);
          fixed[i] = 2; /* held now: its load goes on the links below */
          left--;
        }
      }
    for (int i = 0; i < n; i++)
      if (fixed[i] == 2) {
        fixed[i] = 1;
        for (int k = 0; k < u[i]->n; k++) {
          load[u[i]->key[k]] += u[i]->coef[k] * rate[i];
          denom[u[i]->key[k]] -= u[i]->coef[k] / u[i]->penalty;
        }
      }
  }
}

int cost_pattern(cost_ctx *c, const cost_flow *f, int n, cost_hop *each, cost_hops *out)
{
  int m = n ? n : 1;
  cost_route_use *u = calloc((size_t)m, sizeof *u);
  const cost_route_use **up = calloc((size_t)m, sizeof *up);
  double *left = calloc((size_t)m, sizeof *left), *rate = calloc((size_t)m, sizeof *rate);
  double *done = calloc((size_t)m, sizeof *done);
  unsigned char *active = calloc((size_t)m, 1), *fixed = calloc((size_t)m, 1);
  double *denom = calloc((size_t)c->net->rt.nlinks * (size_t)c->owners + 1, sizeof *denom);
  int rc = u && up && left && rate && done && active && fixed && denom ? 0 : SA_ENOMEM;
  for (int i = 0; i < n && rc == 0; i++) {
    rc = cost_route_use_of(c, f[i].src, f[i].dst, &u[i]);
    up[i] = &u[i];
    left[i] = 1.0; /* bytes: every message of the step has the same size */
    active[i] = 1;
  }
  /* the fluid run: share, advance to the next message to finish, share again */
  double now = 0;
  for (int nactive = n; rc == 0 && nactive > 0;) {
    cost_share_rates(c, up, active, n, rate, c->load, denom, fixed);
    double dt = INFINITY;
    for (int i = 0; i < n; i++)
      if (active[i] && rate[i] > 0)
        dt = fmin(dt, left[i] / rate[i]);
    if (isinf(dt)) {
      rc = SA_ENOROUTE; /* a message that can never move: a link of no bandwidth */
      break;
    }
    now += dt;
    for (int i = 0; i < n; i++) {
      if (!active[i])
        continue;
      left[i] -= rate[i] * dt;
      if (left[i] <= 1e-9 * (1 + rate[i] * dt)) {
        active[i] = 0;
        done[i] = now;
        nactive--;
      }
    }
  }
  if (out)
    out->n = 0;
  for (int i = 0; i < n && rc == 0; i++) {
    cost_hop h = {u[i].lat, done[i]};
    if (each)
      each[i] = h;
    if (out)
      cost_hops_add(out, h);
  }
  free(u);
  free(up);
  free(left);
  free(rate);
  free(done);
  free(active);
  free(fixed);
  free(denom);
  return rc;
}
