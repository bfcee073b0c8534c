/* node_graph.c: a node's routes read from SimGrid (see node_graph.h). Names of links never
 * matter: a link is known by the object SimGrid returns for it. */
#include "node_graph.h"

#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"

#ifdef SA_SMPI
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <xbt/dynar.h>

static int link_id(ar_node_graph *b, sg_link_t l)
{
  for (int i = 0; i < b->g.nlinks; i++)
    if (b->links[i] == (void *)l)
      return i;
  if (b->g.nlinks == b->cap) {
    int cap = 2 * b->cap + 16;
    void **nl = realloc(b->links, sizeof *nl * (size_t)cap);
    double *nb = nl ? realloc(b->bw, sizeof *nb * (size_t)cap) : NULL;
    if (nl)
      b->links = nl;
    if (!nl || !nb)
      return -1;
    b->bw = nb;
    b->cap = cap;
  }
  b->links[b->g.nlinks] = (void *)l;
  b->bw[b->g.nlinks] = sg_link_get_bandwidth(l); /* read once: each read is a call into the kernel */
  return b->g.nlinks++;
}

/* The route between two hosts as link ids, -1 terminated; NULL when out of memory. */
static int *route_ids(ar_node_graph *b, const char *from, const char *to)
{
  sg_host_t x = sg_host_by_name(from), y = sg_host_by_name(to);
  xbt_dynar_t d = xbt_dynar_new(sizeof(sg_link_t), NULL);
  if (x && y)
    sg_host_get_route(x, y, d);
  unsigned long n = xbt_dynar_length(d);
  int *r = malloc(sizeof(int) * (n + 1));
  for (unsigned long k = 0; r && k < n; k++)
    if ((r[k] = link_id(b, xbt_dynar_get_as(d, k, sg_link_t))) < 0) {
      free(r);
      r = NULL;
    }
  if (r)
    r[n] = -1;
  xbt_dynar_free(&d);
  return r;
}

int ar_node_graph_build(ar_node_graph *b, const char *const *hosts, const char *const *next, int rpn)
{
  memset(b, 0, sizeof *b);
  b->rpn = rpn;
  b->route = calloc((size_t)(rpn * rpn), sizeof *b->route);
  if (!b->route)
    return SA_ENOMEM;
  for (int x = 0; x < rpn; x++)
    for (int y = 0; y < rpn; y++)
      if (x != y && !(b->route[x * rpn + y] = route_ids(b, hosts[x], hosts[y])))
        return SA_ENOMEM;
  int intra = b->g.nlinks; /* links below this id are on routes inside the node */
  if (next) {
    if (!(b->nic = malloc(sizeof(int) * (size_t)rpn)))
      return SA_ENOMEM;
    for (int x = 0; x < rpn; x++) {
      int *r = route_ids(b, hosts[x], next[x]);
      if (!r)
        return SA_ENOMEM;
      b->nic[x] = -1;
      for (int k = 0; r[k] >= 0 && b->nic[x] < 0; k++)
        if (r[k] >= intra)
          b->nic[x] = r[k];
      free(r);
    }
  }
  b->g.gpus = rpn;
  b->g.bw = b->bw;
  b->g.route = (const int *const *)b->route;
  b->g.nic = b->nic;
  return 0;
}
#else
int ar_node_graph_build(ar_node_graph *b, const char *const *hosts, const char *const *next, int rpn)
{
  (void)hosts, (void)next;
  memset(b, 0, sizeof *b);
  b->rpn = rpn;
  return SA_EINVAL;
}
#endif

void ar_node_graph_free(ar_node_graph *b)
{
  for (int i = 0; b->route && i < b->rpn * b->rpn; i++)
    free(b->route[i]);
  free(b->route);
  free(b->links);
  free(b->bw);
  free(b->nic);
  memset(b, 0, sizeof *b);
}
