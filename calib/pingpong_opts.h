/* pingpong_opts.h: the options of the ping-pong program (simcalib measure passes them on). */
#ifndef CAL_PINGPONG_OPTS_H
#define CAL_PINGPONG_OPTS_H

#include <stddef.h>
#include <stdint.h>

/* Defaults keep a 1 B..256 MiB sweep on one host well under a minute. */
#define CAL_PP_SIZES "1:256M"
#define CAL_PP_REPS 200
#define CAL_PP_MIN_REPS 10
#define CAL_PP_WARMUP 2
#define CAL_PP_BUDGET ((uint64_t)1 << 30)
#define CAL_PP_WINDOW 64
#define CAL_PP_WINDOW_BYTES ((uint64_t)64 << 20)

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
} cal_pp_opts;

/* Returns 0, or -1 with err filled. */
int cal_pp_opts_parse(int argc, char **argv, cal_pp_opts *o, char *err, size_t errlen);
void cal_pp_opts_free(cal_pp_opts *o);

#endif
