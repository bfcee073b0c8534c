/* table_index.h: one shape's rows of a decision table, answered in constant time per size. */
#ifndef TUNER_TABLE_INDEX_H
#define TUNER_TABLE_INDEX_H

#include <stdint.h>

#include "table.h"

/* Size buckets: sizes below 16 one each, then 16 per power of two (a bucket spans 1/16 of an
 * octave, about 4.4 %), up to 2^64. */
#define TUNER_BUCKETS (16 + 60 * 16)

/* A span of sizes up to max with its choice (algo -1: none, NCCL decides). Spans tile 0 to
 * UINT64_MAX in order. */
struct tuner_span {
  uint64_t max;
  struct tuner_choice choice;
};

struct tuner_index {
  struct tuner_span *spans;
  int nspans;
  int ranges;   /* rows of the table for this shape */
  int max_scan; /* the most spans a lookup steps over past its bucket's first */
  uint32_t first[TUNER_BUCKETS]; /* per bucket, the first span reaching into it */
};

/* Builds the index of the rows of t for nodes x ranks_per_node (none: every size undecided).
 * 0, or -1 when out of memory. */
int tuner_index_build(struct tuner_index *ix, const struct tuner_table *t, uint32_t nodes, uint32_t ranks_per_node);

void tuner_index_free(struct tuner_index *ix);

/* The bucket of a size. */
static inline unsigned tuner_bucket(uint64_t n)
{
  if (n < 16)
    return (unsigned)n;
  unsigned e = 63u - (unsigned)__builtin_clzll(n); /* n's highest bit, 4..63 */
  return 16u + (e - 4u) * 16u + (unsigned)((n >> (e - 4u)) & 15u);
}

/* The choice for a size, or NULL when the table leaves it to NCCL: one bucket lookup, then a
 * step over the spans that end inside the bucket (at most max_scan). */
static inline const struct tuner_choice *tuner_index_find(const struct tuner_index *ix, uint64_t n)
{
  const struct tuner_span *s = &ix->spans[ix->first[tuner_bucket(n)]];
  while (n > s->max)
    s++;
  return s->choice.algo >= 0 ? &s->choice : NULL;
}

#endif
