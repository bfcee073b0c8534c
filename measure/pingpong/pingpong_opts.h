/* pingpong_opts.h: the options of the ping-pong program (simcalib measure passes them on). */
#ifndef MEASURE_PINGPONG_PINGPONG_OPTS_H
#define MEASURE_PINGPONG_PINGPONG_OPTS_H

#include <stddef.h>
#include <stdint.h>

/* Defaults keep a 1 B..256 MiB sweep on one host well under a minute. */
#define PP_SIZES "1:256M"
#define PP_REPS 200
#define PP_MIN_REPS 10
#define PP_WARMUP 2
#define PP_BUDGET ((uint64_t)1 << 30)
#define PP_WINDOW 64
#define PP_WINDOW_BYTES ((uint64_t)64 << 20)

typedef struct {
  uint64_t *sizes;       /* the sweep */
  int nsizes;
  int reps, min_reps, warmup;
  uint64_t budget;       /* bytes one size may move before repetitions are cut */
  int window;            /* messages in flight in the streaming test */
  uint64_t window_bytes; /* ... fewer when they would exceed this */
  int stream;            /* run the streaming test too */
  int want_intra, want_inter;
  const char *out;
} pp_opts;

/* Returns 0, or -1 with err filled. */
int pp_opts_parse(int argc, char **argv, pp_opts *o, char *err, size_t errlen);
void pp_opts_free(pp_opts *o);

#endif
