/* check_tuner_plugin.c: the NCCL tuner plugin, used as NCCL uses it: dlopen the library,
 * look up the versioned symbol, init with the table SIMALLREDUCE_TUNER_TABLE names, ask per
 * collective, finalize; answers checked against the table, bad tables against init's result
 * and the warning it logs through the logger NCCL passes. */
#include <dlfcn.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tuner/nccl_tuner_api.h"
#include "check_util.h"
#include "tuner_files.h"

#define ENV "SIMALLREDUCE_TUNER_TABLE"
#define NUM_ALGOS 7 /* NCCL's cost table since 2.23 */

/* Written by hand: 2 nodes x 8 ranks with a gap between 1 MiB and 4 MiB, 4 x 8 on NVLS, and
 * 1 x 8 on PAT, which NCCL before 2.23 does not have. */
static const char table[] =
  "#simallreduce-tuner 1\n"
  "nodes,ranks_per_node,min_bytes,max_bytes,algo,proto,channels,sim_bytes,time_us,runner_up,runner_up_time_us\n"
  "2,8,0,8191,Tree,LL,0,4096,18.5,Ring/LL/0,21.25\n"
  "2,8,8192,1048575,Ring,LL128,16,524288,95.75,Tree/LL128/16,103.5\n"
  "2,8,4194304,18446744073709551615,Ring,Simple,32,67108864,1402.125,Tree/Simple/32,1620\n"
  "4,8,0,65535,NVLSTree,Simple,8,32768,40,-,-\n"
  "1,8,1024,2047,PAT,Simple,4,1024,10,Ring/Simple/4,11\n";

static void *lib;
static char *path;
static char logged[8192];
static int warnings;

static void logger(ncclDebugLogLevel level, unsigned long flags, const char *file, int line, const char *fmt, ...)
{
  (void)file, (void)line;
  ck_assert(flags & NCCL_TUNING);
  warnings += level == NCCL_LOG_WARN;
  size_t n = strlen(logged);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(logged + n, sizeof logged - n, fmt, ap);
  va_end(ap);
  n = strlen(logged);
  snprintf(logged + n, sizeof logged - n, "\n");
}

static void setup(void)
{
  lib = dlopen(TUNER_SO, RTLD_NOW | RTLD_LOCAL);
  ck_assert_msg(lib != NULL, "%s", dlerror());
  path = tuner_file(table, sizeof table - 1);
  ck_assert_ptr_nonnull(path);
  setenv(ENV, path, 1);
  logged[0] = '\0';
  warnings = 0;
}

static void teardown(void)
{
  dlclose(lib);
  unlink(path);
  free(path);
  unsetenv(ENV);
}

static void *symbol(int version)
{
  char name[32];
  snprintf(name, sizeof name, "ncclTunerPlugin_v%d", version);
  return dlsym(lib, name);
}

/* init and finalize through the struct of one version, as NCCL calls them */
static ncclResult_t init(int version, size_t nRanks, size_t nNodes, void **ctx)
{
  void *s = symbol(version);
  ck_assert_ptr_nonnull(s);
  ncclNvlDomainInfo_v5_t nvl = {(int)nNodes, 8, 8};
  static ncclTunerConstants_v5_t constants;
  *ctx = (void *)1; /* init must set it either way */
  switch (version) {
  case 2:
    return ((ncclTuner_v2_t *)s)->init(nRanks, nNodes, logger, ctx);
  case 3:
    return ((ncclTuner_v3_t *)s)->init(nRanks, nNodes, logger, ctx);
  case 4:
    return ((ncclTuner_v4_t *)s)->init(nRanks, nNodes, logger, ctx);
  case 5:
    return ((ncclTuner_v5_t *)s)->init(ctx, 0x5eed, nRanks, nNodes, logger, &nvl, &constants);
  default:
    return ((ncclTuner_v6_t *)s)->init(ctx, 0x5eed, nRanks, nNodes, logger, &nvl, &constants);
  }
}

