/* check_tuner_table.c: the decision table: parsing, refusing, writing, the size index, and what
 * --export-tuner says it wrote. */
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

#include "tuner/table_index.h"
#include "check_util.h"
#include "tuner_files.h"

static char err[512];

/* Written by hand, not by the writer: names in other cases, a comment, CRLF ends, rows out of
 * order, a range reaching 2^64 - 1, a row without a runner-up. */
static const char handwritten[] =
  "#simallreduce-tuner 1\r\n"
  "# 2 nodes x 8 GPUs, then 4 x 8 and 1 x 8\r\n"
  "nodes,ranks_per_node,min_bytes,max_bytes,algo,proto,channels,sim_bytes,time_us,runner_up,runner_up_time_us\r\n"
  "2,8,8192,1048575,Ring,LL128,16,524288,95.75,Tree/LL128/16,103.5\r\n"
  "2,8,0,8191,tree,ll,0,4096,18.5,Ring/LL/0,21.25\r\n"
  "\r\n"
  "4,8,0,65535,NVLSTree,Simple,8,32768,40,-,-\r\n"
  "2,8,4194304,18446744073709551615,RING,simple,32,67108864,1402.125,Tree/Simple/32,1620\r\n"
  "1,8,1024,2047,PAT,Simple,4,1024,1e1,Ring/Simple/4,11\r\n";

START_TEST(parses_a_handwritten_table)
{
  struct tuner_table t;
  ck_assert_msg(tuner_table_parse(handwritten, strlen(handwritten), "h.csv", &t, err, sizeof err) == TUNER_OK, "%s", err);
  ck_assert_uint_eq(t.nrows, 5);
  /* ordered by shape, then size */
  const uint32_t nodes[] = {1, 2, 2, 2, 4};
  const uint64_t min[] = {1024, 0, 8192, 4194304, 0};
  for (int i = 0; i < 5; i++) {
    ck_assert_uint_eq(t.rows[i].nodes, nodes[i]);
    ck_assert_uint_eq(t.rows[i].ranks_per_node, 8);
    ck_assert_uint_eq(t.rows[i].min_bytes, min[i]);
  }
  const struct tuner_row *r = &t.rows[1];
  ck_assert_uint_eq(r->max_bytes, 8191);
  ck_assert_uint_eq(r->sim_bytes, 4096);
  ck_assert_int_eq(r->choice.algo, 0);
  ck_assert_int_eq(r->choice.proto, 0);
  ck_assert_int_eq(r->choice.channels, 0);
  ck_assert(r->time_us == 18.5);
  ck_assert_int_eq(r->runner_up.algo, 1);
  ck_assert_int_eq(r->runner_up.proto, 0);
  ck_assert(r->runner_up_time_us == 21.25);
  r = &t.rows[3];
  ck_assert_uint_eq(r->max_bytes, UINT64_MAX);
  ck_assert_int_eq(r->choice.algo, 1);
  ck_assert_int_eq(r->choice.proto, 2);
  ck_assert_int_eq(r->choice.channels, 32);
  ck_assert_int_eq(t.rows[0].choice.algo, 6);
  ck_assert(t.rows[0].time_us == 10);
  ck_assert_int_eq(t.rows[4].choice.algo, 5);
  ck_assert_int_eq(t.rows[4].runner_up.algo, -1);
  ck_assert(isnan(t.rows[4].runner_up_time_us));
  tuner_table_free(&t);
}
END_TEST

#define HEAD TUNER_TABLE_MAGIC "\n" TUNER_TABLE_COLUMNS "\n"
#define ROW "2,8,0,100,Ring,LL,0,50,10,Tree/LL/0,12\n"

