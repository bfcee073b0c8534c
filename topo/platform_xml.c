/* platform_xml.c: writes the platform XML of a topology (platform_xml.h).
 *
 * SimGrid routes hierarchically: a route between two hosts of different zones goes up to the
 * zone holding both, whose route between the two child zones names a gateway in each. So for
 * GPU j of a node to leave through NIC j (rails) while GPU k leaves through NIC k, the GPUs
 * must be zones of their own under the leaf zones; the paths inside a node, which cross
 * leaves, are then bypass routes between two GPU zones, found before the regular ones. A GPU
 * zone is a star holding its host alone, the host its own gateway: the route from a host to
 * itself in a star with no links is empty, so nothing is added to the paths written here. */
#include "platform_xml.h"

#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"
#include "shape.h"

static const char *dir(int up) { return up ? "UP" : "DOWN"; }

const char *topo_xml_number(char *buf, size_t len, int digits, double v)
{
  snprintf(buf, len, "%.*g", digits, v);
  if (strtod(buf, NULL) != v)
    snprintf(buf, len, "%.17g", v);
  return buf;
}

static void links(FILE *f, const char *indent, const topo_cluster *t, const topo_path *p)
{
  char name[64];
  for (int i = 0; i < p->n; i++) {
    topo_link_name(t, &p->h[i], name, sizeof name);
    fprintf(f, "%s<link_ctn id=\"%s\" direction=\"%s\"/>", indent, name, dir(p->h[i].up));
  }
}

static int some_links(FILE *f, const topo_cluster *t, int node)
{
  int n = node < 0 ? topo_fabric_links(t, NULL, 0) : topo_node_links(t, node, NULL, 0);
  topo_hop *h = malloc(sizeof *h * (size_t)(n > 0 ? n : 1));
  if (!h)
    return SA_ENOMEM;
  n = node < 0 ? topo_fabric_links(t, h, n) : topo_node_links(t, node, h, n);
  for (int k = 0; k < n; k++) {
    char name[64];
    double bw, lat;
    topo_link_name(t, &h[k], name, sizeof name);
    topo_link_rate(t, &h[k], &bw, &lat);
    char b[32], l[32];
    fprintf(f, "      <link id=\"%s\" bandwidth=\"%sBps\" latency=\"%ss\" sharing_policy=\"SPLITDUPLEX\"/>\n", name,
            topo_xml_number(b, sizeof b, 12, bw), topo_xml_number(l, sizeof l, 12, lat));
  }
  free(h);
  return 0;
}

/* Every link, first thing in the world zone, in a zone of its own: SimGrid wants a link
 * declared before a route names it, a zone's links after its child zones, and finds a link
 * by name by walking the zones in order, so links in the first zone are found at once where
 * links among 16384 GPU zones cost a walk through them each (SimGrid 3.32: 17 s to load 2048
 * nodes x 8 GPUs, 1 s with the links first). */
static int all_links(FILE *f, const topo_cluster *t)
{
  int rc = 0;
  fprintf(f, "    <zone id=\"links\" routing=\"None\">\n");
  for (int i = -1; i < t->nodes && rc == 0 && !ferror(f); i++)
    rc = some_links(f, t, i);
  fprintf(f, "    </zone>\n");
  return rc;
}

static void host(FILE *f, const char *indent, const topo_platform_spec *s, int i, int j)
{
  char v[32];
  fprintf(f, "%s<zone id=\"z-node%d-gpu%d\" routing=\"Cluster\"><host id=\"node%d-gpu%d\" speed=\"%sf\">", indent, i, j,
          i, j, topo_xml_number(v, sizeof v, 9, s->host_speed > 0 ? s->host_speed : 1e12));
  fprintf(f, "<prop id=\"node\" value=\"%d\"/>", i);
  if (s->recv_overhead)
    fprintf(f, "<prop id=\"smpi/or\" value=\"%s\"/>", s->recv_overhead);
  for (int k = 0; s->has_compute && k < SA_COMPUTE_N; k++)
    if (sa_compute_written(&s->compute, k))
      fprintf(f, "<prop id=\"%s\" value=\"%s\"/>", sa_compute_name(k),
              topo_xml_number(v, sizeof v, 9, sa_compute_get(&s->compute, k)));
  fprintf(f, "</host></zone>\n");
}

/* GPU j and GPU k of node i are joined by a bypass route in zone l (a leaf; -1 the world):
 * the zone holding both. */
static int bypass_in(const topo_cluster *t, int l, int i, int j, int k)
{
  int lj = topo_leaf_of(t, i, j), lk = topo_leaf_of(t, i, k);
  return j != k && (l >= 0 ? lj == l && lk == l : lj != lk);
}

