/* textfile.h: whole-file reads and JSON writes ("-" is stdout) the subcommands share. */
#ifndef CAL_TEXTFILE_H
#define CAL_TEXTFILE_H

#include <cjson/cJSON.h>

/* The file's bytes, NUL-terminated, malloc'd; NULL when it cannot be read. */
char *cal_read_text(const char *path);

/* Writes o, pretty-printed, to path ("-": stdout). Returns 0, or CAL_EIO/CAL_ENOMEM. */
int cal_json_write(const cJSON *o, const char *path);

#endif
