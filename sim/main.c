/* main.c: simallreduce, the driver: options -> platform -> hostfile -> one SMPI run of the
 * runner for every point, and/or the cost models' predictions -> table, JSON, CSV. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "catalog.h"
#include "cli.h"
#include "common/sa_error.h"
#include "emit.h"
#include "faults.h"
#include "follow.h"
#include "model_batch.h"
#include "modeling.h"
#include "nccl_plan.h"
#include "outputs.h"
#include "outside_fit.h"
#include "platform/hostfile.h"
#include "platform/launch.h"
#include "platform/platform.h"
#include "provenance.h"
#include "report.h"
#include "results.h"
#include "resume.h"
#include "runner_cmd.h"
#include "trace.h"
#include "training.h"
#include "tuner_export.h"
#include "util/forked.h"
#include "util/paths.h"
#include "util/rank_list.h"
#include "util/tmpdir.h"

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

/* One line of --list-platforms: its columns, the last one the reason for an unusable file. */
typedef struct {
  char col[4][ERRLEN + 16];
} platform_row;

static int last_column(const platform_row *r)
{
  int last = 3;
  while (last > 0 && !r->col[last][0])
    last--;
  return last;
}

/* Each column as wide as its widest cell and two spaces apart, so that every row's columns
 * start where the others' do, whatever the names and counts; a row's last cell (an unusable
 * file's reason) widens nothing. */
static void print_rows(const platform_row *rows, int n)
{
  int width[4] = {0};
  for (int i = 0; i < n; i++)
    for (int c = 0; c < last_column(&rows[i]); c++)
      width[c] = (int)strlen(rows[i].col[c]) > width[c] ? (int)strlen(rows[i].col[c]) : width[c];
  for (int i = 0; i < n; i++)
    for (int c = 0, last = last_column(&rows[i]); c <= last; c++)
      printf(c < last ? "%-*s  " : "%-*s\n", c < last ? width[c] : 0, rows[i].col[c]);
}

