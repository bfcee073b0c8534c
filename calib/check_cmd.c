/* check_cmd.c: `simcalib check`: runs the ping-pong program built with smpicc on a platform,
 * for exactly the sizes measured, and compares simulated with measured one-way times. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "platform/launch.h"
#include "platform/platform.h"
#include "util/tmpdir.h"
#include "measure/busylink.h"
#include "common/sa_error.h"
#include "commands.h"
#include "measured/measured.h"
#include "util/textfile.h"

static void usage(FILE *f)
{
  fputs("usage: simcalib check --platform X.xml --measured pp.json [--tol REL] [--per-byte pingpong|stream]\n"
        "                      [-o check.json]\n"
        "\n"
        "Simulates the ping-pong (the same program as simcalib measure, built with smpicc) on the\n"
        "platform between node0-gpu0 and node0-gpu1 (intra) and node0-gpu0 and node1-gpu0 (inter)\n"
        "at every size the measurement holds, and prints measured vs simulated one-way time per\n"
        "size. Exit status 1 when some |error| exceeds REL (default 0.10). --per-byte stream compares\n"
        "with what simcalib fit --per-byte stream fitted instead: the ping-pong latency plus the\n"
        "streaming test's time per message, a message on a busy link.\n",
        f);
}

enum { O_PLATFORM = 256, O_MEASURED, O_TOL, O_PERBYTE, O_HELP };

static const struct option longopts[] = {
    {"platform", required_argument, NULL, O_PLATFORM}, {"measured", required_argument, NULL, O_MEASURED},
    {"tol", required_argument, NULL, O_TOL},           {"per-byte", required_argument, NULL, O_PERBYTE},
    {"help", no_argument, NULL, O_HELP},
    {NULL, 0, NULL, 0},
};

/* Every distinct ping-pong size of the measurement, increasing, as "S1,S2,...". */
static char *size_list(const md_data *m)
{
  double *s = malloc(sizeof(double) * (m->n + 1));
  char *out = malloc(24 * (m->n + 1));
  size_t n = 0;
  if (!s || !out) {
    free(s);
    free(out);
    return NULL;
  }
  out[0] = '\0';
  for (;;) {
    double next = INFINITY, last = n ? s[n - 1] : 0;
    for (size_t i = 0; i < m->n; i++)
      if (strcmp(m->p[i].op, "pingpong") == 0 && m->p[i].bytes > last && m->p[i].bytes < next)
        next = m->p[i].bytes;
    if (!isfinite(next))
      break;
    s[n++] = next;
    sprintf(out + strlen(out), "%s%.0f", n > 1 ? "," : "", next);
  }
  free(s);
  return out;
}

static const md_point *find(const md_data *d, const char *path, double bytes)
{
  for (size_t i = 0; i < d->n; i++)
    if (strcmp(d->p[i].op, "pingpong") == 0 && strcmp(d->p[i].path, path) == 0 && d->p[i].bytes == bytes)
      return &d->p[i];
  return NULL;
}

/* Hosts for the pairs: node0-gpu0, node0-gpu1 when node 0 has two GPUs, the first GPU of
 * node 1 when there is one. */
static int write_hostfile(const plat_file *pf, const char *path, int *np)
{
  FILE *f = fopen(path, "w");
  if (!f)
    return SA_EIO;
  *np = 0;
  for (int i = 0; i < pf->node_size[0] && i < 2; i++, (*np)++)
    fprintf(f, "%s\n", pf->hosts[pf->node_first[0] + i].name);
  if (pf->nnodes > 1) {
    fprintf(f, "%s\n", pf->hosts[pf->node_first[1]].name);
    (*np)++;
  }
  return fclose(f) == 0 && *np >= 2 ? 0 : SA_EIO;
}

static int simulate(const char *platform, const char *sizes, md_data *sim, char *err, size_t errlen)
{
  char prog[4200], hostfile[4200], out[4200], log[4200], np_s[16];
  const char *tmp = util_tmpdir_create_as("simcalib-check", err, errlen);
  if (!tmp)
    return SA_EIO;
  if (cal_helper_path("simcalib_pp_smpi", prog, sizeof prog) != 0) {
    snprintf(err, errlen, "cannot find where simcalib is installed");
    return SA_EIO;
  }
  if (access(prog, X_OK) != 0) {
    snprintf(err, errlen, "%.900s is missing (make calib builds it with smpicc)", prog);
    return SA_EIO;
  }
  plat_file pf;
  int np = 0, rc = plat_load(platform, &pf, err, errlen) == 0 ? 0 : SA_EPARSE;
  snprintf(hostfile, sizeof hostfile, "%s/hostfile", tmp);
  snprintf(out, sizeof out, "%s/sim.json", tmp);
  snprintf(log, sizeof log, "%s/smpirun.log", tmp);
  if (rc == 0 && write_hostfile(&pf, hostfile, &np) != 0) {
    snprintf(err, errlen, "%s has no pair of hosts to ping-pong between", platform);
    rc = SA_EPARSE;
  }
  if (rc == 0) {
    snprintf(np_s, sizeof np_s, "%d", np);
    /* One warm-up round: the first message after MPI_Init pays for the ranks' skew. The
     * simulation is deterministic, so three repetitions are plenty. */
    const char *args[] = {"--sizes", sizes, "--no-stream", "--reps", "3", "--min-reps", "3", "--warmup", "1",
                          "--out",   out,   NULL};
    plat_launch l = {platform, hostfile, prog, tmp, log, np, NULL, 0, (char *const *)args, NULL, NULL, NULL};
    if (plat_launch_run(&l, err, errlen) != 0) {
      size_t used = strlen(err);
      snprintf(err + used, errlen - used, "; see the simulator's output above");
      plat_print_tail(log, 12, stderr);
      rc = SA_ERUN;
    }
  }
  if (rc == 0)
    rc = md_data_read(sim, out, err, errlen);
  if (pf.path)
    plat_free(&pf);
  util_tmpdir_remove();
  return rc;
}

