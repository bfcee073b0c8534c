/* ar_hostprops.c: reads the compute parameters and the node number from the SimGrid host. */
#include "ar_hostprops.h"

#include <stdlib.h>
#include <string.h>

#ifdef AR_SMPI
#include <simgrid/host.h>

double ar_host_prop(const char *name)
{
  const char *v = sg_host_get_property_value(sg_host_self(), name);
  return v ? strtod(v, NULL) : 0.0;
}

void ar_compute_from_host(ar_compute *c)
{
  c->reduce_bw = ar_host_prop("reduce_bw");
  c->reduce_lat = ar_host_prop("reduce_lat");
  c->copy_bw = ar_host_prop("copy_bw");
  c->topk_a = ar_host_prop("topk_a");
  c->topk_b = ar_host_prop("topk_b");
  c->mstopk_a = ar_host_prop("mstopk_a");
  c->mstopk_b = ar_host_prop("mstopk_b");
  c->scatter_a = ar_host_prop("scatter_a");
  c->scatter_b = ar_host_prop("scatter_b");
}

int ar_host_node(void)
{
  const char *v = sg_host_get_property_value(sg_host_self(), "node");
  return v ? atoi(v) : -1;
}
#else
double ar_host_prop(const char *name)
{
  (void)name;
  return 0.0;
}

void ar_compute_from_host(ar_compute *c) { memset(c, 0, sizeof *c); }

int ar_host_node(void) { return -1; }
#endif
