/* tmpdir.h: one private temporary directory per run, removed on exit, error or signal. */
#ifndef SIM_TMPDIR_H
#define SIM_TMPDIR_H

#include <stddef.h>

/* Creates the directory under $TMPDIR (or /tmp) and arranges its removal. Returns its path,
 * or NULL with err filled. */
const char *sim_tmpdir_create(char *err, size_t errlen);

/* Removes the directory and everything in it (safe to call twice). */
void sim_tmpdir_remove(void);

#endif
