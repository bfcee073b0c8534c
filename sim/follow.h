/* follow.h: reads the runner's result stream while the runner writes it: only complete
 * lines, each handed over as it appears. */
#ifndef SIM_FOLLOW_H
#define SIM_FOLLOW_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "util/jsonlines.h"

typedef struct {
  const char *path;
  int fd; /* -1 until the file exists */
  char *buf;
  size_t len, cap;
  int ended; /* the end line was read */
  int bad;   /* a line that is no record, or out of place */
} sim_follow;

/* Called with each record in order; o belongs to the caller of the callback. */
typedef void (*sim_follow_fn)(void *arg, util_jsonl_record kind, const cJSON *o);

void sim_follow_init(sim_follow *f, const char *path);
/* Reads what was appended since the last call, hands every complete line to fn. */
void sim_follow_poll(sim_follow *f, sim_follow_fn fn, void *arg);
void sim_follow_close(sim_follow *f);

#endif
