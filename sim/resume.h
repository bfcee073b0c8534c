/* resume.h: --resume FILE: the points an earlier run of the same sweep wrote (its --jsonl, or
 * its --json), taken as they are so that only the others are simulated. */
#ifndef SIM_RESUME_H
#define SIM_RESUME_H

#include <stddef.h>

#include "plan.h"
#include "report.h"

/* Fills the plan's slots that FILE holds (marked resumed) and head with its run's fields.
 * Refuses a file of another platform (by SHA-256), shape, mode or options. Returns the
 * number of points taken (0 or more), or SA_EIO / SA_EPARSE / SA_EINVAL with err filled. */
int sim_resume_load(const char *path, const sim_run_info *run, sim_plan *pl, sim_results *head, char *err,
                    size_t errlen);

#endif
