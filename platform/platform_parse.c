/* platform_parse.c: reading back what the loader's child printed: its host lines, or
 * SimGrid's reason for refusing the file. The text crosses a process boundary, so nothing
 * in it is trusted: every line is bounded by its own newline. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"
#include "launch.h"
#include "platform.h"

void plat_reason(const char *out, char *err, size_t errlen)
{
  if (!plat_simgrid_error(out, err, errlen))
    snprintf(err, errlen, "SimGrid could not load it");
}

/* One "@host<TAB>name<TAB>node" line into h; 0, or -1 when it is not one. */
static int host_line(const char *line, const char *end, plat_host *h)
{
  const char *name = line + 6, *tab = memchr(name, '\t', (size_t)(end - name));
  if (!tab || tab == name)
    return SA_EPARSE;
  char num[24];
  size_t len = (size_t)(end - tab - 1);
  if (len == 0 || len >= sizeof num)
    return SA_EPARSE;
  memcpy(num, tab + 1, len);
  num[len] = '\0';
  char *stop;
  long node = strtol(num, &stop, 10);
  if (*stop || node < 0 || node > 1 << 20)
    return SA_EPARSE;
  h->name = strndup(name, (size_t)(tab - name));
  h->node = (int)node;
  return h->name ? 0 : -1;
}

/* The loader's "@badprop<TAB>host<TAB>property<TAB>value<TAB>why" line, as one error. */
static int bad_property(const char *out, const plat_file *pf, char *err, size_t errlen)
{
  const char *c = strncmp(out, "@badprop\t", 9) == 0 ? out : strstr(out, "\n@badprop\t");
  if (!c)
    return 0;
  c += c[0] == '\n' ? 10 : 9;
  const char *f[4], *eol = strchr(c, '\n');
  int len[4], k = 0;
  for (const char *at = c; k < 4; k++) {
    const char *tab = k < 3 ? strchr(at, '\t') : NULL, *end = tab && (!eol || tab < eol) ? tab : eol ? eol : at + strlen(at);
    f[k] = at;
    len[k] = (int)(end - at);
    at = *end == '\t' ? end + 1 : end;
  }
  snprintf(err, errlen, "host %.*s in %s: property %.*s = '%.*s': %.*s", len[0], f[0], pf->path ? pf->path : "the platform",
           len[1], f[1], len[2], f[2], len[3], f[3]);
  return SA_EINVAL;
}

int plat_parse_hosts(const char *out, plat_file *pf, char *err, size_t errlen)
{
  if (bad_property(out, pf, err, errlen) != 0)
    return SA_EINVAL;
  int n = 0, i = 0;
  for (const char *c = out; (c = strstr(c, "@host\t")) != NULL; c++)
    n++;
  plat_host *hosts = calloc((size_t)(n ? n : 1), sizeof *hosts);
  if (!hosts) {
    snprintf(err, errlen, "out of memory");
    return SA_ENOMEM;
  }
  for (const char *line = out; line && *line;) {
    const char *eol = strchr(line, '\n'), *end = eol ? eol : line + strlen(line);
    if (strncmp(line, "@host\t", 6) == 0 && i < n) {
      if (host_line(line, end, &hosts[i]) != 0) {
        const char *name = line + 6, *tab = memchr(name, '\t', (size_t)(end - name));
        snprintf(err, errlen,
                 "host %.*s in %s has no valid 'node' property (each GPU host needs <prop id=\"node\" value=\"i\"/>)",
                 (int)((tab ? tab : end) - name), name, pf->path ? pf->path : "the platform");
        for (int k = 0; k <= i; k++)
          free(hosts[k].name);
        free(hosts);
        return SA_EPARSE;
      }
      i++;
    }
    line = eol ? eol + 1 : NULL;
  }
  return plat_group(pf, hosts, i, err, errlen);
}
