/* tuner_export.c: the decision table of --export-tuner (see tuner_export.h). */
#include "tuner_export.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"
#include "tuner/table.h"
#include "tuner_summary.h"

int sim_tuner_plan(sim_plan *pl, const sim_opts *o, const sim_model *m, char *err, size_t errlen)
{
  enum { MAXC = COST_NCCL_NALGO * COST_NCCL_NPROTO };
  if (!m->ctx) {
    snprintf(err, errlen, "--export-tuner takes NCCL's candidates from the cost models: %s", m->why);
    return SA_ENOMODEL;
  }
  sim_slot *slot = calloc((size_t)o->nsizes * MAXC + 1, sizeof *slot);
  if (!slot)
    return SA_ENOMEM;
  int n = 0;
  for (int i = 0; i < o->nsizes; i++) {
    cost_nccl_choice c[MAXC];
    int k = cost_nccl_candidates(m->ctx, o->sizes[i], c);
    if (k < 0) {
      snprintf(err, errlen, "--export-tuner: NCCL's candidates: %s", sa_strerror(k));
      free(slot);
      return k;
    }
    for (int j = 0; j < k; j++) {
      slot[n] = (sim_slot){.algo = o->algos[0], .bytes = o->sizes[i]};
      nccl_choice_format(&(nccl_choice){c[j].algo, c[j].proto, c[j].channels}, slot[n].nccl, sizeof slot[n].nccl);
      n++;
    }
  }
  sim_plan_free(pl);
  pl->slot = slot;
  pl->n = n;
  return 0;
}

/* A point's time: simulated, else the models' (--mode model); NaN when it has none. */
static double point_time(const sim_point *p)
{
  double t = p->simulated ? p->time_s : p->model_s;
  return isfinite(t) && t >= 0 ? t : NAN;
}

static int as_choice(const char *text, struct tuner_choice *c)
{
  nccl_choice ch;
  if (nccl_choice_parse(text, &ch) != 0)
    return SA_EINVAL;
  /* the table numbers algorithms and protocols as NCCL does */
  *c = (struct tuner_choice){nccl_algo_index(ch.algo), ch.proto, ch.channels};
  return 0;
}

/* The row of the size whose candidates are slots [b, e): the fastest and the next. */
static int size_row(const sim_plan *pl, int b, int e, int nodes, int rpn, struct tuner_row *r)
{
  int best = -1, next = -1;
  for (int i = b; i < e; i++) {
    double t = pl->slot[i].done ? point_time(&pl->slot[i].pt) : NAN;
    if (isnan(t))
      continue;
    if (best < 0 || t < point_time(&pl->slot[best].pt)) {
      next = best;
      best = i;
    } else if (next < 0 || t < point_time(&pl->slot[next].pt)) {
      next = i;
    }
  }
  if (best < 0)
    return SA_ENODATA;
  *r = (struct tuner_row){.nodes = (uint32_t)nodes, .ranks_per_node = (uint32_t)rpn, .sim_bytes = pl->slot[b].bytes,
                          .time_us = point_time(&pl->slot[best].pt) * 1e6, .runner_up = {-1, -1, 0}};
  if (as_choice(pl->slot[best].nccl, &r->choice) != 0)
    return SA_EINVAL;
  if (next >= 0) {
    if (as_choice(pl->slot[next].nccl, &r->runner_up) != 0)
      return SA_EINVAL;
    r->runner_up_time_us = point_time(&pl->slot[next].pt) * 1e6;
  }
  return 0;
}

int sim_tuner_export(const sim_plan *pl, const char *path, int nodes, int rpn, char *err, size_t errlen)
{
  struct tuner_row *rows = calloc((size_t)pl->n + 1, sizeof *rows);
  if (!rows)
    return SA_ENOMEM;
  size_t n = 0;
  int rc = 0;
  for (int b = 0, e; rc == 0 && b < pl->n; b = e) {
    for (e = b; e < pl->n && pl->slot[e].bytes == pl->slot[b].bytes;)
      e++;
    if (pl->slot[b].bytes == 0)
      continue; /* nothing to choose for an empty allreduce */
    rc = size_row(pl, b, e, nodes, rpn, &rows[n]);
    if (rc == SA_ENODATA) /* no time at this size: left to NCCL */
      rc = 0;
    else if (rc == 0)
      n++;
  }
  if (rc == 0 && n == 0)
    rc = SA_ENODATA;
  if (rc == 0 && tuner_rows_set_ranges(rows, n) != 0)
    rc = SA_EINVAL;
  if (rc)
    snprintf(err, errlen, "--export-tuner: no table to write: %s", sa_strerror(rc));
  else if (tuner_table_save(path, rows, n, err, errlen) != 0)
    rc = SA_EIO;
  else
    sim_tuner_summary(stderr, path, rows, n);
  free(rows);
  return rc;
}