START_TEST(refuses_bad_tables_with_the_line)
{
  static const struct {
    const char *text, *says;
  } bad[] = {
    {"", "b.csv: empty file"},
    {TUNER_TABLE_COLUMNS "\n" ROW, "b.csv:1: not a simallreduce tuner table"},
    {"#simallreduce-tuner 2\n" TUNER_TABLE_COLUMNS "\n" ROW, "b.csv:1: table format '2'"},
    {TUNER_TABLE_MAGIC "\nnodes,rpn\n" ROW, "b.csv:2: expected the column names"},
    {TUNER_TABLE_MAGIC "\n# only a comment\n", "b.csv: no column names"},
    {HEAD, "b.csv: no rows"},
    {HEAD ROW "2,8,200,300,Ring,LL,0,250,10,Tree/LL/0\n", "b.csv:4: 10 fields; a row has 11"},
    {HEAD ROW ROW "2,8,0,100,Ring,LL,0,50,10,Tree/LL/0,12,7\n", "b.csv:5: 12 fields"},
    {HEAD "2,8,0,100,Star,LL,0,50,10,Tree/LL/0,12\n", "b.csv:3: the chosen algorithm 'Star'"},
    {HEAD "2,8,0,100,Ring,LL256,0,50,10,Tree/LL/0,12\n", "b.csv:3: the chosen protocol 'LL256'"},
    {HEAD "2,8,0,100,Ring,LL,65,50,10,Tree/LL/0,12\n", "b.csv:3: the chosen channels '65'"},
    {HEAD "2,8,0,100,Ring,LL,-1,50,10,Tree/LL/0,12\n", "b.csv:3: the chosen channels '-1'"},
    {HEAD "0,8,0,100,Ring,LL,0,50,10,Tree/LL/0,12\n", "b.csv:3: nodes '0'"},
    {HEAD "2,4097,0,100,Ring,LL,0,50,10,Tree/LL/0,12\n", "b.csv:3: ranks_per_node '4097'"},
    {HEAD "2,8,0,18446744073709551616,Ring,LL,0,50,10,Tree/LL/0,12\n", "b.csv:3: max_bytes '18446744073709551616'"},
    {HEAD "2,8, 0,100,Ring,LL,0,50,10,Tree/LL/0,12\n", "b.csv:3: min_bytes ' 0'"},
    {HEAD "2,8,0,100,Ring,LL,0,150,10,Tree/LL/0,12\n", "b.csv:3: sim_bytes 150 outside"},
    {HEAD "2,8,100,0,Ring,LL,0,50,10,Tree/LL/0,12\n", "b.csv:3: sim_bytes 50 outside"},
    {HEAD "2,8,0,100,Ring,LL,0,50,-3,Tree/LL/0,12\n", "b.csv:3: time_us '-3'"},
    {HEAD "2,8,0,100,Ring,LL,0,50,nan,Tree/LL/0,12\n", "b.csv:3: time_us 'nan'"},
    {HEAD "2,8,0,100,Ring,LL,0,50,0,Tree/LL/0,12\n", "b.csv:3: time_us '0'"},
    {HEAD "2,8,0,100,Ring,LL,0,50,1e400,Tree/LL/0,1e401\n", "b.csv:3: time_us '1e400'"},
    {HEAD "2,8,0,100,Ring,LL,0,50,0x10,Tree/LL/0,12\n", "b.csv:3: time_us '0x10'"},
    {HEAD "2,8,0,100,Ring,LL,0,50,10,Tree/LL,12\n", "b.csv:3: runner_up 'Tree/LL' is neither"},
    {HEAD "2,8,0,100,Ring,LL,0,50,10,Tree/XX/0,12\n", "b.csv:3: runner_up protocol 'XX'"},
    {HEAD "2,8,0,100,Ring,LL,0,50,10,-,12\n", "b.csv:3: runner_up_time_us '12' without a runner_up"},
    {HEAD "2,8,0,100,Ring,LL,0,50,10,Tree/LL/0,-\n", "b.csv:3: runner_up_time_us '-'"},
    {HEAD "2,8,0,100,Ring,LL,0,50,10,Ring/LL/0,12\n", "b.csv:3: the runner-up is the choice itself"},
    {HEAD "2,8,0,100,Ring,LL,0,50,10,Tree/LL/0,9.5\n", "b.csv:3: the runner-up (9.5 us) is faster"},
    {HEAD "2,8,0,100,Ring,LL,0,50,10,-,-\n4,8,0,9,Tree,LL,0,5,1,-,-\n2,8,100,200,Tree,LL,0,150,10,-,-\n",
     "b.csv:3: its byte range overlaps that of line 5 (2 nodes x 8 ranks)"},
    {HEAD "2,8,0,100,Ring,LL,0,50,10,-,-\n2,8,0,0,Tree,LL,0,0,1,-,-\n", "b.csv:3: its byte range overlaps that of line 4"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    struct tuner_table t = {(struct tuner_row *)1, 7};
    err[0] = '\0';
    enum tuner_status st = tuner_table_parse(bad[i].text, strlen(bad[i].text), "b.csv", &t, err, sizeof err);
    ck_assert_msg(st == TUNER_ERR_FORMAT, "case %zu accepted", i);
    ck_assert_msg(strncmp(err, bad[i].says, strlen(bad[i].says)) == 0, "case %zu: '%s', expected '%s...'", i, err,
                  bad[i].says);
    ck_assert_msg(strchr(err, '\n') == NULL, "case %zu: more than one line", i);
    ck_assert(t.rows == NULL && t.nrows == 0);
  }
}
END_TEST

START_TEST(refuses_binary_and_overlong_lines)
{
  struct tuner_table t;
  static const char nul[] = HEAD ROW "2,8,200\0,300\n";
  ck_assert_int_eq(tuner_table_parse(nul, sizeof nul - 1, "b.csv", &t, err, sizeof err), TUNER_ERR_FORMAT);
  ck_assert_str_eq(err, "b.csv:4: NUL byte: not a text file");

  char long_line[sizeof HEAD + TUNER_MAX_LINE + 2];
  int n = snprintf(long_line, sizeof long_line, "%s#", HEAD);
  memset(long_line + n, 'x', TUNER_MAX_LINE);
  long_line[n + TUNER_MAX_LINE] = '\0';
  ck_assert_int_eq(tuner_table_parse(long_line, strlen(long_line), "b.csv", &t, err, sizeof err), TUNER_ERR_FORMAT);
  ck_assert_str_eq(err, "b.csv:3: line longer than 512 characters");
  long_line[n + TUNER_MAX_LINE - 1] = '\0'; /* 512 characters: a comment, then no rows */
  ck_assert_int_eq(tuner_table_parse(long_line, strlen(long_line), "b.csv", &t, err, sizeof err), TUNER_ERR_FORMAT);
  ck_assert_str_eq(err, "b.csv: no rows");
}
END_TEST

START_TEST(load_reports_missing_and_oversized_files)
{
  struct tuner_table t;
  ck_assert_int_eq(tuner_table_load("/nonexistent/t.csv", &t, err, sizeof err), TUNER_ERR_IO);
  ck_assert_str_eq(err, "/nonexistent/t.csv: No such file or directory");
  ck_assert_int_eq(tuner_table_load("/", &t, err, sizeof err), TUNER_ERR_IO);
  ck_assert_str_eq(err, "/: not a regular file");
  /* a FIFO no one writes: refused at once, never waited on (NCCL's setup would stall) */
  char fifo[] = "/tmp/check_tuner_fifo.XXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(fifo));
  char named[64];
  snprintf(named, sizeof named, "%s/t.csv", fifo);
  ck_assert_int_eq(mkfifo(named, 0600), 0);
  ck_assert_int_eq(tuner_table_load(named, &t, err, sizeof err), TUNER_ERR_IO);
  ck_assert_ptr_nonnull(strstr(err, "not a regular file"));
  unlink(named);
  rmdir(fifo);

  /* one byte over the limit, in comment lines after a valid start */
  size_t len = TUNER_MAX_FILE_BYTES + 1;
  char *big = malloc(len);
  ck_assert_ptr_nonnull(big);
  memset(big, '#', len);
  for (size_t i = 100; i < len; i += 100)
    big[i] = '\n';
  memcpy(big, HEAD, strlen(HEAD));
  char *path = tuner_file(big, len);
  ck_assert_ptr_nonnull(path);
  ck_assert_int_eq(tuner_table_load(path, &t, err, sizeof err), TUNER_ERR_FORMAT);
  ck_assert(strstr(err, ": 8388609 bytes; a table holds at most 8388608") != NULL);
  /* at the limit it is read: a valid table ending in comments */
  memcpy(big, HEAD ROW, strlen(HEAD ROW));
  big[strlen(HEAD ROW)] = '#';
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  ck_assert_uint_eq(fwrite(big, 1, len - 1, f), len - 1);
  fclose(f);
  ck_assert_int_eq(tuner_table_load(path, &t, err, sizeof err), TUNER_OK);
  ck_assert_uint_eq(t.nrows, 1);
  tuner_table_free(&t);
  unlink(path);
  free(path);
  free(big);
}
END_TEST

static struct tuner_row sim_row(uint64_t bytes, int algo, int proto, int channels, double us, double runner_up_us)
{
  return (struct tuner_row){.nodes = 4,
                            .ranks_per_node = 8,
                            .sim_bytes = bytes,
                            .choice = {algo, proto, channels},
                            .time_us = us,
                            .runner_up = {algo == 0 ? 1 : 0, proto, channels},
                            .runner_up_time_us = runner_up_us};
}

START_TEST(ranges_hand_over_at_the_geometric_mean)
{
  struct tuner_row rows[] = {sim_row(8, 0, 0, 0, 21.35, 24.125), sim_row(1024, 0, 1, 4, 30, 31),
                             sim_row(1048576, 1, 2, 16, 412.5, 530)};
  ck_assert_int_eq(tuner_rows_set_ranges(rows, 3), 0);
  /* sqrt(8 * 1024) = 90.5; sqrt(1024 * 1048576) = 32768 exactly */
  ck_assert_uint_eq(rows[0].min_bytes, 8);
  ck_assert_uint_eq(rows[0].max_bytes, 90);
  ck_assert_uint_eq(rows[1].min_bytes, 91);
  ck_assert_uint_eq(rows[1].max_bytes, 32768);
  ck_assert_uint_eq(rows[2].min_bytes, 32769);
  ck_assert_uint_eq(rows[2].max_bytes, 1048576);
  /* neighbours one apart: each keeps its own size */
  struct tuner_row close[] = {sim_row(4, 0, 0, 0, 1, 2), sim_row(5, 0, 0, 0, 1, 2)};
  ck_assert_int_eq(tuner_rows_set_ranges(close, 2), 0);
  ck_assert_uint_eq(close[0].max_bytes, 4);
  ck_assert_uint_eq(close[1].min_bytes, 5);
  struct tuner_row top[] = {sim_row(UINT64_MAX - 1, 0, 0, 0, 1, 2), sim_row(UINT64_MAX, 0, 0, 0, 1, 2)};
  ck_assert_int_eq(tuner_rows_set_ranges(top, 2), 0);
  ck_assert_uint_eq(top[0].max_bytes, UINT64_MAX - 1);
  ck_assert_uint_eq(top[1].max_bytes, UINT64_MAX);
  struct tuner_row unordered[] = {sim_row(1024, 0, 0, 0, 1, 2), sim_row(1024, 0, 0, 0, 1, 2)};
  ck_assert_int_eq(tuner_rows_set_ranges(unordered, 2), -1);
}
END_TEST

START_TEST(written_tables_read_back)
{
  struct tuner_row rows[] = {sim_row(8, 0, 0, 0, 21.35, 24.125), sim_row(1024, 0, 1, 4, 30, 31),
                             sim_row(1048576, 1, 2, 16, 412.123456789, 530)};
  rows[1].runner_up = (struct tuner_choice){-1, -1, 0};
  rows[1].runner_up_time_us = NAN;
  ck_assert_int_eq(tuner_rows_set_ranges(rows, 3), 0);
  char *text = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&text, &len);
  ck_assert_int_eq(tuner_table_write(mem, rows, 3), 0);
  fclose(mem);
  ck_assert_str_eq(text, TUNER_TABLE_MAGIC "\n" TUNER_TABLE_COLUMNS "\n"
                                           "4,8,8,90,Tree,LL,0,8,21.35,Ring/LL/0,24.125\n"
                                           "4,8,91,32768,Tree,LL128,4,1024,30,-,-\n"
                                           "4,8,32769,1048576,Ring,Simple,16,1048576,412.123457,Tree/Simple/16,530\n");
  struct tuner_table t;
  ck_assert_int_eq(tuner_table_parse(text, len, "w.csv", &t, err, sizeof err), TUNER_OK);
  ck_assert_uint_eq(t.nrows, 3);
  for (int i = 0; i < 3; i++) {
    ck_assert_uint_eq(t.rows[i].min_bytes, rows[i].min_bytes);
    ck_assert_uint_eq(t.rows[i].max_bytes, rows[i].max_bytes);
    ck_assert_int_eq(t.rows[i].choice.proto, rows[i].choice.proto);
    ck_assert(fabs(t.rows[i].time_us / rows[i].time_us - 1) < 1e-8);
  }
  tuner_table_free(&t);
  free(text);
}
END_TEST

