/* whatif.h: the faults --what-if applies to a run (docs/what-if.md), as users write them:
 *
 *   straggler:RANK:+TIME   the rank reaches every allreduce TIME late
 *   straggler:RANK:xF      its GPU copies, sums and selects F times slower
 *   link:NAME:xF           a link's bandwidth times F (NAME as --links and --list-links
 *                          print it; a split-duplex link's bare name means both directions)
 *   link:NAME:+LAT         a link's latency plus LAT
 *   nic-down:NODE-K        NIC K of that node is gone: its GPUs reach another NIC as NCCL
 *                          does (over NVLink, PXN)
 *   rail-down:K            NIC K of every node is gone
 *   background:NAME:SHARE  another job holds SHARE of a link's bandwidth
 *   jitter:SIGMA[:SEED]    every rank reaches every allreduce late by |N(0, SIGMA)|, drawn
 *                          once per rank for a seed (default 1)
 *
 * TIME, LAT and SIGMA: a number with s, ms, us or ns. Only the text is checked here; whether
 * the rank, the link or the NIC exists is the driver's to check against the platform. */
#ifndef SA_WHATIF_H
#define SA_WHATIF_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  SA_WI_LATE,       /* straggler:RANK:+TIME */
  SA_WI_SLOW,       /* straggler:RANK:xF */
  SA_WI_LINK_BW,    /* link:NAME:xF */
  SA_WI_LINK_LAT,   /* link:NAME:+LAT */
  SA_WI_NIC_DOWN,   /* nic-down:NODE-K */
  SA_WI_RAIL_DOWN,  /* rail-down:K */
  SA_WI_BACKGROUND, /* background:NAME:SHARE */
  SA_WI_JITTER,     /* jitter:SIGMA[:SEED] */
} sa_whatif_kind;

#define SA_WHATIF_NAME 128

typedef struct {
  sa_whatif_kind kind;
  int rank;                  /* LATE, SLOW */
  int node, nic;             /* NIC_DOWN (node, nic), RAIL_DOWN (nic) */
  char link[SA_WHATIF_NAME]; /* LINK_BW, LINK_LAT, BACKGROUND */
  double value;              /* seconds (LATE, LINK_LAT, JITTER's sigma), a factor (SLOW,
                              * LINK_BW), a share (BACKGROUND) */
  unsigned long seed;        /* JITTER */
  char text[2 * SA_WHATIF_NAME]; /* as given */
} sa_whatif;

/* Parses one spec; returns 0, or SA_EINVAL with a one-line reason in err (an unknown kind,
 * a factor <= 0, a share outside (0, 1), a time without its unit, ...). */
int sa_whatif_parse(const char *spec, sa_whatif *w, char *err, size_t errlen);

/* A duration as the specs write it ("10ms", "2.5us", "1s"): 0 or SA_EINVAL. */
int sa_whatif_seconds(const char *s, double *out);

/* What a spec does, in a few words for tables ("node3-nic2 x0.5", "rank 5 +10 ms"). */
void sa_whatif_describe(const sa_whatif *w, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
