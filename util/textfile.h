/* textfile.h: whole-file reads and JSON writes ("-" is stdout; a file written whole or not at
 * all, outfile.h) the subcommands share. */
#ifndef UTIL_TEXTFILE_H
#define UTIL_TEXTFILE_H

#include <cjson/cJSON.h>

#include <stddef.h>

/* The file's bytes, NUL-terminated, malloc'd; NULL when it cannot be read, or is not a
 * regular file (a FIFO with no writer would block forever, /dev/zero never end). */
char *util_read_text(const char *path);

/* Whether path is an input a command may read: a regular file it can open ("-", stdin, when
 * stdin_ok). Returns 0, or SA_EINVAL / SA_EIO with err naming path and why ("is a FIFO"). */
int util_input_check(const char *path, int stdin_ok, char *err, size_t errlen);

/* Writes o, pretty-printed, to path ("-": stdout). Returns 0, or SA_EIO/SA_ENOMEM. */
int util_json_write(const cJSON *o, const char *path);

#endif
