/* paths.h: where the tools find their platforms, helper programs and loader, from the running
 * binary, in the tree or installed. The tree's layout (make): every program and the loader
 * in bin/, platforms/ beside bin/. The installed one (make install): the programs in
 * <prefix>/bin, the rest under the folders the Makefile names (UTIL_LIBEXEC_DIR,
 * UTIL_LIB_DIR, UTIL_DATA_DIR). Every path is relative to the binary, so that an installed
 * tree can be moved. */
#ifndef UTIL_PATHS_H
#define UTIL_PATHS_H

#include <stddef.h>

/* Fills the directory holding the running binary (bin/). Returns 0 or SA_EIO. */
int util_bin_dir(char *buf, size_t len);

/* platforms/: $SIMALLREDUCE_PLATFORMS, else <bin>/../platforms in the tree,
 * <prefix>/share/simallreduce/platforms installed. */
void util_platforms_dir(const char *bindir, char *buf, size_t len);

/* A program the tools start (ar_runner, simcalib_pp, ...): <bin>/NAME in the tree,
 * <prefix>/libexec/simallreduce/NAME installed. Returns 0, or SA_EINVAL when it does not
 * fit in len. */
int util_helper_path(const char *bindir, const char *name, char *buf, size_t len);

/* A shared library the tools load (platform_zone.so): <bin>/NAME in the tree,
 * <prefix>/lib/simallreduce/NAME installed. Returns 0, or SA_EINVAL when it does not fit. */
int util_library_path(const char *bindir, const char *name, char *buf, size_t len);

#endif
