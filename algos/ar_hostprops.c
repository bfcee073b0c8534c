/* ar_hostprops.c: reads the compute parameters and the node number from the SimGrid host. */
#include "ar_hostprops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef SA_SMPI
#include <simgrid/host.h>

double ar_host_prop(const char *name)
{
  const char *v = sg_host_get_property_value(sg_host_self(), name);
  return v ? strtod(v, NULL) : 0.0;
}

int ar_compute_from_host(sa_compute *c)
{
  memset(c, 0, sizeof *c);
  for (int i = 0; i < SA_COMPUTE_N; i++) {
    const char *v = sg_host_get_property_value(sg_host_self(), sa_compute_name(i));
    char why[160];
    if (v && sa_compute_parse(i, v, sa_compute_field(c, i), why, sizeof why) != 0) {
      fprintf(stderr, "ar_runner: host %s: property %s = '%s': %s\n", sg_host_get_name(sg_host_self()),
              sa_compute_name(i), v, why);
      return SA_EINVAL;
    }
  }
  return 0;
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

int ar_compute_from_host(sa_compute *c)
{
  memset(c, 0, sizeof *c);
  return 0;
}

int ar_host_node(void) { return -1; }
#endif
