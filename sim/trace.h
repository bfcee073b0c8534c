/* trace.h: --trace FILE.json: the runner's timeline files (runner/runner_timeline.c) of every
 * simulation run, merged into one file in the Chrome trace-event format, which Perfetto
 * (https://ui.perfetto.dev) and chrome://tracing open: a process per node, a thread per
 * rank, slices for each allreduce, its phases and steps, and counters for the busiest
 * links' throughput. docs/observability.md describes it. */
#ifndef SIM_TRACE_H
#define SIM_TRACE_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "util/outfile.h"

#include "platform/platform.h"
#include "results.h"

/* Rank steps a trace holds at most: whole ranks past it are left out (and named). */
#define SIM_TRACE_MAX_EVENTS 500000
/* Without --trace-ranks a run of more ranks traces the first ones (SIM_TRACE_DEFAULT_RANKS
 * of them, as the list sim_trace_default_ranks), and says so. */
#define SIM_TRACE_DEFAULT_RANKS 128
extern const char sim_trace_default_ranks[];

typedef struct {
  FILE *f;          /* out.f */
  util_outfile out; /* the file, written whole or not at all */
  long long max_events; /* SIM_TRACE_MAX_EVENTS once opened */
  long long events;     /* slices and instants written for ranks */
  long long dropped;    /* steps the runner had no room for */
  char left_out[256];   /* ranks left out, as a list */
  int nleft, last_left;
  size_t range_at; /* where the last range's end goes in left_out */
  long long left_events;
  long long offset_ns; /* added to the current run's clock: the runs of --algo best follow one another */
  long long end_ns;    /* the latest time written */
  int written;         /* an event is in the file (a comma goes before the next) */
  cJSON *points;       /* otherData.points */
  cJSON *links;        /* otherData.links: the rate of each link with a counter */
} sim_trace;

/* Opens the file (a temporary one beside it until sim_trace_close: util/outfile.h). 0, or
 * SA_EINVAL / SA_EIO / SA_ENOMEM with err filled. */
int sim_trace_open(sim_trace *t, const char *path, char *err, size_t errlen);

/* Makes the runner's trace directory for a run whose result file is `result`. 0 or SA_EIO. */
int sim_trace_prepare(const char *result);

/* Adds one simulation run: its ranks' files and its links (in the trace directory beside
 * `result`), the points r read from the same run. 0, or SA_EIO / SA_EPARSE / SA_ENOMEM
 * with err filled. */
int sim_trace_add_run(sim_trace *t, const char *result, const plat_file *pf, int rpn, const sim_results *r,
                      char *err, size_t errlen);

/* A timeline of one's own after the runs' (--workload's training steps): a process and
 * thread named, and slices on it from a to b seconds after where the runs' end. */
void sim_trace_thread(sim_trace *t, int pid, int tid, const char *process, const char *thread, int sort);
void sim_trace_span(sim_trace *t, const char *name, double a, double b, int pid, int tid);
/* Where the spans start: after everything written so far (call once, before the spans). */
void sim_trace_begin_spans(sim_trace *t);

/* Finishes the file, puts it in place and says on stderr what was left out. 0, or SA_EIO /
 * SA_ENOMEM with err. With ok = 0 (the run failed) the temporary file is removed instead and
 * the target stays as it was. */
int sim_trace_close(sim_trace *t, int ok, char *err, size_t errlen);

#endif
