/* whatif_nics.c: a platform with NICs down, drawn again from the run's own (whatif_nics.h).
 *
 * Only a file the generator wrote can be drawn again: its shape line (topo/shape.h) holds
 * what it is made from. A file whose body is no longer what its line draws (edited by hand)
 * is refused rather than drawn from a line that no longer says what it holds. */
#include "whatif_nics.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"
#include "topo/shape.h"
#include "util/outfile.h"
#include "util/textfile.h"

#define SHAPE_TAG "<prop id=\"" TOPO_SHAPE_PROP "\" value=\""
#define BODY_TAG "\n<platform"

/* The shape line of text into *s: 0, or SA_EINVAL (none, or one that does not read). */
static int shape_of(const char *text, topo_shape *s)
{
  const char *at = strstr(text, SHAPE_TAG), *end;
  if (!at)
    return SA_EINVAL;
  at += strlen(SHAPE_TAG);
  if (!(end = strchr(at, '"')) || (size_t)(end - at) >= TOPO_SHAPE_LINE)
    return SA_EINVAL;
  char *line = strndup(at, (size_t)(end - at));
  int rc = line && topo_shape_parse(line, s) == 0 ? 0 : SA_EINVAL;
  free(line);
  char why[256];
  return rc == 0 && topo_check(&s->topo, why, sizeof why) == 0 ? 0 : SA_EINVAL;
}

/* The generator's text for shape s with name and notes (malloc'd, *len bytes), or NULL. */
static char *draw(topo_shape *s, const char *name, const char *notes, size_t *len)
{
  char *xml = NULL;
  FILE *f = open_memstream(&xml, len);
  if (!f)
    return NULL;
  s->spec.name = name;
  s->spec.notes = notes;
  int rc = topo_platform_xml(f, &s->topo, &s->spec);
  if (fclose(f) != 0 || rc != 0) {
    free(xml);
    return NULL;
  }
  return xml;
}

/* 1 when text's body (from "<platform" on) is what its shape draws. */
static int body_is_shapes(const char *text, topo_shape *s)
{
  size_t len;
  char *xml = draw(s, "", "", &len);
  const char *a = strstr(text, BODY_TAG), *b = xml ? strstr(xml, BODY_TAG) : NULL;
  int same = a && b && strcmp(a, b) == 0;
  free(xml);
  return same;
}

/* The platform's name: the header comment's first words, up to ": N node". */
static void name_of(const char *text, char *name, size_t len)
{
  const char *at = strstr(text, "<!-- "), *end = at ? strstr(at, " node") : NULL;
  while (end && end > at && *end != ':')
    end--;
  if (!at || !end || end <= at + 5)
    snprintf(name, len, "platform");
  else
    snprintf(name, len, "%.*s", (int)(end - at - 5), at + 5);
}

static int bad(char *err, size_t errlen, const char *spec, const char *why)
{
  snprintf(err, errlen, "--what-if %s: %s", spec, why);
  return SA_EINVAL;
}

/* The NIC specs of w applied to t: 0, or SA_EINVAL with err naming the spec at fault. */
static int take_down(topo_cluster *t, const sa_whatif *w, int n, const char *file, char *err, size_t errlen)
{
  char why[512];
  for (int i = 0; i < n; i++) {
    const sa_whatif *x = &w[i];
    if (x->kind != SA_WI_NIC_DOWN && x->kind != SA_WI_RAIL_DOWN)
      continue;
    if (x->kind == SA_WI_NIC_DOWN && (x->node < 0 || x->node >= t->nodes)) {
      snprintf(why, sizeof why, "%s has no node %d (nodes 0 to %d)", file, x->node, t->nodes - 1);
      return bad(err, errlen, x->text, why);
    }
    if (x->nic < 0 || x->nic >= t->nics) {
      snprintf(why, sizeof why, "%s has no NIC %d (NICs 0 to %d per node)", file, x->nic, t->nics - 1);
      return bad(err, errlen, x->text, why);
    }
    if (x->kind == SA_WI_RAIL_DOWN) {
      t->rails_down |= (uint64_t)1 << x->nic;
    } else if (topo_nic_up(t, x->node, x->nic)) {
      if (t->ndown == TOPO_MAX_DOWN) {
        snprintf(why, sizeof why, "at most %d NICs down one by one (rail-down takes a NIC of every node)",
                 TOPO_MAX_DOWN);
        return bad(err, errlen, x->text, why);
      }
      t->down[t->ndown].node = x->node;
      t->down[t->ndown++].nic = x->nic;
    }
    if (topo_check(t, why, sizeof why) != 0)
      return bad(err, errlen, x->text, why);
  }
  return 0;
}

/* The degraded file's name: the platform's, then what is down. */
static void out_name(const topo_cluster *t, const char *name, char *buf, size_t len)
{
  size_t n = (size_t)snprintf(buf, len, "%s", name);
  for (int k = 0; k < t->nics && k < 64 && n < len; k++)
    if (t->rails_down >> k & 1)
      n += (size_t)snprintf(buf + n, len - n, "-rail%d-down", k);
  for (int i = 0; i < t->ndown && n < len; i++)
    n += (size_t)snprintf(buf + n, len - n, "-node%d-nic%d-down", t->down[i].node, t->down[i].nic);
  if (n >= len || n > 200) /* a long list: one word for it */
    snprintf(buf, len, "%.100s-nics-down", name);
}

static const char *how(const topo_cluster *t)
{
  static const char *const ways[] = {"through the node", "over NVLink (PXN)", "over PCIe", "over PCIe"};
  return ways[t->node];
}

static int nics_on(const topo_cluster *t, int node)
{
  int c = 0;
  for (int k = 0; k < t->nics; k++)
    c += topo_nic_up(t, node, k);
  return c;
}

