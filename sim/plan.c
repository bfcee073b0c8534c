/* plan.c: a run's points in report order. */
#include "plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"

int sim_plan_build(sim_plan *pl, const sim_opts *o, const int *winner)
{
  memset(pl, 0, sizeof *pl);
  pl->slot = calloc((size_t)o->nalgos * (size_t)o->nsizes + 1, sizeof *pl->slot);
  if (!pl->slot)
    return SA_ENOMEM;
  if (winner) { /* the choice per size, in size order */
    for (int i = 0; i < o->nsizes; i++)
      if (winner[i] >= 0)
        pl->slot[pl->n++] = (sim_slot){.algo = o->algos[winner[i]], .bytes = o->sizes[i]};
    return 0;
  }
  for (int a = 0; a < o->nalgos; a++)
    for (int i = 0; i < o->nsizes; i++)
      pl->slot[pl->n++] = (sim_slot){.algo = o->algos[a], .bytes = o->sizes[i]};
  return 0;
}

int sim_plan_find(const sim_plan *pl, const char *algo, uint64_t bytes, const char *nccl)
{
  for (int i = 0; i < pl->n; i++)
    if (!pl->slot[i].done && pl->slot[i].bytes == bytes && strcmp(pl->slot[i].algo, algo) == 0 &&
        (!nccl[0] || !pl->slot[i].nccl[0] || strcmp(pl->slot[i].nccl, nccl) == 0))
      return i;
  return -1;
}

void sim_plan_fill(sim_plan *pl, int i, const sim_point *p)
{
  if (pl->slot[i].done) /* the point again: what the first one held goes */
    sim_links_free(&pl->slot[i].pt.links);
  pl->slot[i].pt = *p;
  pl->slot[i].pt.healthy_s = pl->slot[i].healthy_s;
  if (!p->nccl[0])
    snprintf(pl->slot[i].pt.nccl, sizeof pl->slot[i].pt.nccl, "%s", pl->slot[i].nccl);
  if (!pl->slot[i].done)
    pl->ndone++;
  pl->slot[i].done = 1;
}

int sim_plan_results(const sim_plan *pl, const sim_results *head, sim_results *r)
{
  *r = *head;
  r->npoints = 0;
  r->points = calloc((size_t)pl->n + 1, sizeof *r->points);
  if (!r->points)
    return SA_ENOMEM;
  for (int i = 0; i < pl->n; i++)
    if (pl->slot[i].done)
      r->points[r->npoints++] = pl->slot[i].pt;
  return 0;
}

void sim_plan_free(sim_plan *pl)
{
  for (int i = 0; pl->slot && i < pl->n; i++)
    if (pl->slot[i].done)
      sim_links_free(&pl->slot[i].pt.links);
  free(pl->slot);
  memset(pl, 0, sizeof *pl);
}
