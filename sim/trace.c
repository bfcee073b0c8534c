/* trace.c: merges the runner's timeline files into one Chrome trace-event file (trace.h).
 * The format is the JSON object form of the Trace Event Format (Google, "Trace Event
 * Format", the document chrome://tracing and Perfetto's JSON importer follow): a
 * "traceEvents" array of events with ph (X: a slice with dur, i: an instant, C: a counter
 * with numeric args, M: metadata naming processes and threads), ts and dur in
 * microseconds, pid and tid. Here pid = node + 1 and tid = rank + 1 (viewers reserve 0),
 * the links' counters have a process of their own after the nodes, and every time is the
 * simulated clock, written to the nanosecond. */
#include "trace.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/sa_error.h"
#include "platform/hostfile.h"
#include "util/sizes.h"
#include "util/textfile.h"
#include "runner_cmd.h"

const char sim_trace_default_ranks[] = "0-127"; /* 0 .. SIM_TRACE_DEFAULT_RANKS - 1 */

/* Seconds on a run's clock as nanoseconds on the trace's. */
static long long ns(const sim_trace *t, double s) { return llround(s * 1e9) + t->offset_ns; }

/* A string as JSON writes it (quotes and escapes), into f; cJSON escapes the few that need it. */
static void put_str(FILE *f, const char *s)
{
  const char *c = s;
  while (*c && *c != '"' && *c != '\\' && (unsigned char)*c >= 0x20 && (unsigned char)*c < 0x7f)
    c++;
  if (!*c) {
    fprintf(f, "\"%s\"", s);
    return;
  }
  cJSON *j = cJSON_CreateString(s);
  char *text = j ? cJSON_PrintUnformatted(j) : NULL;
  fputs(text ? text : "\"\"", f);
  free(text);
  cJSON_Delete(j);
}

/* The start of an event: {"name":..,"cat":..,"ph":..,"ts":..,"pid":..,"tid":.. (no closing brace). */
static void begin(sim_trace *t, const char *name, const char *cat, char ph, long long ts, int pid, int tid)
{
  fputs(t->written++ ? ",\n" : "\n", t->f);
  fputs("{\"name\":", t->f);
  put_str(t->f, name);
  fprintf(t->f, ",\"cat\":\"%s\",\"ph\":\"%c\",\"ts\":%lld.%03lld,\"pid\":%d,\"tid\":%d", cat, ph, ts / 1000, ts % 1000,
          pid, tid);
  if (ts > t->end_ns)
    t->end_ns = ts;
}

/* A slice from a to b (nanoseconds), its args (a JSON object's members, or "") after. */
static void slice(sim_trace *t, const char *name, const char *cat, long long a, long long b, int pid, int tid,
                  const char *args)
{
  begin(t, name, cat, 'X', a, pid, tid);
  long long d = b > a ? b - a : 0;
  fprintf(t->f, ",\"dur\":%lld.%03lld,\"args\":{%s}}", d / 1000, d % 1000, args);
  if (b > t->end_ns)
    t->end_ns = b;
}

static void metadata(sim_trace *t, const char *what, int pid, int tid, const char *name, int sort)
{
  begin(t, what, "__metadata", 'M', 0, pid, tid);
  fputs(",\"args\":{\"name\":", t->f);
  put_str(t->f, name);
  fputs("}}", t->f);
  begin(t, strcmp(what, "process_name") == 0 ? "process_sort_index" : "thread_sort_index", "__metadata", 'M', 0, pid,
        tid);
  fprintf(t->f, ",\"args\":{\"sort_index\":%d}}", sort);
}

/* Appends " name:value" for the values that apply (>= 0) to args. */
static void arg(char *args, size_t len, const char *name, long long v)
{
  if (v >= 0)
    snprintf(args + strlen(args), len - strlen(args), "%s\"%s\":%lld", args[0] ? "," : "", name, v);
}

