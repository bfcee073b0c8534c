/* check_trace.c: --trace's file against the Trace Event Format (every event with the fields
 * its kind requires, metadata naming every process and thread, numeric counters), each
 * rank's phase slices against the phase durations of the table, step bytes against what the
 * algorithm must move, dense and sparse algorithms and --verify; --trace-ranks; the cap on a
 * trace's size; rank lists. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_util.h"
#include "cli_run.h"
#include "util/rank_list.h"
#include "sim/trace.h"

static const cJSON *field(const cJSON *o, const char *key) { return cJSON_GetObjectItemCaseSensitive(o, key); }
static const char *str(const cJSON *o, const char *key)
{
  const cJSON *v = field(o, key);
  return cJSON_IsString(v) ? v->valuestring : "";
}

static int whole(const cJSON *v) { return cJSON_IsNumber(v) && v->valuedouble == floor(v->valuedouble); }

#define MAX_THREADS 1024

/* Every event has what its kind needs; every thread with events is named, and its process.
 * Returns the number of events of kind ph. */
static int validate(const cJSON *root, char ph)
{
  const cJSON *events = field(root, "traceEvents"), *e;
  ck_assert(cJSON_IsArray(events) && cJSON_IsObject(field(root, "otherData")));
  static int named[MAX_THREADS], used[MAX_THREADS], pnamed[MAX_THREADS], pused[MAX_THREADS];
  memset(named, 0, sizeof named);
  memset(used, 0, sizeof used);
  memset(pnamed, 0, sizeof pnamed);
  memset(pused, 0, sizeof pused);
  int n = 0;
  cJSON_ArrayForEach(e, events)
  {
    const char *kind = str(e, "ph"), *name = str(e, "name");
    ck_assert_msg(strlen(kind) == 1 && strchr("XiCM", kind[0]), "ph '%s'", kind);
    ck_assert_msg(name[0], "an event without a name");
    ck_assert(cJSON_IsNumber(field(e, "ts")) && field(e, "ts")->valuedouble >= 0);
    ck_assert(whole(field(e, "pid")) && whole(field(e, "tid")));
    int pid = field(e, "pid")->valueint, tid = field(e, "tid")->valueint;
    ck_assert(pid > 0 && pid < MAX_THREADS && tid >= 0 && tid < MAX_THREADS);
    const cJSON *args = field(e, "args"), *a;
    n += kind[0] == ph;
    switch (kind[0]) {
    case 'X':
      ck_assert(cJSON_IsNumber(field(e, "dur")) && field(e, "dur")->valuedouble >= 0);
      ck_assert(!args || cJSON_IsObject(args));
      used[tid] = pused[pid] = 1;
      break;
    case 'i':
      ck_assert(!field(e, "s") || strchr("tpg", str(e, "s")[0]));
      used[tid] = pused[pid] = 1;
      break;
    case 'C':
      ck_assert(cJSON_IsObject(args) && cJSON_GetArraySize(args) > 0);
      cJSON_ArrayForEach(a, args) ck_assert_msg(cJSON_IsNumber(a), "counter %s: %s not a number", name, a->string);
      pused[pid] = 1;
      break;
    default: /* M */
      if (!strcmp(name, "thread_name") || !strcmp(name, "process_name")) {
        ck_assert(cJSON_IsString(field(args, "name")));
        if (name[0] == 't')
          named[tid] = 1;
        else
          pnamed[pid] = 1;
      } else {
        ck_assert_msg(!strcmp(name, "thread_sort_index") || !strcmp(name, "process_sort_index"), "metadata %s", name);
        ck_assert(cJSON_IsNumber(field(args, "sort_index")));
      }
    }
  }
  for (int i = 0; i < MAX_THREADS; i++) {
    ck_assert_msg(!used[i] || named[i], "thread %d has no name", i);
    ck_assert_msg(!pused[i] || pnamed[i], "process %d has no name", i);
  }
  return n;
}

/* The X events of category cat, in file order. */
static int slices(const cJSON *root, const char *cat, const cJSON **out, int max)
{
  const cJSON *e;
  int n = 0;
  cJSON_ArrayForEach(e, field(root, "traceEvents")) if (!strcmp(str(e, "ph"), "X") && !strcmp(str(e, "cat"), cat))
  {
    ck_assert(n < max);
    out[n++] = e;
  }
  return n;
}

static double ts(const cJSON *e) { return field(e, "ts")->valuedouble; }
static double end(const cJSON *e) { return ts(e) + field(e, "dur")->valuedouble; }
static int tid(const cJSON *e) { return field(e, "tid")->valueint; }

