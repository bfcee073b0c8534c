/* hostfile.c: the run's shape and its node-major hostfile (ranks are placed in file order). */
#include "hostfile.h"
#include "common/sa_error.h"

#include <stdio.h>
#include <string.h>

int plat_layout(const plat_file *pf, int *nodes, int *rpn, char *err, size_t errlen)
{
  if (*nodes > pf->nnodes) {
    snprintf(err, errlen, "--nodes %d: platform %s has only %d node%s", *nodes, pf->name, pf->nnodes,
             pf->nnodes == 1 ? "" : "s");
    return SA_EINVAL;
  }
  if (*nodes == 0)
    *nodes = pf->nnodes;
  int smallest = pf->node_size[0], largest = pf->node_size[0];
  for (int n = 1; n < *nodes; n++) {
    smallest = pf->node_size[n] < smallest ? pf->node_size[n] : smallest;
    largest = pf->node_size[n] > largest ? pf->node_size[n] : largest;
  }
  if (*rpn == 0 && smallest != largest) {
    snprintf(err, errlen, "nodes of %s have from %d to %d GPUs: give --ranks-per-node (at most %d)", pf->name,
             smallest, largest, smallest);
    return SA_EINVAL;
  }
  if (*rpn > smallest) {
    snprintf(err, errlen, "--ranks-per-node %d: nodes of %s have %s%d GPUs", *rpn, pf->name,
             smallest == largest ? "" : "as few as ", smallest);
    return SA_EINVAL;
  }
  if (*rpn == 0)
    *rpn = smallest;
  return 0;
}

const char *plat_layout_host(const plat_file *pf, int rpn, int i)
{
  return pf->hosts[pf->node_first[i / rpn] + i % rpn].name;
}

/* smpirun reads "name:count" lines (its own syntax for several ranks per host), splitting at
 * the last ':', whenever any line has one: a name with ':' in it must then be written with
 * its count, and every other line too. smpirun then writes the unrolled file in its working
 * directory (SimGrid 3.32: mktemp without a directory), which must be the run's own. */
int plat_hostfile_write(const plat_file *pf, int nodes, int rpn, const char *path)
{
  int counted = 0;
  for (int i = 0; i < nodes * rpn && !counted; i++)
    counted = strchr(plat_layout_host(pf, rpn, i), ':') != NULL;
  FILE *f = fopen(path, "w");
  if (!f)
    return SA_EIO;
  for (int i = 0; i < nodes * rpn; i++)
    fprintf(f, counted ? "%s:1\n" : "%s\n", plat_layout_host(pf, rpn, i));
  if (fclose(f) != 0)
    return SA_EIO;
  return counted ? PLAT_HOSTFILE_COUNTED : 0;
}
