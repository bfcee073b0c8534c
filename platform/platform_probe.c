/* platform_probe.c: in the loader's child, what the cost models need of the platform, as
 * lines for the parent (platform_net.c reads them): the links and routes among the first
 * GPUs (as many as the run has ranks per node) of the first three nodes, node 0's compute
 * properties, and the network settings in force. Routes exist only once SimGrid has sealed
 * the platform, which happens when it runs: the queries are made by an actor.
 *
 * A whole table costs (ranks per node)^2 routes, so only the tables the models read are
 * whole (cost_net.h); the ones that check the models' assumptions hold a sample of pairs,
 * and more than PLAT_PROBE_MAX_GPUS ranks per node are not probed at all. */
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <simgrid/zone.h>
#include <stdio.h>
#include <stdlib.h>
#include <xbt/config.h>
#include <xbt/dynar.h>

#include "platform.h"
#include "topo/shape.h"

/* The actor's only input: the child's own grouping of the hosts, and the GPUs per node. */
static const plat_file *probe_pf;
static int probe_gpus;
static sg_link_t *seen;
static int nseen, capseen;

/* Index of a link, printed ("@link<TAB>i<TAB>bw<TAB>lat<TAB>shared") the first time. */
static int link_id(sg_link_t l)
{
  for (int i = 0; i < nseen; i++)
    if (seen[i] == l)
      return i;
  if (nseen == capseen) {
    sg_link_t *s = realloc(seen, sizeof *s * (size_t)(capseen = capseen ? 2 * capseen : 64));
    if (!s)
      return -1;
    seen = s;
  }
  seen[nseen] = l;
  printf("@link\t%d\t%.17g\t%.17g\t%d\n", nseen, sg_link_get_bandwidth(l), sg_link_get_latency(l), sg_link_is_shared(l));
  return nseen++;
}

static const char *gpu_host(int node, int j)
{
  const plat_file *pf = probe_pf;
  return node < pf->nnodes && j < pf->node_size[node] ? pf->hosts[pf->node_first[node] + j].name : NULL;
}

/* "@route<TAB>table<TAB>j<TAB>k<TAB>lat<TAB>bw<TAB>l1,l2,..." for GPU j of node a to GPU k of b. */
static void route(const char *table, int a, int j, int b, int k)
{
  const char *na = gpu_host(a, j), *nb = gpu_host(b, k);
  sg_host_t ha = na ? sg_host_by_name(na) : NULL, hb = nb ? sg_host_by_name(nb) : NULL;
  if (!ha || !hb || ha == hb)
    return;
  xbt_dynar_t d = xbt_dynar_new(sizeof(sg_link_t), NULL);
  sg_host_get_route(ha, hb, d);
  unsigned long n = xbt_dynar_length(d);
  int *ids = malloc(sizeof(int) * (n ? n : 1));
  for (unsigned long i = 0; ids && i < n; i++)
    ids[i] = link_id(xbt_dynar_get_as(d, i, sg_link_t));
  if (ids) {
    printf("@route\t%s\t%d\t%d\t%.17g\t%.17g\t", table, j, k, sg_host_get_route_latency(ha, hb),
           sg_host_get_route_bandwidth(ha, hb));
    for (unsigned long i = 0; i < n; i++)
      printf("%s%d", i ? "," : "", ids[i]);
    printf("\n");
  }
  free(ids);
  xbt_dynar_free(&d);
}

/* Every pair of GPUs j, k of nodes a and b, or a sample: j to j+1, j to 0, 0 to k, j to j. */
static void table(const char *name, int a, int b, int whole)
{
  int g = probe_gpus;
  for (int j = 0; j < g; j++)
    for (int k = 0; k < g; k++)
      if (whole || topo_route_sampled(j, k, g))
        route(name, a, j, b, k);
}

static void probe_actor(int argc, char **argv)
{
  (void)argc;
  (void)argv;
  const plat_file *pf = probe_pf;
  printf("@probe\t%d\n", probe_gpus);
  table("intra0", 0, 0, 1);
  if (pf->nnodes >= 2) {
    table("intra1", 1, 1, pf->nnodes == 2);
    table("r01", 0, 1, 1);
    table("r10", 1, 0, 1);
  }
  if (pf->nnodes >= 3) {
    table("r02", 0, 2, 1);
    table("r20", 2, 0, 1);
    table("intra2", 2, 2, 0);
    table("r12", 1, 2, 0);
    table("r21", 2, 1, 0);
  }
  sg_host_t first = sg_host_by_name(gpu_host(0, 0));
  /* the compute properties the runner reads (common/compute.h) and SMPI's per-host overhead */
  for (int i = 0; first && i <= SA_COMPUTE_N; i++) {
    const char *key = i < SA_COMPUTE_N ? sa_compute_name(i) : "smpi/or", *v = sg_host_get_property_value(first, key);
    if (v)
      printf("@prop\t%s\t%s\n", key, v);
  }
  /* the latency factor a file gives its root zone, for the runner to apply (topo/shape.h) */
  const char *own = sg_zone_get_property_value(sg_zone_get_root(), TOPO_LAT_FACTOR_PROP);
  if (own)
    printf("@zone\t%s\t%s\n", TOPO_LAT_FACTOR_PROP, own);
  /* the string settings (smpi/bw-factor, smpi/lat-factor) have no C getter: the parent
   * reads them from SimGrid's own "Configuration change" lines */
  printf("@cfg\tnetwork/TCP-gamma\t%.17g\n", sg_cfg_get_double("network/TCP-gamma"));
  printf("@cfg\tnetwork/crosstraffic\t%d\n", sg_cfg_get_boolean("network/crosstraffic"));
  printf("@cfg\tsmpi/send-is-detached-thresh\t%d\n", sg_cfg_get_int("smpi/send-is-detached-thresh"));
  fflush(stdout);
}

void plat_probe(const plat_file *grouped, int gpus)
{
  if (gpus > PLAT_PROBE_MAX_GPUS) {
    printf("@noprobe\t%d\n", gpus);
    fflush(stdout);
    return;
  }
  probe_pf = grouped;
  probe_gpus = gpus;
  const char *h = grouped->nhosts ? grouped->hosts[0].name : NULL;
  if (!h || !sg_host_by_name(h))
    return;
  sg_actor_create("probe", sg_host_by_name(h), probe_actor, 0, NULL);
  simgrid_run();
  free(seen);
}