/* One line of a rank's file (runner/runner_timeline.c); 0, or -1 when malformed. */
static int rank_line(sim_trace *t, char *line, int pid, int tid, long long *last_end)
{
  char what[16], name[48], kind;
  double a, b;
  long long v[4];
  int idx;
  char args[160] = "";
  if (sscanf(line, "%15s", what) != 1)
    return -1;
  if (strcmp(what, "point") == 0) {
    unsigned long long bytes;
    char sz[32], title[96];
    if (sscanf(line, "point %d %47s %llu %lf %lf", &idx, name, &bytes, &a, &b) != 5)
      return -1;
    util_format_size(bytes, sz, sizeof sz);
    snprintf(title, sizeof title, "%s %s", name, sz);
    arg(args, sizeof args, "point", idx);
    arg(args, sizeof args, "bytes", (long long)bytes);
    slice(t, title, "allreduce", ns(t, a), ns(t, b), pid, tid, args);
    *last_end = ns(t, b);
  } else if (strcmp(what, "phase") == 0) {
    if (sscanf(line, "phase %47s %lf %lf", name, &a, &b) != 3)
      return -1;
    slice(t, name, "phase", ns(t, a), ns(t, b), pid, tid, "");
  } else if (strcmp(what, "step") == 0) {
    if (sscanf(line, "step %c %47s %lf %lf %lld %lld %lld %lld", &kind, name, &a, &b, &v[0], &v[1], &v[2], &v[3]) != 8)
      return -1;
    if (kind == 'w') {
      arg(args, sizeof args, "bytes", v[2]);
      slice(t, name, "device", ns(t, a), ns(t, b), pid, tid, args);
      return 0;
    }
    arg(args, sizeof args, "sent_bytes", v[0]);
    arg(args, sizeof args, "to", v[1]);
    arg(args, sizeof args, "received_bytes", v[2]);
    arg(args, sizeof args, "from", v[3]);
    if (kind == 'p') {
      begin(t, name, "mpi", 'i', ns(t, a), pid, tid);
      fprintf(t->f, ",\"s\":\"t\",\"args\":{%s}}", args);
    } else {
      slice(t, name, "mpi", ns(t, a), ns(t, b), pid, tid, args);
    }
  } else if (strcmp(what, "dropped") == 0) {
    if (sscanf(line, "dropped %lld", &v[0]) != 1)
      return -1;
    t->dropped += v[0];
    arg(args, sizeof args, "steps", v[0]);
    begin(t, "steps left out", "mpi", 'i', *last_end, pid, tid);
    fprintf(t->f, ",\"s\":\"t\",\"args\":{%s}}", args);
  } else {
    return -1;
  }
  return 0;
}

static long long count_lines(const char *s)
{
  long long n = 0;
  for (; *s; s++)
    n += *s == '\n';
  return n;
}

/* Adds rank to the list of ranks left out, as ranges (A-B when they follow each other). */
static void leave_out(sim_trace *t, int rank, long long events)
{
  size_t cap = sizeof t->left_out;
  if (t->nleft && rank == t->last_left + 1 && t->range_at < cap) {
    snprintf(t->left_out + t->range_at, cap - t->range_at, "-%d", rank);
  } else {
    size_t len = strlen(t->left_out);
    snprintf(t->left_out + len, cap - len, "%s%d", len ? "," : "", rank);
    t->range_at = strlen(t->left_out);
  }
  t->last_left = rank;
  t->nleft++;
  t->left_events += events;
}

/* Every traced rank of the run: its file in dir, its thread and its node's process. */
static int add_ranks(sim_trace *t, const char *dir, const plat_file *pf, int ranks, int rpn, char *err,
                     size_t errlen)
{
  int named_node = -1;
  for (int r = 0; r < ranks; r++) {
    char path[4300], *text;
    snprintf(path, sizeof path, "%s/rank%d.txt", dir, r);
    if (!(text = util_read_text(path)))
      continue; /* not traced */
    long long n = count_lines(text);
    if (t->events + n > t->max_events) {
      leave_out(t, r, n);
      free(text);
      continue;
    }
    int node = r / rpn, pid = node + 1, tid = r + 1;
    char name[128];
    if (node != named_node) {
      snprintf(name, sizeof name, "node %d", pf->hosts[pf->node_first[node]].node);
      metadata(t, "process_name", pid, 0, name, node);
      named_node = node;
    }
    snprintf(name, sizeof name, "rank %d %s", r, plat_layout_host(pf, rpn, r));
    metadata(t, "thread_name", pid, tid, name, r);
    long long last_end = t->offset_ns;
    int ok = 1;
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line && ok; line = strtok_r(NULL, "\n", &save))
      ok = rank_line(t, line, pid, tid, &last_end) == 0;
    free(text);
    if (!ok) {
      snprintf(err, errlen, "the simulation's trace file for rank %d is not in the expected form", r);
      return SA_EPARSE;
    }
    t->events += n;
  }
  return 0;
}

