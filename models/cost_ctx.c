/* cost_ctx.c: the model context (layout, link ownership, the runner's start skew, what the
 * models keep), the time of a hop and of device work, results. */
#include <stdlib.h>
#include <string.h>

#include "cost_ctx.h"

/* Links of route a that are also on route b (node 0's end of both). */
static int common_links(const topo_route *a, const topo_route *b, int **out, int *n)
{
  *n = 0;
  *out = malloc(sizeof(int) * (size_t)(a->n ? a->n : 1));
  if (!*out)
    return SA_ENOMEM;
  for (int i = 0; i < a->n; i++)
    for (int j = 0; j < b->n; j++)
      if (a->link[i] == b->link[j]) {
        (*out)[(*n)++] = a->link[i];
        break;
      }
  return 0;
}

static int init_relabel(cost_ctx *c)
{
  const cost_net *net = c->net;
  int pairs = net->rt.gpus * net->rt.gpus, rc = 0;
  c->up = calloc((size_t)pairs, sizeof *c->up);
  c->down = calloc((size_t)pairs, sizeof *c->down);
  c->nup = calloc((size_t)pairs, sizeof *c->nup);
  c->ndown = calloc((size_t)pairs, sizeof *c->ndown);
  if (!c->up || !c->down || !c->nup || !c->ndown)
    return SA_ENOMEM;
  for (int i = 0; i < pairs && rc == 0; i++) {
    rc = common_links(&net->rt.inter[TOPO_R01][i], &net->rt.inter[TOPO_R02][i], &c->up[i], &c->nup[i]);
    if (rc == 0)
      rc = common_links(&net->rt.inter[TOPO_R10][i], &net->rt.inter[TOPO_R20][i], &c->down[i], &c->ndown[i]);
  }
  return rc;
}

/* The runner times each point from a barrier (SMPI's default, linear: rank 0 collects a
 * message from everyone, then releases each with an empty message), so rank i starts one
 * empty message's delivery after rank 0. Timed as nccl-tests does, back to back, no rank
 * waits for a late start: no skew (the barrier's delays stay in `release`, where NCCL's
 * replays start their back-to-back calls: cost_nccl_des.c). */
static int init_skew(cost_ctx *c)
{
  c->skew = calloc((size_t)c->p, sizeof *c->skew);
  c->release = calloc((size_t)c->p, sizeof *c->release);
  if (!c->skew || !c->release)
    return SA_ENOMEM;
  c->skew_max = c->skew_node0 = 0;
  for (int i = 1; i < c->p; i++) {
    cost_path p;
    int rc = cost_path_of(c, 0, i, &p);
    if (rc)
      return rc;
    c->release[i] = cost_hop_time(c, (cost_hop){p.lat, 0}, 0);
    if (c->shape.timing != COST_TIMING_BARRIER)
      continue;
    double s = c->skew[i] = c->release[i];
    c->skew_max = s > c->skew_max ? s : c->skew_max;
    if (i < c->shape.rpn)
      c->skew_node0 = s > c->skew_node0 ? s : c->skew_node0;
  }
  return 0;
}

int cost_ctx_new(const cost_net *net, const cost_shape *shape, cost_ctx **out)
{
  *out = NULL;
  if (!net || !shape || shape->nodes < 1 || shape->rpn < 1 || shape->elem < 1 || shape->channels < 1)
    return SA_EINVAL;
  /* one rank alone sends nothing: it needs no link (a node of one GPU has none) */
  if (shape->nodes > net->rt.nnodes || shape->rpn > net->rt.gpus || (net->rt.nlinks < 1 && shape->nodes * shape->rpn > 1))
    return SA_ELAYOUT;
  cost_ctx *c = calloc(1, sizeof *c);
  if (!c)
    return SA_ENOMEM;
  c->net = net;
  c->shape = *shape;
  c->p = shape->nodes * shape->rpn;
  c->relabel = net->rt.nnodes >= 3;
  if (net->rt.nnodes >= 2 && (!net->rt.inter[TOPO_R01] || !net->rt.inter[TOPO_R10]))
    c->relabel = -1;
  if (c->relabel == 1 && (!net->rt.inter[TOPO_R02] || !net->rt.inter[TOPO_R20]))
    c->relabel = -1;
  c->owners = c->relabel == 1 ? shape->nodes : 1;
  /* one rank per node sends nothing within a node: no route there is needed */
  int rc = c->relabel < 0 || (!net->rt.intra[0] && shape->rpn > 1) ? SA_ENOROUTE : 0;
  if (rc == 0 && c->relabel == 1)
    rc = init_relabel(c);
  if (rc == 0) {
    c->load = calloc((size_t)net->rt.nlinks * (size_t)c->owners + 1, sizeof *c->load);
    rc = c->load ? 0 : SA_ENOMEM;
  }
  if (rc == 0)
    rc = init_skew(c);
  if (rc) {
    cost_ctx_free(c);
    return rc;
  }
  *out = c;
  return 0;
}

