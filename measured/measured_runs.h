/* measured_runs.h: the "runs" of a measured-data file in JSON (what measured.c writes and
 * reads along with the points; the run API itself is in measured.h). */
#ifndef MEASURED_MEASURED_RUNS_H
#define MEASURED_MEASURED_RUNS_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "measured.h"

/* Adds "runs": [...] for d's runs to root. Returns 0 or SA_ENOMEM. */
int md_runs_json(cJSON *root, const md_data *d);

/* Appends the runs of root's "runs" (absent: none) to d. Returns 0, SA_EPARSE with err
 * naming the run and what is wrong with it, or SA_ENOMEM. */
int md_runs_from_json(const cJSON *root, md_data *d, const char *path, char *err, size_t errlen);

#endif