/* The point's entry of otherData.points: what the table says, and when it ran. */
static void add_point(sim_trace *t, const sim_point *p, int idx, double w0, double w1)
{
  cJSON *o = cJSON_CreateObject(), *ph = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "point", idx);
  cJSON_AddStringToObject(o, "algo", p->algo);
  cJSON_AddNumberToObject(o, "bytes", (double)p->bytes);
  cJSON_AddNumberToObject(o, "time_us", p->time_s * 1e6);
  if (w1 >= w0) {
    cJSON_AddNumberToObject(o, "start_us", (double)ns(t, w0) / 1e3);
    cJSON_AddNumberToObject(o, "end_us", (double)ns(t, w1) / 1e3);
  }
  for (int k = 0; k < p->nphases; k++)
    cJSON_AddNumberToObject(ph, p->phase_name[k], p->phase_s[k] * 1e6);
  cJSON_AddItemToObject(o, "phases_us", ph);
  cJSON_AddItemToArray(t->points, o);
}

/* The links file: each point's window, and its busiest links' bytes per bin as counters
 * in GB/s, dropping to 0 at the window's end. */
static int add_links(sim_trace *t, const char *dir, int pid, const sim_results *r, char *err, size_t errlen)
{
  char path[4300], *text, *save = NULL;
  snprintf(path, sizeof path, "%s/links.txt", dir);
  if (!(text = util_read_text(path))) {
    for (int i = 0; i < r->npoints; i++)
      add_point(t, &r->points[i], i, 0, -1);
    return 0;
  }
  int idx = -1, n = 0, named = 0, ok = 1;
  double w0 = 0, w1 = -1, rate = 0, t0 = 0, width = 0;
  for (char *line = strtok_r(text, "\n", &save); line && ok; line = strtok_r(NULL, "\n", &save)) {
    int used;
    if (sscanf(line, "window %d %lf %lf", &idx, &w0, &w1) == 3) {
      ok = idx >= 0 && idx < r->npoints;
      if (ok)
        add_point(t, &r->points[idx], idx, w0, w1);
    } else if (sscanf(line, "link %lf %lf %lf %d %n", &rate, &t0, &width, &n, &used) == 4 && line[used]) {
      const char *name = line + used;
      if (!named++)
        metadata(t, "process_name", pid, 0, "links: throughput of the busiest (GB/s)", -1);
      if (!cJSON_GetObjectItemCaseSensitive(t->links, name))
        cJSON_AddNumberToObject(t->links, name, rate);
      char *bins = strtok_r(NULL, "\n", &save), *end;
      ok = bins && strncmp(bins, "bins", 4) == 0 && width > 0;
      double prev = -1;
      bins += ok ? 4 : 0;
      for (int b = 0; ok && b < n; b++, bins = end) {
        double v = strtod(bins, &end) / width / 1e9;
        ok = end != bins;
        if (ok && v != prev) {
          begin(t, name, "link", 'C', ns(t, t0 + b * width), pid, pid);
          fprintf(t->f, ",\"args\":{\"GB/s\":%.6g}}", v);
          prev = v;
        }
      }
      begin(t, name, "link", 'C', ns(t, w1 > t0 ? w1 : t0 + n * width), pid, pid);
      fputs(",\"args\":{\"GB/s\":0}}", t->f);
    } else {
      ok = 0;
    }
  }
  free(text);
  if (!ok)
    snprintf(err, errlen, "the simulation's links file is not in the expected form");
  return ok ? 0 : SA_EPARSE;
}

