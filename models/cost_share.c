/* cost_share.c: how messages sent at once share the links, as SimGrid's network model shares
 * them: weighted max-min fairness (every message on a saturated link gets the same rate
 * times its penalty, the penalty being its route's latency + weight-S * sum of 1/bandwidth,
 * so long routes get less), each message bounded by what it would get alone and by TCP's
 * window over its latency, a FATPIPE link never shared, and with cross traffic 5% of each
 * message's rate charged to its reverse route. Messages of one step have one size, so the
 * fluid evolution (rates recomputed as messages finish) scales with it: each message's time
 * per byte is computed once, for one byte. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cost_ctx.h"

/* SimGrid's cross traffic: each message also loads its reverse route by 5% of its rate. */
#define COST_CROSSTRAFFIC 0.05
#define MAX_USES (2 * COST_MAX_ROUTE)

typedef struct {
  int n;
  int key[MAX_USES];
  double coef[MAX_USES];
  double penalty, bound, left, rate, done;
  int fixed, active;
} flow_state;

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

static int use(flow_state *f, int key, double coef)
{
  for (int i = 0; i < f->n; i++)
    if (f->key[i] == key) {
      f->coef[i] += coef;
      return 0;
    }
  if (f->n == MAX_USES)
    return SA_EINVAL;
  f->key[f->n] = key;
  f->coef[f->n++] = coef;
  return 0;
}

/* One flow's links, penalty and bound; FATPIPE links only bound it. */
static int flow_init(const cost_ctx *c, const cost_flow *fl, flow_state *f)
{
  memset(f, 0, sizeof *f);
  cost_path p, back;
  int rc = cost_path_of(c, fl->src, fl->dst, &p);
  if (rc)
    return rc;
  f->bound = p.bw;
  if (c->net->tcp_gamma > 0)
    f->bound = fmin(f->bound, c->net->tcp_gamma / (2.0 * p.lat));
  f->penalty = p.lat + c->net->weight_s * p.inv_bw;
  if (!(f->penalty > 0))
    f->penalty = 1;
  for (int i = 0; i < p.n && rc == 0; i++)
    if (c->net->links[p.key[i] / c->owners].shared)
      rc = use(f, p.key[i], 1.0);
  if (rc == 0 && c->net->crosstraffic && (rc = cost_path_of(c, fl->dst, fl->src, &back)) == 0)
    for (int i = 0; i < back.n && rc == 0; i++)
      if (c->net->links[back.key[i] / c->owners].shared)
        rc = use(f, back.key[i], COST_CROSSTRAFFIC);
  f->left = 1.0; /* bytes: every message of the step has the same size */
  f->active = 1;
  return rc;
}

/* Weighted max-min rates of the active flows (progressive filling): raise a common level L,
 * flow f running at L / penalty_f, until a link or a flow's bound saturates; fix the flows
 * held there and go on with the rest. load and denom are scratch arrays over link keys. */
static void share(const cost_ctx *c, flow_state *fs, int n, double *load, double *denom)
{
  int left = 0;
  for (int i = 0; i < n; i++) {
    fs[i].fixed = !fs[i].active;
    left += fs[i].active;
  }
  while (left > 0) {
    for (int i = 0; i < n; i++)
      for (int u = 0; u < fs[i].n; u++)
        load[fs[i].key[u]] = denom[fs[i].key[u]] = 0;
    for (int i = 0; i < n; i++)
      for (int u = 0; fs[i].active && u < fs[i].n; u++) {
        if (fs[i].fixed)
          load[fs[i].key[u]] += fs[i].coef[u] * fs[i].rate;
        else
          denom[fs[i].key[u]] += fs[i].coef[u] / fs[i].penalty;
      }
    /* the lowest level at which something saturates, and every flow held at it */
    double level = INFINITY;
    for (int pass = 0; pass < 2; pass++)
      for (int i = 0; i < n; i++) {
        if (fs[i].fixed)
          continue;
        double mine = fs[i].bound * fs[i].penalty;
        for (int u = 0; u < fs[i].n; u++) {
          int k = fs[i].key[u];
          mine = fmin(mine, fmax(c->net->links[k / c->owners].bw - load[k], 0) / denom[k]);
        }
        if (pass == 0) {
          level = fmin(level, mine);
        } else if (mine <= level * (1 + 1e-9)) {
          fs[i].rate = fmin(level / fs[i].penalty, fs[i].bound);
          fs[i].fixed = 1;
          left--;
        }
      }
  }
}

int cost_pattern(cost_ctx *c, const cost_flow *f, int n, cost_hop *each, cost_hops *out)
{
  flow_state *fs = calloc((size_t)(n ? n : 1), sizeof *fs);
  double *denom = calloc((size_t)c->net->nlinks * (size_t)c->owners, sizeof *denom);
  double *load = c->load;
  int rc = fs && denom ? 0 : SA_ENOMEM;
  for (int i = 0; i < n && rc == 0; i++)
    rc = flow_init(c, &f[i], &fs[i]);
  /* the fluid run: share, advance to the next message to finish, share again */
  double now = 0;
  for (int active = n; rc == 0 && active > 0;) {
    share(c, fs, n, load, denom);
    double dt = INFINITY;
    for (int i = 0; i < n; i++)
      if (fs[i].active && fs[i].rate > 0)
        dt = fmin(dt, fs[i].left / fs[i].rate);
    if (isinf(dt)) {
      rc = SA_ENOROUTE; /* a message that can never move: a link of no bandwidth */
      break;
    }
    now += dt;
    for (int i = 0; i < n; i++) {
      if (!fs[i].active)
        continue;
      fs[i].left -= fs[i].rate * dt;
      if (fs[i].left <= 1e-9 * (1 + fs[i].rate * dt)) {
        fs[i].active = 0;
        fs[i].done = now;
        active--;
      }
    }
  }
  if (out)
    out->n = 0;
  for (int i = 0; i < n && rc == 0; i++) {
    cost_path p;
    cost_path_of(c, f[i].src, f[i].dst, &p);
    cost_hop h = {p.lat, fs[i].done};
    if (each)
      each[i] = h;
    if (out)
      cost_hops_add(out, h);
  }
  free(fs);
  free(denom);
  return rc;
}
