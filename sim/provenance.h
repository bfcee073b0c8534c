/* provenance.h: how a result was made, written into every result file: the command line,
 * the tool's version (git describe at build time), SimGrid's, the platform file's SHA-256,
 * the host, the start time and the wall time. */
#ifndef SIM_PROVENANCE_H
#define SIM_PROVENANCE_H

#include <cjson/cJSON.h>
#include <stdio.h>
#include <time.h>

typedef struct {
  char *command;          /* argv, shell-quoted */
  char platform_sha256[65]; /* empty until known */
  char host[256];
  char start[32];         /* ISO 8601, UTC */
  struct timespec t0;     /* monotonic, for the wall time */
} sim_provenance;

/* Records the command line, the host and the start. Returns 0 or SA_ENOMEM. */
int sim_provenance_init(sim_provenance *p, int argc, char **argv);
/* The platform file's SHA-256. Returns 0 or SA_EIO. */
int sim_provenance_platform(sim_provenance *p, const char *path);
void sim_provenance_free(sim_provenance *p);

/* Seconds since sim_provenance_init. */
double sim_provenance_wall(const sim_provenance *p);
/* The tool's version (git describe when it was built) and SimGrid's (its library's). */
const char *sim_version(void);
void sim_simgrid_version(char *buf, size_t len);

/* The JSON object "provenance" (wall_s < 0: left out, the run not being over). */
cJSON *sim_provenance_json(const sim_provenance *p, double wall_s);
/* The CSV's first line: "# simallreduce VERSION ...", every field of the JSON's. */
void sim_provenance_csv(FILE *f, const sim_provenance *p);
/* --version */
void sim_version_print(FILE *f);

#endif
