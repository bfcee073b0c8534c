/* progress.h: the line on stderr that says where a sweep is (point k of n, algorithm, size,
 * time so far, time left), redrawn in place and cleared when done; only on a terminal. */
#ifndef SIM_PROGRESS_H
#define SIM_PROGRESS_H

#include <stdio.h>
#include <time.h>

#include "plan.h"

typedef struct {
  FILE *f;            /* NULL: off (stderr is not a terminal) */
  struct timespec t0; /* the simulation's start */
  double last_draw;   /* seconds since t0 */
  double done_at;     /* when the last point of this run arrived */
  int shown;          /* a line is on the screen */
} sim_progress;

/* On when f is a terminal. */
void sim_progress_init(sim_progress *p, FILE *f);
/* Slot s of this run just finished: its wall time is recorded in it. */
void sim_progress_point(sim_progress *p, sim_slot *s);
/* Redraws the line when `force` or half a second has passed since the last time. */
void sim_progress_draw(sim_progress *p, const sim_plan *pl, int force);
/* Takes the line away (before anything else is printed on the terminal). */
void sim_progress_clear(sim_progress *p);

/* Seconds left, `running` seconds into the first point not done: each point not done is
 * expected to take what the points of its algorithm took in this run on average, or all of
 * them when none of its algorithm has finished. Negative when nothing has finished yet. */
double sim_progress_left(const sim_plan *pl, double running);

#endif
