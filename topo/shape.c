/* shape.c: a generated platform's shape as one line of text (shape.h). Numbers are written
 * in C's hexadecimal floating form, which reads back to the same double; words are
 * key=value, separated by one space, in a fixed order. */
#include "shape.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"

#define SHAPE_VERSION "v1"
/* The device's properties from this one on came after version 1's files were written: a
 * shape has them only where they are set, so that those files keep their bytes (and their
 * loading from the shape: shape_file.c). */
#define SHAPE_FIRST_OPTIONAL SA_COMPUTE_INDEX_nvls_copy_bw

typedef enum { F_INT, F_DBL } field_kind;
typedef struct {
  const char *key;
  field_kind kind;
  size_t off;
} field;

/* clang-format off */
#define I(k) {#k, F_INT, offsetof(topo_cluster, k)}
#define D(k) {#k, F_DBL, offsetof(topo_cluster, k)}
/* clang-format on */
/* the topology's numbers; its node kind and fabric are words of their own */
static const field topo_fields[] = {
    I(nodes),      I(gpus), D(gpu_bw), D(gpu_lat), I(gpus_per_switch), D(pcie_bw), D(pcie_lat),       D(socket_bw),
    D(socket_lat), I(nics), D(nic_bw), D(nic_lat), I(rails),           D(oversub), I(nodes_per_leaf), D(uplink_lat)};
#undef I
#undef D
#define NTOPO (sizeof topo_fields / sizeof topo_fields[0])

static const char *const fabric_names[] = {"switch", "fattree"};

/* A setting the XML carries as an attribute's value: no space (it ends a word here) and
 * nothing XML would escape. */
static int plain(const char *s) { return strlen(s) < TOPO_SHAPE_TEXT && !strpbrk(s, " \t\n\"'&<>"); }

int topo_shape_format(const topo_cluster *t, const topo_platform_spec *s, char *buf, size_t len)
{
  const char *lat = s->lat_factor ? s->lat_factor : "0:1", *bw = s->bw_factor ? s->bw_factor : "0:1";
  if (!plain(lat) || !plain(bw) || (s->recv_overhead && !plain(s->recv_overhead)))
    return SA_EINVAL;
  size_t n = (size_t)snprintf(buf, len, "%s node=%s fabric=%s", SHAPE_VERSION, topo_node_kind_name(t->node),
                              fabric_names[t->fabric]);
  for (size_t i = 0; i < NTOPO && n < len; i++) {
    const void *at = (const char *)t + topo_fields[i].off;
    if (topo_fields[i].kind == F_INT)
      n += (size_t)snprintf(buf + n, len - n, " %s=%d", topo_fields[i].key, *(const int *)at);
    else
      n += (size_t)snprintf(buf + n, len - n, " %s=%a", topo_fields[i].key, *(const double *)at);
  }
  if (n < len)
    n += (size_t)snprintf(buf + n, len - n, " speed=%a compute=%d", s->host_speed, s->has_compute ? 1 : 0);
  for (int k = 0; s->has_compute && k < SA_COMPUTE_N && n < len; k++)
    if (k < SHAPE_FIRST_OPTIONAL || sa_compute_get(&s->compute, k) != 0)
      n += (size_t)snprintf(buf + n, len - n, " %s=%a", sa_compute_name(k), sa_compute_get(&s->compute, k));
  if (n < len)
    n += (size_t)snprintf(buf + n, len - n, " lat_factor=%s bw_factor=%s", lat, bw);
  if (s->recv_overhead && n < len)
    n += (size_t)snprintf(buf + n, len - n, " or=%s", s->recv_overhead);
  /* the NICs down, last and only when there are any: a healthy line is what it always was */
  for (int k = 0, first = 1; k < 64 && n < len; k++)
    if (t->rails_down >> k & 1) {
      n += (size_t)snprintf(buf + n, len - n, "%s%d", first ? " rails_down=" : ",", k);
      first = 0;
    }
  for (int i = 0; i < t->ndown && i < TOPO_MAX_DOWN && n < len; i++)
    n += (size_t)snprintf(buf + n, len - n, "%s%d-%d", i ? "," : " nics_down=", t->down[i].node, t->down[i].nic);
  return n < len ? 0 : SA_EINVAL;
}

/* The next word's value if it is key=..., its end in *end; NULL otherwise. */
static const char *word(const char *at, const char *key, const char **end)
{
  size_t k = strlen(key);
  if (*at != ' ' || strncmp(at + 1, key, k) != 0 || at[1 + k] != '=')
    return NULL;
  const char *v = at + 2 + k;
  *end = v + strcspn(v, " ");
  return v;
}

static int number(const char *v, const char *end, field_kind kind, void *out)
{
  char *stop;
  if (v == end)
    return SA_EPARSE;
  if (kind == F_INT) {
    long x = strtol(v, &stop, 10);
    if (stop != end || x < -1000000000L || x > 1000000000L)
      return SA_EPARSE;
    *(int *)out = (int)x;
  } else {
    *(double *)out = strtod(v, &stop);
    if (stop != end)
      return SA_EPARSE;
  }
  return 0;
}