START_TEST(save_refuses_what_the_plugin_would)
{
  char *path = tuner_file("", 0);
  ck_assert_ptr_nonnull(path);
  unlink(path);
  struct tuner_row rows[] = {sim_row(8, 0, 0, 0, 21.35, 20)};
  ck_assert_int_eq(tuner_rows_set_ranges(rows, 1), 0);
  ck_assert_int_eq(tuner_table_save(path, rows, 1, err, sizeof err), -1);
  ck_assert(strstr(err, "the tuner table would not load: ") == err);
  ck_assert(strstr(err, ":3: the runner-up (20 us) is faster than the choice (21.35 us)") != NULL);
  ck_assert_int_eq(access(path, F_OK), -1);

  rows[0].runner_up_time_us = 22;
  ck_assert_int_eq(tuner_table_save(path, rows, 1, err, sizeof err), 0);
  struct tuner_table t;
  ck_assert_int_eq(tuner_table_load(path, &t, err, sizeof err), TUNER_OK);
  ck_assert_uint_eq(t.nrows, 1);
  tuner_table_free(&t);
  ck_assert_int_eq(tuner_table_save("/nonexistent/t.csv", rows, 1, err, sizeof err), -1);
  ck_assert_str_eq(err, "cannot write /nonexistent/t.csv: /nonexistent: No such file or directory");
  unlink(path);
  free(path);
}
END_TEST

