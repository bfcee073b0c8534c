/* tuner_query.c: what one NCCL tuner query costs: loads the plugin library as NCCL does,
 * initialises it (v6, what NCCL 2.30 uses) on a table written by the exporter, and times
 * getCollInfo over sizes spread log-uniformly from 1 B to 16 GiB. Two tables side by side:
 * 3 ranges, and one range per size of a 1.02 sweep from 8 B to 16 GiB (1035 ranges),
 * whose costs should match if a query is constant-time. Prints "name value" lines (ns per
 * query). Usage: tuner_query LIBRARY DIR (DIR: where to write the tables). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tuner/nccl_tuner_api.h"
#include "tuner/table.h"

#define QUERIES 10000000
#define NSIZES 4096

static double now_ns(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

/* A table for 4 nodes x 8 ranks, one range per size of a geometric sweep of the given factor
 * from 8 B to 16 GiB. */
static int write_table(const char *path, double factor, char *err, size_t errlen)
{
  struct tuner_row *rows = malloc(4096 * sizeof *rows);
  if (!rows)
    return -1;
  int n = 0;
  for (double s = 8; s <= 16.0 * (1 << 30) && n < 4096; s *= factor)
    if (n == 0 || (uint64_t)s > rows[n - 1].sim_bytes)
      rows[n] = (struct tuner_row){4, 8, 0, 0, (uint64_t)s, {n % 2, 2 - n % 3, n % 33}, 10 + n, {-1, -1, 0}, 0}, n++;
  int rc = tuner_rows_set_ranges(rows, (size_t)n) == 0 ? tuner_table_save(path, rows, (size_t)n, err, errlen) : -1;
  free(rows);
  return rc;
}

static double time_queries(const ncclTuner_v6_t *t, void *ctx, const size_t *sizes)
{
  float cost[7][NCCL_NUM_PROTOCOLS];
  volatile int sink = 0;
  double t0 = now_ns();
  for (int i = 0; i < QUERIES; i++) {
    int nch = 0;
    t->getCollInfo(ctx, ncclFuncAllReduce, sizes[i % NSIZES], 1, (float **)cost, 7, NCCL_NUM_PROTOCOLS, 0, &nch);
    sink += nch;
  }
  return (now_ns() - t0) / QUERIES;
}

int main(int argc, char **argv)
{
  if (argc != 3) {
    fprintf(stderr, "usage: %s LIBRARY DIR\n", argv[0]);
    return 2;
  }
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  const ncclTuner_v6_t *t = lib ? dlsym(lib, "ncclTunerPlugin_v6") : NULL;
  if (!t) {
    fprintf(stderr, "tuner_query: %s\n", dlerror());
    return 2;
  }
  static size_t sizes[NSIZES];
  uint64_t x = 1;
  for (int i = 0; i < NSIZES; i++) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    uint64_t octave = (uint64_t)1 << ((x >> 33) % 34);
    sizes[i] = (size_t)(octave + ((x >> 8) & (octave - 1)));
  }
  const struct {
    const char *name;
    double factor;
  } tables[] = {{"tuner_query_ns_3ranges", 1e4}, {"tuner_query_ns", 1.02}};
  for (int i = 0; i < 2; i++) {
    char path[4096], err[512] = "out of memory";
    snprintf(path, sizeof path, "%s/tuner-table-%d.csv", argv[2], i);
    void *ctx;
    if (write_table(path, tables[i].factor, err, sizeof err) != 0 || setenv("SIMALLREDUCE_TUNER_TABLE", path, 1) ||
        t->init(&ctx, 0, 32, 4, NULL, NULL, NULL) != ncclSuccess) {
      fprintf(stderr, "tuner_query: %s\n", err);
      return 1;
    }
    printf("%s %.1f\n", tables[i].name, time_queries(t, ctx, sizes));
    t->finalize(ctx);
    remove(path);
  }
  dlclose(lib);
  return 0;
}