static ncclResult_t finalize(int version, void *ctx)
{
  void *s = symbol(version);
  switch (version) {
  case 2:
    return ((ncclTuner_v2_t *)s)->destroy(ctx);
  case 3:
    return ((ncclTuner_v3_t *)s)->destroy(ctx);
  case 4:
    return ((ncclTuner_v4_t *)s)->destroy(ctx);
  case 5:
    return ((ncclTuner_v5_t *)s)->finalize(ctx);
  default:
    return ((ncclTuner_v6_t *)s)->finalize(ctx);
  }
}

/* One cost-table query (v3 to v6) on a table of distinct NCCL-like costs; checks the answer:
 * algo -1 for none (table and channels untouched), else that entry at 0, every other entry
 * as it was, and the channel count (0: left to NCCL). */
static void expect(int version, void *ctx, ncclFunc_t coll, size_t bytes, int numAlgo, int unavailable, int algo,
                   int proto, int channels)
{
  float cost[NUM_ALGOS][NCCL_NUM_PROTOCOLS], before[NUM_ALGOS][NCCL_NUM_PROTOCOLS];
  for (int a = 0; a < NUM_ALGOS; a++)
    for (int p = 0; p < NCCL_NUM_PROTOCOLS; p++)
      cost[a][p] = a * NCCL_NUM_PROTOCOLS + p == unavailable ? NCCL_ALGO_PROTO_IGNORE : 100.0f + 10 * a + p;
  memcpy(before, cost, sizeof cost);
  int nch = 0;
  void *s = symbol(version);
  ncclResult_t rc;
  if (version == 3)
    rc = ((ncclTuner_v3_t *)s)->getCollInfo(ctx, coll, bytes, 1, (float **)cost, numAlgo, NCCL_NUM_PROTOCOLS, &nch);
  else /* v4, v5 and v6 share it */
    rc = ((ncclTuner_v4_t *)s)->getCollInfo(ctx, coll, bytes, 1, (float **)cost, numAlgo, NCCL_NUM_PROTOCOLS, 0, &nch);
  ck_assert_int_eq(rc, ncclSuccess);
  if (algo >= 0) {
    ck_assert_msg(cost[algo][proto] == 0.0f, "v%d %zu bytes: algo %d proto %d not chosen", version, bytes, algo, proto);
    cost[algo][proto] = before[algo][proto];
  }
  ck_assert_msg(memcmp(cost, before, sizeof cost) == 0, "v%d %zu bytes: other costs changed", version, bytes);
  ck_assert_msg(nch == channels, "v%d %zu bytes: %d channels, expected %d", version, bytes, nch, channels);
}

START_TEST(exports_the_versions_nccl_looks_up)
{
  for (int v = 2; v <= 6; v++) {
    const char *const *name = symbol(v); /* every version's struct starts with its name */
    ck_assert_msg(name != NULL, "ncclTunerPlugin_v%d missing", v);
    ck_assert_str_eq(*name, "simallreduce");
  }
  ck_assert_ptr_null(symbol(1)); /* 2.19's interface: no context, not provided */
  ck_assert_ptr_null(symbol(7));
  ck_assert_ptr_null(((ncclTuner_v6_t *)symbol(6))->getChunkSize);
  /* nothing of the implementation is visible to NCCL or the application */
  ck_assert_ptr_null(dlsym(lib, "tuner_table_parse"));
  ck_assert_ptr_null(dlsym(lib, "tuner_index_build"));
  ck_assert_ptr_null(dlsym(lib, "tuner_algo_name"));
}
END_TEST

