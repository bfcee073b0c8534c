/* platform_load.c: finds a platform file and reads its hosts through SimGrid's C API. The
 * parse runs in a child process: SimGrid exits on a file it cannot parse, and the driver
 * must turn that into one clear line, not die with it. */
#include <errno.h>
#include <limits.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/compute.h"
#include "common/sa_error.h"
#include "hostfile.h"
#include "platform.h"
#include "util/textfile.h"
#include "zone_loader.h"

static int is_file(const char *p)
{
  struct stat st;
  return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Whether path is a readable regular file; if not, why, as one --platform line in err. */
static int input_ok(const char *path, char *err, size_t errlen)
{
  char why[PATH_MAX + 200];
  if (util_input_check(path, 0, why, sizeof why) == 0)
    return 1;
  snprintf(err, errlen, "--platform: %s", why);
  return 0;
}

char *plat_resolve(const char *arg, const char *dir, char *err, size_t errlen)
{
  size_t n = strlen(dir) + strlen(arg) + 8;
  char *p = malloc(n);
  if (!p) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  if (arg[0] == '\0') {
    snprintf(err, errlen, "--platform needs a file or a name");
  } else if (access(arg, F_OK) == 0 || strchr(arg, '/')) {
    /* a name that is there, whatever it is (a directory, a FIFO), is that and not a name */
    snprintf(p, n, "%s", arg);
    if (input_ok(p, err, errlen))
      return p;
  } else {
    snprintf(p, n, "%s/%s", dir, arg);
    if (!is_file(p))
      snprintf(p, n, "%s/%s.xml", dir, arg);
    if (is_file(p) && access(p, R_OK) == 0)
      return p;
    /* a name that is in dir but no readable file (a directory there) says so, as above */
    snprintf(p, n, "%s/%s", dir, arg);
    if (access(p, F_OK) != 0)
      snprintf(p, n, "%s/%s.xml", dir, arg);
    if (access(p, F_OK) != 0 || input_ok(p, err, errlen))
      snprintf(err, errlen, "unknown platform '%s' (not a file here, nor in %s; --list-platforms lists them)", arg,
               dir);
  }
  free(p);
  return NULL;
}

/* In the child: the first compute property of a host whose value is out of its range
 * (common/compute.h), as "@badprop<TAB>host<TAB>property<TAB>value<TAB>why". Control
 * characters in the value become '?': the line must stay one line. */
static int check_props(sg_host_t h)
{
  for (int i = 0; i < SA_COMPUTE_N; i++) {
    const char *v = sg_host_get_property_value(h, sa_compute_name(i));
    double x;
    char why[160], shown[64];
    if (!v || sa_compute_parse(i, v, &x, why, sizeof why) == 0)
      continue;
    snprintf(shown, sizeof shown, "%s", v);
    for (char *c = shown; *c; c++)
      *c = (unsigned char)*c < 32 ? '?' : *c;
    printf("@badprop\t%s\t%s\t%s\t%s\n", sg_host_get_name(h), sa_compute_name(i), shown, why);
    return SA_EINVAL;
  }
  return 0;
}

/* In the child: list every host as "@host<TAB>name<TAB>node" on fd 1, SimGrid's own
 * messages going to the same pipe; with PLAT_LOAD_NET, then probe the network (its settings
 * reach the parent as SimGrid's "Configuration change" lines, hence the info level). */
static void list_hosts(const char *path, int flags, int nodes, int rpn, const plat_link_change *ch, int nch)
{
  char prog[] = "simallreduce", quiet[] = "--log=xbt_cfg.thres:warning", info[] = "--log=xbt_cfg.thres:info";
  char *argv[] = {prog, flags & PLAT_LOAD_NET ? info : quiet, NULL};
  int argc = 2;
  simgrid_init(&argc, argv);
  plat_zone_load(path);
  plat_links_child(ch, nch, flags & PLAT_LOAD_LINKS);
  sg_host_t *hosts = sg_host_list();
  size_t n = sg_host_count();
  plat_host *mine = flags & PLAT_LOAD_NET ? calloc(n ? n : 1, sizeof *mine) : NULL;
  int bad = 0;
  for (size_t i = 0; i < n && !bad; i++) {
    const char *node = sg_host_get_property_value(hosts[i], "node");
    printf("@host\t%s\t%s\n", sg_host_get_name(hosts[i]), node ? node : "");
    bad = check_props(hosts[i]) != 0;
    if (mine) {
      mine[i].name = strdup(sg_host_get_name(hosts[i]));
      mine[i].node = node ? atoi(node) : -1;
    }
  }
  fflush(stdout);
  free(hosts);
  plat_file pf = {.path = (char *)path};
  char err[256];
  /* a layout that does not fit is the parent's to report: probe nothing for it */
  if (mine && !bad && plat_group(&pf, mine, (int)n, err, sizeof err) == 0 &&
      plat_layout(&pf, &nodes, &rpn, err, sizeof err) == 0)
    plat_probe(&pf, rpn);
}

static char *read_all(int fd)
{
  size_t cap = 1 << 16, len = 0;
  char *buf = malloc(cap);
  for (ssize_t got; buf; len += (size_t)got) {
    if (len + 1 == cap) {
      char *b = realloc(buf, cap *= 2);
      if (!b)
        break;
      buf = b;
    }
    got = read(fd, buf + len, cap - len - 1);
    if (got < 0 && errno == EINTR) {
      got = 0;
      continue;
    }
    if (got <= 0) {
      buf[len] = '\0';
      return buf;
    }
  }
  free(buf);
  return NULL;
}

int plat_load(const char *path, plat_file *pf, char *err, size_t errlen)
{
  return plat_load_ex(path, 0, 0, 0, pf, err, errlen);
}

/* pf's hosts, and with PLAT_LOAD_NET its network, from what the child printed. */
static int from_output(const char *out, int flags, plat_file *pf, char *err, size_t errlen)
{
  int rc = plat_parse_hosts(out, pf, err, errlen);
  if (rc == 0)
    rc = plat_links_parse(out, pf, err, errlen);
  /* a platform the models cannot read still simulates: say why, do not fail */
  if (rc == 0 && (flags & PLAT_LOAD_NET))
    pf->has_net = (pf->net_rc = plat_net_parse(out, pf, pf->net_err, sizeof pf->net_err)) == 0;
  return rc;
}

/* pf->path and pf->name for path. */
static int names(const char *path, plat_file *pf)
{
  memset(pf, 0, sizeof *pf);
  pf->path = strdup(path);
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  pf->name = strdup(base);
  if (pf->name && strlen(pf->name) > 4 && strcmp(pf->name + strlen(pf->name) - 4, ".xml") == 0)
    pf->name[strlen(pf->name) - 4] = '\0';
  return pf->path && pf->name;
}

int plat_load_ex(const char *path, int flags, int nodes, int rpn, plat_file *pf, char *err, size_t errlen)
{
  return plat_load_changed(path, flags, nodes, rpn, NULL, 0, pf, err, errlen);
}

int plat_load_changed(const char *path, int flags, int nodes, int rpn, const plat_link_change *ch, int nch,
                      plat_file *pf, char *err, size_t errlen)
{
  char *kept = nch == 0 ? plat_cache_get(path, flags, nodes, rpn) : NULL;
  if (kept) {
    int rc = names(path, pf) ? from_output(kept, flags, pf, err, errlen) : SA_ENOMEM;
    free(kept);
    if (rc == 0)
      return 0;
    plat_free(pf); /* an entry that does not read back is loaded afresh */
  }
  int fds[2];
  if (!names(path, pf) || pipe(fds) != 0) {
    snprintf(err, errlen, "cannot load platform %s: %s", path, strerror(errno));
    return SA_EIO;
  }
  fflush(NULL);
  pid_t parent = getpid(), pid = fork();
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* a probe must not outlive a driver that was killed */
    if (getppid() != parent)
      _exit(1);
    close(fds[0]);
    dup2(fds[1], 1);
    dup2(fds[1], 2);
    list_hosts(path, flags, nodes, rpn, ch, nch);
    _exit(0);
  }
  close(fds[1]);
  char *out = pid > 0 ? read_all(fds[0]) : NULL;
  close(fds[0]);
  int status = 0;
  if (pid > 0)
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
      ;
  int rc = SA_EPARSE;
  if (!out) {
    snprintf(err, errlen, "cannot load platform %s: %s", path, pid < 0 ? strerror(errno) : "out of memory");
  } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    char why[400];
    plat_reason(out, why, sizeof why);
    snprintf(err, errlen, "malformed platform %s: %s", path, why);
  } else {
    rc = from_output(out, flags, pf, err, errlen);
  }
  if (rc == 0 && nch == 0)
    plat_cache_put(path, flags, nodes, rpn, out);
  free(out);
  return rc;
}