int sim_trace_open(sim_trace *t, const char *path, char *err, size_t errlen)
{
  memset(t, 0, sizeof *t);
  t->max_events = SIM_TRACE_MAX_EVENTS;
  t->points = cJSON_CreateArray();
  t->links = cJSON_CreateObject();
  int rc = t->points && t->links ? util_outfile_open(&t->out, path, err, errlen) : SA_ENOMEM;
  if (rc) {
    if (rc == SA_ENOMEM)
      snprintf(err, errlen, "out of memory");
    cJSON_Delete(t->points);
    cJSON_Delete(t->links);
    return rc;
  }
  t->f = t->out.f;
  fputs("{\"traceEvents\":[", t->f);
  return 0;
}

int sim_trace_prepare(const char *result)
{
  char dir[4200];
  sim_runner_trace_dir(result, dir, sizeof dir);
  return mkdir(dir, 0700) == 0 || errno == EEXIST ? 0 : SA_EIO;
}

int sim_trace_add_run(sim_trace *t, const char *result, const plat_file *pf, int rpn, const sim_results *r,
                      char *err, size_t errlen)
{
  char dir[4200];
  sim_runner_trace_dir(result, dir, sizeof dir);
  /* a run's clock starts far from zero (runner_clock.c): the trace's starts where the run's
   * first point does, each run a microsecond after the one before */
  long long at = t->written ? t->end_ns + 1000 : 0;
  t->offset_ns = isnan(r->start_clock_s) ? at : at - llround(r->start_clock_s * 1e9);
  int rc = add_ranks(t, dir, pf, r->ranks, rpn, err, errlen);
  return rc ? rc : add_links(t, dir, r->ranks / rpn + 1, r, err, errlen);
}

void sim_trace_thread(sim_trace *t, int pid, int tid, const char *process, const char *thread, int sort)
{
  metadata(t, "process_name", pid, tid, process, sort);
  metadata(t, "thread_name", pid, tid, thread, tid);
}

void sim_trace_begin_spans(sim_trace *t) { t->offset_ns = t->written ? t->end_ns + 1000 : 0; }

void sim_trace_span(sim_trace *t, const char *name, double a, double b, int pid, int tid)
{
  slice(t, name, "training", ns(t, a), ns(t, b), pid, tid, "");
}

int sim_trace_close(sim_trace *t, int ok, char *err, size_t errlen)
{
  fputs("\n],\"displayTimeUnit\":\"ns\",\"otherData\":", t->f);
  cJSON *other = cJSON_CreateObject();
  cJSON_AddStringToObject(other, "generator", "simallreduce");
  cJSON_AddStringToObject(other, "clock", "simulated time, microseconds");
  cJSON_AddItemToObject(other, "points", t->points);
  cJSON_AddItemToObject(other, "links_rate_Bps", t->links);
  if (t->nleft)
    cJSON_AddStringToObject(other, "ranks_left_out", t->left_out);
  cJSON_AddNumberToObject(other, "steps_left_out", (double)(t->left_events + t->dropped));
  char *text = cJSON_PrintUnformatted(other);
  cJSON_Delete(other);
  int rc = text ? 0 : SA_ENOMEM;
  if (text)
    fputs(text, t->f);
  fputs("}\n", t->f);
  free(text);
  char why[PATH_MAX + 200];
  if (!ok || rc) /* a failed run: the file stays as it was */
    util_outfile_discard(&t->out);
  else if ((rc = util_outfile_commit(&t->out, why, sizeof why)) != 0)
    snprintf(err, errlen, "%s", why);
  if (ok && rc == SA_ENOMEM)
    snprintf(err, errlen, "%s: out of memory", t->out.path);
  t->f = NULL;
  if (!ok || rc)
    return rc;
  if (t->nleft)
    fprintf(stderr,
            "simallreduce: the trace leaves out ranks %s (%lld steps): it holds at most %lld; choose ranks with "
            "--trace-ranks\n",
            t->left_out, t->left_events, t->max_events);
  if (t->dropped)
    fprintf(stderr, "simallreduce: the trace leaves out %lld steps past the runner's room per rank and point\n",
            t->dropped);
  return 0;
}
