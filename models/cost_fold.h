/* cost_fold.h: a cluster of like nodes folded onto its first (internal to models/). Where
 * every route from rank a to rank b is the route from a + P to b + P (P ranks of whole nodes,
 * the period) with its links moved one period on, and every rank starts as its likes a
 * period on do, a pattern that repeats period by period (NCCL's ring through the nodes) runs
 * the same in every period at every instant: the first P ranks stand for all, each message to
 * a later period going to the rank among them that is its receiver's like. A link's likes in
 * the other periods carry what it carries, so each link is one of its kind, the
 * least-numbered, loaded as many times over as the likes of the messages on it land on it (a
 * switch every node crosses: every period's). Max-min sharing of a pattern alike in every
 * period is alike in every period, so the shares are the whole cluster's. */
#ifndef MODELS_COST_FOLD_H
#define MODELS_COST_FOLD_H

#include "cost_ctx.h"

/* What a fold has learned of the links' kinds: [key] its kind's least key (-1: not seen
 * yet), how many keys the kind has, and the key its like a period on is. */
typedef struct {
  int period, images; /* the period's ranks, and how many periods the ranks make */
  int nkeys;
  int *kind, *size, *next;
} cost_fold;

/* A fold of c by periods of `period` ranks (c->p a multiple of it). Returns 0 or SA_ENOMEM. */
int cost_fold_init(cost_fold *f, const cost_ctx *c, int period);
void cost_fold_free(cost_fold *f);

/* The route of a message from rank `from` of the period replayed to rank `to` (any), its
 * links each its kind's, loaded as the message's likes in every period load them
 * (cost_route_use_of's, folded). Returns 0, SA_ENOMEM, another SA_E* code of the route, or
 * COST_UNFOLDED where the routes of its likes are not its own moved by whole periods (another
 * number of links, another latency or rate, a link of two kinds): the cluster does not fold. */
#define COST_UNFOLDED 1
int cost_fold_use(cost_fold *f, const cost_ctx *c, int from, int to, cost_route_use *u);

#endif
