/* faults.h: what --what-if's faults do to one run (docs/what-if.md): checked against the
 * platform and the run's ranks before anything runs, then handed to the runner (a file of
 * faults), to the models (a degraded platform probe, a slower GPU, the latest rank's delay)
 * and to the report (one line naming them). */
#ifndef SIM_FAULTS_H
#define SIM_FAULTS_H

#include <stddef.h>

#include "cli.h"
#include "models/cost_cover.h"
#include "platform/platform.h"

#define SIM_FAULT_NOTES 3

typedef struct sim_faults {
  char desc[1024];          /* every fault, "; "-separated, for the table and the JSON */
  plat_link_change *links;  /* link:... and background:..., in the order given */
  int nlinks;
  /* the same for the models, which read the first nodes and take the others alike: a
   * change of node N's link is made to that link of every node they read */
  plat_link_change *model_links;
  int nmodel_links;
  char (*model_names)[SA_WHATIF_NAME + 16];
  /* what the models do otherwise than the simulation, a sentence each: the run's table and
   * JSON carry them with its other warnings about the models, and how far they then were
   * from the simulation */
  char notes[SIM_FAULT_NOTES][320];
  int nnotes;
  int ranks;
  double *late;             /* [ranks]: seconds each rank reaches every allreduce late */
  double *slow;             /* [ranks]: how many times slower each rank's GPU is (1: healthy) */
  double late_max, slow_max;
  char platform[4200];      /* the platform rebuilt without its NICs down ("": none down) */
  /* NCCL lays its channels from the node a NIC down leaves with the fewest NICs (nccl_node,
   * the runner's); the models lay theirs from node 0, so theirs is the same platform with
   * the nodes turned round to put that node first ("": the platform above) */
  int nccl_node;
  char model_platform[4200];
  char rebuilt[512];        /* what was rebuilt, in words (part of desc) */
} sim_faults;

/* Checks o's faults against the platform pf (its links by name: pf loaded with
 * PLAT_LOAD_LINKS) and a run of nodes x rpn ranks, and works out what they do: ranks out of
 * range, unknown links and NICs are one line in err and SA_EINVAL; jitter's draws are made
 * here, per rank in rank order, for its seed (GSL's MT19937). A rebuilt platform goes into
 * dir. Returns 0, SA_EINVAL, SA_EIO or SA_ENOMEM. */
int sim_faults_resolve(sim_faults *f, const sim_opts *o, const plat_file *pf, int nodes, int rpn, const char *dir,
                       char *err, size_t errlen);

/* The runner's --faults file (runner/runner_faults.c) at path: 0 or SA_EIO. */
int sim_faults_write(const sim_faults *f, const char *path);

/* The models' view of the degraded run: the GPU the slowest rank has, for every rank (the
 * models take the ranks alike; where only some are slow they may miss either way: one slow
 * GPU's sums can hide behind transfers that every GPU's cannot, and slower sums everywhere
 * can spread NCCL's channels apart so that they share their links less), said in f's
 * notes. */
void sim_faults_compute(sim_faults *f, sa_compute *c);
/* Adds f's notes to the models' warnings. */
void sim_faults_warn(const sim_faults *f, cost_cover *w);

void sim_faults_free(sim_faults *f);

#endif
