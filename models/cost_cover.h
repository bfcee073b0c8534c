/* cost_cover.h: where a platform departs from what the cost models assume, and how far. */
#ifndef COST_COVER_H
#define COST_COVER_H

#include "cost.h"

#define COST_MAX_WARNINGS 4

typedef struct {
  int n;
  char text[COST_MAX_WARNINGS][320]; /* one sentence each: what the platform does, what the models assume */
  double factor[COST_MAX_WARNINGS];  /* how far, as a ratio (1.5: up to 1.5x), 0 where none can be given */
} cost_cover;

/* Checks the platform's routes (net, as the loader probed them) for a run of shape against
 * the models' assumptions (cost_path.c): every node and pair of nodes like nodes 0, 1 and 2,
 * links between nodes' sides not shared by other nodes (a non-blocking fabric), and inside a
 * node links owned by one GPU's sends or receives. w->n = 0 when they hold. */
void cost_cover_check(const cost_net *net, const cost_shape *shape, cost_cover *w);

#endif
