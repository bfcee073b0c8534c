/* platform_links.c: a platform's links by name, and the changes --what-if makes to them, as
 * the loader's child sees them in SimGrid: "@lk<TAB>name<TAB>bandwidth<TAB>latency<TAB>shared"
 * for every link (--list-links, and the names --what-if is checked against), and the changes
 * made before the probe reads the routes (so that the cost models see the degraded links the
 * runner will simulate), a name the platform lacks said as "@nolink<TAB>name". */
#include <stddef.h> /* SimGrid's link header needs size_t */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/link.h>

#include "common/sa_error.h"
#include "platform.h"
#include "topo/link_change.h"

static int by_name(const void *a, const void *b)
{
  return strcmp(sg_link_get_name(*(const sg_link_t *)a), sg_link_get_name(*(const sg_link_t *)b));
}

void plat_links_child(const plat_link_change *ch, int nch, int list)
{
  for (int i = 0; i < nch; i++)
    if (topo_link_change(ch[i].name, ch[i].factor, ch[i].add_lat) != 0)
      printf("@nolink\t%s\n", ch[i].name);
  if (!list)
    return;
  size_t n = sg_link_count();
  sg_link_t *all = sg_link_list();
  if (!all)
    return;
  qsort(all, n, sizeof *all, by_name);
  for (size_t i = 0; i < n; i++)
    printf("@lk\t%s\t%.17g\t%.17g\t%d\n", sg_link_get_name(all[i]), sg_link_get_bandwidth(all[i]),
           sg_link_get_latency(all[i]), sg_link_is_shared(all[i]));
  free(all);
  fflush(stdout);
}

int plat_links_parse(const char *out, plat_file *pf, char *err, size_t errlen)
{
  for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
    const char *end = strchr(l, '\n');
    int len = end ? (int)(end - l) : (int)strlen(l);
    if (strncmp(l, "@nolink\t", 8) == 0) {
      snprintf(err, errlen, "the platform has no link %.*s (simallreduce --platform %s --list-links lists them)",
               len - 8, l + 8, pf->name);
      return SA_EINVAL;
    }
    if (strncmp(l, "@lk\t", 4) != 0)
      continue;
    char name[1024];
    double bw, lat;
    int shared;
    if (sscanf(l + 4, "%1023[^\t]\t%lf\t%lf\t%d", name, &bw, &lat, &shared) != 4)
      return SA_EPARSE;
    plat_link *g = realloc(pf->links, sizeof *g * (size_t)(pf->nlinks + 1));
    if (!g)
      return SA_ENOMEM;
    pf->links = g;
    if (!(g[pf->nlinks].name = strdup(name)))
      return SA_ENOMEM;
    g[pf->nlinks].bw = bw;
    g[pf->nlinks].lat = lat;
    g[pf->nlinks++].shared = shared;
  }
  return 0;
}
