/* model_batch.c: --mode model's predictions in batches (see model_batch.h). */
#include "model_batch.h"

#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "common/sa_error.h"
#include "util/forked.h"

/* slots per process in a batch: a replay of NCCL's ring at 1 GiB on 32 H100 takes about
 * 60 times one at 64 KiB, so a few each keep the processes' shares within a few points */
#define PER_WORKER 8

int sim_model_batch_len(void) { return PER_WORKER * util_forked_workers(); }

typedef struct {
  const sim_model *m;
  const sim_opts *o;
  int rpn;
  const sim_plan *pl;
  const int *slot; /* the batch's slots of NCCL's algorithms */
  int n, pieces;
} batch;

/* Piece k: the batch's slots k, k + pieces, ... (the sizes of a sweep in turn, large and
 * small alike) into its copy of the points, at their places in the batch. */
static int piece(void *arg, int k, void *buf)
{
  const batch *b = arg;
  sim_point *out = buf;
  for (int j = k; j < b->n; j += b->pieces)
    sim_model_only_point(b->m, b->o, b->rpn, &b->pl->slot[b->slot[j]], &out[j]);
  return 0;
}

static int replays(const char *algo)
{
  const sim_algo_info *a = sim_catalog_find(algo);
  return a && (a->flags & AR_NCCL);
}

int sim_model_batch(const sim_model *m, const sim_opts *o, int rpn, const sim_plan *pl, int lo, int hi, sim_point *out)
{
  int n = hi - lo, *slot = malloc(sizeof *slot * (size_t)(n > 0 ? n : 1)), nr = 0;
  if (!slot)
    return SA_ENOMEM;
  for (int i = lo; i < hi; i++)
    if (replays(pl->slot[i].algo))
      slot[nr++] = i;
    else
      sim_model_only_point(m, o, rpn, &pl->slot[i], &out[i - lo]);
  if (nr == 0) {
    free(slot);
    return 0;
  }
  int w = util_forked_workers(); /* one piece alone runs here, without a child (util/forked.h) */
  w = w < nr ? w : nr;
  batch b = {m, o, rpn, pl, slot, nr, w};
  size_t len = sizeof(sim_point) * (size_t)nr;
  sim_point *bufs = calloc((size_t)w, len);
  int rc = bufs ? util_forked_run(w, piece, &b, bufs, len) : SA_ENOMEM;
  for (int j = 0; rc == 0 && j < nr; j++) /* slot j came back in piece j % w's copy */
    memcpy(&out[slot[j] - lo], (char *)bufs + (size_t)(j % w) * len + sizeof(sim_point) * (size_t)j, sizeof(sim_point));
  free(bufs);
  free(slot);
  return rc;
}
