/* platform_group.c: orders hosts node-major and finds the nodes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform.h"
#include "common/sa_error.h"

/* The j of a "...-gpu<j>" name, or -1. */
static int gpu_index(const char *name)
{
  const char *g = strstr(name, "-gpu");
  if (!g)
    return -1;
  char *end;
  long v = strtol(g + 4, &end, 10);
  return end != g + 4 && *end == '\0' && v >= 0 && v < 1 << 20 ? (int)v : -1;
}

static int cmp_host(const void *a, const void *b)
{
  const plat_host *x = a, *y = b;
  if (x->node != y->node)
    return x->node < y->node ? -1 : 1;
  if (x->gpu != y->gpu)
    return x->gpu < y->gpu ? -1 : 1;
  return strcmp(x->name, y->name);
}

int plat_group(plat_file *pf, plat_host *hosts, int nhosts, char *err, size_t errlen)
{
  pf->hosts = hosts;
  pf->nhosts = nhosts;
  if (nhosts == 0) {
    snprintf(err, errlen, "platform %s has no hosts", pf->path);
    return SA_EPARSE;
  }
  for (int i = 0; i < nhosts; i++)
    hosts[i].gpu = gpu_index(hosts[i].name);
  qsort(hosts, (size_t)nhosts, sizeof *hosts, cmp_host);
  pf->nnodes = 0;
  for (int i = 0; i < nhosts; i++)
    if (i == 0 || hosts[i].node != hosts[i - 1].node)
      pf->nnodes++;
  pf->node_first = calloc((size_t)pf->nnodes, sizeof(int));
  pf->node_size = calloc((size_t)pf->nnodes, sizeof(int));
  if (!pf->node_first || !pf->node_size) {
    snprintf(err, errlen, "out of memory");
    return SA_ENOMEM;
  }
  for (int i = 0, n = -1; i < nhosts; i++) {
    if (i == 0 || hosts[i].node != hosts[i - 1].node)
      pf->node_first[++n] = i;
    pf->node_size[n]++;
    /* names without -gpu<j> keep their sorted order as their index */
    if (hosts[i].gpu < 0)
      hosts[i].gpu = i - pf->node_first[n];
  }
  return 0;
}

void plat_free(plat_file *pf)
{
  for (int i = 0; i < pf->nhosts; i++)
    free(pf->hosts[i].name);
  free(pf->hosts);
  free(pf->node_first);
  free(pf->node_size);
  free(pf->path);
  free(pf->name);
  free(pf->cfg_lat_factor);
  free(pf->cfg_bw_factor);
  cost_net_free(&pf->net);
  for (int i = 0; i < pf->nlinks; i++)
    free(pf->links[i].name);
  free(pf->links);
  memset(pf, 0, sizeof *pf);
}