/* The intra-node bypass routes of zone l (in unit u of it, -1 all), both directions. */
static void bypasses(FILE *f, const topo_cluster *t, int l, int u, const char *indent)
{
  int first, end;
  topo_unit_range(t, u, &first, &end);
  for (int i = first; i < end && !ferror(f); i++)
    for (int j = 0; j < t->gpus; j++)
      for (int k = 0; k < t->gpus; k++) {
        if (!bypass_in(t, l, i, j, k))
          continue;
        topo_path p;
        topo_intra(t, i, j, k, &p);
        fprintf(f, "%s<bypassZoneRoute src=\"z-node%d-gpu%d\" dst=\"z-node%d-gpu%d\" gw_src=\"node%d-gpu%d\" "
                   "gw_dst=\"node%d-gpu%d\">",
                indent, i, j, i, k, i, j, i, k);
        links(f, "", t, &p);
        fprintf(f, "</bypassZoneRoute>\n");
      }
}

/* The GPUs of leaf l in unit u (-1: all), each joined through its NIC to the switch `sw` (a
 * router in a zone of its own, `sw`-switch), and their bypass routes: a leaf, or a unit of
 * one (cluster.h). */
static void star(FILE *f, const topo_cluster *t, const topo_platform_spec *s, int l, int u, const char *sw,
                 const char *indent)
{
  int first, end;
  topo_unit_range(t, u, &first, &end);
  for (int i = first; i < end && !ferror(f); i++)
    for (int j = 0; j < t->gpus; j++)
      if (topo_leaf_of(t, i, j) == l)
        host(f, indent, s, i, j);
  fprintf(f, "%s<zone id=\"%s-switch\" routing=\"None\"><router id=\"%s-sw\"/></zone>\n", indent, sw, sw);
  for (int i = first; i < end && !ferror(f); i++)
    for (int j = 0; j < t->gpus; j++) {
      if (topo_leaf_of(t, i, j) != l)
        continue;
      topo_path p;
      topo_to_nic(t, i, j, &p);
      fprintf(f, "%s<zoneRoute src=\"z-node%d-gpu%d\" dst=\"%s-switch\" gw_src=\"node%d-gpu%d\" gw_dst=\"%s-sw\">",
              indent, i, j, sw, i, j, sw);
      links(f, "", t, &p);
      fprintf(f, "</zoneRoute>\n");
    }
  bypasses(f, t, l, u, indent);
}

/* Leaf l: one star, or (units) a full zone of unit stars and the leaf's switch, each unit's
 * link between it and the rest. */
static void leaf(FILE *f, const topo_cluster *t, const topo_platform_spec *s, int l)
{
  char sw[64];
  int units = topo_units(t);
  snprintf(sw, sizeof sw, "leaf%d", l);
  if (units == 1) {
    fprintf(f, "    <zone id=\"leaf%d\" routing=\"DijkstraCache\">\n", l);
    star(f, t, s, l, -1, sw, "      ");
    fprintf(f, "    </zone>\n");
    return;
  }
  fprintf(f, "    <zone id=\"leaf%d\" routing=\"Full\">\n", l);
  for (int u = 0; u < units; u++) {
    char usw[64];
    snprintf(usw, sizeof usw, "leaf%d-unit%d", l, u);
    fprintf(f, "      <zone id=\"leaf%d-unit%d\" routing=\"DijkstraCache\">\n", l, u);
    star(f, t, s, l, u, usw, "        ");
    fprintf(f, "      </zone>\n");
  }
  fprintf(f, "      <zone id=\"leaf%d-switch\" routing=\"None\"><router id=\"leaf%d-sw\"/></zone>\n", l, l);
  for (int u = 0; u < units; u++) {
    topo_path p = {1, {{TOPO_LK_UNIT, -1, l, u, 1}}};
    fprintf(f, "      <zoneRoute src=\"leaf%d-unit%d\" dst=\"leaf%d-switch\" gw_src=\"leaf%d-unit%d-sw\" gw_dst=\"leaf%d-sw\">",
            l, u, l, l, u, l);
    links(f, "", t, &p);
    fprintf(f, "</zoneRoute>\n");
    for (int v = u + 1; v < units; v++) {
      topo_path q = {2, {{TOPO_LK_UNIT, -1, l, u, 1}, {TOPO_LK_UNIT, -1, l, v, 0}}};
      fprintf(f, "      <zoneRoute src=\"leaf%d-unit%d\" dst=\"leaf%d-unit%d\" gw_src=\"leaf%d-unit%d-sw\" "
                 "gw_dst=\"leaf%d-unit%d-sw\">",
              l, u, l, v, l, u, l, v);
      links(f, "", t, &q);
      fprintf(f, "</zoneRoute>\n");
    }
  }
  fprintf(f, "    </zone>\n");
}

