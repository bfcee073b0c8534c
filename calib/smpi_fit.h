/* smpi_fit.h: SimGrid SMPI network-model settings that make a simulated ping-pong follow the
 * measured one: piecewise smpi/lat-factor and smpi/bw-factor by message size, and the route
 * latency and bandwidth of each path class. SMPI's factors are global (one set for every
 * route), so they carry the shape of one reference class; the other class gets the link
 * latency and bandwidth that fit its own points best under those factors. */
#ifndef CAL_SMPI_FIT_H
#define CAL_SMPI_FIT_H

#include <cjson/cJSON.h>

#include "netfit.h"

/* A segment with no measurable per-byte cost gets this bandwidth factor: large enough that
 * the transfer term vanishes next to its latency, small enough to stay a sane LMM rate. */
#define CAL_BW_FACTOR_CAP 1000.0

typedef struct {
  int has;
  double latency_s;     /* route latency (sum over the route's links) */
  double bandwidth_Bps; /* route bandwidth (its narrowest link) */
  double max_rel_err;   /* worst predicted-vs-measured over the class's points */
} cal_smpi_link;

typedef struct {
  char reference[8];
  size_t nseg;
  double thresh[CAL_NET_MAX_SEG]; /* first size each factor applies to */
  double lat_f[CAL_NET_MAX_SEG], bw_f[CAL_NET_MAX_SEG];
  cal_smpi_link intra, inter;
} cal_smpi;

/* intra and/or inter may be NULL (not measured); reference picks the class whose shape the
 * factors carry ("inter" when NULL and inter was measured, else "intra"). Returns 0,
 * CAL_ENODATA or CAL_EFIT. */
int cal_smpi_fit(const cal_netfit *intra, const cal_netfit *inter, const char *reference, cal_smpi *s);

/* The one-way time SMPI gives a message of `bytes` over a route of this class. */
double cal_smpi_predict(const cal_smpi *s, const cal_smpi_link *l, double bytes);

/* "0:f0;T1:f1;..." for smpi/lat-factor (bw = 0) or smpi/bw-factor (bw = 1). */
void cal_smpi_factor_string(const cal_smpi *s, int bw, char *buf, size_t len);

cJSON *cal_smpi_json(const cal_smpi *s);

/* Reads back what cal_smpi_json wrote. Returns 0 or CAL_EPARSE. */
int cal_smpi_from_json(const cJSON *o, cal_smpi *s);

#endif
