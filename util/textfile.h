/* textfile.h: whole-file reads and JSON writes ("-" is stdout; a file written whole or not at
 * all, outfile.h) the subcommands share. */
#ifndef UTIL_TEXTFILE_H
#define UTIL_TEXTFILE_H

#include <cjson/cJSON.h>

/* The file's bytes, NUL-terminated, malloc'd; NULL when it cannot be read. */
char *util_read_text(const char *path);

/* Writes o, pretty-printed, to path ("-": stdout). Returns 0, or SA_EIO/SA_ENOMEM. */
int util_json_write(const cJSON *o, const char *path);

#endif