static int text(const char *v, const char *end, char *out, size_t cap)
{
  size_t n = (size_t)(end - v);
  if (n == 0 || n >= cap)
    return SA_EPARSE;
  memcpy(out, v, n);
  out[n] = '\0';
  return 0;
}

/* A whole number of 0 .. max from *at, *at moved past it: 0 or SA_EPARSE. */
static int small(const char **at, const char *end, long max, int *out)
{
  char *stop;
  if (*at >= end || **at < '0' || **at > '9')
    return SA_EPARSE;
  long x = strtol(*at, &stop, 10);
  if (stop > end || x > max)
    return SA_EPARSE;
  *out = (int)x;
  *at = stop;
  return 0;
}

/* rails_down=K,K... and nics_down=NODE-K,NODE-K...: each list's numbers, comma separated
 * (their ranges are topo_check's to judge). */
static int down_lists(const char *at, topo_cluster *t, const char **rest)
{
  const char *v, *end;
  int x, y;
  if ((v = word(at, "rails_down", &end))) {
    for (;;) {
      if (small(&v, end, 63, &x))
        return SA_EPARSE;
      t->rails_down |= (uint64_t)1 << x;
      if (v == end)
        break;
      if (*v++ != ',')
        return SA_EPARSE;
    }
    at = end;
  }
  if ((v = word(at, "nics_down", &end))) {
    for (;;) {
      if (t->ndown == TOPO_MAX_DOWN || small(&v, end, 1000000000L, &x) || v == end || *v++ != '-' ||
          small(&v, end, 1000000000L, &y))
        return SA_EPARSE;
      t->down[t->ndown].node = x;
      t->down[t->ndown++].nic = y;
      if (v == end)
        break;
      if (*v++ != ',')
        return SA_EPARSE;
    }
    at = end;
  }
  *rest = at;
  return 0;
}

int topo_shape_parse(const char *line, topo_shape *out)
{
  memset(out, 0, sizeof *out);
  size_t vl = strlen(SHAPE_VERSION);
  if (strncmp(line, SHAPE_VERSION, vl) != 0)
    return SA_EPARSE;
  const char *at = line + vl, *v, *end;
  char name[32];
  if (!(v = word(at, "node", &end)) || text(v, end, name, sizeof name) || topo_node_kind_parse(name, &out->topo.node))
    return SA_EPARSE;
  at = end;
  if (!(v = word(at, "fabric", &end)) || text(v, end, name, sizeof name))
    return SA_EPARSE;
  if (strcmp(name, fabric_names[0]) == 0)
    out->topo.fabric = TOPO_FABRIC_SWITCH;
  else if (strcmp(name, fabric_names[1]) == 0)
    out->topo.fabric = TOPO_FABRIC_FATTREE;
  else
    return SA_EPARSE;
  at = end;
  for (size_t i = 0; i < NTOPO; i++, at = end)
    if (!(v = word(at, topo_fields[i].key, &end)) ||
        number(v, end, topo_fields[i].kind, (char *)&out->topo + topo_fields[i].off))
      return SA_EPARSE;
  topo_platform_spec *s = &out->spec;
  if (!(v = word(at, "speed", &end)) || number(v, end, F_DBL, &s->host_speed))
    return SA_EPARSE;
  at = end;
  if (!(v = word(at, "compute", &end)) || number(v, end, F_INT, &s->has_compute) || s->has_compute < 0 ||
      s->has_compute > 1)
    return SA_EPARSE;
  at = end;
  for (int k = 0; s->has_compute && k < SA_COMPUTE_N; k++) {
    if (!(v = word(at, sa_compute_name(k), &end))) {
      if (k < SHAPE_FIRST_OPTIONAL)
        return SA_EPARSE;
      continue; /* written only where set */
    }
    if (number(v, end, F_DBL, sa_compute_field(&s->compute, k)))
      return SA_EPARSE;
    at = end;
  }
  if (!(v = word(at, "lat_factor", &end)) || text(v, end, out->lat_factor, TOPO_SHAPE_TEXT))
    return SA_EPARSE;
  at = end;
  if (!(v = word(at, "bw_factor", &end)) || text(v, end, out->bw_factor, TOPO_SHAPE_TEXT))
    return SA_EPARSE;
  at = end;
  s->lat_factor = out->lat_factor;
  s->bw_factor = out->bw_factor;
  if ((v = word(at, "or", &end))) {
    if (text(v, end, out->recv_overhead, TOPO_SHAPE_TEXT))
      return SA_EPARSE;
    s->recv_overhead = out->recv_overhead;
    at = end;
  }
  if (down_lists(at, &out->topo, &at))
    return SA_EPARSE;
  return *at == '\0' ? 0 : SA_EPARSE;
}
