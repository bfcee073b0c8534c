/* outputs.h: the files a run writes, checked before anything runs: each one a file it may
 * write (util/outfile.h: a regular file or /dev/null, not a directory, FIFO or device), no
 * two of them one file, and none of them a file the run reads (the platform, --resume's
 * file), through links too. --resume's file may be the run's own --jsonl or --json: both
 * hold every point again once the run ends. */
#ifndef SIM_OUTPUTS_H
#define SIM_OUTPUTS_H

#include <stddef.h>

#include "cli.h"

/* Returns 0, or SA_EINVAL / SA_EIO with err saying which option and file. platform: the
 * resolved platform file. */
int sim_outputs_check(const sim_opts *o, const char *platform, char *err, size_t errlen);

#endif
