/* fit_cmd.c: `simcalib fit`: measured files in, one calibration file out: network alpha-beta
 * per path class (piecewise), SMPI factors, compute costs, collective cost lines. */
#include <errno.h>
#include <getopt.h>
#include <string.h>

#include "common/sa_error.h"
#include "measure/busylink.h"
#include "fit/calibration.h"
#include "fit/clustercal.h"
#include "fit/collfit.h"
#include "commands.h"
#include "fit/computefit.h"
#include "fit/netfit.h"
#include "fit/smpi_fit.h"
#include "util/textfile.h"

static void usage(FILE *f)
{
  fputs("usage: simcalib fit IN.json... [-o calib.json] [--tol REL] [--max-segments K]\n"
        "                    [--reference intra|inter] [--device cpu|cuda] [--per-byte pingpong|stream]\n"
        "\n"
        "Fits one-way ping-pong time = alpha + beta * bytes for each path class (intra, inter),\n"
        "piecewise: the fewest segments (at most K, default 8) whose worst relative error is at\n"
        "most REL (default 0.05), breakpoints searched over every measured size (weighted least\n"
        "squares, GSL). From the reference class (inter when measured) it derives SMPI's\n"
        "smpi/lat-factor and smpi/bw-factor, and for each class the route latency and bandwidth\n"
        "the platform gets. Kernels become fixed + per-unit costs and the platform's reduce_bw,\n"
        "reduce_lat, copy_bw (per byte), topk_a/b (exact top-k, per element), mstopk_a/b (per\n"
        "input byte), scatter_a/b (per pair); allreduce points (nccl-tests, OSU) get an alpha-beta\n"
        "line per source and rank count, and where their runs say their shape, a cluster fit: the\n"
        "node's and the NICs' rates and latencies and a bandwidth ramp with message size, such\n"
        "that an algorithm's cost model at each run's shape gives its times (simcalib platform\n"
        "--calib then draws that cluster at any size):\n"
        FIT_CLUSTER_OPTIONS
        "\n"
        "--per-byte stream fits, instead of the ping-pong, one-way time = the ping-pong's time at\n"
        "its smallest size + the streaming test's time per message: the cost of a message on a\n"
        "busy link, as collectives send them. Use it where an idle link lets a first burst\n"
        "through at once (a tc tbf bucket, a switch's credit), which the ping-pong would count as\n"
        "bandwidth.\n",
        f);
}

enum { O_TOL = 256, O_MAXSEG, O_REF, O_DEVICE, O_PERBYTE, O_HELP, O_CLUSTER };

static const struct option longopts[] = {
    {"tol", required_argument, NULL, O_TOL},       {"max-segments", required_argument, NULL, O_MAXSEG},
    {"reference", required_argument, NULL, O_REF}, {"device", required_argument, NULL, O_DEVICE},
    {"per-byte", required_argument, NULL, O_PERBYTE},
    {"help", no_argument, NULL, O_HELP},           FIT_CLUSTER_LONGOPTS(O_CLUSTER),
    {NULL, 0, NULL, 0},
};

typedef struct {
  const char *out, *reference, *device;
  int stream; /* per-byte cost from the streaming test */
  double tol;
  long max_seg;
  fit_cluster_opts cluster;
} fit_opts;

static void summary(FILE *f, const fit_net *nf)
{
  fprintf(f, "# %s %s: %zu sizes, %zu segment%s, worst relative error %.1f%%\n", nf->path,
          strcmp(nf->op, MEAS_BUSY_OP) == 0 ? "busy link (ping-pong latency + streaming)" : "ping-pong", nf->n,
          nf->pw.nseg, nf->pw.nseg == 1 ? "" : "s", 100 * nf->pw.max_rel_err);
  fprintf(f, "#   %12s %12s %12s %14s %8s %8s\n", "from(B)", "to(B)", "alpha(us)", "bw(GB/s)", "r2", "maxerr%");
  for (size_t s = 0; s < nf->pw.nseg; s++) {
    const fit_line *l = &nf->pw.line[s];
    size_t first = nf->pw.first[s];
    fprintf(f, "    %12.0f %12.0f %12.4f %14.4f %8.4f %8.2f\n", nf->bytes[first],
            nf->bytes[first + nf->pw.count[s] - 1], l->c0 * 1e6, l->c1 > 0 ? 1e-9 / l->c1 : 0.0, l->r2,
            100 * l->max_rel_err);
  }
}

