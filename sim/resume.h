/* resume.h: --resume FILE: the points an earlier run of the same sweep wrote (its --jsonl, or
 * its --json), taken as they are so that only the others are simulated. */
#ifndef SIM_RESUME_H
#define SIM_RESUME_H

#include <stddef.h>

#include "plan.h"
#include "report.h"

/* The latest simulated clock a result may record: past it a double no longer holds a
 * nanosecond (1e6 s: its spacing there is 1.2e-10 s), and no sweep reaches it. */
#define SIM_RESUME_MAX_CLOCK 1e6

/* Fills the plan's slots that FILE holds (marked resumed) and head with its run's fields.
 * Refuses a file of another platform (by SHA-256), shape, mode or options, and one with an
 * impossible value: a time negative or not finite, a next_clock_s that is not a number, not
 * in (0, SIM_RESUME_MAX_CLOCK] or not later than the one before it. *in_order is 1 when the
 * file's points are this sweep's first ones in its order (every point then comes out as an
 * uninterrupted run gives it; see docs/output.md). Returns the number of points taken (0 or
 * more), or SA_EIO / SA_EPARSE / SA_EINVAL with err filled. */
int sim_resume_load(const char *path, const sim_run_info *run, sim_plan *pl, sim_results *head, int *in_order,
                    char *err, size_t errlen);

#endif
