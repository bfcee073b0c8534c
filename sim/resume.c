/* resume.c: the points of an earlier run, checked to be of the same sweep. */
#include "resume.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"
#include "util/jsonlines.h"
#include "util/textfile.h"

static int fail(char *err, size_t errlen, int rc, const char *path, const char *why)
{
  snprintf(err, errlen, "--resume %s: %s", path, why);
  return rc;
}

static const cJSON *item(const cJSON *o, const char *key) { return cJSON_GetObjectItemCaseSensitive(o, key); }

/* The result as the runner writes it: the driver leaves out the spread of one repetition
 * and writes a missing error as null. */
static int read_result(cJSON *o, sim_point *p)
{
  const cJSON *t = item(o, "time_s");
  if (!cJSON_IsNumber(t))
    return SA_EPARSE;
  if (!item(o, "time_min_s"))
    cJSON_AddNumberToObject(o, "time_min_s", t->valuedouble);
  if (!item(o, "time_max_s"))
    cJSON_AddNumberToObject(o, "time_max_s", t->valuedouble);
  if (cJSON_IsNull(item(o, "verified")) && cJSON_IsNull(item(o, "max_abs_err")))
    cJSON_ReplaceItemInObjectCaseSensitive(o, "max_abs_err", cJSON_CreateNumber(0));
  return sim_point_read(o, p);
}

/* What makes a result impossible, or NULL: last is the clock the one before recorded. */
static const char *implausible(const cJSON *o, const sim_point *p, double *last)
{
  if (!(isfinite(p->time_s) && isfinite(p->time_min_s) && isfinite(p->time_max_s) && p->time_min_s >= 0 &&
        p->time_min_s <= p->time_s && p->time_s <= p->time_max_s))
    return "a result's time is negative, not finite, or outside its spread";
  for (int i = 0; i < p->nphases; i++)
    if (!isfinite(p->phase_s[i]) || p->phase_s[i] < 0)
      return "a result's phase time is negative or not finite";
  const cJSON *next = item(o, "next_clock_s");
  if (!next)
    return NULL; /* a point modelled only, or the last of an older version's run */
  if (!cJSON_IsNumber(next))
    return "a result's next_clock_s is not a number";
  if (!(next->valuedouble > 0 && next->valuedouble <= SIM_RESUME_MAX_CLOCK) || next->valuedouble <= *last)
    return "a result's next_clock_s is outside the run's clock (past 1e6 s, or not after the one before)";
  *last = next->valuedouble;
  return NULL;
}

/* Same platform file, shape, mode and options, or the reason why not. */
static const char *differs(const cJSON *doc, const sim_run_info *run)
{
  const cJSON *prov = item(doc, "provenance"), *sha = item(prov, "platform_sha256"), *mode = item(doc, "mode");
  const cJSON *nodes = item(doc, "nodes"), *rpn = item(doc, "ranks_per_node");
  if (!cJSON_IsString(sha) || !cJSON_IsString(mode) || !cJSON_IsNumber(nodes) || !cJSON_IsNumber(rpn) ||
      !cJSON_IsObject(item(doc, "options")))
    return "not a result file of simallreduce with its provenance and options";
  if (strcmp(mode->valuestring, "simulated") != 0)
    return "its points were not simulated";
  if (strcmp(sha->valuestring, run->prov->platform_sha256) != 0)
    return "it was made on another platform file (its SHA-256 differs)";
  if (nodes->valuedouble != run->nodes || rpn->valuedouble != run->ranks_per_node)
    return "it was made with other --nodes or --ranks-per-node";
  cJSON *mine = sim_report_options(run->opts);
  int same = cJSON_Compare(item(doc, "options"), mine, 1);
  cJSON_Delete(mine);
  return same ? NULL : "it was made with other options (--dtype, --segment, --channels, --density, --overlap, --timing, "
                       "--verify or --cfg)";
}

int sim_resume_load(const char *path, const sim_run_info *run, sim_plan *pl, sim_results *head, int *in_order,
                    char *err, size_t errlen)
{
  double last = 0;
  int seq = 0;
  *in_order = 1;
  char unread[PATH_MAX + 200];
  int bad = util_input_check(path, 0, unread, sizeof unread);
  if (bad) {
    snprintf(err, errlen, "--resume: %s", unread);
    return bad;
  }
  char *text = util_read_text(path);
  if (!text)
    return fail(err, errlen, SA_EIO, path, "cannot be read");
  cJSON *doc = util_jsonl_doc(text, UTIL_REC_RESULT, "results");
  free(text);
  const cJSON *results = item(doc, "results");
  const char *why = !cJSON_IsArray(results) ? "not a --json or --jsonl file of simallreduce" : differs(doc, run);
  int rc = why ? SA_EINVAL : 0, taken = 0;
  memset(head, 0, sizeof *head);
  if (!why && sim_results_header(doc, head) != 0)
    why = "its run's fields (ranks, compute) are missing", rc = SA_EPARSE;
  cJSON *r;
  cJSON_ArrayForEach(r, results)
  {
    sim_point p;
    if (why)
      break;
    if (read_result(r, &p) != 0) {
      why = "a result in it is not in the expected form", rc = SA_EPARSE;
      break;
    }
    if ((why = implausible(r, &p, &last))) {
      sim_links_free(&p.links);
      rc = SA_EINVAL;
      break;
    }
    int i = sim_plan_find(pl, p.algo, p.bytes, p.nccl);
    *in_order &= i == seq++;
    if (i >= 0) {
      sim_plan_fill(pl, i, &p);
      pl->slot[i].resumed = 1;
      taken++;
    } else {
      sim_links_free(&p.links); /* a point this sweep does not have */
    }
  }
  cJSON_Delete(doc);
  return why ? fail(err, errlen, rc, path, why) : taken;
}
