/* forked.h: independent pieces of work side by side in child processes, each result sent
 * back through a pipe, with nothing shared to make safe (each child has its own copy of
 * everything): the sizes of a fit's evaluations and Jacobian columns (fit/clustereval.c),
 * the points of a model sweep (sim/model_batch.c). */
#ifndef UTIL_FORKED_H
#define UTIL_FORKED_H

#include <stddef.h>

/* One piece: fn(arg, k, buf) fills buf (len bytes) with piece k's result; 0 or an error. */
typedef int (*util_forked_fn)(void *arg, int k, void *buf);

/* Pieces 0 .. n-1 into bufs (piece k's at bufs + k len), at most util_forked_workers() at
 * once: this process does the first of each batch while children do the others, and any
 * piece whose child could not start or whose bytes did not all come back, with the same
 * arithmetic, so that results never depend on how the pieces were shared out. Returns 0,
 * or the first failing piece's error. */
int util_forked_run(int n, util_forked_fn fn, void *arg, void *bufs, size_t len);

/* How many pieces to run at once: the limit when one is set, else the online processors (at
 * most 64 either way), 1 inside a child (one level of children: a child's own pieces run in
 * it, one after another). */
int util_forked_workers(void);
/* n at once from now on (--jobs of simcalib and simallreduce); 0: one per processor. */
void util_forked_limit(int n);

#endif