#define MAXS 200000
static const cJSON *pts[MAXS], *phs[MAXS], *steps[MAXS];

/* For every point of the table: each rank's phase slices follow one another from the start
 * of its allreduce slice to within 20 ns of its end, and the latest end of each phase over
 * the ranks, counted from each one's start, gives the table's phase durations within 0.1%
 * (the runner takes them so; +3 ns for the nanoseconds the trace is written in). */
static void check_phases(const cJSON *trace, const cJSON *results, int ranks)
{
  int npts = slices(trace, "allreduce", pts, MAXS), nphs = slices(trace, "phase", phs, MAXS);
  ck_assert_int_eq(npts, cJSON_GetArraySize(results) * ranks);
  for (int k = 0; k < cJSON_GetArraySize(results); k++) {
    const cJSON *res = cJSON_GetArrayItem(results, k), *ph;
    double latest[16] = {0};
    int seen = 0;
    for (int i = 0; i < npts; i++) {
      if (field(field(pts[i], "args"), "point")->valueint != k)
        continue;
      seen++;
      double at = ts(pts[i]), sum = 0;
      int nth = 0;
      for (int j = 0; j < nphs; j++) {
        if (tid(phs[j]) != tid(pts[i]) || ts(phs[j]) < ts(pts[i]) - 1e-9 || end(phs[j]) > end(pts[i]) + 1e-9)
          continue;
        ck_assert_msg(fabs(ts(phs[j]) - at) < 1.5e-3, "rank %d: phase %s starts at %.3f, not %.3f", tid(pts[i]) - 1,
                      str(phs[j], "name"), ts(phs[j]), at);
        at = end(phs[j]);
        sum += field(phs[j], "dur")->valuedouble;
        ck_assert(nth < 16);
        latest[nth] = fmax(latest[nth], at - ts(pts[i]));
        ck_assert_str_eq(str(phs[j], "name"), cJSON_GetArrayItem(field(res, "phases"), nth)->string);
        nth++;
      }
      ck_assert_int_eq(nth, cJSON_GetArraySize(field(res, "phases")));
      ck_assert_msg(fabs(sum - field(pts[i], "dur")->valuedouble) < 0.02, "rank %d: phases %.3f us of %.3f",
                    tid(pts[i]) - 1, sum, field(pts[i], "dur")->valuedouble);
    }
    ck_assert_int_eq(seen, ranks);
    int nth = 0;
    double before = 0;
    cJSON_ArrayForEach(ph, field(res, "phases"))
    {
      double want = ph->valuedouble * 1e6, got = latest[nth++] - before;
      before += got;
      ck_assert_msg(fabs(got - want) <= 1e-3 * want + 3e-3,
                    "%s at %g bytes: phase %s %.4f us in the trace, %.4f in the table", str(res, "algo"),
                    cli_num(res, "bytes"), ph->string, got, want);
    }
    ck_assert_msg(fabs(before - cli_num(res, "time_s") * 1e6) <= 1e-3 * before, "phases %g us, time %g us", before,
                  cli_num(res, "time_s") * 1e6);
  }
}

/* Sum of an arg over the X events of one category and name within a point of the run. */
static double step_sum(const cJSON *trace, const char *name, int point, const char *arg)
{
  int npts = slices(trace, "allreduce", pts, MAXS), nsteps = slices(trace, "mpi", steps, MAXS);
  double sum = 0;
  for (int i = 0; i < npts; i++)
    if (field(field(pts[i], "args"), "point")->valueint == point)
      for (int j = 0; j < nsteps; j++)
        if (tid(steps[j]) == tid(pts[i]) && ts(steps[j]) >= ts(pts[i]) && end(steps[j]) <= end(pts[i]) &&
            !strcmp(str(steps[j], "name"), name) && field(field(steps[j], "args"), arg))
          sum += field(field(steps[j], "args"), arg)->valuedouble;
  return sum;
}

/* Runs args with --trace into a fresh directory: the result, and the trace, checked against
 * the format and, when all `ranks` ranks are traced (not 0), against the table's phases. */
static cJSON *traced(const char *args, int ranks, cli_result *r)
{
  char dir[64], all[1024];
  ck_assert(cli_tmpdir(dir, "check_trace") == 0);
  snprintf(all, sizeof all, "%s --trace %s/t.json", args, dir);
  *r = cli_run(all, 1);
  ck_assert_msg(r->status == 0, "%s: %s", all, r->err);
  snprintf(all, sizeof all, "%s/t.json", dir);
  cJSON *trace = cli_load_json(all);
  ck_assert_msg(trace != NULL, "%s is not JSON", all);
  cli_rmtree(dir);
  validate(trace, 'X');
  if (ranks)
    check_phases(trace, field(r->json, "results"), ranks);
  return trace;
}