void *cost_cache_get(const cost_ctx *c, const void *key)
{
  for (int i = 0; i < c->ncache; i++)
    if (c->cache[i].key == key)
      return c->cache[i].data;
  return NULL;
}

int cost_cache_keep(cost_ctx *c, const void *key, void *data, void (*release)(void *), int rc, void **out)
{
  *out = NULL;
  if (rc == 0 && c->ncache == COST_MAX_CACHE)
    rc = SA_ENOMEM;
  if (rc) {
    if (data)
      release(data);
    return rc;
  }
  c->cache[c->ncache++] = (cost_cache_entry){key, data, release};
  *out = data;
  return 0;
}

void cost_ctx_free(cost_ctx *c)
{
  if (!c)
    return;
  for (int i = 0; i < c->ncache; i++)
    if (c->cache[i].data && c->cache[i].release)
      c->cache[i].release(c->cache[i].data);
  for (int i = 0; c->up && i < c->net->rt.gpus * c->net->rt.gpus; i++) {
    free(c->up[i]);
    free(c->down[i]);
  }
  free(c->up);
  free(c->down);
  free(c->nup);
  free(c->ndown);
  free(c->load);
  free(c->skew);
  free(c->release);
  free(c);
}

cost_size cost_size_of(const cost_ctx *c, double bytes)
{
  const cost_net *net = c->net;
  return (cost_size){bytes, sa_piecewise_at(&net->lat_factor, bytes), sa_piecewise_at(&net->bw_factor, bytes),
                     cost_recv_overhead(c, bytes)};
}

double cost_hop_time(const cost_ctx *c, cost_hop h, double bytes)
{
  cost_size s = cost_size_of(c, bytes);
  return cost_hop_at(h, &s);
}

double cost_recv_overhead(const cost_ctx *c, double bytes)
{
  /* SMPI charges it on messages sent eagerly only */
  return bytes < c->net->detached_thresh ? sa_piecewise_at(&c->net->recv_overhead, bytes) : 0;
}

double cost_hops_time(const cost_ctx *c, const cost_hops *s, double bytes)
{
  double t = 0;
  for (int i = 0; i < s->n; i++) {
    double x = cost_hop_time(c, s->h[i], bytes);
    t = x > t ? x : t;
  }
  return t;
}

double cost_sum_time(const cost_ctx *c, uint64_t elems)
{
  if (elems == 0 || c->net->compute.reduce_bw <= 0)
    return 0;
  return c->net->compute.reduce_lat + (double)elems * c->shape.elem / c->net->compute.reduce_bw;
}

double cost_copy_time(const cost_ctx *c, uint64_t elems)
{
  return c->net->compute.copy_bw > 0 ? (double)elems * c->shape.elem / c->net->compute.copy_bw : 0;
}

void cost_result_init(cost_result *r) { memset(r, 0, sizeof *r); }

void cost_result_phase(cost_result *r, const char *name, double s)
{
  r->time_s += s;
  if (r->nphases > 0 && strcmp(r->phase_name[r->nphases - 1], name) == 0) {
    r->phase_s[r->nphases - 1] += s;
    return;
  }
  if (r->nphases == COST_MAX_PHASES)
    return;
  r->phase_name[r->nphases] = name;
  r->phase_s[r->nphases++] = s;
}

void cost_result_skew(cost_result *r, int phase, double s)
{
  if (phase < 0)
    phase += r->nphases;
  if (phase < 0 || phase >= r->nphases || s <= 0)
    return;
  r->phase_s[phase] += s;
  r->time_s += s;
  r->skew_s += s;
}
