/* piecewise.h: SMPI's piecewise per-message settings ("T0:v0;T1:v1;..."), as SimGrid 3.32
 * reads them: smpi/lat-factor and smpi/bw-factor scale a route's latency and
 * bandwidth, smpi/or ("T:a:b") adds a + b * size of receive overhead. */
#ifndef SA_PIECEWISE_H
#define SA_PIECEWISE_H

#define SA_MAX_PIECES 32

#ifdef __cplusplus
extern "C" {
#endif

/* The two kinds of SMPI setting: a factor ("T:f", default 1) switches to a piece at its
 * threshold; an overhead ("T:a:b" for a + b * size, default 0) just above it. Both, as
 * SimGrid 3.32 applies them (checked against the simulation: lat-factor "4096:5.6" already
 * scales a 4096-byte message, "4:2" a 0-byte one; smpi/or as simcalib found it). */
typedef enum { SA_PIECE_FACTOR, SA_PIECE_OVERHEAD } sa_piece_kind;

typedef struct {
  int n;                         /* 0: the setting's default everywhere */
  double thresh[SA_MAX_PIECES]; /* sorted */
  double a[SA_MAX_PIECES], b[SA_MAX_PIECES];
  double dflt;                   /* the value when there are no pieces */
  sa_piece_kind kind;
} sa_piecewise;

/* Parses a setting; a lone number is the value everywhere, as in SimGrid. Returns 0 or
 * SA_EPARSE, also for values SimGrid would take but that mean nothing: a factor that is not
 * positive, a negative overhead or threshold. */
int sa_piecewise_parse(const char *s, sa_piece_kind kind, sa_piecewise *pw);

/* The value at a message of `size` bytes: the last piece whose threshold it reaches (a
 * factor) or passes (an overhead), the first piece below every threshold; the default only
 * when the setting has no pieces. */
double sa_piecewise_at(const sa_piecewise *pw, double size);

/* Writes the setting back in SimGrid's syntax (for the JSON report). */
void sa_piecewise_format(const sa_piecewise *pw, char *buf, int len);

#ifdef __cplusplus
}
#endif

#endif