/* Dense algorithms on 12 ranks of 3 nodes, a point where the trees pipeline and one where
 * they do not; every ring step's bytes: over a step all p ranks send each chunk once, n
 * bytes together, and 2(p-1) steps make 2(p-1) n. */
START_TEST(trace_of_dense_algorithms)
{
  cli_result r;
  cJSON *t = traced("--platform tencent16 --nodes 3 --ranks-per-node 4 --algo all --sizes 4K,256K --segment 64K "
                    "--mode sim",
                    12, &r);
  ck_assert(validate(t, 'X') > 0 && validate(t, 'C') > 0 && validate(t, 'i') > 0);
  for (int k = 0; k < 2; k++) {
    double n = k ? 262144 : 4096;
    ck_assert_str_eq(str(cli_point(&r, k), "algo"), "ring");
    ck_assert(step_sum(t, "sendrecv", k, "sent_bytes") == 2 * 11 * n);
    ck_assert(step_sum(t, "sendrecv", k, "received_bytes") == 2 * 11 * n);
  }
  /* the links' counters name links whose rate the file gives */
  const cJSON *e, *rates = field(field(t, "otherData"), "links_rate_Bps");
  cJSON_ArrayForEach(e, field(t, "traceEvents")) if (!strcmp(str(e, "ph"), "C"))
      ck_assert_msg(cJSON_IsNumber(field(rates, str(e, "name"))), "counter %s", str(e, "name"));
  ck_assert_int_eq(cJSON_GetArraySize(field(field(t, "otherData"), "points")), 14);
  cJSON_Delete(t);
  cli_result_free(&r);
}
END_TEST

/* The top-k algorithms: their device work (selection, scatter-add) is there with its bytes. */
START_TEST(trace_of_sparse_algorithms)
{
  cli_result r;
  cJSON *t =
      traced("--platform tencent16 --nodes 3 --ranks-per-node 4 --algo topk,hitopk --size 256K --mode sim", 12, &r);
  int nwork = slices(t, "device", steps, MAXS), select = 0, mstopk = 0;
  for (int i = 0; i < nwork; i++) {
    select += !strcmp(str(steps[i], "name"), "topk-select");
    mstopk += !strcmp(str(steps[i], "name"), "mstopk");
    ck_assert(cli_num(field(steps[i], "args"), "bytes") > 0);
  }
  ck_assert_int_eq(select, 12);
  ck_assert_int_eq(mstopk, 12);
  cJSON_Delete(t);
  cli_result_free(&r);
}
END_TEST

/* With --verify: every algorithm, real data, results checked, the trace as valid. */
START_TEST(trace_with_verify)
{
  cli_result r;
  cJSON *t = traced("--platform tencent16 --nodes 2 --ranks-per-node 3 --algo all,topk,hitopk --sizes 40,4K "
                    "--segment 256 --verify",
                    6, &r);
  const cJSON *p;
  cJSON_ArrayForEach(p, field(r.json, "results")) ck_assert(cJSON_IsTrue(field(p, "verified")));
  cJSON_Delete(t);
  cli_result_free(&r);
}
END_TEST

/* --trace-ranks: those threads and no other. */
START_TEST(trace_ranks_selects)
{
  cli_result r;
  cJSON *t =
      traced("--platform tencent16 --nodes 2 --ranks-per-node 4 --algo ring --size 64K --trace-ranks 1,5-6", 0, &r);
  const cJSON *e;
  int names = 0;
  cJSON_ArrayForEach(e, field(t, "traceEvents"))
  {
    if (!strcmp(str(e, "ph"), "X"))
      ck_assert(tid(e) == 2 || tid(e) == 6 || tid(e) == 7);
    names += !strcmp(str(e, "name"), "thread_name");
  }
  ck_assert_int_eq(names, 3);
  cJSON_Delete(t);
  cli_result_free(&r);
}
END_TEST

/* Without --trace-ranks, a run of more than 128 ranks traces the first 128, and says so. */
START_TEST(trace_of_many_ranks_shows_the_first_128)
{
  cli_result r;
  cJSON *t = traced("--platform mn1 --nodes 17 --algo ring --size 1K --mode sim", 0, &r);
  const cJSON *e;
  int names = 0;
  cJSON_ArrayForEach(e, field(t, "traceEvents")) names += !strcmp(str(e, "name"), "thread_name");
  ck_assert_int_eq(names, 128);
  ck_assert_msg(strstr(r.err, "the trace shows ranks 0-127 of 136") != NULL, "%s", r.err);
  cJSON_Delete(t);
  cli_result_free(&r);
}
END_TEST

