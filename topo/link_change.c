/* link_change.c: see link_change.h. */
#include "link_change.h"

#include <stddef.h> /* SimGrid's link header needs size_t */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/link.h>

#include "common/sa_error.h"

/* The link of that name, or NULL: SimGrid's own lookup throws on a name it lacks. */
static sg_link_t find(const char *name)
{
  size_t n = sg_link_count();
  sg_link_t *all = sg_link_list(), k = NULL;
  for (size_t i = 0; all && i < n && !k; i++)
    if (strcmp(sg_link_get_name(all[i]), name) == 0)
      k = all[i];
  free(all);
  return k;
}

static int one(const char *name, double factor, double add_lat)
{
  sg_link_t k = find(name);
  if (!k)
    return SA_EINVAL;
  sg_link_set_bandwidth(k, sg_link_get_bandwidth(k) * factor);
  sg_link_set_latency(k, sg_link_get_latency(k) + add_lat);
  return 0;
}

int topo_link_change(const char *name, double factor, double add_lat)
{
  if (one(name, factor, add_lat) == 0)
    return 0;
  char up[1024], down[1024];
  if ((size_t)snprintf(up, sizeof up, "%s_UP", name) >= sizeof up ||
      (size_t)snprintf(down, sizeof down, "%s_DOWN", name) >= sizeof down || !find(up) || !find(down))
    return SA_EINVAL;
  one(up, factor, add_lat);
  one(down, factor, add_lat);
  return 0;
}
