/* platform_net.c: reads the loader child's probe lines (platform_probe.c) into the cost
 * models' description of the network (models/cost_net.h). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform.h"
#include "common/sa_error.h"
#include "sg_settings.h"
#include "topo/shape.h"

/* SimGrid 3.32's defaults for SMPI's network factors (the values its config reports for
 * smpi/bw-factor and smpi/lat-factor when nothing sets them; see SimGrid's "Configuring
 * SimGrid" page), in force when neither the platform nor --cfg gives its own. */
#define SMPI_DEFAULT_BW_FACTOR                                                                                         \
  "65472:0.940694;15424:0.697866;9376:0.58729;5776:1.08739;3484:0.77493;1426:0.608902;732:0.341987;257:0.338112;"      \
  "0:0.812084"
#define SMPI_DEFAULT_LAT_FACTOR                                                                                        \
  "65472:11.6436;15424:3.48845;9376:2.59299;5776:2.18796;3484:1.88101;1426:1.61075;732:1.9503;257:1.95341;0:2.01467"

/* The probe's tables (platform_probe.c): their names, the nodes they join, where they go. */
static const struct {
  const char *name;
  int a, b;
  int pair; /* -1 within a node, else COST_R* */
} tables[] = {{"intra0", 0, 0, -1},    {"intra1", 1, 1, -1},    {"intra2", 2, 2, -1},
              {"r01", 0, 1, TOPO_R01}, {"r10", 1, 0, TOPO_R10}, {"r02", 0, 2, TOPO_R02},
              {"r20", 2, 0, TOPO_R20}, {"r12", 1, 2, TOPO_R12}, {"r21", 2, 1, TOPO_R21}};
#define NTABLES (int)(sizeof tables / sizeof tables[0])

static topo_route **table_slot(cost_net *net, int t)
{
  return tables[t].pair < 0 ? &net->rt.intra[tables[t].a] : &net->rt.inter[tables[t].pair];
}

static int table_index(const char *name)
{
  for (int i = 0; i < NTABLES; i++)
    if (strcmp(name, tables[i].name) == 0)
      return i;
  return -1;
}

/* Whether the models read table t whole (platform_probe.c probes those whole). */
static int whole_table(const plat_file *pf, int t)
{
  return tables[t].pair == TOPO_R12 || tables[t].pair == TOPO_R21 ? 0
         : tables[t].a == 2 && tables[t].b == 2                   ? 0
         : tables[t].a == 1 && tables[t].b == 1                   ? pf->nnodes == 2
                                                                  : 1;
}

/* A pair of a whole table SimGrid gives no path for (no link and no latency: SimGrid's own
 * test before it refuses to send), named in err. Returns SA_ENOROUTE, or 0 when none. */
static int missing_path(const plat_file *pf, char *err, size_t errlen)
{
  const cost_net *net = &pf->net;
  for (int t = 0; t < NTABLES; t++) {
    const topo_route *r = *table_slot((cost_net *)net, t);
    if (!r || !whole_table(pf, t) || tables[t].b >= pf->nnodes)
      continue;
    for (int j = 0; j < net->rt.gpus; j++)
      for (int k = 0; k < net->rt.gpus; k++) {
        if ((tables[t].pair < 0 && j == k) || r[j * net->rt.gpus + k].n > 0 || r[j * net->rt.gpus + k].lat > 0)
          continue;
        snprintf(err, errlen,
                 "SimGrid gives no path from %s to %s (GPU %d of node %d to GPU %d of node %d), and every rank must "
                 "reach every other",
                 pf->hosts[pf->node_first[tables[t].a] + j].name, pf->hosts[pf->node_first[tables[t].b] + k].name, j,
                 tables[t].a, k, tables[t].b);
        return SA_ENOROUTE;
      }
  }
  return 0;
}

/* The value of SimGrid's "Configuration change: Set 'key' to 'value'" line for key, or
 * NULL; the last such line wins, as the setting does. */
