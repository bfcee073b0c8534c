/* fit_ran.c: the "NCCL ran at" lines of a fitted platform's header comment (see fit_ran.h),
 * beside its "Fit covers:" line (fit_cover.c). */
#include "fit_ran.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RAN_KEY "NCCL ran at "

int topo_ran_add(topo_ran *r, double bytes, const char *ran)
{
  if (r->n >= TOPO_RAN_SIZES)
    return -1;
  r->bytes[r->n] = bytes;
  snprintf(r->ran[r->n++], sizeof r->ran[0], "%s", ran);
  return 0;
}

int topo_ran_format(const topo_ran *r, char *buf, size_t len)
{
  size_t n = (size_t)snprintf(buf, len, RAN_KEY "%d x %d:", r->nodes, r->gpus);
  for (int i = 0; i < r->n && n < len; i++)
    n += (size_t)snprintf(buf + n, len - n, "%s %.0f %s", i ? "," : "", r->bytes[i], r->ran[i]);
  return (int)n;
}

/* One line (NUL-terminated) into r: 1, or 0 when it is not one. */
static int parse_line(char *line, topo_ran *r)
{
  int used = 0;
  memset(r, 0, sizeof *r);
  if (sscanf(line, RAN_KEY "%d x %d:%n", &r->nodes, &r->gpus, &used) != 2 || r->nodes < 1 || r->gpus < 1)
    return 0;
  for (char *p = line + used; *p;) {
    double bytes;
    char ran[24];
    int k = 0;
    /* whole bytes below 2^53, as the fit writes them */
    if (sscanf(p, " %lf %23[^, \t\r\n\v\f]%n", &bytes, ran, &k) != 2 || !(bytes >= 1) || bytes > 9007199254740992.0 ||
        floor(bytes) != bytes || topo_ran_add(r, bytes, ran) != 0)
      return 0;
    p += k;
    if (*p == ',')
      p++;
    else if (*p)
      return 0;
  }
  return r->n > 0;
}

int topo_ran_of_file(const char *text, size_t len, topo_ran *out, int max)
{
  const char *open = memmem(text, len, "<!--", 4);
  const char *close = open ? memmem(open, len - (size_t)(open - text), "-->", 3) : NULL;
  int n = 0;
  for (const char *at = open; close && n < max;) {
    at = memmem(at, (size_t)(close - at), RAN_KEY, strlen(RAN_KEY));
    if (!at)
      break;
    const char *eol = memchr(at, '\n', (size_t)(close - at));
    size_t k = (size_t)((eol ? eol : close) - at);
    char *line = malloc(k + 1);
    if (!line)
      break;
    memcpy(line, at, k);
    while (k > 0 && (line[k - 1] == ' ' || line[k - 1] == '\t' || line[k - 1] == '\r'))
      k--;
    line[k] = '\0';
    n += parse_line(line, &out[n]);
    free(line);
    at += k;
  }
  return n;
}

const char *topo_ran_at(const topo_ran *r, int n, int nodes, int gpus, double bytes)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; r[i].nodes == nodes && r[i].gpus == gpus && j < r[i].n; j++)
      if (r[i].bytes[j] == bytes)
        return r[i].ran[j];
  return NULL;
}
