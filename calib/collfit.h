/* collfit.h: alpha-beta lines of measured allreduce times (nccl-tests, OSU, NCCL runs), one
 * per source, run, rank count, datatype and in-place flag: the collective's own cost law. */
#ifndef CAL_COLLFIT_H
#define CAL_COLLFIT_H

#include <cjson/cJSON.h>

#include "measured.h"

/* An array with one entry per group: {"source", "ranks", "run", "inplace", "alpha_s",
 * "beta_s_per_byte", "r2", "max_rel_err", "points_used"}; empty when there is none. */
cJSON *cal_coll_fit_json(const cal_data *d);

#endif
