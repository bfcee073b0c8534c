/* runner_cmd.h: the runner's command line for a set of options. */
#ifndef SIM_RUNNER_CMD_H
#define SIM_RUNNER_CMD_H

#include "cli.h"

typedef struct {
  char *algos, *sizes; /* sizes: the file holding them */
  char num[5][32];
  char *argv[32]; /* NULL-terminated */
} sim_runner_cmd;

/* Writes the sizes into a file beside result. Returns 0, SA_ENOMEM or SA_EIO. */
int sim_runner_cmd_build(sim_runner_cmd *c, const sim_opts *o, int rpn, const char *result);
void sim_runner_cmd_free(sim_runner_cmd *c);

#endif
