/* modeling.c: the cost models inside the driver. */
#include "modeling.h"
#include "common/sa_error.h"
#include "outside_fit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/topk_select.h"
#include "catalog.h"
#include "platform/sg_settings.h"

/* SimGrid lets the command line override a platform's <config>, the last --cfg of a key
 * winning; so do the models. A host's own smpi/or property wins over the global one. */
static int apply_cfg(const sim_opts *o, const plat_file *pf, cost_net *net, char *why, size_t len)
{
  for (int i = 0; i < o->ncfg; i++) {
    char key[128];
    const char *colon = strchr(o->cfg[i], ':');
    snprintf(key, sizeof key, "%.*s", (int)(colon - o->cfg[i]), o->cfg[i]);
    if (pf->host_or && strcmp(key, "smpi/or") == 0)
      continue;
    if (plat_setting_apply(net, key, colon + 1, why, len) < 0)
      return SA_EINVAL;
  }
  return 0;
}

int sim_model_open(sim_model *m, const sim_opts *o, plat_file *pf, int nodes, int rpn)
{
  memset(m, 0, sizeof *m);
  if (!pf->has_net) {
    snprintf(m->why, sizeof m->why, "%s", pf->net_err[0] ? pf->net_err : "the platform's network was not read");
    return SA_EPARSE;
  }
  if (apply_cfg(o, pf, &pf->net, m->why, sizeof m->why))
    return SA_EINVAL;
  cost_shape shape = {.nodes = nodes,
                      .rpn = rpn,
                      .elem = (int)kn_dtype_size(o->dtype),
                      .segment_bytes = o->segment,
                      .channels = o->channels ? o->channels : 1,
                      .density = o->density,
                      .overlap = o->overlap,
                      .timing = o->timing,
                      .nccl_algos = o->nccl_algos,
                      .nccl_protos = o->nccl_protos,
                      .nccl_channels = o->channels,
                      .nccl_version = o->nccl_version};
  int rc = cost_ctx_new(&pf->net, &shape, &m->ctx);
  if (rc) {
    snprintf(m->why, sizeof m->why, "%s", sa_strerror(rc));
    return rc;
  }
  m->net = &pf->net;
  m->nodes = nodes;
  m->rpn = rpn;
  if (!o->nccl_algos && !o->nccl_protos && !o->channels)
    m->nran = sim_fit_ran_read(pf->path, m->ran, TOPO_RAN_SHAPES);
  cost_cover_check(&pf->net, &shape, &m->cover);
  cost_ctx_params(m->ctx, &m->params);
  cost_ctx_nccl_shape(m->ctx, &m->nccl);
  sa_piecewise_format(&pf->net.lat_factor, m->lat_factor, sizeof m->lat_factor);
  sa_piecewise_format(&pf->net.bw_factor, m->bw_factor, sizeof m->bw_factor);
  sa_piecewise_format(&pf->net.recv_overhead, m->recv_overhead, sizeof m->recv_overhead);
  return 0;
}

void sim_model_close(sim_model *m)
{
  cost_ctx_free(m->ctx);
  m->ctx = NULL;
}

void sim_model_point(const sim_model *m, sim_point *p)
{
  sim_point_no_model(p);
  if (!m->ctx)
    return;
  cost_result r;
  /* one of NCCL's algorithms at the choice it ran (a candidate of --export-tuner's may be
   * other than NCCL's own): the model of that choice */
  nccl_choice ch;
  const sim_algo_info *a = sim_catalog_find(p->algo);
  int at = p->nccl[0] && a && (a->flags & AR_NCCL) && nccl_choice_parse(p->nccl, &ch) == 0;
  if ((at ? cost_predict_nccl_at(m->ctx, ch.algo, ch.proto, ch.channels, p->bytes, &r)
          : cost_predict(m->ctx, p->algo, p->bytes, &r)) == 0) {
    p->model_s = r.time_s + m->late_s;
    p->model_nphases = r.nphases < SIM_MAX_PHASES ? r.nphases : SIM_MAX_PHASES;
    for (int k = 0; k < p->model_nphases; k++) {
      snprintf(p->model_phase_name[k], sizeof p->model_phase_name[k], "%s", r.phase_name[k]);
      p->model_phase_s[k] = r.phase_s[k];
    }
    if (m->late_s > 0 && p->model_nphases < SIM_MAX_PHASES) {
      snprintf(p->model_phase_name[p->model_nphases], sizeof p->model_phase_name[0], "late rank");
      p->model_phase_s[p->model_nphases++] = m->late_s;
    }
  }
  cost_nccl_pred n;
  cost_nccl_predict(&m->nccl, (double)p->bytes, &n);
  p->nccl_ring_s = n.ring_s;
  p->nccl_tree_s = n.tree_s;
  p->nccl_nvls_s = n.nvls_s;
  p->nccl_ring_proto = n.ring_proto;
  p->nccl_tree_proto = n.tree_proto;
}

void sim_model_only_point(const sim_model *m, const sim_opts *o, int rpn, const sim_slot *s, sim_point *p)
{
  const char *algo = s->algo;
  uint64_t bytes = s->bytes;
  memset(p, 0, sizeof *p);
  snprintf(p->algo, sizeof p->algo, "%s", algo);
  snprintf(p->nccl, sizeof p->nccl, "%s", s->nccl);
  snprintf(p->dtype, sizeof p->dtype, "%s", kn_dtype_name(o->dtype));
  p->bytes = bytes;
  p->count = bytes / kn_dtype_size(o->dtype);
  p->time_s = p->time_min_s = p->time_max_s = p->next_clock_s = NAN;
  p->verified = -1;
  p->sparse_rel_err = -1;
  const sim_algo_info *a = sim_catalog_find(algo);
  if (a && (a->flags & AR_SPARSE)) { /* k as the runner reports it: rank 0's selection */
    p->sparse = 1;
    p->density = o->density;
    size_t len = strcmp(algo, "hitopk") == 0 && rpn > 1 ? p->count / (size_t)rpn + (p->count % (size_t)rpn > 1) : p->count;
    p->k = (long long)kn_topk_k(len, o->density);
  }
  sim_model_point(m, p);
}

void sim_model_head(const sim_model *m, int rpn, sim_results *r)
{
  memset(r, 0, sizeof *r);
  snprintf(r->mode, sizeof r->mode, "model");
  r->ranks = m->params.ranks;
  r->ranks_per_node = rpn;
  if (m->net) /* the compute the runner would have read from the same hosts */
    r->compute = m->net->compute;
}

int sim_model_best(const sim_model *m, const sim_opts *o, int *winner, cost_range *ranges)
{
  if (!m->ctx)
    return SA_ENOMODEL;
  double *t = malloc(sizeof *t * (size_t)o->nalgos * (size_t)o->nsizes);
  if (!t)
    return SA_ENOMEM;
  for (int a = 0; a < o->nalgos; a++)
    for (int i = 0; i < o->nsizes; i++) {
      cost_result r;
      t[a * o->nsizes + i] = cost_predict(m->ctx, o->algos[a], o->sizes[i], &r) == 0 ? r.time_s : NAN;
    }
  int found = cost_best_pick(t, o->nalgos, o->nsizes, winner);
  free(t);
  return found ? cost_best_ranges(o->sizes, winner, o->nsizes, ranges) : SA_ENODATA;
}
