/* cost_nccl_pipe.c: the pieces of the runner's slice pipeline (algos/nccl_pipe.c) that the
 * models of NCCL's ring and tree both time (see cost_ctx.h). */
#include <string.h>

#include "cost_ctx.h"

double cost_nccl_send(const cost_ctx *c, cost_hop h, double wire, double ready, double *free)
{
  double go = ready > *free ? ready : *free;
  return *free = go + cost_hop_time(c, h, wire) - cost_recv_overhead(c, wire);
}

void cost_nccl_consume(cost_nccl_slots *s, double t) { s->taken[s->n++ % NCCL_STEPS] = t; }

double cost_nccl_room(const cost_nccl_slots *s, long msg, int slots)
{
  return msg < slots ? s->start : s->taken[(msg - slots) % NCCL_STEPS];
}

double cost_nccl_sum(cost_nccl_gpu *g, double ready, double dt)
{
  double t = ready;
  int i = 0;
  for (; i < g->n; i++) { /* the first gap from `ready` on that holds dt */
    if (g->to[i] <= t)
      continue;
    if (g->from[i] >= t + dt)
      break;
    t = g->to[i];
  }
  if (g->n == COST_GPU_SPANS) { /* forget the oldest span: sums come later and later */
    memmove(g->from, g->from + 1, sizeof(double) * (COST_GPU_SPANS - 1));
    memmove(g->to, g->to + 1, sizeof(double) * (COST_GPU_SPANS - 1));
    g->n--;
    i = i > 0 ? i - 1 : 0;
  }
  memmove(g->from + i + 1, g->from + i, sizeof(double) * (size_t)(g->n - i));
  memmove(g->to + i + 1, g->to + i, sizeof(double) * (size_t)(g->n - i));
  g->from[i] = t;
  g->to[i] = t + dt;
  g->n++;
  return t + dt;
}
