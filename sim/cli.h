/* cli.h: the simallreduce command line. */
#ifndef SIM_CLI_H
#define SIM_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kernels/dtype.h"
#include "common/whatif.h"
#include "models/cost.h"

#define SIM_MAX_ALGOS 32
#define SIM_MAX_SIZES 100000 /* sizes in one run: a sweep beyond that is a mistake */
#define SIM_MAX_SEGMENTS 4096 /* --segment: the trees' segments a simulation can take (cli.c) */
#define SIM_MAX_CFG 32

typedef enum { SIM_RUN, SIM_HELP, SIM_LIST_ALGOS, SIM_LIST_PLATFORMS, SIM_LIST_LINKS, SIM_VERSION } sim_action;

/* --mode: simulate, predict with the cost models, or both side by side (the default: the
 * models cost microseconds next to a simulation's seconds). */
typedef enum { SIM_MODE_BOTH, SIM_MODE_SIM, SIM_MODE_MODEL } sim_mode;

typedef struct {
  sim_action action;
  const char *platform;
  const char *algos[SIM_MAX_ALGOS]; /* names from the catalog, no repeats */
  int nalgos;
  uint64_t *sizes; /* bytes per rank, whole elements */
  int nsizes;
  kn_dtype dtype;
  int nodes, ranks_per_node; /* 0: all of the platform */
  int verify, phases;
  const char *json_path, *csv_path, *jsonl_path;
  const char *resume_path; /* --resume: an earlier run's --json or --jsonl */
  uint64_t segment;
  int channels; /* --channels, 0 when not given (ring: 1; NCCL's algorithms: NCCL's choice) */
  /* --proto and --nccl-algo: the protocols NCCL's algorithms may run and the algorithms
   * --algo nccl chooses among (sets of nccl/nccl_env.h; 0: NCCL's choice) */
  unsigned nccl_protos, nccl_algos;
  const nccl_version *nccl_version; /* --nccl-version, else the fit's (sim_fit_version), else the default */
  int nccl_version_given;
  int nccl;     /* one of NCCL's algorithms is among algos */
  double density, overlap;
  const char *cfg[SIM_MAX_CFG]; /* extra --cfg=KEY:VALUE for SimGrid */
  int ncfg;
  sim_mode mode;
  int best;         /* --algo best: algos holds the candidates, one is chosen per size */
  int allow_sparse; /* --allow-sparse: top-k algorithms are candidates too */
  int links;        /* --links [N]: the N busiest links of each point (docs/observability.md), 0: off */
  int jobs;         /* --jobs N: processes for --mode model (sim/model_batch.h), 0: one per processor */
  const char *trace_path;  /* --trace FILE: a Chrome trace-event timeline of the run */
  const char *trace_ranks; /* --trace-ranks LIST: the ranks it shows (util/rank_list.h); NULL: all */
  cost_timing timing; /* --timing: from a barrier (default) or as nccl-tests times */
  const char *export_tuner; /* --export-tuner FILE: the decision table of the tuner plugin (sim/tuner_export.c) */
  sa_whatif *whatif;        /* --what-if SPEC..., in the order given (docs/what-if.md) */
  int nwhatif;
  const char *workload, *buckets; /* --workload NAME|FILE.json, --buckets (docs/training.md) */
  struct sim_training *training;   /* the workload and its buckets, whose sizes are the run's */
  const struct sim_faults *faults; /* what they do to this run (sim/faults.c, set once the
                                    * platform is known); NULL: a healthy run */
} sim_opts;

/* --links without a number */
#define SIM_DEFAULT_LINKS 10

/* The --timing names: barrier, nccl-tests. */
const char *sim_timing_name(cost_timing t);

const char *sim_mode_name(sim_mode m);

/* Default message size: 100M, about ResNet-50's 25.6M fp32 gradients. */
#define SIM_DEFAULT_SIZE ((uint64_t)100 << 20)

/* Parses argv into o. Returns 0, or SA_EINVAL with a one-line reason in err (exit status 2). */
int sim_cli_parse(int argc, char **argv, sim_opts *o, char *err, size_t errlen);
void sim_cli_free(sim_opts *o);
void sim_cli_usage(FILE *f);

#endif