START_TEST(cost_table_answers_follow_the_table)
{
  for (int v = 3; v <= 6; v++) {
    void *ctx;
    logged[0] = '\0';
    ck_assert_int_eq(init(v, 16, 2, &ctx), ncclSuccess);
    ck_assert_ptr_nonnull(ctx);
    ck_assert_msg(strstr(logged, ": 3 size ranges for 2 nodes x 8 ranks") != NULL, "%s", logged);
    ck_assert_int_eq(warnings, 0);
    const struct {
      size_t bytes;
      int algo, proto, channels;
    } q[] = {
      {0, NCCL_ALGO_TREE, NCCL_PROTO_LL, 0},
      {4096, NCCL_ALGO_TREE, NCCL_PROTO_LL, 0},
      {8191, NCCL_ALGO_TREE, NCCL_PROTO_LL, 0},
      {8192, NCCL_ALGO_RING, NCCL_PROTO_LL128, 16},
      {1048575, NCCL_ALGO_RING, NCCL_PROTO_LL128, 16},
      {1048576, -1, -1, 0}, /* the gap: NCCL's choice */
      {4194303, -1, -1, 0},
      {4194304, NCCL_ALGO_RING, NCCL_PROTO_SIMPLE, 32},
      {(size_t)1 << 40, NCCL_ALGO_RING, NCCL_PROTO_SIMPLE, 32},
      {SIZE_MAX, NCCL_ALGO_RING, NCCL_PROTO_SIMPLE, 32},
    };
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++)
      expect(v, ctx, ncclFuncAllReduce, q[i].bytes, NUM_ALGOS, -1, q[i].algo, q[i].proto, q[i].channels);
    /* other collectives were not simulated */
    expect(v, ctx, ncclFuncAllGather, 8192, NUM_ALGOS, -1, -1, -1, 0);
    expect(v, ctx, ncclFuncReduceScatter, 4096, NUM_ALGOS, -1, -1, -1, 0);
    /* an entry NCCL cannot use (Ring/LL128 unavailable): NCCL's choice, channels too */
    expect(v, ctx, ncclFuncAllReduce, 8192, NUM_ALGOS, NCCL_ALGO_RING * NCCL_NUM_PROTOCOLS + NCCL_PROTO_LL128, -1, -1,
           0);
    ck_assert_int_eq(finalize(v, ctx), ncclSuccess);
  }
}
END_TEST

START_TEST(algorithms_nccl_may_lack)
{
  void *ctx;
  ck_assert_int_eq(init(6, 8, 1, &ctx), ncclSuccess);
  expect(6, ctx, ncclFuncAllReduce, 1024, NUM_ALGOS, -1, NCCL_ALGO_PAT, NCCL_PROTO_SIMPLE, 4);
  expect(6, ctx, ncclFuncAllReduce, 1023, NUM_ALGOS, -1, -1, -1, 0);
  expect(6, ctx, ncclFuncAllReduce, 2048, NUM_ALGOS, -1, -1, -1, 0);
  /* a cost table of six algorithms (NCCL 2.22) has no row for PAT */
  expect(3, ctx, ncclFuncAllReduce, 1024, 6, -1, -1, -1, 0);
  ck_assert_int_eq(finalize(6, ctx), ncclSuccess);
  ck_assert_int_eq(init(4, 32, 4, &ctx), ncclSuccess);
  expect(4, ctx, ncclFuncAllReduce, 100, NUM_ALGOS, -1, NCCL_ALGO_NVLS_TREE, NCCL_PROTO_SIMPLE, 8);
  expect(4, ctx, ncclFuncAllReduce, 100, NUM_ALGOS, NCCL_ALGO_NVLS_TREE * NCCL_NUM_PROTOCOLS + NCCL_PROTO_SIMPLE, -1,
         -1, 0);
  ck_assert_int_eq(finalize(4, ctx), ncclSuccess);
}
END_TEST