int topo_platform_xml(FILE *f, const topo_cluster *t, const topo_platform_spec *s)
{
  char desc[1024];
  topo_describe(t, desc, sizeof desc);
  fprintf(f, "<?xml version=\"1.0\"?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n");
  fprintf(f, "<!-- %s: %d node%s x %d GPUs. Hosts node<i>-gpu<j>, property node=i.\n%s\n%s -->\n", s->name, t->nodes,
          t->nodes == 1 ? "" : "s", t->gpus, desc, s->notes ? s->notes : "");
  fprintf(f, "<platform version=\"4.1\">\n");
  fprintf(f, "  <config>\n    <prop id=\"smpi/bw-factor\" value=\"%s\"/>\n"
             "    <prop id=\"network/crosstraffic\" value=\"0\"/>\n  </config>\n",
          s->bw_factor ? s->bw_factor : "0:1");
  /* the latency factor where the runner applies it (TOPO_LAT_FACTOR_PROP) */
  fprintf(f, "  <zone id=\"world\" routing=\"Full\">\n    <prop id=\"%s\" value=\"%s\"/>\n", TOPO_LAT_FACTOR_PROP,
          s->lat_factor ? s->lat_factor : "0:1");
  /* the shape, for the driver to build the platform from it (shape.h); none when a setting
   * cannot be one word */
  char *shape = malloc(TOPO_SHAPE_LINE);
  if (shape && topo_shape_format(t, s, shape, TOPO_SHAPE_LINE) == 0)
    fprintf(f, "    <prop id=\"%s\" value=\"%s\"/>\n", TOPO_SHAPE_PROP, shape);
  free(shape);
  int rc = all_links(f, t);
  if (rc)
    return rc;
  int leaves = topo_leaves(t);
  for (int l = 0; l < leaves && !ferror(f); l++)
    leaf(f, t, s, l);
  for (int a = 0; a < leaves && !ferror(f); a++)
    for (int b = a + 1; b < leaves; b++) {
      topo_path p = {2, {{TOPO_LK_UPLINK, -1, a, 0, 1}, {TOPO_LK_UPLINK, -1, b, 0, 0}}};
      fprintf(f, "    <zoneRoute src=\"leaf%d\" dst=\"leaf%d\" gw_src=\"leaf%d-sw\" gw_dst=\"leaf%d-sw\">", a, b, a, b);
      links(f, "", t, &p);
      fprintf(f, "</zoneRoute>\n");
    }
  bypasses(f, t, -1, -1, "    ");
  fprintf(f, "  </zone>\n</platform>\n");
  return ferror(f) ? SA_EIO : 0;
}

/* The NICs down, and where their GPUs go instead (docs/platforms.md "NICs down"). */
static void describe_down(const topo_cluster *t, char *buf, size_t len)
{
  size_t n = (size_t)snprintf(buf, len, "\n     NICs down (no links, nothing routed through them):");
  for (int k = 0; k < t->nics && k < 64 && n < len; k++)
    if (t->rails_down >> k & 1)
      n += (size_t)snprintf(buf + n, len - n, " rail %d (NIC %d of every node);", k, k);
  for (int i = 0; i < t->ndown && n < len; i++)
    n += (size_t)snprintf(buf + n, len - n, " NIC %d of node %d;", t->down[i].nic, t->down[i].node);
  if (n < len)
    snprintf(buf + n, len - n, "\n     a GPU whose NIC is down leaves through the NIC NCCL gives it%s.",
             t->node == TOPO_NODE_NVSWITCH ? ", over NVLink into that NIC's GPU (PXN)" : "");
}

void topo_describe(const topo_cluster *t, char *buf, size_t len)
{
  static const char *const what[] = {"a private link per GPU into the node", "an NVSwitch: every GPU's NVLinks into it",
                                     "PCIe switches under two CPU sockets", "the DGX-1 hybrid cube-mesh of NVLinks"};
  size_t n = 0;
  n += (size_t)snprintf(buf + n, len - n, "     Node: %s; GPU link %.4g GB/s per direction, %.4g us", what[t->node],
                        t->gpu_bw / 1e9, t->gpu_lat * 1e6);
  if (t->node == TOPO_NODE_PCIE && n < len)
    n += (size_t)snprintf(buf + n, len - n, " (%d GPUs per PCIe switch; sockets %.4g GB/s)", t->gpus_per_switch,
                          t->socket_bw / 1e9);
  if (n < len)
    n += (size_t)snprintf(buf + n, len - n, ".\n     NICs: %d per node at %.4g GB/s, %.4g us, %s.\n", t->nics,
                          t->nic_bw / 1e9, t->nic_lat * 1e6,
                          t->nics == t->gpus ? "one per GPU" : "shared: GPU j uses NIC floor(j * nics / gpus)");
  if (n < len && t->fabric == TOPO_FABRIC_SWITCH)
    n += (size_t)snprintf(buf + n, len - n, "     Fabric: one non-blocking switch.");
  else if (n < len)
    n += (size_t)snprintf(
        buf + n, len - n,
        "     Fabric: fat-tree, %d leaves (%s), each leaf's uplink to the spine its NICs' rate / %.4g, %.4g us.",
        topo_leaves(t), t->rails ? "one per rail: NIC k of every node on leaf k" : "by node", t->oversub,
        t->uplink_lat * 1e6);
  if (n < len && (t->rails_down || t->ndown))
    describe_down(t, buf + n, len - n);
}
