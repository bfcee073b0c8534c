/* main.c: simallreduce, the driver: options -> platform -> hostfile -> one SMPI run of the
 * runner for every point, and/or the cost models' predictions -> table, JSON, CSV. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "catalog.h"
#include "common/sa_error.h"
#include "cli.h"
#include "lib/hostfile.h"
#include "modeling.h"
#include "lib/launch.h"
#include "lib/paths.h"
#include "lib/platform.h"
#include "report.h"
#include "results.h"
#include "runner_cmd.h"
#include "lib/tmpdir.h"

#define ERRLEN 1024

static int bad_input(const char *msg)
{
  fprintf(stderr, "simallreduce: %s\n", msg);
  return 2;
}

static void list_algos(void)
{
  for (const sim_algo_info *a = sim_catalog; a->name; a++)
    printf("%-10s %-6s %s\n", a->name, a->flags & AR_SPARSE ? "sparse" : "dense", a->desc);
}

static int by_name(const struct dirent **a, const struct dirent **b) { return strcmp((*a)->d_name, (*b)->d_name); }

static int list_platforms(const char *dir)
{
  struct dirent **ents;
  int n = scandir(dir, &ents, NULL, by_name);
  if (n < 0) {
    fprintf(stderr, "simallreduce: cannot list %s\n", dir);
    return 2;
  }
  for (int i = 0; i < n; i++) {
    size_t len = strlen(ents[i]->d_name);
    if (len > 4 && strcmp(ents[i]->d_name + len - 4, ".xml") == 0) {
      char path[8400], err[ERRLEN];
      sim_platform pf;
      snprintf(path, sizeof path, "%s/%s", dir, ents[i]->d_name);
      if (sim_platform_load(path, &pf, err, sizeof err) == 0)
        printf("%-12s %4d node%s x %d GPUs (%d hosts)\n", pf.name, pf.nnodes, pf.nnodes == 1 ? "" : "s", pf.node_size[0], pf.nhosts);
      else
        printf("%-12s unusable: %s\n", ents[i]->d_name, err);
      sim_platform_free(&pf);
    }
    free(ents[i]);
  }
  free(ents);
  return 0;
}

/* What must fit in this machine's memory: --verify keeps real buffers for every rank in this
 * one process, and the MPI library's own allreduce (mpi) works in real temporary buffers of
 * about twice the message (measured under SMPI 3.32: 2.1 GiB resident at 1 GiB, 0.56 GiB at
 * 256 MiB on 4 and 8 ranks alike); other algorithms in timing mode need none. */
static int check_memory(const sim_opts *o, int ranks, char *err, size_t errlen)
{
  uint64_t largest = 0;
  int mpi = 0;
  for (int i = 0; i < o->nsizes; i++)
    largest = o->sizes[i] > largest ? o->sizes[i] : largest;
  for (int i = 0; i < o->nalgos; i++)
    mpi |= strcmp(o->algos[i], "mpi") == 0;
  double have = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
  double need = o->verify ? 3.0 * (double)largest * ranks /* send, receive and scratch */
                          : mpi && o->mode != SIM_MODE_MODEL ? 2.0 * (double)largest : 0;
  if (need <= 0.6 * have)
    return 0;
  snprintf(err, errlen, "%s with %d ranks at %llu bytes needs about %.1f GiB of memory, this machine has %.1f GiB",
           o->verify ? "--verify" : "--algo mpi (the MPI library's buffers)", ranks, (unsigned long long)largest,
           need / (1 << 30), have / (1 << 30));
  return SA_EINVAL;
}

/* One SMPI run of the runner for o's algorithms x sizes; the points go to r. Returns 0, or
 * 1 with the reason and the simulator's last lines on stderr. */
