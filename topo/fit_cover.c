/* fit_cover.c: the "Fit covers:" line of a fitted platform's header comment. It lives in the
 * comment, not in a property, because the comment is the one part of a generated file the
 * shape line does not make (shape_file.c), and a fit's notes are already there. */
#include "fit_cover.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COVER_KEY "Fit covers: "

static int add_sorted(int *v, int *n, int x)
{
  int i = 0;
  while (i < *n && v[i] < x)
    i++;
  if (i < *n && v[i] == x)
    return 0;
  if (*n >= TOPO_COVER_MAX)
    return -1;
  memmove(v + i + 1, v + i, (size_t)(*n - i) * sizeof *v);
  v[i] = x;
  (*n)++;
  return 0;
}

int topo_cover_add_shape(topo_cover *c, int nodes, int gpus)
{
  return add_sorted(c->nodes, &c->nnodes, nodes) || add_sorted(c->gpus, &c->ngpus, gpus) ? -1 : 0;
}

size_t topo_cover_put_list(char *buf, size_t len, size_t n, const int *v, int k)
{
  for (int i = 0; i < k && n < len; i++)
    n += (size_t)snprintf(buf + n, len - n, "%s%d", i ? "," : "", v[i]);
  return n;
}

int topo_cover_format(const topo_cover *c, char *buf, size_t len)
{
  size_t n = (size_t)snprintf(buf, len, COVER_KEY "%s; nodes ", c->algo);
  n = topo_cover_put_list(buf, len, n, c->nodes, c->nnodes);
  if (n < len)
    n += (size_t)snprintf(buf + n, len - n, "; GPUs per node ");
  n = topo_cover_put_list(buf, len, n, c->gpus, c->ngpus);
  if (n < len)
    n += (size_t)snprintf(buf + n, len - n, "; bytes per rank %.0f to %.0f", c->min_bytes, c->max_bytes);
  if (n < len && c->nccl_algo[0])
    n += (size_t)snprintf(buf + n, len - n, "; NCCL_ALGO %s", c->nccl_algo);
  if (n < len && c->nccl_proto[0])
    n += (size_t)snprintf(buf + n, len - n, "; NCCL_PROTO %s", c->nccl_proto);
  if (n < len && c->nccl_version[0])
    n += (size_t)snprintf(buf + n, len - n, "; NCCL %s", c->nccl_version);
  return (int)n;
}

/* "2,4" into v; the count, or -1 when it is not such a list. */
static int get_list(const char *s, int *v)
{
  int n = 0;
  for (const char *p = s; *p;) {
    char *end;
    long x = strtol(p, &end, 10);
    if (end == p || x < 1 || x > 1 << 24 || n >= TOPO_COVER_MAX)
      return -1;
    v[n++] = (int)x;
    if (*end == '\0')
      break;
    if (*end != ',')
      return -1;
    p = end + 1;
  }
  return n > 0 ? n : -1;
}

int topo_cover_of_file(const char *text, size_t len, topo_cover *out)
{
  const char *open = memmem(text, len, "<!--", 4);
  const char *close = open ? memmem(open, len - (size_t)(open - text), "-->", 3) : NULL;
  if (!close)
    return 0;
  const char *at = memmem(open, (size_t)(close - open), COVER_KEY, strlen(COVER_KEY));
  if (!at)
    return 0;
  const char *eol = memchr(at, '\n', (size_t)(close - at));
  char line[256], nodes[96], gpus[96];
  size_t k = (size_t)((eol ? eol : close) - at);
  if (k >= sizeof line)
    return 0;
  memcpy(line, at, k);
  while (k > 0 && (line[k - 1] == ' ' || line[k - 1] == '\t' || line[k - 1] == '\r'))
    k--; /* the blanks before the comment's end, or a line's */
  line[k] = '\0';
  topo_cover c;
  memset(&c, 0, sizeof c);
  int used = 0;
  if (sscanf(line, COVER_KEY "%31[^;]; nodes %95[^;]; GPUs per node %95[^;]; bytes per rank %lf to %lf%n", c.algo,
             nodes, gpus, &c.min_bytes, &c.max_bytes, &used) != 5)
    return 0;
  int more = 0; /* NCCL_ALGO's, NCCL_PROTO's, then NCCL's release, where the fit wrote them */
  if (line[used] && sscanf(line + used, "; NCCL_ALGO %31[^; ]%n", c.nccl_algo, &more) == 1)
    used += more;
  if (line[used] && sscanf(line + used, "; NCCL_PROTO %31[^; ]%n", c.nccl_proto, &more) == 1)
    used += more;
  if (line[used] && sscanf(line + used, "; NCCL %23[0-9.-]%n", c.nccl_version, &more) == 1) /* "2.7.5-1" */
    used += more;
  if (line[used] != '\0')
    return 0;
  c.nnodes = get_list(nodes, c.nodes);
  c.ngpus = get_list(gpus, c.gpus);
  /* whole bytes, as the fit writes them, below 2^53 where doubles hold them all */
  if (c.nnodes < 0 || c.ngpus < 0 || !(c.min_bytes >= 1) || !(c.max_bytes >= c.min_bytes) ||
      c.max_bytes > 9007199254740992.0 || floor(c.min_bytes) != c.min_bytes || floor(c.max_bytes) != c.max_bytes)
    return 0;
  *out = c;
  return 1;
}