static char *config_change(const char *out, const char *key)
{
  char pat[128];
  snprintf(pat, sizeof pat, "Configuration change: Set '%s' to '", key);
  const char *last = NULL;
  for (const char *c = strstr(out, pat); c; c = strstr(c + 1, pat))
    last = c + strlen(pat);
  const char *end = last ? strchr(last, '\'') : NULL;
  return end ? strndup(last, (size_t)(end - last)) : NULL;
}

/* The rest of the probe's line that starts with `head`, or NULL. */
static char *probe_field(const char *out, const char *head)
{
  const char *c = strstr(out, head);
  if (!c)
    return NULL;
  c += strlen(head);
  return strndup(c, strcspn(c, "\n"));
}

static int parse_route(cost_net *net, char *line)
{
  char *f[7], *save = NULL;
  int n = 0;
  for (char *t = strtok_r(line, "\t", &save); t && n < 7; t = strtok_r(NULL, "\t", &save))
    f[n++] = t;
  if (n < 6)
    return SA_EPARSE;
  int tab = table_index(f[1]), j = atoi(f[2]), k = atoi(f[3]), ids[64], nid = 0;
  if (tab < 0 || j < 0 || k < 0 || j >= net->rt.gpus || k >= net->rt.gpus)
    return SA_EPARSE;
  topo_route **slot = table_slot(net, tab);
  if (!*slot && !(*slot = topo_route_table_new(net->rt.gpus)))
    return SA_ENOMEM;
  for (char *s2 = NULL, *t = n > 6 ? strtok_r(f[6], ",", &s2) : NULL; t && nid < 64; t = strtok_r(NULL, ",", &s2)) {
    ids[nid] = atoi(t);
    if (ids[nid] < 0 || ids[nid] >= net->rt.nlinks)
      return SA_EPARSE;
    nid++;
  }
  return topo_route_set(&(*slot)[j * net->rt.gpus + k], ids, nid, strtod(f[4], NULL), strtod(f[5], NULL)) ? SA_ENOMEM : 0;
}

/* A host property of node 0's first GPU; its value was validated when the platform was
 * loaded (platform_load.c), so a compute property always reads. */
static void parse_prop(cost_net *net, const char *key, const char *value)
{
  char why[160];
  int i = sa_compute_find(key);
  if (i >= 0)
    sa_compute_parse(i, value, sa_compute_field(&net->compute, i), why, sizeof why);
  if (strcmp(key, "smpi/or") == 0)
    plat_setting_apply(net, key, value, why, sizeof why);
}

/* Reasons of the parse with messages of their own, beside the SA_E* codes. */
enum { NO_FACTORS = 1, NO_ROUTES = 2 };

