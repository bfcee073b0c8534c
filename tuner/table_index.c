/* table_index.c: building one shape's constant-time index (table_index.h). */
#include <stdlib.h>

#include "table_index.h"

/* The smallest size of bucket b (the inverse of tuner_bucket). */
static uint64_t bucket_low(unsigned b)
{
  if (b < 16)
    return b;
  unsigned e = (b - 16) / 16 + 4, m = (b - 16) % 16;
  return (uint64_t)(16 + m) << (e - 4);
}

int tuner_index_build(struct tuner_index *ix, const struct tuner_table *t, uint32_t nodes, uint32_t ranks_per_node)
{
  *ix = (struct tuner_index){0};
  size_t lo = 0;
  while (lo < t->nrows && (t->rows[lo].nodes < nodes ||
                           (t->rows[lo].nodes == nodes && t->rows[lo].ranks_per_node < ranks_per_node)))
    lo++;
  size_t hi = lo;
  while (hi < t->nrows && t->rows[hi].nodes == nodes && t->rows[hi].ranks_per_node == ranks_per_node)
    hi++;

  /* each row, and a gap before it and after the last: at most 2 * rows + 1 spans */
  ix->spans = malloc((2 * (hi - lo) + 1) * sizeof *ix->spans);
  if (!ix->spans)
    return -1;
  const struct tuner_choice none = {-1, -1, 0};
  uint64_t next = 0; /* the smallest size no span holds yet */
  int n = 0;
  for (size_t i = lo; i < hi; i++) {
    const struct tuner_row *r = &t->rows[i];
    if (r->min_bytes > next)
      ix->spans[n++] = (struct tuner_span){r->min_bytes - 1, none};
    ix->spans[n++] = (struct tuner_span){r->max_bytes, r->choice};
    next = r->max_bytes + 1; /* wraps to 0 after a row ending at UINT64_MAX, the last */
  }
  if (n == 0 || ix->spans[n - 1].max != UINT64_MAX)
    ix->spans[n++] = (struct tuner_span){UINT64_MAX, none};
  ix->nspans = n;
  ix->ranges = (int)(hi - lo);

  int s = 0;
  for (unsigned b = 0; b < TUNER_BUCKETS; b++) {
    uint64_t low = bucket_low(b), high = b + 1 < TUNER_BUCKETS ? bucket_low(b + 1) - 1 : UINT64_MAX;
    while (ix->spans[s].max < low)
      s++;
    ix->first[b] = (uint32_t)s;
    int scan = 0;
    while (ix->spans[s + scan].max < high)
      scan++;
    if (scan > ix->max_scan)
      ix->max_scan = scan;
  }
  return 0;
}

void tuner_index_free(struct tuner_index *ix)
{
  free(ix->spans);
  *ix = (struct tuner_index){0};
}
