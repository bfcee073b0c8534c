/* runner_cmd.h: the runner's command line for a set of options. */
#ifndef SIM_RUNNER_CMD_H
#define SIM_RUNNER_CMD_H

#include "cli.h"

typedef struct {
  char *algos, *sizes;
  char num[6][32];
  char trace[4200];
  char *argv[32]; /* NULL-terminated */
} sim_runner_cmd;

/* Returns 0, or SA_ENOMEM. With --links or --trace the runner accounts the links; with
 * --trace it writes its timeline files into sim_runner_trace_dir(result). */
int sim_runner_cmd_build(sim_runner_cmd *c, const sim_opts *o, int rpn, const char *result);
/* The directory "trace" beside the result file. */
void sim_runner_trace_dir(const char *result, char *dir, size_t len);
void sim_runner_cmd_free(sim_runner_cmd *c);

#endif
