/* table_write.c: writing a decision table (table.h) from the simulated choices. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "table.h"
#include "util/outfile.h"

int tuner_rows_set_ranges(struct tuner_row *rows, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    if (i + 1 < n && rows[i + 1].sim_bytes <= rows[i].sim_bytes)
      return -1;
    rows[i].min_bytes = i == 0 ? rows[i].sim_bytes : rows[i - 1].max_bytes + 1;
    if (i + 1 == n) {
      rows[i].max_bytes = rows[i].sim_bytes;
      continue;
    }
    /* Where one size's choice hands over to the next: their geometric mean, since times grow
     * with the logarithm of the size where latency rules and linearly where bandwidth does,
     * and sweeps are geometric. Rounding kept within [this size, next size). */
    double mean = floor(sqrt((double)rows[i].sim_bytes) * sqrt((double)rows[i + 1].sim_bytes));
    uint64_t edge = mean >= 18446744073709549568.0 ? UINT64_MAX : (uint64_t)mean;
    if (edge < rows[i].sim_bytes)
      edge = rows[i].sim_bytes;
    if (edge >= rows[i + 1].sim_bytes)
      edge = rows[i + 1].sim_bytes - 1;
    rows[i].max_bytes = edge;
  }
  return 0;
}

static void print_choice(FILE *f, const struct tuner_choice *c, char sep)
{
  fprintf(f, "%s%c%s%c%d", tuner_algo_name(c->algo), sep, tuner_proto_name(c->proto), sep, c->channels);
}

int tuner_table_write(FILE *f, const struct tuner_row *rows, size_t nrows)
{
  fprintf(f, "%s\n%s\n", TUNER_TABLE_MAGIC, TUNER_TABLE_COLUMNS);
  for (size_t i = 0; i < nrows; i++) {
    const struct tuner_row *r = &rows[i];
    fprintf(f, "%u,%u,%llu,%llu,", r->nodes, r->ranks_per_node, (unsigned long long)r->min_bytes,
            (unsigned long long)r->max_bytes);
    print_choice(f, &r->choice, ',');
    /* 9 significant digits: a time read back differs by less than a part in 10^8 */
    fprintf(f, ",%llu,%.9g,", (unsigned long long)r->sim_bytes, r->time_us);
    if (r->runner_up.algo < 0) {
      fputs("-,-\n", f);
      continue;
    }
    print_choice(f, &r->runner_up, '/');
    fprintf(f, ",%.9g\n", r->runner_up_time_us);
  }
  return ferror(f) ? -1 : 0;
}

int tuner_table_save(const char *path, const struct tuner_row *rows, size_t nrows, char *err, size_t errlen)
{
  char *text = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&text, &len);
  if (!mem || tuner_table_write(mem, rows, nrows) != 0 || fclose(mem) != 0) {
    snprintf(err, errlen, "%s: out of memory", path);
    free(text);
    return -1;
  }
  struct tuner_table check;
  char why[256];
  int rc = -1;
  if (tuner_table_parse(text, len, path, &check, why, sizeof why) != TUNER_OK) {
    snprintf(err, errlen, "the tuner table would not load: %s", why);
  } else {
    tuner_table_free(&check);
    rc = util_outfile_write(path, text, len, err, errlen) == 0 ? 0 : -1;
  }
  free(text);
  return rc;
}