static int list_platforms(const char *dir)
{
  struct dirent **ents;
  int n = scandir(dir, &ents, NULL, by_name);
  if (n < 0) {
    fprintf(stderr, "simallreduce: cannot list %s\n", dir);
    return 2;
  }
  platform_row *rows = calloc(n ? (size_t)n : 1, sizeof *rows);
  int nrows = 0;
  for (int i = 0; i < n; i++) {
    size_t len = strlen(ents[i]->d_name);
    if (rows && len > 4 && strcmp(ents[i]->d_name + len - 4, ".xml") == 0) {
      char path[8400], err[ERRLEN];
      plat_file pf;
      platform_row *r = &rows[nrows++];
      snprintf(path, sizeof path, "%s/%s", dir, ents[i]->d_name);
      if (plat_load(path, &pf, err, sizeof err) == 0) {
        snprintf(r->col[0], sizeof r->col[0], "%s", pf.name);
        snprintf(r->col[1], sizeof r->col[1], "%d node%s", pf.nnodes, pf.nnodes == 1 ? "" : "s");
        snprintf(r->col[2], sizeof r->col[2], "x %d GPUs", pf.node_size[0]);
        snprintf(r->col[3], sizeof r->col[3], "(%d hosts)", pf.nhosts);
      } else {
        snprintf(r->col[0], sizeof r->col[0], "%s", ents[i]->d_name);
        snprintf(r->col[1], sizeof r->col[1], "unusable: %s", err);
      }
      plat_free(&pf);
    }
    free(ents[i]);
  }
  free(ents);
  if (!rows) {
    fprintf(stderr, "simallreduce: out of memory\n");
    return 1;
  }
  print_rows(rows, nrows);
  free(rows);
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

/* What follows the runner's stream while it runs. */
typedef struct {
  sim_emit *e;
  const sim_model *m; /* NULL: no predictions to add */
  int unexpected;     /* a point that was not asked for */
} follower;

static void on_record(void *arg, util_jsonl_record kind, const cJSON *o)
{
  follower *fw = arg;
  sim_results head = {0}; /* a property the runner leaves out is 0 */
  sim_point p;
  if (kind == UTIL_REC_HEADER && sim_results_header(o, &head) == 0)
    sim_emit_head(fw->e, &head);
  if (kind != UTIL_REC_POINT)
    return;
  int i = sim_point_read(o, &p) == 0 ? sim_plan_find(fw->e->plan, p.algo, p.bytes, p.nccl) : -1;
  if (i < 0) {
    fw->unexpected = 1;
    sim_links_free(&p.links);
    return;
  }
  if (fw->m)
    sim_model_point(fw->m, &p);
  sim_plan_fill(fw->e->plan, i, &p);
  sim_emit_point(fw->e, i);
}

typedef struct {
  sim_follow *f;
  follower *fw;
} ticker;

/* Follows the runner's results; a result that cannot be written stops the simulation. */
static int on_tick(void *arg)
{
  ticker *t = arg;
  sim_follow_poll(t->f, on_record, t->fw);
  sim_progress_draw(&t->fw->e->progress, t->fw->e->plan, 0);
  return sim_emit_failed(t->fw->e) != NULL;
}

/* The points still to run from slot lo on that one launch of the runner takes: the slots
 * up to the next one done before (--resume), in [*first, *end). A point right after one done
 * before starts at the clock that run recorded for it (*clock, NaN: none, the plan's first);
 * the simulated clock cannot go back, so each stretch of points to run between done ones
 * is a launch of its own, and every point starts where an uninterrupted sweep starts it.
 * Returns 0 when no point is left. */
static int next_stretch(const sim_plan *pl, int lo, int *first, int *end, double *clock)
{
  while (lo < pl->n && pl->slot[lo].done)
    lo++;
  if (lo == pl->n)
    return 0;
  *first = lo;
  *clock = lo > 0 ? pl->slot[lo - 1].pt.next_clock_s : NAN;
  for (*end = lo; *end < pl->n && !pl->slot[*end].done; (*end)++)
    ;
  return 1;
}

/* --trace: this run's timeline files into the trace, with its points in the order the
 * runner ran them (todo[i]: the runner's index of plan slot i, -1 for a point done before). */
static int add_trace(sim_trace *trace, const char *result, const plat_file *pf, int rpn, const sim_emit *e,
                     const int *todo, char *err, size_t errlen)
{
  sim_results r = e->head;
  r.npoints = 0;
  r.points = calloc((size_t)e->plan->n + 1, sizeof *r.points);
  if (!r.points)
    return SA_ENOMEM;
  for (int i = 0; i < e->plan->n; i++)
    if (todo[i] >= 0)
      r.points[r.npoints++] = e->plan->slot[i].pt; /* borrowed: the plan owns what they hold */
  int rc = sim_trace_add_run(trace, result, pf, rpn, &r, err, errlen);
  free(r.points);
  return rc;
}

/* Whether a slot of [lo, hi) is still to run. */
static int stretch_left(const sim_plan *pl, int lo, int hi)
{
  for (int i = lo; i < hi; i++)
    if (!pl->slot[i].done)
      return 1;
  return 0;
}

/* One SMPI run of the runner for the plan's points in slots [lo, hi) not done yet, the first
 * starting at clock (NaN: none), each reported as it arrives. Returns 0, or 1 with the
 * reason and the simulator's last lines on stderr. */
static int simulate_stretch(const sim_opts *o, const char *bindir, const plat_file *pf, int nodes, int rpn,
                            sim_emit *e, const sim_model *m, sim_trace *trace, int lo, int hi, double clock,
                            double *wall)
{
  char err[ERRLEN], hostfile[4200], result[4200], log[4200], runner[4200];
  const char *tmp = util_tmpdir_create(err, sizeof err);
  if (!tmp) {
    fprintf(stderr, "simallreduce: %s\n", err);
    return 1;
  }
  snprintf(hostfile, sizeof hostfile, "%s/hostfile", tmp);
  /* a result file (and trace directory) per launch: the follower reads this one alone */
  static int launches;
  snprintf(result, sizeof result, "%s/result%d.jsonl", tmp, launches++);
  snprintf(log, sizeof log, "%s/smpirun.log", tmp);
  if (util_helper_path(bindir, "ar_runner", runner, sizeof runner) != 0 || access(runner, X_OK) != 0) {
    fprintf(stderr, "simallreduce: the runner %s is missing (run make)\n", runner);
    return 1;
  }
  int form = plat_hostfile_write(pf, nodes, rpn, hostfile);
  if (form < 0 || (trace && sim_trace_prepare(result) != 0)) {
    fprintf(stderr, "simallreduce: cannot write in %s\n", tmp);
    return 1;
  }
  int *todo = trace ? calloc((size_t)e->plan->n + 1, sizeof *todo) : NULL; /* this run's points */
  if (trace && !todo) {
    fprintf(stderr, "simallreduce: out of memory\n");
    return 1;
  }
  for (int i = 0, k = 0; todo && i < e->plan->n; i++)
    todo[i] = i < lo || i >= hi || e->plan->slot[i].done ? -1 : k++;
  sim_runner_cmd cmd;
  int built = sim_runner_cmd_build(&cmd, o, rpn, e->plan, lo, hi, clock, result);
  sim_follow f;
  sim_follow_init(&f, result);
  follower fw = {e, m, 0};
  ticker t = {&f, &fw};
  plat_launch l = {pf->path, hostfile, runner, tmp, log, nodes * rpn, o->cfg, o->ncfg, cmd.argv,
                  form == PLAT_HOSTFILE_COUNTED ? tmp : NULL, on_tick, &t};
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  sim_progress_draw(&e->progress, e->plan, 1);
  int rc = built == 0 ? plat_launch_run(&l, err, sizeof err)
                      : (snprintf(err, sizeof err, "%s", sa_strerror(built)), built);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  sim_runner_cmd_free(&cmd);
  if (sim_emit_failed(e)) /* what stopped it, rather than how it died */
    snprintf(err, sizeof err, "%s", sim_emit_failed(e)), rc = SA_EIO;
  else if (rc == 0 && (f.bad || fw.unexpected))
    snprintf(err, sizeof err, "the simulation's result file is not in the expected form"), rc = SA_EPARSE;
  else if (rc == 0 && (!f.ended || stretch_left(e->plan, lo, hi)))
    snprintf(err, sizeof err, "the simulation stopped after %d of %d points", e->plan->ndone, e->plan->n),
        rc = SA_EPARSE;
  sim_follow_close(&f);
  sim_progress_clear(&e->progress);
  if (rc == 0 && trace)
    rc = add_trace(trace, result, pf, rpn, e, todo, err, sizeof err);
  free(todo);
  if (rc == SA_EIO) {
    fprintf(stderr, "simallreduce: %s\n", err);
    return 1;
  }
  if (rc != 0) {
    fprintf(stderr, "simallreduce: %s; the simulator's last lines:\n", err);
    plat_print_tail(log, 12, stderr);
    return 1;
  }
  *wall += (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  return 0;
}

/* Every point not done yet, stretch by stretch (next_stretch). Returns 0 or 1 as
 * simulate_stretch does. */
static int simulate(const sim_opts *o, const char *bindir, const plat_file *pf, int nodes, int rpn, sim_emit *e,
                    const sim_model *m, sim_trace *trace, double *wall)
{
  int lo = 0, first, end;
  double clock;
  while (next_stretch(e->plan, lo, &first, &end, &clock)) {
    if (simulate_stretch(o, bindir, pf, nodes, rpn, e, m, trace, first, end, clock, wall) != 0)
      return 1;
    lo = end;
  }
  return 0;
}

/* --mode model: every point predicted, a batch at a time (sim/model_batch.h), and emitted in
 * the plan's order as its batch comes. Returns 0, or 1 with the reason on stderr. */
static int predict_all(const sim_model *m, const sim_opts *o, int rpn, sim_plan *plan, sim_emit *e)
{
  int len = sim_model_batch_len();
  sim_point *pts = malloc(sizeof *pts * (size_t)len);
  int rc = pts ? 0 : SA_ENOMEM;
  for (int lo = 0; rc == 0 && lo < plan->n && !sim_emit_failed(e); lo += len) {
    int hi = lo + len < plan->n ? lo + len : plan->n;
    rc = sim_model_batch(m, o, rpn, plan, lo, hi, pts);
    for (int i = lo; rc == 0 && i < hi && !sim_emit_failed(e); i++) {
      sim_plan_fill(plan, i, &pts[i - lo]);
      sim_emit_point(e, i);
    }
  }
  free(pts);
  if (rc == 0 && !sim_emit_failed(e))
    return 0;
  fprintf(stderr, "simallreduce: %s\n", rc ? sa_strerror(rc) : sim_emit_failed(e));
  return 1;
}

/* Points that did not verify: one line each. Returns 1 when there is one. */
static int unverified(const sim_results *r)
{
  int status = 0;
  for (int i = 0; i < r->npoints; i++)
    if (r->points[i].verified == 0) {
      fprintf(stderr, "simallreduce: %s at %llu bytes did not verify (max abs error %g)\n", r->points[i].algo,
              (unsigned long long)r->points[i].bytes, r->points[i].max_abs_err);
      status = 1;
    }
  return status;
}

/* --resume: the earlier run's points (their predictions made anew), read before the
 * outputs are opened: they may be the same file. Returns 0, or 2 (bad input: one line on
 * stderr). */
static int resume(const sim_opts *o, const sim_run_info *info, const sim_model *m, sim_plan *plan, sim_results *head)
{
  char err[ERRLEN];
  if (!o->resume_path)
    return 0;
  int in_order, rc = sim_resume_load(o->resume_path, info, plan, head, &in_order, err, sizeof err);
  if (rc < 0)
    return bad_input(err);
  if (!in_order && plan->ndone < plan->n)
    fprintf(stderr, "simallreduce: --resume %s: its points are not this sweep's first ones in its order: they "
                    "are kept as that run simulated them, and the points after them may differ from an "
                    "uninterrupted run's in their last digits\n",
            o->resume_path);
  for (int i = 0; m && i < plan->n; i++)
    if (plan->slot[i].resumed)
      sim_model_point(m, &plan->slot[i].pt);
  return 0;
}

/* The slot of the healthy plan that stands for slot s of the faulty one: the same algorithm
 * and size, and NCCL's same choice where the healthy run made it too. */
static const sim_slot *healthy_of(const sim_plan *hp, const sim_slot *s)
{
  const sim_slot *any = NULL;
  for (int j = 0; j < hp->n; j++)
    if (hp->slot[j].done && hp->slot[j].bytes == s->bytes && strcmp(hp->slot[j].algo, s->algo) == 0) {
      if (strcmp(hp->slot[j].nccl, s->nccl) == 0)
        return &hp->slot[j];
      any = any ? any : &hp->slot[j];
    }
  return any;
}

/* --what-if: the same points on the healthy platform hpf, simulated or predicted as the
 * faulty run will be (NCCL's choices its own: a rail down rebuilds its channels), their times
 * put beside the faulty plan's slots. Nothing is written but the progress line. Returns 0,
 * or 1 with the reason on stderr. */
static int baseline(const sim_opts *o, const char *bindir, plat_file *hpf, int nodes, int rpn, const int *winner,
                    const sim_run_info *info, sim_plan *plan)
{
  sim_opts ho = *o;
  ho.faults = NULL;
  ho.csv_path = ho.jsonl_path = ho.json_path = ho.trace_path = ho.trace_ranks = ho.resume_path = NULL;
  ho.links = ho.verify = 0;
  sim_model mh;
  memset(&mh, 0, sizeof mh);
  char err[ERRLEN] = "";
  int rc = ho.mode == SIM_MODE_MODEL || ho.nccl ? sim_model_open(&mh, &ho, hpf, nodes, rpn) : 0;
  if (rc != 0)
    snprintf(err, sizeof err, "no cost model for the healthy %s: %s", hpf->name, mh.why);
  sim_plan hp = {0};
  if (rc == 0 && (rc = sim_plan_build(&hp, &ho, winner)) != 0)
    snprintf(err, sizeof err, "out of memory");
  if (rc == 0 && ho.nccl && !ho.export_tuner)
    rc = sim_nccl_plan(&hp, &mh, err, sizeof err);
  if (rc == 0 && ho.export_tuner)
    rc = sim_tuner_plan(&hp, &ho, &mh, err, sizeof err);
  sim_run_info hinfo = *info;
  hinfo.whatif = NULL;
  hinfo.models = NULL;
  for (int i = 0; rc == 0 && ho.mode == SIM_MODE_MODEL && i < hp.n; i++) {
    sim_point p;
    sim_model_only_point(&mh, &ho, rpn, &hp.slot[i], &p);
    sim_plan_fill(&hp, i, &p);
  }
  sim_emit e;
  if (rc == 0 && ho.mode != SIM_MODE_MODEL && (rc = sim_emit_open(&e, &ho, &hinfo, &hp, err, sizeof err)) == 0) {
    e.quiet = 1;
    double wall = 0;
    rc = simulate(&ho, bindir, hpf, nodes, rpn, &e, NULL, NULL, &wall);
    sim_emit_abort(&e);
    if (rc != 0)
      snprintf(err, sizeof err, "the healthy run failed");
  }
  for (int i = 0; rc == 0 && i < plan->n; i++) {
    const sim_slot *h = healthy_of(&hp, &plan->slot[i]);
    plan->slot[i].healthy_s = h && !isnan(sim_point_time(&h->pt)) ? sim_point_time(&h->pt) : 0;
  }
  if (rc != 0 && err[0])
    fprintf(stderr, "simallreduce: %s\n", err);
  sim_plan_free(&hp);
  sim_model_close(&mh);
  return rc ? 1 : 0;
}

/* Simulates, predicts, or both (--mode), and reports each point as it is known; with
 * --what-if (o->faults), pf is the faulty platform and hpf the healthy one. */
static int run(const sim_opts *o, const char *bindir, plat_file *pf, plat_file *hpf, int nodes, int rpn,
               sim_provenance *prov)
{
  sim_model m;
  memset(&m, 0, sizeof m);
  /* NCCL's algorithms take their channels and their choice at each size from the models */
  int use_model = o->mode != SIM_MODE_SIM || o->best || o->nccl;
  int rc = use_model ? sim_model_open(&m, o, pf, nodes, rpn) : 0;
  m.late_s = o->faults ? o->faults->late_max : 0;
  if (rc == 0 && o->faults)
    sim_faults_warn(o->faults, &m.cover);
  if (rc != 0 && (o->mode == SIM_MODE_MODEL || o->best || o->nccl)) { /* nothing has run: the platform's fault, or ours */
    fprintf(stderr, "simallreduce: no cost model for %s: %s\n", pf->name, m.why);
    return rc == SA_ENOMEM ? 1 : 2;
  }
  int *winner = o->best ? calloc((size_t)o->nsizes, sizeof *winner) : NULL;
  cost_range *ranges = o->best ? calloc((size_t)o->nsizes, sizeof *ranges) : NULL;
  int nranges = 0, status = 0;
  if (o->best && (!winner || !ranges || (nranges = sim_model_best(&m, o, winner, ranges)) < 0)) {
    fprintf(stderr, "simallreduce: --algo best: no prediction at any size\n");
    status = 1;
  }
  sim_report_models rm = {o->mode, use_model ? &m : NULL, ranges, nranges, o->algos, o->allow_sparse};
  topo_cover cover;
  int fitted = sim_outside_fit_read(pf->path, &cover);
  sim_run_info info = {pf->name, pf->path, nodes, rpn, nodes * rpn, 0, &rm, o, prov, o->links, sim_timing_name(o->timing),
                       fitted ? &cover : NULL, o->faults ? o->faults->desc : NULL, o->training};
  char past[1024];
  if (fitted && sim_outside_fit_line(&cover, o, nodes, rpn, past, sizeof past))
    fprintf(stderr, "simallreduce: %s\n", past);
  const sim_model *predict = o->mode == SIM_MODE_BOTH && m.ctx ? &m : NULL;
  sim_plan plan = {0};
  sim_emit e;
  char err[ERRLEN];
  if (status == 0 && sim_plan_build(&plan, o, winner) != 0) {
    fprintf(stderr, "simallreduce: out of memory\n");
    status = 1;
  }
  /* --export-tuner runs every candidate at each size, NCCL's own choice among them */
  int planned = status == 0 && o->nccl && !o->export_tuner ? sim_nccl_plan(&plan, &m, err, sizeof err) : 0;
  if (planned != 0) {
    fprintf(stderr, "simallreduce: %s\n", err);
    status = planned == SA_ENONVLS ? 2 : 1; /* asked of a platform that cannot run it */
  }
  if (status == 0 && o->export_tuner && sim_tuner_plan(&plan, o, &m, err, sizeof err) != 0) {
    fprintf(stderr, "simallreduce: %s\n", err);
    status = 1;
  }
  if (status == 0 && hpf)
    status = baseline(o, bindir, hpf, nodes, rpn, winner, &info, &plan);
  sim_results head = {0};
  if (status == 0)
    status = resume(o, &info, predict, &plan, &head);
  if (status == 0 && sim_emit_open(&e, o, &info, &plan, err, sizeof err) != 0) {
    fprintf(stderr, "simallreduce: %s\n", err);
    status = 1;
  } else if (status == 0) {
    if (plan.ndone > 0)
      sim_emit_head(&e, &head);
    if (o->mode == SIM_MODE_MODEL) {
      sim_model_head(&m, rpn, &head);
      sim_emit_head(&e, &head);
      status = predict_all(&m, o, rpn, &plan, &e);
    } else {
      sim_trace trace;
      int traced = o->trace_path != NULL;
      if (traced && sim_trace_open(&trace, o->trace_path, err, sizeof err) != 0) {
        fprintf(stderr, "simallreduce: %s\n", err);
        status = 1, traced = 0;
      }
      if (status == 0)
        status = simulate(o, bindir, pf, nodes, rpn, &e, predict, traced ? &trace : NULL, &info.wall_s);
      sim_results done = {0};
      if (traced && status == 0 && o->training && sim_plan_results(&plan, &e.head, &done) == 0)
        sim_training_trace(&trace, o->training, &done, nodes * rpn); /* the steps after the runs */
      free(done.points); /* borrowed from the plan */
      if (traced && sim_trace_close(&trace, status == 0, err, sizeof err) != 0) {
        fprintf(stderr, "simallreduce: %s\n", err);
        status = 1;
      }
    }
    sim_results r = {0};
    if (status == 0 && sim_plan_results(&plan, &e.head, &r) != 0)
      status = 1;
    if (status == 0)
      status = sim_emit_close(&e, &r, sim_provenance_wall(prov));
    else
      sim_emit_abort(&e);
    if (unverified(&r))
      status = 1;
    if (status == 0 && o->export_tuner && sim_tuner_export(&plan, o->export_tuner, nodes, rpn, err, sizeof err) != 0) {
      fprintf(stderr, "simallreduce: %s\n", err);
      status = 1;
    }
    free(r.points); /* borrowed from the plan, which owns what they hold */
  }
  sim_plan_free(&plan);
  sim_model_close(&m);
  free(winner);
  free(ranges);
  return status;
}

/* --what-if: the faults checked against the platform pf (loaded with its links), the faulty
 * platform loaded (rebuilt where NICs are down, its links changed before the models' probe),
 * then the run on it beside the healthy one. */
static int run_whatif(sim_opts *o, const char *bindir, plat_file *pf, int flags, int nodes, int rpn,
                      sim_provenance *prov)
{
  char err[ERRLEN];
  const char *tmp = util_tmpdir_create(err, sizeof err);
  if (!tmp) {
    fprintf(stderr, "simallreduce: %s\n", err);
    return 1;
  }
  sim_faults f;
  plat_file bad;
  memset(&bad, 0, sizeof bad);
  int rc = sim_faults_resolve(&f, o, pf, nodes, rpn, tmp, err, sizeof err), status = 1;
  if (rc == 0)
    rc = plat_load_changed(f.model_platform[0] ? f.model_platform : f.platform[0] ? f.platform : pf->path,
                           flags & ~PLAT_LOAD_LINKS, nodes, rpn, f.model_links, f.nmodel_links, &bad, err, sizeof err);
  if (rc == SA_EINVAL) {
    status = bad_input(err);
  } else if (rc != 0) {
    fprintf(stderr, "simallreduce: %s\n", rc == SA_ENOMEM ? "out of memory" : err);
  } else {
    free(bad.name); /* a rebuilt platform keeps the name the user gave */
    bad.name = strdup(pf->name);
    if (f.model_platform[0]) { /* the models' view turned round; the runner runs the platform itself */
      free(bad.path);
      bad.path = strdup(f.platform);
    }
    sim_faults_compute(&f, &bad.net.compute);
    o->faults = &f;
    status = bad.name && bad.path ? run(o, bindir, &bad, pf, nodes, rpn, prov) : 1;
    o->faults = NULL;
  }
  plat_free(&bad);
  sim_faults_free(&f);
  return status;
}

/* --list-links: every link of the platform as SimGrid has it, the names --links prints and
 * --what-if takes. */
static int list_links(const char *path)
{
  plat_file pf;
  char err[ERRLEN];
  if (plat_load_ex(path, PLAT_LOAD_LINKS, 0, 0, &pf, err, sizeof err) != 0)
    return bad_input(err);
  printf("# platform %s: %d links (a split-duplex link's name without _UP/_DOWN names both)\n", pf.name, pf.nlinks);
  printf("# %-28s %14s %12s %s\n", "link", "rate(GB/s)", "latency(us)", "sharing");
  for (int i = 0; i < pf.nlinks; i++)
    printf("  %-28s %14.3f %12.3f %s\n", pf.links[i].name, pf.links[i].bw / 1e9, pf.links[i].lat * 1e6,
           pf.links[i].shared ? "shared" : "fatpipe");
  plat_free(&pf);
  return 0;
}

/* --trace: the ranks it records, checked against the run's; a large run records a readable
 * share unless --trace-ranks says otherwise. Returns 0, or SA_EINVAL with err. */
static int check_trace_ranks(sim_opts *o, int ranks, char *err, size_t errlen)
{
  if (o->trace_path && !o->trace_ranks && ranks > SIM_TRACE_DEFAULT_RANKS)
    o->trace_ranks = sim_trace_default_ranks;
  return o->trace_ranks ? util_rank_list_check(o->trace_ranks, ranks, err, errlen) : 0;
}

int main(int argc, char **argv)
{
  char err[ERRLEN], bindir[4096], pdir[4200];
  sim_opts o;
  util_tmpdir_sweep(); /* what runs killed outright left, whatever this one does */
  if (sim_cli_parse(argc, argv, &o, err, sizeof err) != 0) {
    sim_cli_free(&o);
    return bad_input(err);
  }
  util_forked_limit(o.jobs);
  if (util_bin_dir(bindir, sizeof bindir) != 0)
    return bad_input("cannot find where simallreduce is installed");
  util_platforms_dir(bindir, pdir, sizeof pdir);
  if (o.action == SIM_HELP) {
    sim_cli_usage(stdout);
    return 0;
  }
  if (o.action == SIM_VERSION) {
    sim_version_print(stdout);
    return 0;
  }
  if (o.action == SIM_LIST_ALGOS) {
    list_algos();
    return 0;
  }
  if (o.action == SIM_LIST_PLATFORMS)
    return list_platforms(pdir);

  plat_file pf;
  memset(&pf, 0, sizeof pf);
  int status = 2, nodes = o.nodes, rpn = o.ranks_per_node;
  char *path = plat_resolve(o.platform, pdir, err, sizeof err);
  /* an output that cannot be written, or that would overwrite another or an input, is a
   * mistake in the command line: said before anything runs, nothing created */
  if (!path || sim_outputs_check(&o, path, err, sizeof err) != 0) {
    free(path);
    sim_cli_free(&o);
    return bad_input(err);
  }
  if (o.action == SIM_LIST_LINKS) {
    status = list_links(path);
    free(path);
    sim_cli_free(&o);
    return status;
  }
  int flags = (o.mode != SIM_MODE_SIM || o.best || o.nccl ? PLAT_LOAD_NET : 0) | (o.nwhatif ? PLAT_LOAD_LINKS : 0);
  sim_provenance prov;
  if (sim_provenance_init(&prov, argc, argv) != 0)
    bad_input("out of memory");
  else if (sim_provenance_platform(&prov, path) != 0)
    fprintf(stderr, "simallreduce: cannot read %s\n", path);
  else if (plat_load_ex(path, flags, nodes, rpn, &pf, err, sizeof err) != 0 ||
           plat_layout(&pf, &nodes, &rpn, err, sizeof err) != 0 || check_memory(&o, nodes * rpn, err, sizeof err) != 0 ||
           check_trace_ranks(&o, nodes * rpn, err, sizeof err) != 0)
    bad_input(err);
  else if ((flags & PLAT_LOAD_NET) && pf.net_rc == SA_ENOROUTE) /* a simulation would fail on it */
    fprintf(stderr, "simallreduce: platform %s: %s\n", pf.name, pf.net_err);
  else {
    sim_fit_version(&o, path);
    status = o.nwhatif ? run_whatif(&o, bindir, &pf, flags, nodes, rpn, &prov) : run(&o, bindir, &pf, NULL, nodes, rpn, &prov);
  }
  if (status == 0 && o.trace_ranks == sim_trace_default_ranks)
    fprintf(stderr, "simallreduce: the trace shows ranks %s of %d (the first %d unless --trace-ranks says otherwise)\n",
            o.trace_ranks, nodes * rpn, SIM_TRACE_DEFAULT_RANKS);
  sim_provenance_free(&prov);
  free(path);
  plat_free(&pf);
  sim_cli_free(&o);
  return status;
}
