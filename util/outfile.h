/* outfile.h: an output file written whole or not at all. It is written into a temporary file
 * beside its target (the same directory: the rename cannot cross file systems) and renamed
 * over the target only once every write, the flush to disk and the close succeeded. A run
 * that fails, or that a signal stops, removes its temporary file and leaves the target as it
 * was, or absent: nothing else is ever removed. "-" is stdout; /dev/null, which a user names
 * to throw an output away, is written in place; any other target that exists and is not a
 * regular file is refused. */
#ifndef UTIL_OUTFILE_H
#define UTIL_OUTFILE_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

typedef struct {
  FILE *f;
  char path[PATH_MAX]; /* the target */
  char tmp[PATH_MAX];  /* the temporary file ("" when written in place) */
} util_outfile;

/* Whether path may be written as an output: "-", /dev/null, a regular file we may replace,
 * or a new file in a directory we may write in. Returns 0, or SA_EINVAL (a directory, FIFO
 * or device) / SA_EIO (no permission, no such directory) with err saying which, naming path. */
int util_outfile_check(const char *path, char *err, size_t errlen);

/* Opens the temporary file (mode 0600 until it is renamed, so that no one reads it half
 * written). Returns 0, or SA_EINVAL / SA_EIO with err naming path. */
int util_outfile_open(util_outfile *o, const char *path, char *err, size_t errlen);

/* Flushes, syncs and closes o->f, then renames the temporary file over the target, with the
 * target's mode where it existed, else the one a new file gets (0666 less the umask).
 * Returns 0, or SA_EIO with err ("cannot write PATH: No space left on device") and the
 * temporary file removed. Either way o->f is closed. */
int util_outfile_commit(util_outfile *o, char *err, size_t errlen);

/* Closes o->f and removes the temporary file: the target stays as it was. */
void util_outfile_discard(util_outfile *o);

/* What a file that exists is, when it is not a regular file ("is a directory", "is a FIFO",
 * ...), for the message that refuses it as an input or an output; NULL for a regular file. */
const char *util_not_regular(const struct stat *st);

/* Whether names a and b are one file: the same file where both exist (through links), else
 * the same name once their directories are resolved. */
int util_same_file(const char *a, const char *b);

/* The whole of an output at once: len bytes of text written to path as above. Returns 0, or
 * SA_EINVAL / SA_EIO with err naming path. */
int util_outfile_write(const char *path, const char *text, size_t len, char *err, size_t errlen);

#endif
