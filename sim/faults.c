/* faults.c: --what-if's faults for one run (see faults.h). */
#include "faults.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"
#include "whatif_nics.h"

/* Whether the platform has a link of that name, or both directions of a split-duplex one
 * under its bare name (topo/link_change.h). */
static int has_link(const plat_file *pf, const char *name)
{
  char up[SA_WHATIF_NAME + 8], down[SA_WHATIF_NAME + 8];
  snprintf(up, sizeof up, "%s_UP", name);
  snprintf(down, sizeof down, "%s_DOWN", name);
  int u = 0, d = 0;
  for (int i = 0; i < pf->nlinks; i++) {
    if (strcmp(pf->links[i].name, name) == 0)
      return 1;
    u |= strcmp(pf->links[i].name, up) == 0;
    d |= strcmp(pf->links[i].name, down) == 0;
  }
  return u && d;
}

static int rank_in(const sa_whatif *w, int ranks, char *err, size_t errlen)
{
  if (w->rank < ranks)
    return 0;
  snprintf(err, errlen, "--what-if %s: rank %d is not in this run (ranks 0 to %d)", w->text, w->rank, ranks - 1);
  return SA_EINVAL;
}

static int add_link(sim_faults *f, const sa_whatif *w, const plat_file *pf, char *err, size_t errlen)
{
  if (strpbrk(w->link, " \t\n") || !has_link(pf, w->link)) {
    snprintf(err, errlen, "--what-if %s: the platform has no link %s (simallreduce --platform %s --list-links lists them)",
             w->text, w->link, pf->name);
    return SA_EINVAL;
  }
  plat_link_change *g = realloc(f->links, sizeof *g * (size_t)(f->nlinks + 1));
  if (!g)
    return SA_ENOMEM;
  f->links = g;
  /* another job's share of a link, taken as a reservation: what is left is ours (SimGrid
   * would share a competing flow max-min, the share then depending on our own flows) */
  g[f->nlinks++] = (plat_link_change){w->link, w->kind == SA_WI_LINK_BW ? w->value : w->kind == SA_WI_BACKGROUND ? 1 - w->value : 1,
                                      w->kind == SA_WI_LINK_LAT ? w->value : 0};
  return 0;
}

/* jitter: |N(0, sigma)| per rank, in rank order, from MT19937 seeded with the spec's seed. */
static int add_jitter(sim_faults *f, const sa_whatif *w)
{
  gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
  if (!r)
    return SA_ENOMEM;
  gsl_rng_set(r, w->seed);
  for (int i = 0; i < f->ranks; i++)
    f->late[i] += fabs(gsl_ran_gaussian(r, w->value));
  gsl_rng_free(r);
  return 0;
}

/* The node of the run a NIC down leaves with the fewest NICs (the first such), or 0. */
static int fewest_nics(const sim_opts *o, int nodes)
{
  int best = 0, most = 0;
  for (int n = 0; n < nodes; n++) {
    int down = 0;
    for (int i = 0; i < o->nwhatif; i++)
      down += o->whatif[i].kind == SA_WI_NIC_DOWN && o->whatif[i].node == n;
    if (down > most)
      most = down, best = n;
  }
  return best;
}

/* nic-down and rail-down: the platform drawn again without those NICs (whatif_nics.c), and
 * for the models the same with node nccl_node first (each NIC down on node n of the run's
 * nodes on node n - nccl_node, modulo them: the nodes turned round, a ring over them the
 * same ring). */
static int nic_faults(sim_faults *f, const sim_opts *o, const plat_file *pf, int nodes, const char *dir, char *err,
                      size_t errlen)
{
  int rc = sim_whatif_nics_platform(pf->path, o->whatif, o->nwhatif, dir, f->platform, sizeof f->platform, err, errlen);
  if (rc == 0 && f->platform[0])
    rc = sim_whatif_nics_describe(f->platform, f->rebuilt, sizeof f->rebuilt);
  f->nccl_node = rc == 0 && f->platform[0] ? fewest_nics(o, nodes) : 0;
  if (rc == 0 && f->nccl_node > 0) {
    sa_whatif *turned = malloc(sizeof *turned * (size_t)o->nwhatif);
    if (!turned)
      return SA_ENOMEM;
    for (int i = 0; i < o->nwhatif; i++) {
      turned[i] = o->whatif[i];
      if (turned[i].kind == SA_WI_NIC_DOWN && turned[i].node < nodes)
        turned[i].node = (turned[i].node - f->nccl_node + nodes) % nodes;
    }
    rc = sim_whatif_nics_platform(pf->path, turned, o->nwhatif, dir, f->model_platform, sizeof f->model_platform, err,
                                  errlen);
    free(turned);
  }
  if (rc != 0 && rc != SA_EINVAL && rc != SA_ENOMEM)
    rc = SA_EIO;
  return rc;
}

/* The models' view of a link change (faults.h): node<N>-<rest> stands for <rest> of every
 * node they read (the platform's first three), where the platform has it. */
