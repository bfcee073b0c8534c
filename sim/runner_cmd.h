/* runner_cmd.h: the runner's command line for a set of options and the points to run. */
#ifndef SIM_RUNNER_CMD_H
#define SIM_RUNNER_CMD_H

#include "cli.h"
#include "plan.h"

typedef struct {
  char *points; /* the file holding them */
  char faults[4200]; /* --what-if's faults, a file beside it ("": none) */
  char num[7][32];
  char trace[4200];
  char *argv[32]; /* NULL-terminated */
} sim_runner_cmd;

/* The plan's points in slots [lo, hi) not done yet, in order, written to a file beside
 * result; the first starts at start_clock when it is a number (the clock the earlier run
 * recorded for it, so that its times come out the same). With --links or --trace the runner
 * accounts the links; with --trace it writes its timeline files into
 * sim_runner_trace_dir(result). Returns 0, SA_ENOMEM or SA_EIO. */
int sim_runner_cmd_build(sim_runner_cmd *c, const sim_opts *o, int rpn, const sim_plan *pl, int lo, int hi,
                         double start_clock, const char *result);
/* The directory "trace" beside the result file. */
void sim_runner_trace_dir(const char *result, char *dir, size_t len);
void sim_runner_cmd_free(sim_runner_cmd *c);

#endif