/* The linear search the index replaces. */
static const struct tuner_choice *linear_find(const struct tuner_table *t, uint64_t n)
{
  for (size_t i = 0; i < t->nrows; i++)
    if (t->rows[i].min_bytes <= n && n <= t->rows[i].max_bytes)
      return &t->rows[i].choice;
  return NULL;
}

static uint64_t lcg(uint64_t *s)
{
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return *s >> 11;
}

START_TEST(index_agrees_with_a_linear_search)
{
  uint64_t seed = 42;
  for (int round = 0; round < 200; round++) {
    /* ranges of random widths (1 byte to 2^40) and random gaps, a shape of its own */
    struct tuner_row rows[64];
    int n = 1 + (int)(lcg(&seed) % 64);
    uint64_t at = lcg(&seed) % 3;
    int kept = 0;
    for (int i = 0; i < n; i++) {
      uint64_t width = (lcg(&seed) % 2 ? lcg(&seed) % 40 : lcg(&seed) % (1ull << (lcg(&seed) % 41))) + 1;
      if (at > UINT64_MAX - width)
        break;
      rows[kept] = sim_row(at, (int)(lcg(&seed) % 7), (int)(lcg(&seed) % 3), kept, 1, 2);
      rows[kept].min_bytes = at;
      rows[kept].max_bytes = round == 7 && i == n - 1 ? UINT64_MAX : at + width - 1;
      kept++;
      uint64_t gap = lcg(&seed) % 3 ? 0 : lcg(&seed) % (1ull << (lcg(&seed) % 30));
      if (rows[kept - 1].max_bytes > UINT64_MAX - gap - 1)
        break;
      at = rows[kept - 1].max_bytes + 1 + gap;
    }
    struct tuner_table t = {rows, (size_t)kept};
    struct tuner_index ix;
    ck_assert_int_eq(tuner_index_build(&ix, &t, 4, 8), 0);
    ck_assert_int_eq(ix.ranges, kept);
    for (int i = 0; i < kept; i++) {
      const uint64_t probe[] = {rows[i].min_bytes, rows[i].max_bytes, rows[i].min_bytes - 1, rows[i].max_bytes + 1,
                                rows[i].min_bytes + (rows[i].max_bytes - rows[i].min_bytes) / 2};
      for (int k = 0; k < 5; k++)
        ck_assert_msg(tuner_index_find(&ix, probe[k]) == NULL ? linear_find(&t, probe[k]) == NULL
                                                              : tuner_index_find(&ix, probe[k])->channels ==
                                                                  linear_find(&t, probe[k])->channels,
                      "round %d size %llu", round, (unsigned long long)probe[k]);
    }
    for (int k = 0; k < 1000; k++) {
      uint64_t size = lcg(&seed) >> (lcg(&seed) % 53);
      const struct tuner_choice *a = tuner_index_find(&ix, size), *b = linear_find(&t, size);
      ck_assert(a == NULL ? b == NULL : b != NULL && a->channels == b->channels);
    }
    /* another shape's index holds nothing */
    struct tuner_index other;
    ck_assert_int_eq(tuner_index_build(&other, &t, 2, 8), 0);
    ck_assert_int_eq(other.ranges, 0);
    ck_assert_ptr_null(tuner_index_find(&other, rows[0].min_bytes));
    tuner_index_free(&other);
    tuner_index_free(&ix);
  }
}
END_TEST

