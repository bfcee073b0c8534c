/* tmpdir.h: one private temporary directory per run, removed on exit, error or signal. */
#ifndef SIM_TMPDIR_H
#define SIM_TMPDIR_H

#include <stddef.h>
#include <sys/types.h>

/* Creates the directory under $TMPDIR (or /tmp) and arranges its removal. Returns its path,
 * or NULL with err filled. */
const char *sim_tmpdir_create(char *err, size_t errlen);

/* The process group a signal must stop before the directory goes (0: none). */
void sim_tmpdir_watch(pid_t group);

/* Removes the directory and everything in it (safe to call twice). */
void sim_tmpdir_remove(void);

#endif
