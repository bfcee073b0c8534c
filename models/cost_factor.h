/* cost_factor.h: SMPI's piecewise per-message settings ("T0:v0;T1:v1;..."), as SimGrid 3.32
 * reads them: smpi/lat-factor and smpi/bw-factor scale a route's latency and
 * bandwidth, smpi/or ("T:a:b") adds a + b * size of receive overhead. */
#ifndef COST_FACTOR_H
#define COST_FACTOR_H

#define COST_MAX_PIECES 32

typedef struct {
  int n;                         /* 0: the setting's default everywhere */
  double thresh[COST_MAX_PIECES]; /* sorted */
  double a[COST_MAX_PIECES], b[COST_MAX_PIECES];
  double dflt;                   /* the value when there are no pieces */
  int nvalues;                   /* numbers per piece after the threshold: 1 or 2 */
} cost_piecewise;

/* Parses a setting whose pieces carry nvalues numbers each (1 for factors, 2 for an
 * overhead "a:b"); a lone number is the value everywhere, as in SimGrid. dflt is the
 * setting's default (1 for factors, 0 for overheads). Returns 0 or COST_EPARSE. */
int cost_piecewise_parse(const char *s, int nvalues, double dflt, cost_piecewise *pw);

/* The value at a message of `size` bytes: piece k holds for sizes above thresh[k] up to the
 * next threshold, and the first piece also at and below its own threshold (SimGrid 3.32,
 * checked against the simulation: "4:2" doubles the latency of a 0-byte message too); the
 * default only when the setting has no pieces. */
double cost_piecewise_at(const cost_piecewise *pw, double size);

/* Writes the setting back in SimGrid's syntax (for the JSON report). */
void cost_piecewise_format(const cost_piecewise *pw, char *buf, int len);

#endif