/* Compares the simulated ping-pong with the measured points of op (the ping-pong, or the
 * busy-link points made from it and the streaming test). */
static int compare(const md_data *meas, const char *op, const md_data *sim, double tol, const char *json_out,
                   const char *platform, const char *measured)
{
  static const char *const paths[] = {"intra", "inter"};
  FILE *tab = cal_table_stream(json_out ? json_out : "");
  cJSON *root = cJSON_CreateObject(), *pts = cJSON_AddArrayToObject(root, "points");
  double worst = 0;
  int n = 0, missing = 0;
  fprintf(tab, "# ping-pong one-way time on %s vs %s%s\n", platform, measured,
          strcmp(op, MEAS_BUSY_OP) == 0 ? " (busy link: ping-pong latency + streaming)" : "");
  fprintf(tab, "# %-6s %12s %14s %14s %8s\n", "path", "bytes", "measured(us)", "simulated(us)", "error%");
  for (int c = 0; c < 2; c++)
    for (size_t i = 0; i < meas->n; i++) {
      const md_point *m = &meas->p[i];
      if (strcmp(m->op, op) != 0 || strcmp(m->path, paths[c]) != 0)
        continue;
      const md_point *s = find(sim, paths[c], m->bytes);
      if (!s) {
        missing++;
        continue;
      }
      double e = (s->time_s - m->time_s) / m->time_s;
      worst = fabs(e) > worst ? fabs(e) : worst;
      n++;
      fprintf(tab, "  %-6s %12.0f %14.3f %14.3f %+8.2f%s\n", paths[c], m->bytes, m->time_s * 1e6, s->time_s * 1e6,
              100 * e, fabs(e) > tol ? "  <-- over tolerance" : "");
      cJSON *o = cJSON_CreateObject();
      cJSON_AddStringToObject(o, "path", paths[c]);
      cJSON_AddNumberToObject(o, "bytes", m->bytes);
      cJSON_AddNumberToObject(o, "measured_s", m->time_s);
      cJSON_AddNumberToObject(o, "simulated_s", s->time_s);
      cJSON_AddNumberToObject(o, "error", e);
      cJSON_AddItemToArray(pts, o);
    }
  fprintf(tab, "# %d sizes compared, worst |error| %.2f%% (tolerance %.0f%%)%s\n", n, 100 * worst, 100 * tol,
          missing ? "; some measured paths are not in this platform" : "");
  cJSON_AddStringToObject(root, "platform", platform);
  cJSON_AddStringToObject(root, "measured", measured);
  cJSON_AddNumberToObject(root, "tolerance", tol);
  cJSON_AddNumberToObject(root, "max_abs_err", worst);
  int status = 0;
  if (json_out && util_json_write(root, json_out) != 0)
    status = cal_fail("cannot write %s: %s", json_out, strerror(errno));
  cJSON_Delete(root);
  if (status == 0 && n == 0)
    status = cal_bad("no measured ping-pong size could be compared");
  else if (status == 0 && worst > tol)
    status = cal_fail("the simulated ping-pong is off by %.1f%% at worst, over the %.0f%% tolerance", 100 * worst,
                      100 * tol);
  return status;
}

int cal_cmd_check(int argc, char **argv)
{
  const char *platform = NULL, *measured = NULL, *out = NULL;
  double tol = 0.10;
  int c, stream = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, ":o:", longopts, NULL)) != -1) {
    switch (c) {
    case 'o': out = optarg; break;
    case O_PLATFORM: platform = optarg; break;
    case O_MEASURED: measured = optarg; break;
    case O_TOL:
      if (cal_parse_double(optarg, 1e-6, 10, &tol) != 0)
        return cal_bad("check: --tol needs a positive relative error, not '%s'", optarg);
      break;
    case O_PERBYTE:
      if (strcmp(optarg, "pingpong") != 0 && strcmp(optarg, "stream") != 0)
        return cal_bad("check: --per-byte takes pingpong or stream, not '%s'", optarg);
      stream = strcmp(optarg, "stream") == 0;
      break;
    case O_HELP: usage(stdout); return 0;
    default: return cal_bad_option("check", c, argv[optind - 1]);
    }
  }
  if (optind < argc)
    return cal_bad("check: unexpected argument '%s'", argv[optind]);
  if (!platform || !measured)
    return cal_bad("check: --platform and --measured are required");
  const char *in[] = {platform, measured};
  if (cal_check_files("check", out, in, 2, 0) != 0)
    return 2;
  md_data meas = {0}, sim = {0}, busy = {0};
  char err[1024];
  int status;
  char *sizes = NULL;
  if (md_data_read(&meas, measured, err, sizeof err) != 0) {
    status = cal_bad("%s", err);
  } else if (!(sizes = size_list(&meas)) || !sizes[0]) {
    status = cal_bad("%s holds no ping-pong points", measured);
  } else if (stream && meas_busy_points(&meas, &busy) <= 0) {
    status = cal_bad("%s holds no streaming test to take per-byte costs from", measured);
  } else {
    int rc = simulate(platform, sizes, &sim, err, sizeof err);
    const md_data *against = stream ? &busy : &meas;
    status = rc == SA_EPARSE ? cal_bad("%s", err)
             : rc             ? cal_fail("%s", err)
                              : compare(against, stream ? MEAS_BUSY_OP : "pingpong", &sim, tol, out, platform, measured);
  }
  free(sizes);
  md_data_free(&meas);
  md_data_free(&sim);
  md_data_free(&busy);
  return status;
}
