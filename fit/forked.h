/* forked.h: a computation done in a child process, its result sent back through a pipe: the
 * fit's independent pieces (the Jacobian's columns, the sizes of one evaluation) side by
 * side, with nothing shared to make safe (each child has its own copy of everything). */
#ifndef FIT_FORKED_H
#define FIT_FORKED_H

#include <stddef.h>
#include <sys/types.h>

typedef struct {
  pid_t pid; /* -1: not started */
  int fd;
} fit_forked;

/* fn(arg, buf) in a child, which sends fn's status, then, when 0, the len bytes of buf,
 * and leaves with _exit (the parent's cleanup list and stdio buffers are the parent's). */
fit_forked fit_forked_start(int (*fn)(void *arg, void *buf), void *arg, void *buf, size_t len);
/* Waits for it: 0 with buf filled, 1 when it was not started or nothing whole came back (the
 * caller does the work itself), else fn's status. */
int fit_forked_finish(fit_forked *c, void *buf, size_t len);

/* How many pieces to run at once: the online processors (at most 64, at most the limit
 * when one is set), 1 inside a child (one level of children: a child's own pieces run in
 * it, one after another). */
int fit_forked_workers(void);
/* At most n at once from now on (--jobs); 0: no limit. */
void fit_forked_limit(int n);

#endif
