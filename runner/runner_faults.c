/* runner_faults.c: the faults of --what-if as the driver hands them to the runner (docs/what-if.md),
 * a file of lines (--faults FILE: a jitter gives every rank one, more than one argument may
 * hold): ranks that reach every allreduce late ("late R SECONDS": a straggler's delay, a
 * jitter's draw), ranks whose GPU works F times slower ("slow R F"), links whose bandwidth and
 * latency change ("link FACTOR SECONDS NAME", a background job's share already a factor). The driver
 * has checked every rank and link against the platform; a link unknown here still stops the
 * run with its name. Simulation only: a real cluster has its own faults. */
#include "runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"

#ifdef SA_SMPI
#include <simgrid/actor.h>

#include "topo/link_change.h"
#endif

static int grow(void **a, size_t each, int n)
{
  void *g = realloc(*a, each * (size_t)(n + 1));
  if (!g)
    return SA_ENOMEM;
  *a = g;
  return 0;
}

/* One line of the file: "late RANK SECONDS", "slow RANK FACTOR", "link FACTOR SECONDS NAME" or
 * "nccl-node NODE" (the node NCCL's channels are laid from: the one a NIC down leaves with
 * the fewest). */
static int line(runner_faults *f, const char *l)
{
  char kind[8], name[1024];
  int r, used = 0;
  double a, b;
  if (sscanf(l, "%7s %d %lf %n", kind, &r, &a, &used) == 3 && used && l[used] == '\0' && r >= 0 &&
      (strcmp(kind, "late") == 0 ? a >= 0 : strcmp(kind, "slow") == 0 && a > 0)) {
    int late = strcmp(kind, "late") == 0;
    runner_rank_fault **v = late ? &f->late : &f->slow;
    int *n = late ? &f->nlate : &f->nslow;
    if (grow((void **)v, sizeof **v, *n) != 0)
      return SA_ENOMEM;
    (*v)[(*n)++] = (runner_rank_fault){r, a};
    return 0;
  }
  if (sscanf(l, "nccl-node %d %n", &r, &used) == 1 && used && l[used] == '\0' && r >= 0) {
    f->nccl_node = r;
    return 0;
  }
  if (sscanf(l, "link %lf %lf %1023s %n", &a, &b, name, &used) == 3 && used && l[used] == '\0' && a > 0 && b >= 0) {
    if (grow((void **)&f->links, sizeof *f->links, f->nlinks) != 0 || !(f->links[f->nlinks].name = strdup(name)))
      return SA_ENOMEM;
    f->links[f->nlinks].factor = a;
    f->links[f->nlinks++].add_lat = b;
    return 0;
  }
  return SA_EINVAL;
}

int runner_faults_read(runner_faults *f, const char *path)
{
  FILE *in = fopen(path, "r");
  if (!in) {
    fprintf(stderr, "ar_runner: cannot read faults from %s\n", path);
    return SA_EIO;
  }
  char buf[1200];
  int rc = 0;
  while (rc == 0 && fgets(buf, sizeof buf, in)) {
    buf[strcspn(buf, "\n")] = '\0';
    if ((rc = line(f, buf)) == SA_EINVAL)
      fprintf(stderr, "ar_runner: bad fault '%s' in %s\n", buf, path);
  }
  fclose(in);
  return rc;
}

int runner_faults_any(const runner_faults *f) { return f->nlate > 0 || f->nslow > 0 || f->nlinks > 0; }

double runner_faults_late(const runner_faults *f, int rank)
{
  double late = 0;
  for (int i = 0; i < f->nlate; i++)
    if (f->late[i].rank == rank)
      late += f->late[i].value;
  return late;
}

void runner_faults_compute(const runner_faults *f, int rank, sa_compute *c)
{
  double slow = 1;
  for (int i = 0; i < f->nslow; i++)
    if (f->slow[i].rank == rank)
      slow *= f->slow[i].value;
  if (slow != 1)
    sa_compute_slower(c, slow);
}

int runner_faults_links(const runner_faults *f, int rank)
{
  int rc = 0;
#ifdef SA_SMPI
  if (f->nlinks == 0)
    return 0;
  /* rank 0 alone: every rank shares SimGrid's one engine, and a change made twice would be
   * applied twice */
  for (int i = 0; rank == 0 && i < f->nlinks && rc == 0; i++)
    if ((rc = topo_link_change(f->links[i].name, f->links[i].factor, f->links[i].add_lat)) != 0)
      fprintf(stderr, "ar_runner: the platform has no link %s\n", f->links[i].name);
  /* nobody sends before the links are as asked */
  int worst = rc;
  if (MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD) != MPI_SUCCESS)
    return SA_EMPI;
  rc = worst;
#else
  (void)rank;
  if (runner_faults_any(f)) {
    fprintf(stderr, "ar_runner: --faults needs a simulated cluster\n");
    rc = SA_EINVAL;
  }
#endif
  return rc;
}

void runner_faults_reach(double late)
{
#ifdef SA_SMPI
  if (late > 0)
    sg_actor_sleep_for(late);
#else
  (void)late;
#endif
}

void runner_faults_free(runner_faults *f)
{
  for (int i = 0; i < f->nlinks; i++)
    free(f->links[i].name);
  free(f->links);
  free(f->late);
  free(f->slow);
  memset(f, 0, sizeof *f);
}
