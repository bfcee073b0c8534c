/* tuner_summary.c: the note --export-tuner leaves on stderr (tuner_summary.h). */
#include "tuner_summary.h"

#include <stdint.h>
#include <string.h>

#include "util/sizes.h"

/* A size to three digits in K/M/G (2^10...), as a reader takes in a range: 2.83K, 45.3M;
 * a range's first size, one past the previous range's last, reads as that edge (1M, not
 * 1048577). The file holds them exact. */
static void approx(char *buf, size_t len, uint64_t b)
{
  static const char unit[] = "KMG";
  int u = -1;
  while (u < 2 && b >= (uint64_t)1 << (10 * (u + 2)))
    u++;
  if (u < 0)
    snprintf(buf, len, "%llu", (unsigned long long)b);
  else
    snprintf(buf, len, "%.3g%c", (double)b / (double)((uint64_t)1 << (10 * (u + 1))), unit[u]);
}

/* "LO..HI" (approx). */
static void range(char *buf, size_t len, uint64_t lo, uint64_t hi)
{
  char a[32], b[32];
  approx(a, sizeof a, lo);
  approx(b, sizeof b, hi);
  snprintf(buf, len, "%s..%s", a, b);
}

static int sparse(const struct tuner_row *r)
{
  return (double)r->sim_bytes > SIM_TUNER_SPARSE * (double)r->min_bytes ||
         (double)r->max_bytes > SIM_TUNER_SPARSE * (double)r->sim_bytes;
}

void sim_tuner_summary(FILE *f, const char *path, const struct tuner_row *rows, size_t n)
{
  char span[80], at[32];
  if (n == 0)
    return;
  range(span, sizeof span, rows[0].min_bytes, rows[n - 1].max_bytes);
  fprintf(f, "simallreduce: --export-tuner wrote %s: %zu row%s for %u nodes x %u ranks, sizes %s (NCCL chooses "
          "outside them)\n",
          path, n, n == 1 ? "" : "s", rows[0].nodes, rows[0].ranks_per_node, span);
  /* what each algorithm and protocol won: runs of consecutive rows with the same pair */
  for (size_t b = 0, e; b < n; b = e) {
    for (e = b + 1; e < n && rows[e].choice.algo == rows[b].choice.algo && rows[e].choice.proto == rows[b].choice.proto;)
      e++;
    char pair[40];
    snprintf(pair, sizeof pair, "%s/%s", tuner_algo_name(rows[b].choice.algo), tuner_proto_name(rows[b].choice.proto));
    range(span, sizeof span, rows[b].min_bytes, rows[e - 1].max_bytes);
    fprintf(f, "simallreduce:   %-16s %s\n", pair, span);
  }
  size_t nsparse = 0;
  for (size_t i = 0; i < n; i++)
    nsparse += sparse(&rows[i]);
  if (n > SIM_TUNER_ROWS_SHOWN) {
    fprintf(f, "simallreduce:   (the sizes each row answers for: min_bytes..max_bytes in the file)\n");
  } else {
    fprintf(f, "simallreduce:   each row: the size simulated, the sizes it answers for (exact in the file), its "
               "choice\n");
    int wa = 0, wr = 0;
    for (size_t i = 0; i < n; i++) {
      util_format_size(rows[i].sim_bytes, at, sizeof at);
      range(span, sizeof span, rows[i].min_bytes, rows[i].max_bytes);
      wa = (int)strlen(at) > wa ? (int)strlen(at) : wa;
      wr = (int)strlen(span) > wr ? (int)strlen(span) : wr;
    }
    for (size_t i = 0; i < n; i++) {
      const struct tuner_row *r = &rows[i];
      util_format_size(r->sim_bytes, at, sizeof at);
      range(span, sizeof span, r->min_bytes, r->max_bytes);
      fprintf(f, "simallreduce:     %-*s  %-*s  %s/%s/%d%s\n", wa, at, wr, span, tuner_algo_name(r->choice.algo),
              tuner_proto_name(r->choice.proto), r->choice.channels, sparse(r) ? "  (sparse)" : "");
    }
  }
  if (nsparse) {
    char lo[32], hi[32];
    util_format_size(rows[0].sim_bytes, lo, sizeof lo);
    util_format_size(rows[n - 1].sim_bytes, hi, sizeof hi);
    fprintf(f, "simallreduce: sparse sizes: %zu of %zu rows answer for sizes more than %d times below or above the one "
            "simulated for them, where their choice is a guess; simulate sizes at most %d times apart (e.g. --sizes "
            "%s:%s:2)\n",
            nsparse, n, SIM_TUNER_SPARSE, SIM_TUNER_SPARSE * SIM_TUNER_SPARSE, lo, hi);
  }
}