static int model_view(sim_faults *f, const plat_file *pf)
{
  int cap = 3 * f->nlinks + 1;
  f->model_links = malloc(sizeof *f->model_links * (size_t)cap);
  f->model_names = malloc(sizeof *f->model_names * (size_t)cap);
  if (!f->model_links || !f->model_names)
    return SA_ENOMEM;
  int spread = 0;
  for (int i = 0; i < f->nlinks; i++) {
    const char *name = f->links[i].name, *dash = strchr(name, '-');
    int node, used = 0;
    int per_node = strncmp(name, "node", 4) == 0 && sscanf(name + 4, "%d%n", &node, &used) == 1 && name + 4 + used == dash;
    for (int n = 0; per_node && n < pf->nnodes && n < 3; n++) {
      char *m = f->model_names[f->nmodel_links];
      snprintf(m, sizeof f->model_names[0], "node%d%s", n, dash);
      if (!has_link(pf, m))
        continue;
      f->model_links[f->nmodel_links] = f->links[i];
      f->model_links[f->nmodel_links++].name = m;
      spread |= n != node;
    }
    if (!per_node)
      f->model_links[f->nmodel_links++] = f->links[i];
  }
  if (spread)
    snprintf(f->notes[f->nnotes++], sizeof f->notes[0],
             "--what-if: the models read the first nodes and take the others alike: a link's fault is theirs on that "
             "link of every node (a ring is as slow as its slowest link; elsewhere an upper bound)");
  return 0;
}

int sim_faults_resolve(sim_faults *f, const sim_opts *o, const plat_file *pf, int nodes, int rpn, const char *dir,
                       char *err, size_t errlen)
{
  memset(f, 0, sizeof *f);
  f->ranks = nodes * rpn;
  f->late = calloc((size_t)f->ranks, sizeof *f->late);
  f->slow = malloc(sizeof *f->slow * (size_t)f->ranks);
  if (!f->late || !f->slow)
    return SA_ENOMEM;
  for (int i = 0; i < f->ranks; i++)
    f->slow[i] = 1;
  int rc = 0;
  size_t used = 0;
  for (int i = 0; i < o->nwhatif && rc == 0; i++) {
    const sa_whatif *w = &o->whatif[i];
    switch (w->kind) {
    case SA_WI_LATE:
      if ((rc = rank_in(w, f->ranks, err, errlen)) == 0)
        f->late[w->rank] += w->value;
      break;
    case SA_WI_SLOW:
      if ((rc = rank_in(w, f->ranks, err, errlen)) == 0)
        f->slow[w->rank] *= w->value;
      break;
    case SA_WI_LINK_BW:
    case SA_WI_LINK_LAT:
    case SA_WI_BACKGROUND: rc = add_link(f, w, pf, err, errlen); break;
    case SA_WI_JITTER: rc = add_jitter(f, w); break;
    default: break; /* the NICs, below */
    }
    char d[256];
    if (w->kind == SA_WI_NIC_DOWN || w->kind == SA_WI_RAIL_DOWN)
      continue; /* said once, with what was rebuilt, below */
    sa_whatif_describe(w, d, sizeof d);
    used += (size_t)snprintf(f->desc + used, used < sizeof f->desc ? sizeof f->desc - used : 0, "%s%s", used ? "; " : "", d);
    used = used < sizeof f->desc ? used : sizeof f->desc - 1;
  }
  if (rc == 0)
    rc = nic_faults(f, o, pf, nodes, dir, err, errlen);
  if (rc == 0 && f->rebuilt[0])
    snprintf(f->desc + used, sizeof f->desc - used, "%s%s", used ? "; " : "", f->rebuilt);
  /* the models read the platform's first nodes (platform_probe.c) and take the rest alike:
   * a NIC down on a node they see turned round to the third or later is not in their view */
  for (int i = 0; rc == 0 && i < o->nwhatif; i++)
    if (o->whatif[i].kind == SA_WI_NIC_DOWN && o->whatif[i].node < nodes &&
        (o->whatif[i].node - f->nccl_node + nodes) % nodes >= 3 && f->nnotes < SIM_FAULT_NOTES) {
      snprintf(f->notes[f->nnotes++], sizeof f->notes[0],
               "--what-if: the models read nodes 0 to 2 and take the others alike: node %d's NIC down is not in "
               "their view, their predictions are the healthy cluster's there",
               o->whatif[i].node);
      break;
    }
  if (rc == 0)
    rc = model_view(f, pf);
  for (int i = 0; i < f->ranks; i++) {
    f->late_max = f->late[i] > f->late_max ? f->late[i] : f->late_max;
    f->slow_max = f->slow[i] > f->slow_max ? f->slow[i] : f->slow_max;
  }
  return rc;
}

int sim_faults_write(const sim_faults *f, const char *path)
{
  FILE *out = fopen(path, "w");
  if (!out)
    return SA_EIO;
  for (int i = 0; i < f->ranks; i++) {
    if (f->late[i] > 0)
      fprintf(out, "late %d %.17g\n", i, f->late[i]);
    if (f->slow[i] != 1)
      fprintf(out, "slow %d %.17g\n", i, f->slow[i]);
  }
  for (int i = 0; i < f->nlinks; i++)
    fprintf(out, "link %.17g %.17g %s\n", f->links[i].factor, f->links[i].add_lat, f->links[i].name);
  if (f->nccl_node > 0)
    fprintf(out, "nccl-node %d\n", f->nccl_node);
  return fclose(out) == 0 ? 0 : SA_EIO;
}

void sim_faults_compute(sim_faults *f, sa_compute *c)
{
  if (f->slow_max <= 1)
    return;
  sa_compute_slower(c, f->slow_max);
  snprintf(f->notes[f->nnotes++], sizeof f->notes[0],
           "--what-if: the models take every GPU as slow as the slowest (x%g): where only some are, they may miss "
           "either way",
           f->slow_max);
}

void sim_faults_warn(const sim_faults *f, cost_cover *w)
{
  for (int i = 0; i < f->nnotes && w->n < COST_MAX_WARNINGS; i++) {
    snprintf(w->text[w->n], sizeof w->text[0], "%s", f->notes[i]);
    w->factor[w->n++] = 0;
  }
}

void sim_faults_free(sim_faults *f)
{
  free(f->late);
  free(f->slow);
  free(f->links);
  free(f->model_links);
  free(f->model_names);
  memset(f, 0, sizeof *f);
}