static int run(const fit_opts *o, int nin, char **in)
{
  md_data d = {0}, busy = {0};
  char err[512];
  fit_net nf[2];
  int have[2] = {0, 0}, status = 1;
  static const char *const paths[] = {"intra", "inter"};
  cJSON *root = cJSON_CreateObject(), *inputs = cJSON_AddArrayToObject(root, "inputs");
  cJSON *net = cJSON_AddObjectToObject(root, "network");
  FILE *tab = cal_table_stream(o->out);
  for (int i = 0; i < nin; i++) {
    if (md_data_read(&d, in[i], err, sizeof err) != 0) {
      status = cal_bad("%s", err);
      goto out;
    }
    cJSON_AddItemToArray(inputs, cJSON_CreateString(in[i]));
  }
  cJSON_AddStringToObject(root, "schema", FIT_CALIBRATION_SCHEMA);
  cJSON_AddStringToObject(root, "machine", d.machine);
  if (o->stream) {
    int made = meas_busy_points(&d, &busy);
    if (made == SA_ENOMEM) {
      status = cal_fail("out of memory");
      goto out;
    }
    if (made == 0) {
      status = cal_bad("fit: --per-byte stream needs ping-pong and streaming points of one path class");
      goto out;
    }
  }
  for (int c = 0; c < 2; c++) {
    int rc = o->stream ? fit_net_run(&busy, MEAS_BUSY_OP, paths[c], o->tol, (size_t)o->max_seg, &nf[c])
                       : fit_net_run(&d, "pingpong", paths[c], o->tol, (size_t)o->max_seg, &nf[c]);
    if (rc == 0) {
      have[c] = 1;
      cJSON_AddItemToObject(net, paths[c], fit_net_json(&nf[c]));
      summary(tab, &nf[c]);
    } else if (rc != SA_ENODATA) {
      status = cal_fail("fitting the %s %s: %s", paths[c], o->stream ? "busy-link times" : "ping-pong",
                        sa_strerror(rc));
      goto out;
    }
  }
  if (have[0] || have[1]) {
    fit_smpi s;
    int rc = fit_smpi_run(have[0] ? &nf[0] : NULL, have[1] ? &nf[1] : NULL, o->reference, &s);
    if (rc != 0) {
      status = rc == SA_ENODATA ? cal_bad("--reference %s: that class was not measured", o->reference)
                                 : cal_fail("deriving SMPI factors: %s", sa_strerror(rc));
      goto out;
    }
    cJSON_AddItemToObject(root, "smpi", fit_smpi_json(&s));
    char set[3][2048];
    for (int k = 0; k < 3; k++)
      fit_smpi_factor_string(&s, k, set[k], sizeof set[k]);
    fprintf(tab, "# SMPI (reference %s): smpi/lat-factor %s\n#   smpi/bw-factor %s\n#   smpi/or %s\n", s.reference,
            set[FIT_SMPI_LAT], set[FIT_SMPI_BW], set[FIT_SMPI_OR]);
    for (int c = 0; c < 2; c++) {
      const fit_smpi_link *l = c ? &s.inter : &s.intra;
      if (l->has)
        fprintf(tab, "#   %s route: latency %.4f us, bandwidth %.4f GB/s, predicted worst error %.1f%%\n", paths[c],
                l->latency_s * 1e6, l->bandwidth_Bps / 1e9, 100 * l->max_rel_err);
    }
  }
  fit_compute comp;
  int crc = fit_compute_run(&d, o->device, &comp);
  if (crc == 0) {
    cJSON_AddItemToObject(root, "compute", fit_compute_json(&comp));
    sa_compute p;
    char desc[512];
    if (fit_compute_props_of(&comp, &p) == 0) {
      sa_compute_describe(&p, SA_DESCRIBE_SPARSE, desc, sizeof desc);
      fprintf(tab, "# compute (%s): %s\n", comp.device, desc);
    }
  } else if (crc != SA_ENODATA) {
    status = cal_fail("fitting kernels: %s", sa_strerror(crc));
    goto out;
  }
  cJSON *coll = fit_coll_json(&d);
  cJSON_AddItemToObject(root, "collectives", coll);
  fit_cluster cl;
  int krc = fit_cluster_calibrate(&d, &o->cluster, &cl, err, sizeof err);
  if (krc == 0) {
    char sources[1024] = "";
    for (int i = 0; i < nin; i++)
      snprintf(sources + strlen(sources), sizeof sources - strlen(sources), "%s%s", i ? " and " : "", in[i]);
    fit_cluster_cal cc;
    fit_cluster_cal_of(&cl, &o->cluster, sources, &cc);
    cJSON *cj = fit_cluster_json(&cl, &o->cluster);
    cJSON_ReplaceItemInObjectCaseSensitive(cj, "notes", cJSON_CreateString(cc.notes));
    cJSON_AddItemToObject(root, "cluster", cj);
    fit_cluster_report(tab, &cl, &o->cluster);
  } else if (krc != SA_ENODATA || cJSON_GetArraySize(coll) > 0) {
    fprintf(stderr, "simcalib: note: no cluster fit of the allreduce runs: %s\n", err);
  }
  fit_cluster_free(&cl);
  if (krc == SA_ENOMEM) {
    status = cal_fail("out of memory");
    goto out;
  }
  if (!have[0] && !have[1] && crc == SA_ENODATA && cJSON_GetArraySize(coll) == 0) {
    status = cal_bad("nothing to fit: no ping-pong, kernel or allreduce points in the input");
    goto out;
  }
  status = util_json_write(root, o->out) == 0 ? 0 : cal_fail("cannot write %s: %s", o->out, strerror(errno));
out:
  for (int c = 0; c < 2; c++)
    if (have[c])
      fit_net_free(&nf[c]);
  cJSON_Delete(root);
  md_data_free(&busy);
  md_data_free(&d);
  return status;
}