static int simulate(const sim_opts *o, const char *bindir, const sim_platform *pf, int nodes, int rpn, sim_results *r,
                    double *wall)
{
  char err[ERRLEN], hostfile[4200], result[4200], log[4200], runner[4200];
  const char *tmp = sim_tmpdir_create(err, sizeof err);
  if (!tmp) {
    fprintf(stderr, "simallreduce: %s\n", err);
    return 1;
  }
  snprintf(hostfile, sizeof hostfile, "%s/hostfile", tmp);
  snprintf(result, sizeof result, "%s/result.json", tmp);
  snprintf(log, sizeof log, "%s/smpirun.log", tmp);
  snprintf(runner, sizeof runner, "%s/ar_runner", bindir);
  if (access(runner, X_OK) != 0) {
    fprintf(stderr, "simallreduce: the runner %s is missing (run make)\n", runner);
    return 1;
  }
  if (sim_hostfile_write(pf, nodes, rpn, hostfile) != 0) {
    fprintf(stderr, "simallreduce: cannot write %s\n", hostfile);
    return 1;
  }
  sim_runner_cmd cmd;
  int built = sim_runner_cmd_build(&cmd, o, rpn, result) == 0;
  sim_launch l = {pf->path, hostfile, runner, tmp, log, nodes * rpn, o->cfg, o->ncfg, cmd.argv};
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  int rc = built ? sim_launch_run(&l, err, sizeof err) : (snprintf(err, sizeof err, "out of memory"), -1);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  sim_runner_cmd_free(&cmd);
  if (rc == 0)
    rc = sim_results_read(result, r, err, sizeof err);
  if (rc != 0) {
    fprintf(stderr, "simallreduce: %s; the simulator's last lines:\n", err);
    sim_print_tail(log, 12, stderr);
    return 1;
  }
  *wall += (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  return 0;
}

static int by_size(const void *a, const void *b)
{
  const sim_point *x = a, *y = b;
  return (x->bytes > y->bytes) - (x->bytes < y->bytes);
}

/* --algo best, simulated: one run per chosen algorithm over the sizes it won, the points
 * then put back in size order. */
static int simulate_best(const sim_opts *o, const char *bindir, const sim_platform *pf, int nodes, int rpn,
                         const int *winner, sim_results *r, double *wall)
{
  uint64_t *sizes = malloc(sizeof *sizes * (size_t)o->nsizes);
  int status = sizes ? 0 : 1;
  memset(r, 0, sizeof *r);
  for (int a = 0; a < o->nalgos && status == 0; a++) {
    sim_opts one = *o;
    one.algos[0] = o->algos[a];
    one.nalgos = 1;
    one.sizes = sizes;
    one.nsizes = 0;
    for (int i = 0; i < o->nsizes; i++)
      if (winner[i] == a)
        sizes[one.nsizes++] = o->sizes[i];
    sim_results part;
    if (one.nsizes && (status = simulate(&one, bindir, pf, nodes, rpn, &part, wall)) == 0 &&
        sim_results_append(r, &part) != 0)
      status = 1;
  }
  free(sizes);
  if (status == 0 && r->npoints > 1)
    qsort(r->points, (size_t)r->npoints, sizeof *r->points, by_size);
  return status;
}

/* Prints and writes a run's points. Returns 0, or 1 when a file cannot be written or a
 * point did not verify. */
static int report(const sim_opts *o, const sim_run_info *run, const sim_results *r)
{
  /* A single size is the interactive case: its phase breakdown is the interesting part. */
  sim_report_table(stdout, run, r, o->phases || o->nsizes == 1);
  int status = 0;
  if (o->json_path && sim_report_json(o->json_path, run, r) != 0) {
    fprintf(stderr, "simallreduce: cannot write %s\n", o->json_path);
    status = 1;
  }
  if (o->csv_path && sim_report_csv(o->csv_path, run, r) != 0) {
    fprintf(stderr, "simallreduce: cannot write %s\n", o->csv_path);
    status = 1;
  }
  for (int i = 0; i < r->npoints; i++)
    if (r->points[i].verified == 0) {
      fprintf(stderr, "simallreduce: %s at %llu bytes did not verify (max abs error %g)\n", r->points[i].algo,
              (unsigned long long)r->points[i].bytes, r->points[i].max_abs_err);
      status = 1;
    }
  return status;
}

/* Simulates, predicts, or both (--mode), and reports. */
static int run(const sim_opts *o, const char *bindir, sim_platform *pf, int nodes, int rpn)
{
  sim_model m;
  memset(&m, 0, sizeof m);
  int use_model = o->mode != SIM_MODE_SIM || o->best;
  if (use_model && sim_model_open(&m, o, pf, nodes, rpn) != 0 && (o->mode == SIM_MODE_MODEL || o->best)) {
    fprintf(stderr, "simallreduce: no cost model for %s: %s\n", pf->name, m.why);
    return 1;
  }
  int *winner = o->best ? calloc((size_t)o->nsizes, sizeof *winner) : NULL;
  cost_range *ranges = o->best ? calloc((size_t)o->nsizes, sizeof *ranges) : NULL;
  int nranges = 0, status = 0;
  if (o->best && (!winner || !ranges || (nranges = sim_model_best(&m, o, winner, ranges)) < 0)) {
    fprintf(stderr, "simallreduce: --algo best: no prediction at any size\n");
    status = 1;
  }
  sim_results r;
  memset(&r, 0, sizeof r);
  double wall = 0;
  if (status == 0 && o->mode == SIM_MODE_MODEL)
    status = sim_model_results(&m, o, rpn, winner, &r) ? 1 : 0;
  else if (status == 0)
    status = o->best ? simulate_best(o, bindir, pf, nodes, rpn, winner, &r, &wall)
                     : simulate(o, bindir, pf, nodes, rpn, &r, &wall);
  for (int i = 0; status == 0 && o->mode == SIM_MODE_BOTH && i < r.npoints; i++)
    sim_model_point(&m, &r.points[i]);
  sim_report_models rm = {o->mode, use_model ? &m : NULL, ranges, nranges, o->algos, o->allow_sparse};
  sim_run_info info = {pf->name, pf->path, nodes, rpn, nodes * rpn, wall, &rm, sim_timing_name(o->timing)};
  if (status == 0)
    status = report(o, &info, &r);
  sim_results_free(&r);
  sim_model_close(&m);
  free(winner);
  free(ranges);
  return status;
}

/* An output file that cannot be written is a mistake in the command line: say so before
 * simulating rather than after. */
static int check_writable(const char *path, char *err, size_t errlen)
{
  FILE *f = path ? fopen(path, "a") : NULL;
  if (!path || f) {
    if (f)
      fclose(f);
    return 0;
  }
  snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
  return SA_EIO;
}

int main(int argc, char **argv)
{
  char err[ERRLEN], bindir[4096], pdir[4200];
  sim_opts o;
  if (sim_cli_parse(argc, argv, &o, err, sizeof err) != 0) {
    sim_cli_free(&o);
    return bad_input(err);
  }
  if (sim_bin_dir(bindir, sizeof bindir) != 0)
    return bad_input("cannot find where simallreduce is installed");
  sim_platforms_dir(bindir, pdir, sizeof pdir);
  if (o.action == SIM_HELP) {
    sim_cli_usage(stdout);
    return 0;
  }
  if (o.action == SIM_LIST_ALGOS) {
    list_algos();
    return 0;
  }
  if (o.action == SIM_LIST_PLATFORMS)
    return list_platforms(pdir);

  if (check_writable(o.json_path, err, sizeof err) != 0 || check_writable(o.csv_path, err, sizeof err) != 0) {
    sim_cli_free(&o);
    return bad_input(err);
  }
  sim_platform pf;
  int status = 2, nodes = o.nodes, rpn = o.ranks_per_node;
  char *path = sim_platform_resolve(o.platform, pdir, err, sizeof err);
  if (!path) {
    sim_cli_free(&o);
    return bad_input(err);
  }
  int flags = o.mode != SIM_MODE_SIM || o.best ? SIM_LOAD_NET : 0;
  if (sim_platform_load_ex(path, flags, &pf, err, sizeof err) != 0 || sim_layout(&pf, &nodes, &rpn, err, sizeof err) != 0 ||
      check_memory(&o, nodes * rpn, err, sizeof err) != 0)
    bad_input(err);
  else
    status = run(&o, bindir, &pf, nodes, rpn);
  free(path);
  sim_platform_free(&pf);
  sim_cli_free(&o);
  return status;
}
