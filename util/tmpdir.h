/* tmpdir.h: one private temporary directory per run, removed on exit, error or signal, and
 * by the next run when this one was killed outright. */
#ifndef UTIL_TMPDIR_H
#define UTIL_TMPDIR_H

#include <stddef.h>
#include <sys/types.h>

/* Creates the directory "<prefix>.XXXXXX" under $TMPDIR (or /tmp), as an absolute path, and
 * arranges its removal; first removes the directories of runs that died (see tmpdir.c).
 * One per process: a second call returns the same directory. Returns its path, or NULL with
 * err filled. util_tmpdir_create uses the prefix "simallreduce". */
const char *util_tmpdir_create_as(const char *prefix, char *err, size_t errlen);
const char *util_tmpdir_create(char *err, size_t errlen);

/* Removes the directories of runs that died (see tmpdir.c), creating none: every run does
 * it first, so that a run killed outright leaves nothing past the next run of either tool,
 * whatever that run does. */
void util_tmpdir_sweep(void);

/* The supervisor (util/spawn.c) a signal must stop before the directory goes (0: none). */
void util_tmpdir_watch(pid_t supervisor);

/* Removes the directory and everything in it (safe to call twice). */
void util_tmpdir_remove(void);

#endif
