/* cost_fold.h: a cluster of like nodes folded onto one (internal to models/). Where every
 * route from rank a to rank b is the route from a + R to b + R (R ranks a node) with its
 * links moved one node on, and every rank starts as its likes on the other nodes do, a
 * pattern that repeats node by node (NCCL's ring through the nodes) runs the same on every
 * node at every instant: one node's ranks stand for all, each message to the next node
 * going to the rank there that is its receiver's like on the node replayed. A link's
 * likes on the other nodes carry what it carries, so each link is one of its kind, the
 * least-numbered, loaded as many times over as the nodes' likes of the messages on it land
 * on it (a switch every node crosses: every node's). Max-min sharing of a pattern alike on
 * every node is alike on every node, so the shares are the whole cluster's. */
#ifndef MODELS_COST_FOLD_H
#define MODELS_COST_FOLD_H

#include "cost_ctx.h"

/* What a fold has learned of the links' kinds: [key] its kind's least key (-1: not seen
 * yet), how many keys the kind has, and the key its like on the next node is. */
typedef struct {
  int period, images; /* ranks a node, nodes */
  int nkeys;
  int *kind, *size, *next;
} cost_fold;

/* A fold of c by nodes of `period` ranks (c->p a multiple of it). Returns 0 or SA_ENOMEM. */
int cost_fold_init(cost_fold *f, const cost_ctx *c, int period);
void cost_fold_free(cost_fold *f);

/* The route of a message from rank `from` of the node replayed to rank `to` (any node), its
 * links each its kind's, loaded as the messages' likes on every node load them
 * (cost_route_use_of's, folded). Returns 0, SA_ENOMEM, another SA_E* code of the route, or
 * COST_UNFOLDED where the routes of its likes are not its own moved by whole nodes (another
 * number of links, another latency or rate, a link of two kinds): the cluster does not fold. */
#define COST_UNFOLDED 1
int cost_fold_use(cost_fold *f, const cost_ctx *c, int from, int to, cost_route_use *u);

#endif