START_TEST(buckets_are_ordered_sixteenths_of_an_octave)
{
  ck_assert_uint_eq(tuner_bucket(0), 0);
  ck_assert_uint_eq(tuner_bucket(15), 15);
  ck_assert_uint_eq(tuner_bucket(16), 16);
  ck_assert_uint_eq(tuner_bucket(17), 17);
  ck_assert_uint_eq(tuner_bucket(32), 32);
  ck_assert_uint_eq(tuner_bucket(33), 32);
  ck_assert_uint_eq(tuner_bucket(34), 33);
  ck_assert_uint_eq(tuner_bucket(UINT64_MAX), TUNER_BUCKETS - 1);
  for (uint64_t n = 1; n < 1u << 20; n++)
    ck_assert(tuner_bucket(n) >= tuner_bucket(n - 1) && tuner_bucket(n) <= tuner_bucket(n - 1) + 1);
}
END_TEST

START_TEST(a_fine_sweep_scans_little)
{
  /* a sweep of factor 1.02 from 8 B to 1 GiB, every size choosing differently */
  struct tuner_row rows[1024];
  int n = 0;
  for (double s = 8; s <= 1 << 30 && n < 1024; s *= 1.02)
    if (n == 0 || (uint64_t)s > rows[n - 1].sim_bytes) {
      rows[n] = sim_row((uint64_t)s, n % 2, 0, n % 64, 1, 2);
      n++;
    }
  ck_assert_int_gt(n, 850);
  ck_assert_int_eq(tuner_rows_set_ranges(rows, (size_t)n), 0);
  struct tuner_table t = {rows, (size_t)n};
  struct tuner_index ix;
  ck_assert_int_eq(tuner_index_build(&ix, &t, 4, 8), 0);
  /* a bucket is 1/16 octave (4.4 %): at most three 2 % steps end in one */
  ck_assert_int_le(ix.max_scan, 3);
  ck_assert_int_eq(ix.nspans, n + 2); /* below the first size, the rows, above the last */
  for (int i = 0; i < n; i++)
    ck_assert_int_eq(tuner_index_find(&ix, rows[i].sim_bytes)->channels, i % 64);
  ck_assert_ptr_null(tuner_index_find(&ix, 7));
  ck_assert_ptr_null(tuner_index_find(&ix, rows[n - 1].max_bytes + 1));
  tuner_index_free(&ix);
}
END_TEST

