/* collfit.h: alpha-beta lines of measured allreduce times (nccl-tests, OSU, NCCL runs), one
 * per source, run, rank count, datatype and in-place flag: the collective's own cost law. */
#ifndef FIT_COLLFIT_H
#define FIT_COLLFIT_H

#include <cjson/cJSON.h>

#include "measured/measured.h"

/* An array with one entry per group: {"source", "ranks", "run", "inplace", "alpha_s",
 * "beta_s_per_byte", "r2", "max_rel_err", "points_used"}; empty when there is none. */
cJSON *fit_coll_json(const md_data *d);

#endif