int plat_net_parse(const char *out, plat_file *pf, char *err, size_t errlen)
{
  cost_net *net = &pf->net;
  cost_net_init(net);
  net->rt.nnodes = pf->nnodes;
  /* the probe's GPUs per node: the run's ranks per node (none: the layout did not fit, or
   * more than the probe reads) */
  const char *probe = strncmp(out, "@probe\t", 7) == 0 ? out : strstr(out, "\n@probe\t");
  const char *noprobe = strncmp(out, "@noprobe\t", 9) == 0 ? out : strstr(out, "\n@noprobe\t");
  net->rt.gpus = probe ? atoi(strchr(probe + 1, '\t') + 1) : 0;
  if (noprobe || !probe || net->rt.gpus < 1 || net->rt.gpus > PLAT_PROBE_MAX_GPUS) {
    if (noprobe)
      snprintf(err, errlen,
               "the cost models read the routes between every two GPUs of a node, for at most %d ranks per node, "
               "not %d (give --ranks-per-node)",
               PLAT_PROBE_MAX_GPUS, atoi(strchr(noprobe + 1, '\t') + 1));
    else
      snprintf(err, errlen, "the platform's network was not probed");
    net->rt.gpus = 0;
    return SA_ELAYOUT;
  }
  /* the tables name GPUs of the first nodes: each must have as many (a probe of another file,
   * or text that is no probe's, would have them name hosts there are not) */
  for (int i = 0; i < pf->nnodes && i < 3; i++)
    if (pf->node_size[i] < net->rt.gpus) {
      snprintf(err, errlen, "the platform's network probe holds more GPUs than node %d has", i);
      net->rt.gpus = 0;
      return SA_EPARSE;
    }
  for (const char *c = strstr(out, "@link\t"); c; c = strstr(c + 1, "@link\t"))
    net->rt.nlinks++;
  net->rt.links = calloc((size_t)(net->rt.nlinks ? net->rt.nlinks : 1), sizeof *net->rt.links);
  pf->cfg_lat_factor = config_change(out, "smpi/lat-factor");
  pf->cfg_bw_factor = config_change(out, "smpi/bw-factor");
  int rc = net->rt.links ? 0 : SA_ENOMEM;
  char why[256];
  /* smpi/lat-factor set: SMPI applies it; else the runner applies the file's own
   * (TOPO_LAT_FACTOR_PROP) or SMPI's default, and gives NCCL's slices their latency at the
   * receiver (topo/sg_latency.h) */
  char *own = pf->cfg_lat_factor ? NULL : probe_field(out, "@zone\t" TOPO_LAT_FACTOR_PROP "\t");
  if (rc == 0)
    rc = (pf->cfg_lat_factor ? plat_setting_apply(net, "smpi/lat-factor", pf->cfg_lat_factor, why, sizeof why) < 0
                             : sa_piecewise_parse(own ? own : SMPI_DEFAULT_LAT_FACTOR, SA_PIECE_FACTOR, &net->lat_factor) != 0) ||
                 plat_setting_apply(net, "smpi/bw-factor", pf->cfg_bw_factor ? pf->cfg_bw_factor : SMPI_DEFAULT_BW_FACTOR,
                                   why, sizeof why) < 0
             ? NO_FACTORS
             : 0;
  free(own);
  int routes = 0;
  for (const char *c = out; rc == 0 && c && *c; c = strchr(c, '\n') ? strchr(c, '\n') + 1 : NULL) {
    const char *eol = strchr(c, '\n');
    char *line = eol ? strndup(c, (size_t)(eol - c)) : strdup(c);
    if (!line) {
      rc = SA_ENOMEM;
      break;
    }
    char key[64], value[4096];
    if (strncmp(line, "@link\t", 6) == 0) {
      int i, shared;
      double bw, lat;
      if (sscanf(line + 6, "%d\t%lf\t%lf\t%d", &i, &bw, &lat, &shared) != 4 || i < 0 || i >= net->rt.nlinks)
        rc = SA_EPARSE;
      else
        net->rt.links[i] = (topo_link){bw, lat, shared};
    } else if (strncmp(line, "@route\t", 7) == 0) {
      rc = parse_route(net, line);
      routes++;
    } else if (sscanf(line, "@prop\t%63[^\t]\t%4095[^\n]", key, value) == 2) {
      parse_prop(net, key, value);
      pf->host_or |= strcmp(key, "smpi/or") == 0;
    } else if (sscanf(line, "@cfg\t%63[^\t]\t%4095[^\n]", key, value) == 2) {
      rc = plat_setting_apply(net, key, value, why, sizeof why) < 0 ? SA_EPARSE : 0;
    }
    free(line);
  }
  if (rc == 0 && (routes == 0 || !net->rt.intra[0]) && net->rt.gpus > 1)
    rc = NO_ROUTES;
  if (rc == 0 && (rc = missing_path(pf, err, errlen)) != 0)
    return rc;
  if (rc)
    snprintf(err, errlen, "%s", rc == NO_FACTORS ? "SMPI's network factors in this platform (smpi/lat-factor, smpi/bw-factor, " TOPO_LAT_FACTOR_PROP ") cannot be read"
                                 : rc == NO_ROUTES ? "SimGrid gave no routes between the GPUs of a node"
                                                   : "the platform's network could not be read");
  return rc == NO_FACTORS ? SA_EPARSE : rc == NO_ROUTES ? SA_ENOROUTE : rc;
}
