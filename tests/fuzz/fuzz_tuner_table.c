/* fuzz_tuner_table.c: the decision table the NCCL tuner plugin reads at communicator setup.
 * A table it accepts must hold what it promises (ordered, non-overlapping, fields in range),
 * be answered by the index as a linear search would, and read back the same once written. */
#include <math.h>

#include "tuner/table_index.h"
#include "fuzz_util.h"

static const struct tuner_choice *linear_find(const struct tuner_table *t, size_t lo, size_t hi, uint64_t n)
{
  for (size_t i = lo; i < hi; i++)
    if (t->rows[i].min_bytes <= n && n <= t->rows[i].max_bytes)
      return &t->rows[i].choice;
  return NULL;
}

static void check_rows(const struct tuner_table *t)
{
  for (size_t i = 0; i < t->nrows; i++) {
    const struct tuner_row *r = &t->rows[i];
    if (!(r->min_bytes <= r->sim_bytes && r->sim_bytes <= r->max_bytes) || r->choice.algo < 0 ||
        r->choice.algo >= TUNER_NUM_ALGOS || r->choice.proto < 0 || r->choice.proto >= TUNER_NUM_PROTOS ||
        r->choice.channels < 0 || r->choice.channels > TUNER_MAX_CHANNELS || !(r->time_us > 0) ||
        (r->runner_up.algo >= 0 && !(r->runner_up_time_us >= r->time_us)))
      abort();
    const struct tuner_row *p = i ? &t->rows[i - 1] : NULL;
    if (p && p->nodes == r->nodes && p->ranks_per_node == r->ranks_per_node && p->max_bytes >= r->min_bytes)
      abort(); /* overlap */
  }
}

/* The index of the first row's shape against a linear search, at every edge of its rows. */
static void check_index(const struct tuner_table *t)
{
  const struct tuner_row *first = &t->rows[0];
  size_t hi = 0;
  while (hi < t->nrows && t->rows[hi].nodes == first->nodes && t->rows[hi].ranks_per_node == first->ranks_per_node)
    hi++;
  struct tuner_index ix;
  if (tuner_index_build(&ix, t, first->nodes, first->ranks_per_node) != 0)
    return;
  if (ix.ranges != (int)hi)
    abort();
  for (size_t i = 0; i < hi; i++) {
    const uint64_t probe[] = {t->rows[i].min_bytes, t->rows[i].max_bytes, t->rows[i].min_bytes - 1,
                              t->rows[i].max_bytes + 1, t->rows[i].sim_bytes};
    for (int k = 0; k < 5; k++) {
      const struct tuner_choice *a = tuner_index_find(&ix, probe[k]), *b = linear_find(t, 0, hi, probe[k]);
      if (a ? !b || a->algo != b->algo || a->proto != b->proto || a->channels != b->channels : b != NULL)
        abort();
    }
  }
  tuner_index_free(&ix);
}

static void check_round_trip(const struct tuner_table *t)
{
  char *text = NULL, err[512];
  size_t len = 0;
  FILE *mem = open_memstream(&text, &len);
  if (!mem)
    return;
  tuner_table_write(mem, t->rows, t->nrows);
  fclose(mem);
  struct tuner_table back;
  if (tuner_table_parse(text, len, "written", &back, err, sizeof err) != TUNER_OK || back.nrows != t->nrows)
    abort();
  for (size_t i = 0; i < t->nrows; i++)
    if (back.rows[i].min_bytes != t->rows[i].min_bytes || back.rows[i].choice.channels != t->rows[i].choice.channels ||
        fabs(back.rows[i].time_us / t->rows[i].time_us - 1) > 1e-8)
      abort();
  tuner_table_free(&back);
  free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  struct tuner_table t;
  char err[512];
  if (tuner_table_parse((const char *)data, size, "TABLE", &t, err, sizeof err) == TUNER_OK) {
    check_rows(&t);
    check_index(&t);
    check_round_trip(&t);
    tuner_table_free(&t);
  } else if (!err[0] || strchr(err, '\n')) {
    abort(); /* a refusal is one line */
  }
  /* the file reading the plugin does (one input in four: a file per run is slow) */
  char path[256];
  if (size % 4 == 0 && size < 4096 && fuzz_file(data, size, path, sizeof path) == 0) {
    enum tuner_status st = tuner_table_load(path, &t, err, sizeof err);
    if (st == TUNER_OK)
      tuner_table_free(&t);
    unlink(path);
  }
  return 0;
}
