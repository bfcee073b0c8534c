/* smpi_fit.h: SimGrid SMPI network-model settings that make a simulated ping-pong follow the
 * measured one: piecewise smpi/lat-factor and smpi/bw-factor by message size, a piecewise
 * receive overhead smpi/or, and the route latency and bandwidth of each path class.
 * SMPI's settings are global (one set for every route). Factors scale a route's latency and
 * bandwidth, the overhead adds the same time on every route, so with two classes each
 * segment has four unknowns for four fitted coefficients: both classes are reproduced
 * exactly where SMPI applies smpi/or (messages sent eagerly, below
 * smpi/send-is-detached-thresh) and the settings can stay non-negative, as near as they can
 * come where not. Above it the factors follow the reference class, and the other class gets
 * the route latency and bandwidth that fit its points best. */
#ifndef FIT_SMPI_FIT_H
#define FIT_SMPI_FIT_H

#include <cjson/cJSON.h>

#include "netfit.h"

/* A segment with no measurable per-byte cost gets this bandwidth factor: large enough that
 * the transfer term vanishes next to its latency, small enough to stay a sane LMM rate. */
#define FIT_BW_FACTOR_CAP 1000.0

typedef struct {
  int has;
  double latency_s;     /* route latency (sum over the route's links) */
  double bandwidth_Bps; /* route bandwidth (its narrowest link) */
  double max_rel_err;   /* worst predicted-vs-measured over the class's points */
} fit_smpi_link;

/* SMPI's default smpi/send-is-detached-thresh: smpi/or is paid only below it (SimGrid 3.32).
 * A platform file cannot pin it (only smpirun declares the setting): a run that changes it
 * changes what the fit reproduces. */
#define FIT_SMPI_DETACHED 65536.0
/* SimGrid 3.32's default network/TCP-gamma (bytes), which the generated platforms keep: a
 * flow moves at most this window per round trip of its route's latency. */
#define FIT_SMPI_TCP_GAMMA 4194304.0
/* both classes' breakpoints and the detached threshold */
#define FIT_SMPI_MAX_SEG (2 * FIT_NET_MAX_SEG + 1)

typedef struct {
  char reference[8];
  size_t nseg;
  double thresh[FIT_SMPI_MAX_SEG]; /* first size each segment applies to */
  double lat_f[FIT_SMPI_MAX_SEG], bw_f[FIT_SMPI_MAX_SEG];
  double or_s[FIT_SMPI_MAX_SEG], or_per_byte[FIT_SMPI_MAX_SEG]; /* receive overhead, below FIT_SMPI_DETACHED */
  fit_smpi_link intra, inter;
} fit_smpi;

/* intra and/or inter may be NULL (not measured); reference picks the class whose shape the
 * factors carry ("inter" when NULL and inter was measured, else "intra"). Returns 0,
 * SA_ENODATA or SA_EFIT. */
int fit_smpi_run(const fit_net *intra, const fit_net *inter, const char *reference, fit_smpi *s);

/* The one-way time SMPI gives a message of `bytes` over a route of this class. */
double fit_smpi_predict(const fit_smpi *s, const fit_smpi_link *l, double bytes);

enum { FIT_SMPI_LAT, FIT_SMPI_BW, FIT_SMPI_OR };

/* The value of one setting: "0:f0;T1:f1;..." for smpi/lat-factor and smpi/bw-factor,
 * "0:o0:p0;T1-1:o1:p1;..." for smpi/or (SMPI applies an or segment above its threshold,
 * factors from theirs). */
void fit_smpi_factor_string(const fit_smpi *s, int which, char *buf, size_t len);

cJSON *fit_smpi_json(const fit_smpi *s);

/* Reads back what fit_smpi_json wrote. Returns 0 or SA_EPARSE. */
int fit_smpi_from_json(const cJSON *o, fit_smpi *s);

#endif
