/* emit.h: a run's outputs as its points arrive: each row of the table on stdout, of the CSV
 * and of the JSON Lines file written and flushed as soon as every point before it in report
 * order is known; the progress line meanwhile; the tail and the final JSON at the end. The
 * CSV and JSON Lines files are streamed in place (read while the run goes on, resumed from
 * after any kill); every write to them is checked, and the first that fails stops the run
 * (sim_emit_failed). The JSON document is written whole or not at all (util/outfile.h). */
#ifndef SIM_EMIT_H
#define SIM_EMIT_H

#include <stdio.h>

#include "plan.h"
#include "progress.h"
#include "report.h"

typedef struct {
  const sim_opts *o;
  const sim_run_info *run;
  sim_plan *plan;
  sim_results head; /* mode, ranks, compute: from the runner's header or --resume's file */
  FILE *csv, *jsonl;
  int shown;        /* rows printed: the first `shown` slots of the plan */
  int table_head;   /* the table's header lines are out */
  int have_head;    /* head is known (and the JSON Lines header written) */
  int quiet;        /* no table (--what-if's healthy run, whose times go beside the faulty's) */
  sim_progress progress;
  char failed[512]; /* why a write to the CSV or JSON Lines file failed ("": none did) */
} sim_emit;

/* Opens --csv (its first lines written) and --jsonl. Returns 0, or SA_EIO naming the file
 * in err. */
int sim_emit_open(sim_emit *e, const sim_opts *o, const sim_run_info *run, sim_plan *plan, char *err, size_t errlen);
/* The run's fields are known (from the runner's header, --resume's file or the models): the
 * JSON Lines header goes out, and the resumed points at once after it. Once only. */
void sim_emit_head(sim_emit *e, const sim_results *head);
/* Slot i is done (not from --resume): written to the JSON Lines, then every row that can be
 * shown is. */
void sim_emit_point(sim_emit *e, int i);
/* Shows what can be shown (rows whose predecessors are all known). */
void sim_emit_ready(sim_emit *e);
/* The rest of the table, the closing lines, the --json document. Returns 0, or 1 when a file
 * cannot be written (one line on stderr says which and why). */
int sim_emit_close(sim_emit *e, const sim_results *r, double wall_s);
/* Closes the files without the closing lines (a run that failed). */
void sim_emit_abort(sim_emit *e);
/* Why a write to the streamed files failed ("cannot write run.csv: No space left on
 * device"), or NULL while none has. */
const char *sim_emit_failed(const sim_emit *e);

#endif
