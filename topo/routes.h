/* routes.h: the cost models' description of a topology's first nodes (models/cost_net.h),
 * made from the same routes as its platform file, without loading it in SimGrid: what a fit
 * evaluates its models on, many times over, in microseconds. tests/check_topo.c checks it
 * against SimGrid's own routes of the generated file. */
#ifndef TOPO_ROUTES_H
#define TOPO_ROUTES_H

#include "models/cost_net.h"
#include "cluster.h"

/* The description, and which link of the topology each of its links is. */
typedef struct {
  cost_net net;
  topo_hop *hop; /* [net.nlinks] */
  int cap;
} topo_tnet;

/* Fills n with the links and routes among the GPUs of the first min(nodes, 3) nodes, as the
 * driver's probe lists them, SMPI's defaults for the settings, and compute (may be NULL:
 * none). Returns 0 or SA_ENOMEM; topo_tnet_free it either way. */
int topo_tnet_build(const topo_cluster *t, const sa_compute *compute, topo_tnet *n);
void topo_tnet_free(topo_tnet *n);

/* Sets every link's rate, and so every route's, from t again (the same shape with other
 * rates): what a fit does between two evaluations. */
void topo_tnet_rates(const topo_cluster *t, topo_tnet *n);

#endif
