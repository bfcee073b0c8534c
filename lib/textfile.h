/* textfile.h: whole-file reads and JSON writes ("-" is stdout) the subcommands share. */
#ifndef SIM_TEXTFILE_H
#define SIM_TEXTFILE_H

#include <cjson/cJSON.h>

/* The file's bytes, NUL-terminated, malloc'd; NULL when it cannot be read. */
char *sim_read_text(const char *path);

/* Writes o, pretty-printed, to path ("-": stdout). Returns 0, or SA_EIO/SA_ENOMEM. */
int sim_json_write(const cJSON *o, const char *path);

#endif