static void write_file(const char *dir, const char *name, const char *text)
{
  char path[256];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  ck_assert(f && fputs(text, f) >= 0 && fclose(f) == 0);
}

/* A trace holds at most max_events steps: ranks past it are left out whole, and named. */
START_TEST(trace_cap_leaves_out_whole_ranks)
{
  char dir[64], result[128], path[128], err[256];
  ck_assert(cli_tmpdir(dir, "check_trace") == 0);
  snprintf(result, sizeof result, "%s/result.json", dir);
  ck_assert(sim_trace_prepare(result) == 0);
  char tdir[128];
  snprintf(tdir, sizeof tdir, "%s/trace", dir);
  const char *rank = "point 0 ring 64 0x0p+0 0x1p-10\nphase reduce-scatter 0x0p+0 0x1p-11\n"
                     "phase allgather 0x1p-11 0x1p-10\nstep c sendrecv 0x0p+0 0x1p-12 16 1 16 3\n";
  for (int i = 0; i < 4; i++) {
    char name[32];
    snprintf(name, sizeof name, "rank%d.txt", i);
    write_file(tdir, name, rank);
  }
  write_file(tdir, "links.txt",
             "window 0 0x0p+0 0x1p-10\nlink 0x1p+30 0x0p+0 0x1p-11 2 a \"quoted\" link\nbins 0x1p+8 0x0p+0\n");
  plat_file pf = {0};
  plat_host hosts[4] = {{"n0-g0", 0, 0}, {"n0-g1", 0, 1}, {"n1-g0", 1, 0}, {"n1-g1", 1, 1}};
  int first[2] = {0, 2}, size[2] = {2, 2};
  pf.hosts = hosts;
  pf.nhosts = 4;
  pf.nnodes = 2;
  pf.node_first = first;
  pf.node_size = size;
  sim_point pt = {.algo = "ring", .bytes = 64, .time_s = 1.0 / 1024, .nphases = 0, .simulated = 1};
  sim_results r = {.ranks = 4, .ranks_per_node = 2, .points = &pt, .npoints = 1};
  sim_trace t;
  snprintf(path, sizeof path, "%s/t.json", dir);
  ck_assert(sim_trace_open(&t, path, err, sizeof err) == 0);
  t.max_events = 9; /* two ranks of 4 lines each fit */
  ck_assert_msg(sim_trace_add_run(&t, result, &pf, 2, &r, err, sizeof err) == 0, "%s", err);
  ck_assert_str_eq(t.left_out, "2-3");
  ck_assert(sim_trace_close(&t, 1, err, sizeof err) == 0);
  cJSON *j = cli_load_json(path);
  ck_assert(j != NULL);
  validate(j, 'X');
  ck_assert_int_eq(validate(j, 'C'), 3); /* 256 bytes in 2^-11 s, nothing, then 0 at the end */
  ck_assert_str_eq(str(field(j, "otherData"), "ranks_left_out"), "2-3");
  ck_assert(cli_num(field(j, "otherData"), "steps_left_out") == 8);
  ck_assert(cJSON_IsNumber(field(field(field(j, "otherData"), "links_rate_Bps"), "a \"quoted\" link")));
  cJSON_Delete(j);
  cli_rmtree(dir);
}
END_TEST

START_TEST(rank_lists)
{
  char err[256];
  ck_assert(util_rank_list_check("0-7,64,120-127", 128, err, sizeof err) == 0);
  const char *bad[] = {"", "8-7", "1,", ",1", "1--2", "a", "1-", "-1", "128", "0-128", "1 2"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    ck_assert_msg(util_rank_list_check(bad[i], 128, err, sizeof err) != 0, "'%s' accepted", bad[i]);
  ck_assert(util_rank_list_has("0-7,64", 0) && util_rank_list_has("0-7,64", 7) && util_rank_list_has("0-7,64", 64));
  ck_assert(!util_rank_list_has("0-7,64", 8) && !util_rank_list_has("0-7,64", 63) && !util_rank_list_has("3", 4));
  ck_assert(util_rank_list_has(NULL, 12345));
}
END_TEST

int main(void)
{
  Suite *s = suite_create("trace");
  CHECK_CASE(s, "trace", 300, trace_of_dense_algorithms, trace_of_sparse_algorithms, trace_with_verify,
             trace_ranks_selects, trace_of_many_ranks_shows_the_first_128, trace_cap_leaves_out_whole_ranks,
             rank_lists);
  return check_run(s);
}