/* What `bin/simallreduce ARGS --export-tuner PATH` says on stderr (its table to /dev/null),
 * malloc'd; the table left at path. */
static char *export_note(const char *args, const char *path)
{
  char cmd[1024], *text = NULL;
  size_t len = 0;
  snprintf(cmd, sizeof cmd, "bin/simallreduce %s --export-tuner %s 2>&1 >/dev/null", args, path);
  FILE *p = popen(cmd, "r"), *mem = open_memstream(&text, &len);
  ck_assert(p && mem);
  for (int c; (c = fgetc(p)) != EOF;)
    fputc(c, mem);
  ck_assert_int_eq(pclose(p), 0);
  fclose(mem);
  return text;
}

static int count(const char *text, const char *what)
{
  int n = 0;
  for (const char *t = text; (t = strstr(t, what)); t++)
    n++;
  return n;
}

/* --export-tuner says what it wrote: the file, its rows and shape, the sizes each algorithm
 * and protocol won, each row's sizes; sparse sizes (8, 1M, 64M: the 1M row answers from
 * 2897 B to 8 MiB) get one line of warning, a sweep of factor 4 none. */
START_TEST(export_says_what_it_wrote)
{
  char *path = tuner_file("", 0);
  ck_assert_ptr_nonnull(path);
  char *note = export_note("--platform tencent16 --nodes 2 --algo nccl --sizes 8,1M,64M --mode model", path);
  char head[512];
  snprintf(head, sizeof head, "simallreduce: --export-tuner wrote %s: 3 rows for 2 nodes x 8 ranks, sizes 8..64M", path);
  ck_assert_msg(strncmp(note, head, strlen(head)) == 0, "%s", note);
  struct tuner_table t;
  ck_assert_int_eq(tuner_table_load(path, &t, err, sizeof err), TUNER_OK);
  ck_assert_uint_eq(t.nrows, 3);
  ck_assert_uint_eq(t.rows[1].min_bytes, 2897);
  ck_assert_uint_eq(t.rows[1].max_bytes, 8 << 20);
  /* each row, with its choice as the file has it */
  const char *want[] = {"simallreduce:     8    8..2.83K   ", "simallreduce:     1M   2.83K..8M  ",
                        "simallreduce:     64M  8M..64M    "};
  for (int i = 0; i < 3; i++) {
    const char *row = strstr(note, want[i]);
    char choice[64];
    snprintf(choice, sizeof choice, "%s/%s/%d  (sparse)\n", tuner_algo_name(t.rows[i].choice.algo),
             tuner_proto_name(t.rows[i].choice.proto), t.rows[i].choice.channels);
    ck_assert_msg(row && strncmp(row + strlen(want[i]), choice, strlen(choice)) == 0, "row %d (%s): %s", i, choice,
                  note);
  }
  /* the pairs' ranges: one line per run of rows with the same algorithm and protocol */
  char pair[64];
  snprintf(pair, sizeof pair, "simallreduce:   %s/%s ", tuner_algo_name(t.rows[0].choice.algo),
           tuner_proto_name(t.rows[0].choice.proto));
  ck_assert_msg(strncmp(strchr(note, '\n') + 1, pair, strlen(pair)) == 0, "%s", note);
  ck_assert_int_eq(count(note, "simallreduce: sparse sizes: 3 of 3 rows answer for sizes more than 4 times"), 1);
  ck_assert_ptr_nonnull(strstr(note, "(e.g. --sizes 8:64M:2)\n"));
  tuner_table_free(&t);
  free(note);
  /* factor 4: each row answers for at most 2 times either way, and is not called sparse */
  note = export_note("--platform tencent16 --nodes 2 --algo nccl --sizes 8:64M:4 --mode model", path);
  ck_assert_msg(strstr(note, ": 13 rows for 2 nodes x 8 ranks, sizes 8..64M") && !strstr(note, "sparse"), "%s", note);
  ck_assert_int_eq(count(note, "\nsimallreduce:     "), 13);
  free(note);
  /* more rows than a screen: the pairs' ranges, each row's left to the file */
  note = export_note("--platform tencent16 --nodes 2 --algo nccl --sizes 8:16G:2 --mode model", path);
  ck_assert_msg(strstr(note, ": 32 rows for 2 nodes x 8 ranks, sizes 8..16G") && !strstr(note, "sparse"), "%s", note);
  ck_assert_int_eq(count(note, "\nsimallreduce:     "), 0);
  ck_assert_ptr_nonnull(strstr(note, "min_bytes..max_bytes in the file"));
  ck_assert_int_lt(count(note, "\n"), 24);
  free(note);
  unlink(path);
  free(path);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("tuner_table");
  CHECK_CASE(s, "parse", 10, parses_a_handwritten_table, refuses_bad_tables_with_the_line,
             refuses_binary_and_overlong_lines, load_reports_missing_and_oversized_files);
  CHECK_CASE(s, "write", 10, ranges_hand_over_at_the_geometric_mean, written_tables_read_back,
             save_refuses_what_the_plugin_would);
  CHECK_CASE(s, "export", 60, export_says_what_it_wrote);
  CHECK_CASE(s, "index", 30, index_agrees_with_a_linear_search, buckets_are_ordered_sixteenths_of_an_octave,
             a_fine_sweep_scans_little);
  return check_run(s);
}