/* "GPU 3 of every node reaches NIC 4" for the GPUs wired to NIC k, on node (-1: every node,
 * seen on the first node without a NIC down of its own). */
static size_t orphans(const topo_cluster *t, int node, int k, char *buf, size_t len)
{
  int ref = 0;
  for (int i = 0; node < 0 && i < t->ndown; i++)
    if (t->down[i].node == ref)
      ref++, i = -1;
  size_t n = 0;
  for (int j = 0, first = 1; j < t->gpus && n < len; j++)
    if (topo_nic_of(t, j) == k) {
      n += (size_t)snprintf(buf + n, len - n, "%sGPU %d%s reaches NIC %d", first ? "" : ", ", j,
                            node < 0 ? " of every node" : "", topo_nic_used(t, node < 0 ? ref : node, j));
      first = 0;
    }
  if (n < len)
    n += (size_t)snprintf(buf + n, len - n, " %s", how(t));
  return n;
}

static void describe(const topo_cluster *t, char *buf, size_t len)
{
  size_t n = 0;
  buf[0] = '\0';
  for (int k = 0; k < t->nics && k < 64 && n < len; k++)
    if (t->rails_down >> k & 1) {
      n += (size_t)snprintf(buf + n, len - n, "%srail %d down: ", n ? "; " : "", k);
      if (n < len)
        n += orphans(t, -1, k, buf + n, len - n);
    }
  for (int i = 0; i < t->ndown && n < len; i++) {
    n += (size_t)snprintf(buf + n, len - n, "%snode %d NIC %d down: ", n ? "; " : "", t->down[i].node, t->down[i].nic);
    if (n < len)
      n += orphans(t, t->down[i].node, t->down[i].nic, buf + n, len - n);
  }
  if (n < len && t->ndown == 0)
    n += (size_t)snprintf(buf + n, len - n, "; %d NICs per node", nics_on(t, 0));
  for (int i = 0; i < t->ndown && n < len; i++) {
    int seen = 0;
    for (int m = 0; m < i; m++)
      seen |= t->down[m].node == t->down[i].node;
    if (!seen)
      n += (size_t)snprintf(buf + n, len - n, "%s%d on node %d", i ? ", " : "; NICs: ", nics_on(t, t->down[i].node),
                            t->down[i].node);
  }
  if (n < len && t->ndown > 0)
    snprintf(buf + n, len - n, ", %d on each other node", nics_on(t, -1));
}

int sim_whatif_nics_platform(const char *platform_path, const sa_whatif *w, int n, const char *dir, char *out_path,
                             size_t out_len, char *err, size_t errlen)
{
  const char *spec = NULL;
  for (int i = 0; i < n && !spec; i++)
    if (w[i].kind == SA_WI_NIC_DOWN || w[i].kind == SA_WI_RAIL_DOWN)
      spec = w[i].text;
  out_path[0] = '\0';
  if (!spec)
    return 0;
  char *text = util_read_text(platform_path);
  if (!text) {
    snprintf(err, errlen, "--what-if %s: cannot read %s", spec, platform_path);
    return SA_EIO;
  }
  topo_shape *s = malloc(sizeof *s);
  char *why = malloc(PATH_MAX + 512), name[256], file[PATH_MAX + 256], *notes = malloc(2048), *xml = NULL;
  int rc = s && why && notes ? 0 : SA_ENOMEM;
  if (rc == 0 && shape_of(text, s) != 0) {
    snprintf(why, PATH_MAX + 512,
             "needs a platform the generator wrote (simcalib platform ...): %s has no shape line", platform_path);
    rc = bad(err, errlen, spec, why);
  } else if (rc == 0 && !body_is_shapes(text, s)) {
    snprintf(why, PATH_MAX + 512, "%s was edited after the generator wrote it: its shape line no longer draws it",
             platform_path);
    rc = bad(err, errlen, spec, why);
  }
  if (rc == 0)
    rc = take_down(&s->topo, w, n, platform_path, err, errlen);
  size_t len = 0;
  if (rc == 0) {
    name_of(text, name, sizeof name);
    char what[1024];
    describe(&s->topo, what, sizeof what);
    snprintf(notes, 2048,
             "     Drawn again by simallreduce --what-if from %s, with %s.\n     Its sources, notes and fits are "
             "those of %s.",
             name, what, name);
    char base[256];
    out_name(&s->topo, name, base, sizeof base);
    if (snprintf(file, sizeof file, "%s/%s.xml", dir, base) >= (int)sizeof file) {
      snprintf(err, errlen, "--what-if %s: the directory's name is too long", spec);
      rc = SA_EINVAL;
    } else if (!(xml = draw(s, base, notes, &len))) {
      rc = SA_ENOMEM;
    }
  }
  if (rc == 0 && (rc = util_outfile_write(file, xml, len, why, PATH_MAX + 512)) != 0)
    snprintf(err, errlen, "--what-if %s: %s", spec, why);
  else if (rc == 0)
    snprintf(out_path, out_len, "%s", file);
  if (rc == SA_ENOMEM)
    snprintf(err, errlen, "--what-if %s: out of memory", spec);
  free(xml);
  free(notes);
  free(why);
  free(s);
  free(text);
  return rc;
}

int sim_whatif_nics_describe(const char *degraded_path, char *buf, size_t len)
{
  char *text = util_read_text(degraded_path);
  topo_shape *s = malloc(sizeof *s);
  int rc = !text ? SA_EIO : !s ? SA_ENOMEM : shape_of(text, s);
  if (rc == 0)
    describe(&s->topo, buf, len);
  else
    snprintf(buf, len, "%s: %s", degraded_path, rc == SA_EIO ? "cannot be read" : "has no shape line");
  free(s);
  free(text);
  return rc;
}
