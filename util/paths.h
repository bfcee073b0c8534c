/* paths.h: where the installed pieces are, relative to the simallreduce binary. */
#ifndef UTIL_PATHS_H
#define UTIL_PATHS_H

#include <stddef.h>

/* Fills the directory holding the running binary (bin/). Returns 0 or SA_EIO. */
int util_bin_dir(char *buf, size_t len);

/* platforms/: $SIMALLREDUCE_PLATFORMS, else <bin>/../platforms. */
void util_platforms_dir(const char *bindir, char *buf, size_t len);

#endif
