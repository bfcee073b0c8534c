/* emit.c: rows out as they come, in report order. */
#include "emit.h"

#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"
#include "util/textclean.h"

/* One JSON Lines record, flushed. */
static void put_line(FILE *f, cJSON *o)
{
  char *text = util_json_utf8(o) == 0 ? cJSON_PrintUnformatted(o) : NULL;
  cJSON_Delete(o);
  if (text) {
    fputs(text, f);
    fputc('\n', f);
    fflush(f);
  }
  cJSON_free(text);
}

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

static void put_result(sim_emit *e, const sim_point *p) { put_line(e->jsonl, record("result", sim_report_point_json(e->run, p))); }

static FILE *open_out(const char *path, char *err, size_t errlen)
{
  FILE *f = path ? fopen(path, "w") : NULL;
  if (path && !f)
    snprintf(err, errlen, "cannot write %s", path);
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
    fflush(e->csv);
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
  put_line(e->jsonl, record("header", h));
  for (int i = 0; i < e->plan->n; i++) /* first: a second interruption loses none of them */
    if (e->plan->slot[i].resumed)
      put_result(e, &e->plan->slot[i].pt);
}

void sim_emit_ready(sim_emit *e)
{
  int any = 0;
  for (; e->shown < e->plan->n && e->plan->slot[e->shown].done; e->shown++) {
    const sim_point *p = &e->plan->slot[e->shown].pt;
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
      fflush(e->csv);
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
  int status = 0;
  if (e->csv) {
    sim_report_csv_tail(e->csv, r->npoints, wall_s);
    if (fclose(e->csv) != 0)
      status = 1;
    e->csv = NULL;
  }
  if (e->jsonl) {
    cJSON *end = record("end", cJSON_CreateObject());
    cJSON_AddNumberToObject(end, "points", r->npoints);
    cJSON_AddNumberToObject(end, "wall_s", wall_s);
    sim_report_models_json(end, e->run, r);
    put_line(e->jsonl, end);
    if (fclose(e->jsonl) != 0)
      status = 1;
    e->jsonl = NULL;
  }
  if (e->o->json_path && sim_report_json(e->o->json_path, e->run, r, wall_s) != 0) {
    fprintf(stderr, "simallreduce: cannot write %s\n", e->o->json_path);
    status = 1;
  }
  return status;
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