START_TEST(uncovered_shapes_leave_nccl_to_choose)
{
  const size_t shapes[][2] = {{24, 3}, {17, 2}, {16, 1}, {8, 2}, {8, 0}, {1, 1}};
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
    void *ctx;
    logged[0] = '\0';
    ck_assert_int_eq(init(6, shapes[i][0], shapes[i][1], &ctx), ncclSuccess);
    ck_assert_ptr_nonnull(ctx);
    char says[128];
    snprintf(says, sizeof says, ": no rows for %zu ranks on %zu nodes; NCCL chooses for every size", shapes[i][0],
             shapes[i][1]);
    ck_assert_msg(strstr(logged, says) != NULL, "%s", logged);
    const size_t sizes[] = {0, 1024, 8192, 65536, 1 << 20, (size_t)1 << 30, SIZE_MAX};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
      expect(6, ctx, ncclFuncAllReduce, sizes[k], NUM_ALGOS, -1, -1, -1, 0);
    ck_assert_int_eq(finalize(6, ctx), ncclSuccess);
  }
}
END_TEST

/* v2 (NCCL 2.21): the plugin sets algorithm and protocol; -1 where NCCL chooses. */
static void expect_v2(void *ctx, size_t bytes, int nvls, int algo, int proto, int channels)
{
  int a = NCCL_ALGO_UNDEF, p = NCCL_PROTO_UNDEF, nch = 0;
  ck_assert_int_eq(((ncclTuner_v2_t *)symbol(2))->getCollInfo(ctx, ncclFuncAllReduce, bytes, 0, nvls, 1, &a, &p, &nch),
                   ncclSuccess);
  ck_assert_msg(a == algo && p == proto && nch == channels, "%zu bytes: %d/%d/%d, expected %d/%d/%d", bytes, a, p, nch,
                algo, proto, channels);
}

START_TEST(v2_names_the_algorithm_and_protocol)
{
  void *ctx;
  ck_assert_int_eq(init(2, 16, 2, &ctx), ncclSuccess);
  expect_v2(ctx, 100, 0, NCCL_ALGO_TREE, NCCL_PROTO_LL, 0);
  expect_v2(ctx, 8192, 0, NCCL_ALGO_RING, NCCL_PROTO_LL128, 16);
  expect_v2(ctx, 2 << 20, 0, NCCL_ALGO_UNDEF, NCCL_PROTO_UNDEF, 0);
  expect_v2(ctx, 64 << 20, 0, NCCL_ALGO_RING, NCCL_PROTO_SIMPLE, 32);
  ck_assert_int_eq(finalize(2, ctx), ncclSuccess);
  /* NVLS only where NCCL says it is supported; PAT never (2.21 has none) */
  ck_assert_int_eq(init(2, 32, 4, &ctx), ncclSuccess);
  expect_v2(ctx, 100, 0, NCCL_ALGO_UNDEF, NCCL_PROTO_UNDEF, 0);
  expect_v2(ctx, 100, 1, NCCL_ALGO_NVLS_TREE, NCCL_PROTO_SIMPLE, 8);
  ck_assert_int_eq(finalize(2, ctx), ncclSuccess);
  ck_assert_int_eq(init(2, 8, 1, &ctx), ncclSuccess);
  expect_v2(ctx, 1024, 1, NCCL_ALGO_UNDEF, NCCL_PROTO_UNDEF, 0);
  ck_assert_int_eq(finalize(2, ctx), ncclSuccess);
}
END_TEST

START_TEST(communicators_keep_their_own_shapes)
{
  void *a, *b;
  ck_assert_int_eq(init(5, 16, 2, &a), ncclSuccess);
  ck_assert_int_eq(init(5, 32, 4, &b), ncclSuccess);
  expect(5, a, ncclFuncAllReduce, 100, NUM_ALGOS, -1, NCCL_ALGO_TREE, NCCL_PROTO_LL, 0);
  expect(5, b, ncclFuncAllReduce, 100, NUM_ALGOS, -1, NCCL_ALGO_NVLS_TREE, NCCL_PROTO_SIMPLE, 8);
  ck_assert_int_eq(finalize(5, a), ncclSuccess);
  expect(5, b, ncclFuncAllReduce, 65535, NUM_ALGOS, -1, NCCL_ALGO_NVLS_TREE, NCCL_PROTO_SIMPLE, 8);
  expect(5, b, ncclFuncAllReduce, 65536, NUM_ALGOS, -1, -1, -1, 0);
  ck_assert_int_eq(finalize(5, b), ncclSuccess);
}
END_TEST

