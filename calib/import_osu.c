/* import_osu.c: OSU micro-benchmark output. The "# OSU MPI ... Test" banner says which test
 * it is; rows are "size value [min max iterations]" with latencies in us and bandwidth in
 * MB/s (1e6 bytes), osu_latency's being one-way (half a round trip, as simcalib's ping-pong). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"
#include "import.h"

#define MAX_TOK 8

typedef enum { OSU_UNKNOWN, OSU_LATENCY, OSU_BW, OSU_ALLREDUCE } osu_test;

static osu_test test_of(const char *banner)
{
  if (!strstr(banner, "OSU"))
    return OSU_UNKNOWN;
  if (strstr(banner, "Allreduce"))
    return OSU_ALLREDUCE;
  if (strstr(banner, "Bi-Directional") || strstr(banner, "Multiple"))
    return OSU_UNKNOWN;
  if (strstr(banner, "Bandwidth Test"))
    return OSU_BW;
  if (strstr(banner, "Latency Test"))
    return OSU_LATENCY;
  return OSU_UNKNOWN;
}

static const char *const test_names[] = {"", "osu_latency", "osu_bw", "osu_allreduce"};

static int parse_row(osu_test t, char **tok, int n, const cal_import_opts *o, cal_data *d)
{
  double size, v, mn = -1, mx = -1, it = -1;
  /* osu_allreduce -f adds min, max and iterations */
  int full = t == OSU_ALLREDUCE && n == 5;
  if ((n != 2 && !full) || cal_token_number(tok[0], &size) || cal_token_number(tok[1], &v) || size < 0 || v <= 0)
    return -1;
  if (full && (cal_token_number(tok[2], &mn) || cal_token_number(tok[3], &mx) || cal_token_number(tok[4], &it) ||
               it > INT_MAX))
    return -1;
  cal_point p = cal_point_blank(t == OSU_LATENCY ? "pingpong" : t == OSU_BW ? "stream" : "allreduce", test_names[t]);
  p.bytes = size;
  if (t == OSU_BW) {
    if (size == 0)
      return 0;
    p.time_s = size / (v * 1e6);
  } else {
    p.time_s = v * 1e-6;
    p.min_s = mn >= 0 ? mn * 1e-6 : -1;
    p.max_s = mx >= 0 ? mx * 1e-6 : -1;
    p.reps = it >= 0 ? (int)it : -1;
  }
  if (t == OSU_ALLREDUCE) {
    p.ranks = o->ranks > 0 ? o->ranks : -1;
    snprintf(p.dtype, sizeof p.dtype, "fp32"); /* osu_allreduce reduces MPI_FLOAT by default */
    p.count = size / 4;
  } else {
    p.ranks = 2;
    snprintf(p.path, sizeof p.path, "%s", o->path ? o->path : "inter");
  }
  if (p.time_s > 0)
    cal_point_bandwidths(&p);
  return cal_data_add(d, &p) == 0 ? 0 : -2;
}

int cal_import_osu(FILE *f, const char *name, const cal_import_opts *o, cal_data *d, char *err, size_t errlen)
{
  char *line = NULL, *tok[MAX_TOK + 1];
  size_t cap = 0, first = d->n;
  int ln = 0, rc = 0;
  osu_test t = OSU_UNKNOWN;
  while (rc == 0 && getline(&line, &cap, f) >= 0) {
    ln++;
    line[strcspn(line, "\r\n")] = '\0';
    char *s = line + strspn(line, " \t");
    if (s[0] == '#') {
      if (t == OSU_UNKNOWN && strstr(s, "OSU"))
        t = test_of(s);
      continue;
    }
    if (!s[0])
      continue;
    if (t == OSU_UNKNOWN) {
      snprintf(err, errlen, "%s:%d: data before an OSU banner ('# OSU MPI Latency Test', 'Bandwidth Test' or "
               "'Allreduce Latency Test')", name, ln);
      rc = SA_EPARSE;
      break;
    }
    int r = parse_row(t, tok, cal_split(s, tok, MAX_TOK), o, d);
    if (r == -2) {
      snprintf(err, errlen, "out of memory");
      rc = SA_ENOMEM;
    } else if (r != 0) {
      snprintf(err, errlen, "%s:%d: not a %s data row (size and a positive %s)", name, ln, test_names[t],
               t == OSU_BW ? "bandwidth in MB/s" : "latency in us");
      rc = SA_EPARSE;
    }
  }
  free(line);
  if (rc == 0 && d->n == first) {
    snprintf(err, errlen, "%s: no osu_latency, osu_bw or osu_allreduce data in %d lines", name, ln);
    rc = SA_EPARSE;
  }
  if (rc == 0)
    snprintf(d->source, sizeof d->source, "%s", test_names[t]);
  return rc;
}
