/* cleanup.h: what a run removes however it ends, on exit or on SIGINT, SIGTERM, SIGHUP or
 * SIGPIPE: the private temporary directory (tmpdir.c), an output's unfinished temporary file
 * (outfile.c). Each module that makes something to remove registers one action; they run
 * last registered first, then the signal takes its default course (the process dies of it,
 * as the user asked). A signal ignored when we started stays ignored (nohup's SIGHUP, SIGINT
 * in a shell's background job). */
#ifndef UTIL_CLEANUP_H
#define UTIL_CLEANUP_H

/* Adds an action (at most 8; the same one twice is kept once). It must be safe to call at
 * any moment, twice, and from a signal handler. */
void util_cleanup_add(void (*action)(void));

#endif