/* init fails with the result NCCL reports, leaves no context, and warns once with says. */
static void expect_init_failure(ncclResult_t result, const char *says)
{
  for (int v = 2; v <= 6; v++) {
    void *ctx;
    logged[0] = '\0';
    warnings = 0;
    ck_assert_int_eq(init(v, 16, 2, &ctx), result);
    ck_assert_ptr_null(ctx);
    ck_assert_int_eq(warnings, 1);
    ck_assert_msg(strncmp(logged, "simallreduce tuner: ", 20) == 0 && strstr(logged, says) != NULL,
                  "v%d logged '%s', expected '%s'", v, logged, says);
    ck_assert_int_eq(finalize(v, NULL), ncclSuccess); /* as NCCL does at communicator teardown */
  }
}

START_TEST(missing_or_malformed_tables_fail_init)
{
  unsetenv(ENV);
  expect_init_failure(ncclInvalidUsage, "SIMALLREDUCE_TUNER_TABLE is not set");
  setenv(ENV, "", 1);
  expect_init_failure(ncclInvalidUsage, "SIMALLREDUCE_TUNER_TABLE is not set");
  setenv(ENV, "/nonexistent/table.csv", 1);
  expect_init_failure(ncclSystemError, "/nonexistent/table.csv: No such file or directory");

  const struct {
    const char *text, *says;
  } bad[] = {
    {"nodes,ranks_per_node\n", ":1: not a simallreduce tuner table"},
    {"#simallreduce-tuner 1\n", ": no column names"},
    {"\x7f"
     "ELF\x02\x01\x01",
     ":1: not a simallreduce tuner table"},
    {"#simallreduce-tuner 1\n"
     "nodes,ranks_per_node,min_bytes,max_bytes,algo,proto,channels,sim_bytes,time_us,runner_up,runner_up_time_us\n"
     "2,8,0,8191,Tree,LL,0,4096,18.5,Ring/LL/0,21.25\n"
     "2,8,8000,9000,Ring,LL,0,8500,20,-,-\n",
     ":3: its byte range overlaps that of line 4 (2 nodes x 8 ranks)"},
    {"#simallreduce-tuner 1\n"
     "nodes,ranks_per_node,min_bytes,max_bytes,algo,proto,channels,sim_bytes,time_us,runner_up,runner_up_time_us\n"
     "2,8,0,8191,Tree,LL512,0,4096,18.5,Ring/LL/0,21.25\n",
     ":3: the chosen protocol 'LL512' is none of NCCL's (LL, LL128, Simple)"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char *p = tuner_file(bad[i].text, strlen(bad[i].text));
    ck_assert_ptr_nonnull(p);
    setenv(ENV, p, 1);
    char says[256];
    snprintf(says, sizeof says, "%s%s", p, bad[i].says);
    expect_init_failure(ncclInvalidUsage, says);
    unlink(p);
    free(p);
  }
}
END_TEST

/* The fastest simulated candidate at each size of a --csv file of --algo nccl
 * --export-tuner: sizes[i] and its choice ("ring/LL128/12"). Returns how many sizes. */
static int fastest(const char *csv, size_t *sizes, char (*choice)[32], int max)
{
  FILE *f = fopen(csv, "r");
  ck_assert_ptr_nonnull(f);
  char line[4096];
  double best[16];
  int n = 0;
  while (fgets(line, sizeof line, f)) {
    char *field[32];
    int k = 0;
    for (char *save = NULL, *t = strtok_r(line, ",\n", &save); t && k < 32; t = strtok_r(NULL, ",\n", &save))
      field[k++] = t;
    if (line[0] == '#' || strcmp(field[0], "platform") == 0)
      continue;
    size_t bytes = strtoull(field[5], NULL, 10);
    double t = strtod(field[8], NULL);
    if (n == 0 || sizes[n - 1] != bytes) {
      ck_assert_int_lt(n, max);
      sizes[n] = bytes;
      best[n++] = INFINITY;
    }
    if (t < best[n - 1]) {
      best[n - 1] = t;
      snprintf(choice[n - 1], sizeof choice[0], "%s", field[k - 1]);
    }
  }
  fclose(f);
  return n;
}

START_TEST(the_exported_table_answers_what_simulated_fastest)
{
  char *csv = tuner_file("", 0);
  ck_assert_ptr_nonnull(csv);
  char cmd[1024];
  snprintf(cmd, sizeof cmd,
           "bin/simallreduce --platform dgx1 --algo nccl --sizes 256:16M:4 --mode sim --export-tuner %s --csv %s "
           ">/dev/null",
           path, csv);
  ck_assert_int_eq(system(cmd), 0);
  size_t sizes[16];
  char choice[16][32];
  int n = fastest(csv, sizes, choice, 16);
  ck_assert_int_eq(n, 9);
  void *ctx;
  ck_assert_int_eq(init(6, 8, 1, &ctx), ncclSuccess);
  ck_assert_msg(strstr(logged, ": 9 size ranges for 1 nodes x 8 ranks") != NULL, "%s", logged);
  int algos[2] = {0};
  for (int i = 0; i < n; i++) {
    char a[8], p[8];
    int ch;
    ck_assert_int_eq(sscanf(choice[i], "%7[a-z]/%7[A-Za-z0-9]/%d", a, p, &ch), 3);
    int algo = strcmp(a, "tree") == 0 ? NCCL_ALGO_TREE : NCCL_ALGO_RING;
    int proto = strcmp(p, "LL") == 0 ? NCCL_PROTO_LL : strcmp(p, "LL128") == 0 ? NCCL_PROTO_LL128 : NCCL_PROTO_SIMPLE;
    algos[algo == NCCL_ALGO_RING]++;
    expect(6, ctx, ncclFuncAllReduce, sizes[i], NUM_ALGOS, -1, algo, proto, ch);
    if (i > 0) /* the size just above the previous one's range: still this one's */
      expect(6, ctx, ncclFuncAllReduce, sizes[i] - 1, NUM_ALGOS, -1, algo, proto, ch);
  }
  /* both algorithms win somewhere on a DGX-1 between 256 B and 16 MiB (the tree below 1 KiB,
   * its chain of LL steps shorter than the ring's; its LL lines at NCCL's ceiling, it loses
   * at 1 KiB by 0.15 us) */
  ck_assert_int_gt(algos[0], 0);
  ck_assert_int_gt(algos[1], 0);
  /* beyond the largest simulated size: NCCL's choice */
  expect(6, ctx, ncclFuncAllReduce, sizes[n - 1] + 1, NUM_ALGOS, -1, -1, -1, 0);
  ck_assert_int_eq(finalize(6, ctx), ncclSuccess);
  unlink(csv);
  free(csv);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("tuner_plugin");
  CHECK_CASE_FIXTURE(s, "plugin", 20, setup, teardown, exports_the_versions_nccl_looks_up,
                     cost_table_answers_follow_the_table, algorithms_nccl_may_lack,
                     uncovered_shapes_leave_nccl_to_choose, v2_names_the_algorithm_and_protocol,
                     communicators_keep_their_own_shapes, missing_or_malformed_tables_fail_init,
                     the_exported_table_answers_what_simulated_fastest);
  return check_run(s);
}