int cal_cmd_fit(int argc, char **argv)
{
  fit_opts o = {"-", NULL, "", 0, FIT_NET_TOL, FIT_NET_MAX_SEG, {.algo = NULL}};
  int c;
  optind = 1;
  while ((c = getopt_long(argc, argv, ":o:", longopts, NULL)) != -1) {
    switch (c) {
    case 'o': o.out = optarg; break;
    case O_TOL:
      if (cal_parse_double(optarg, 1e-6, 1.0, &o.tol) != 0)
        return cal_bad("fit: --tol needs a relative error in (0, 1], not '%s'", optarg);
      break;
    case O_MAXSEG:
      if (cal_parse_int(optarg, 1, FIT_NET_MAX_SEG, &o.max_seg) != 0)
        return cal_bad("fit: --max-segments needs 1..%d, not '%s'", FIT_NET_MAX_SEG, optarg);
      break;
    case O_REF:
      if (strcmp(optarg, "intra") != 0 && strcmp(optarg, "inter") != 0)
        return cal_bad("fit: --reference is intra or inter, not '%s'", optarg);
      o.reference = optarg;
      break;
    case O_DEVICE:
      if (strcmp(optarg, "cpu") != 0 && strcmp(optarg, "cuda") != 0)
        return cal_bad("fit: --device is cpu or cuda, not '%s'", optarg);
      o.device = optarg;
      break;
    case O_PERBYTE:
      if (strcmp(optarg, "pingpong") != 0 && strcmp(optarg, "stream") != 0)
        return cal_bad("fit: --per-byte is pingpong or stream, not '%s'", optarg);
      o.stream = strcmp(optarg, "stream") == 0;
      break;
    case O_HELP: usage(stdout); return 0;
    default:
      if (c >= O_CLUSTER && c < O_CLUSTER + FIT_CLUSTER_NOPTS) {
        if (fit_cluster_option(&o.cluster, cal_option_name(longopts, c), optarg ? optarg : "") < 0)
          return 2;
        break;
      }
      return cal_bad_option("fit", c, argv[optind - 1]);
    }
  }
  if (optind >= argc)
    return cal_bad("fit: give at least one measured-data file (simcalib fit --help)");
  if (cal_check_files("fit", o.out, (const char *const *)argv + optind, argc - optind, 0) != 0)
    return 2;
  return run(&o, argc - optind, argv + optind);
}
