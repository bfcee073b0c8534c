/* emit.c: rows out as they come, in report order. */
#include "emit.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"
#include "util/textclean.h"

/* The first write that failed, with its reason (errno), kept for sim_emit_failed. */
static void check(sim_emit *e, FILE *f, const char *path)
{
  if (!e->failed[0] && (ferror(f) || fflush(f) != 0))
    snprintf(e->failed, sizeof e->failed, "cannot write %s: %s", path, strerror(errno ? errno : EIO));
}

/* One JSON Lines record, flushed. */
static void put_line(sim_emit *e, cJSON *o)
{
  char *text = util_json_utf8(o) == 0 ? cJSON_PrintUnformatted(o) : NULL;
  cJSON_Delete(o);
  if (!text && !e->failed[0])
    snprintf(e->failed, sizeof e->failed, "cannot write %s: out of memory", e->o->jsonl_path);
  if (text) {
    fputs(text, e->jsonl);
    fputc('\n', e->jsonl);
    check(e, e->jsonl, e->o->jsonl_path);
  }
  cJSON_free(text);
}

const char *sim_emit_failed(const sim_emit *e) { return e->failed[0] ? e->failed : NULL; }

/* body's fields after "record": kind, first on the line for a reader's eye */
static cJSON *record(const char *kind, cJSON *body)
{
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "record", kind);
  for (cJSON *c = body->child, *next; c; c = next) {
    next = c->next;
    cJSON_AddItemToObject(o, c->string, cJSON_DetachItemViaPointer(body, c));
  }
  cJSON_Delete(body);
  return o;
}

static void put_result(sim_emit *e, const sim_point *p) { put_line(e, record("result", sim_report_point_json(e->run, p))); }

static FILE *open_out(const char *path, char *err, size_t errlen)
{
  FILE *f = path ? fopen(path, "w") : NULL;
  if (path && !f)
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
  return f;
}

int sim_emit_open(sim_emit *e, const sim_opts *o, const sim_run_info *run, sim_plan *plan, char *err, size_t errlen)
{
  memset(e, 0, sizeof *e);
  e->o = o;
  e->run = run;
  e->plan = plan;
  sim_progress_init(&e->progress, o->mode == SIM_MODE_MODEL ? NULL : stderr); /* predictions take no time */
  if ((o->csv_path && !(e->csv = open_out(o->csv_path, err, errlen))) ||
      (o->jsonl_path && !(e->jsonl = open_out(o->jsonl_path, err, errlen)))) {
    sim_emit_abort(e);
    return SA_EIO;
  }
  if (e->csv) {
    sim_report_csv_head(e->csv, run);
    check(e, e->csv, o->csv_path);
  }
  if (e->failed[0]) {
    snprintf(err, errlen, "%s", e->failed);
    sim_emit_abort(e);
    return SA_EIO;
  }
  return 0;
}

void sim_emit_head(sim_emit *e, const sim_results *head)
{
  if (e->have_head++)
    return;
  e->head = *head;
  e->head.points = NULL;
  e->head.npoints = 0;
  if (!e->jsonl)
    return;
  cJSON *h = sim_report_head_json(e->run, head->mode, -1);
  sim_report_compute_json(h, &head->compute);
  put_line(e, record("header", h));
  for (int i = 0; i < e->plan->n; i++) /* first: a second interruption loses none of them */
    if (e->plan->slot[i].resumed)
      put_result(e, &e->plan->slot[i].pt);
}

void sim_emit_ready(sim_emit *e)
{
  int any = 0;
  for (; e->shown < e->plan->n && e->plan->slot[e->shown].done; e->shown++) {
    const sim_point *p = &e->plan->slot[e->shown].pt;
    if (e->quiet)
      continue;
    if (!any++)
      sim_progress_clear(&e->progress);
    if (!e->table_head++)
      sim_report_table_head(stdout, e->run, e->head.mode);
    sim_report_table_row(stdout, e->run, p);
    if (e->csv)
      sim_report_csv_row(e->csv, e->run, p);
  }
  if (any) {
    fflush(stdout);
    if (e->csv)
      check(e, e->csv, e->o->csv_path);
  }
}

void sim_emit_point(sim_emit *e, int i)
{
  sim_progress_point(&e->progress, &e->plan->slot[i]);
  if (e->jsonl)
    put_result(e, &e->plan->slot[i].pt);
  sim_emit_ready(e);
  sim_progress_draw(&e->progress, e->plan, 1);
}

int sim_emit_close(sim_emit *e, const sim_results *r, double wall_s)
{
  sim_progress_clear(&e->progress);
  if (!e->table_head++)
    sim_report_table_head(stdout, e->run, e->head.mode);
  sim_report_table_tail(stdout, e->run, r, e->o->phases || e->o->nsizes == 1);
  fflush(stdout);
  if (e->csv) {
    sim_report_csv_tail(e->csv, r->npoints, wall_s);
    check(e, e->csv, e->o->csv_path);
    if (fclose(e->csv) != 0 && !e->failed[0])
      snprintf(e->failed, sizeof e->failed, "cannot write %s: %s", e->o->csv_path, strerror(errno));
    e->csv = NULL;
  }
  if (e->jsonl) {
    cJSON *end = record("end", cJSON_CreateObject());
    cJSON_AddNumberToObject(end, "points", r->npoints);
    cJSON_AddNumberToObject(end, "wall_s", wall_s);
    sim_report_models_json(end, e->run, r);
    put_line(e, end);
    if (fclose(e->jsonl) != 0 && !e->failed[0])
      snprintf(e->failed, sizeof e->failed, "cannot write %s: %s", e->o->jsonl_path, strerror(errno));
    e->jsonl = NULL;
  }
  char err[sizeof e->failed];
  if (!e->failed[0] && e->o->json_path && sim_report_json(e->o->json_path, e->run, r, wall_s, err, sizeof err) != 0)
    snprintf(e->failed, sizeof e->failed, "%s", err);
  if (e->failed[0])
    fprintf(stderr, "simallreduce: %s\n", e->failed);
  return e->failed[0] ? 1 : 0;
}

void sim_emit_abort(sim_emit *e)
{
  sim_progress_clear(&e->progress);
  if (e->csv)
    fclose(e->csv);
  if (e->jsonl)
    fclose(e->jsonl);
  e->csv = e->jsonl = NULL;
}
