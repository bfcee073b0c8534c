/* cli_run.h: runs bin/simallreduce as a user would and reads back what it wrote. */
#ifndef CLI_RUN_H
#define CLI_RUN_H

/* The test platforms written for the suites (tests/data/platforms/), as --platform takes them. */
#define PLAT "tests/data/platforms/"

#include <cjson/cJSON.h>

typedef struct {
  int status;    /* exit status, or -1 when it did not exit normally */
  char *out;     /* stdout */
  char *err;     /* stderr */
  cJSON *json;   /* the --json file, when the run wrote one */
} cli_result;

/* Runs "bin/simallreduce <args> --json <tmp>" (args is one shell-quoted string); with
 * want_json = 0 no --json is added. */
cli_result cli_run(const char *args, int want_json);
/* The same for another binary. */
cli_result cli_run_bin(const char *bin, const char *args, int want_json);
void cli_result_free(cli_result *r);

/* Runs "bin/simcalib <args>" ($SIMCALIB_BIN when set), args formatted like printf; no --json
 * is added. */
cli_result cli_simcalib(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The JSON document in a file, or NULL when it cannot be read or parsed. */
cJSON *cli_load_json(const char *path);

/* A fresh directory /tmp/<name>.XXXXXX into dir (at least 64 bytes); 0 or -1. Removing it
 * with everything inside: 0 or -1. */
int cli_tmpdir(char *dir, const char *name);
int cli_rmtree(const char *dir);

/* Number of lines in s. */
int cli_lines(const char *s);

/* results[i] of the JSON, and one of its numbers. */
const cJSON *cli_point(const cli_result *r, int i);
double cli_num(const cJSON *o, const char *key);

/* time_s of the result for algo at bytes, or -1. */
double cli_time(const cli_result *r, const char *algo, double bytes);

#endif
