/* measure_cmd.c: `simcalib measure`: launches the ping-pong program with the real MPI's
 * launcher, on one host (an intra-node pair) or several (an inter-node pair as well). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/sa_error.h"
#include "commands.h"
#include "measured_table.h"
#include "util/tmpdir.h"
#include "util/run.h"

typedef struct {
  long np;
  const char *hosts, *hostfile, *out, *mpirun;
  int yield;
  util_argv pass;  /* options for the ping-pong program */
  util_argv extra; /* options for the launcher */
} measure_opts;

static void usage(FILE *f)
{
  fputs("usage: simcalib measure [--np N] [--hosts H1,H2,... | --hostfile F] [-o pp.json]\n"
        "                        [--sizes MIN:MAX[:F] | S1,S2,...] [--reps N] [--min-reps N] [--warmup N]\n"
        "                        [--budget BYTES] [--window W] [--no-stream] [--paths intra|inter|both]\n"
        "                        [--mpirun CMD] [--mpi-arg ARG]... [--no-yield]\n"
        "\n"
        "Runs an MPI ping-pong (one-way time = half a round trip) and a streaming-bandwidth test\n"
        "(a window of non-blocking sends, then an acknowledgement) between rank 0 and the first\n"
        "rank on its host (intra) and the first rank on another host (inter), over sizes 1 B to\n"
        "256 MiB by default. Each size is repeated (--reps, fewer for large messages so that a size\n"
        "moves about --budget bytes, never fewer than --min-reps) after --warmup untimed rounds;\n"
        "the median and the interquartile spread are kept.\n"
        "\n"
        "  --np N         ranks (default 2 on one host; 3 with several hosts: two on the first)\n"
        "  --hosts LIST   hosts to run on; ranks fill each host's slots in order\n"
        "  --hostfile F   the launcher's hostfile instead of --hosts\n"
        "  --mpirun CMD   the launcher (default $MPIRUN or mpirun)\n"
        "  --mpi-arg ARG  one more launcher argument (repeatable), e.g. --mpi-arg=--mca ...\n"
        "  --no-yield     let idle ranks busy-poll (Open MPI's default) instead of yielding\n"
        "  -o FILE        measured-data JSON (default stdout; the table then goes to stderr)\n",
        f);
}

enum { O_NP = 256, O_HOSTS, O_HOSTFILE, O_MPIRUN, O_MPIARG, O_NOYIELD, O_HELP, O_PASS_ARG, O_PASS_FLAG };

static const struct option longopts[] = {
    {"np", required_argument, NULL, O_NP},         {"hosts", required_argument, NULL, O_HOSTS},
    {"hostfile", required_argument, NULL, O_HOSTFILE}, {"mpirun", required_argument, NULL, O_MPIRUN},
    {"mpi-arg", required_argument, NULL, O_MPIARG}, {"no-yield", no_argument, NULL, O_NOYIELD},
    {"help", no_argument, NULL, O_HELP},           {"sizes", required_argument, NULL, O_PASS_ARG},
    {"reps", required_argument, NULL, O_PASS_ARG}, {"min-reps", required_argument, NULL, O_PASS_ARG},
    {"warmup", required_argument, NULL, O_PASS_ARG}, {"budget", required_argument, NULL, O_PASS_ARG},
    {"window", required_argument, NULL, O_PASS_ARG}, {"window-bytes", required_argument, NULL, O_PASS_ARG},
    {"paths", required_argument, NULL, O_PASS_ARG}, {"no-stream", no_argument, NULL, O_PASS_FLAG},
    {NULL, 0, NULL, 0},
};

static int count_hosts(const char *list)
{
  int n = 1;
  for (const char *c = list; *c; c++)
    n += *c == ',';
  return n;
}

/* Open MPI's launcher takes different options from MPICH's (Hydra). */
static int is_open_mpi(const char *mpirun)
{
  char *argv[] = {(char *)mpirun, "--version", NULL};
  char *out = util_run_capture(argv);
  int yes = out && (strstr(out, "Open MPI") || strstr(out, "OpenRTE"));
  free(out);
  return yes;
}

static void launcher_args(const measure_opts *o, const char *prog, const char *out, util_argv *a)
{
  int ompi = is_open_mpi(o->mpirun);
  long np = o->np;
  util_argv_add(a, o->mpirun);
  if (ompi) {
    if (geteuid() == 0)
      util_argv_add(a, "--allow-run-as-root");
    /* Measuring ranks may outnumber cores on a small host; idle ranks then must yield. */
    util_argv_add(a, "--oversubscribe");
    if (o->yield) {
      util_argv_add(a, "--mca");
      util_argv_add(a, "mpi_yield_when_idle");
      util_argv_add(a, "1");
    }
  }
  util_argv_add(a, ompi ? "-np" : "-n");
  util_argv_addf(a, "%ld", np);
  if (o->hosts) {
    /* Fill each host in order: ranks 0 and 1 share the first host (the intra pair). */
    int h = count_hosts(o->hosts);
    long per = (np + h - 1) / h;
    char *list = strdup(o->hosts), *save = NULL;
    util_argv_add(a, ompi ? "--host" : "-hosts");
    char buf[4096] = "";
    for (char *t = list ? strtok_r(list, ",", &save) : NULL; t; t = strtok_r(NULL, ",", &save))
      snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s:%ld", buf[0] ? "," : "", t, per);
    util_argv_add(a, buf);
    free(list);
    if (ompi) {
      util_argv_add(a, "--map-by");
      util_argv_add(a, "slot");
    }
  } else if (o->hostfile) {
    util_argv_add(a, ompi ? "--hostfile" : "-f");
    util_argv_add(a, o->hostfile);
  }
  for (size_t i = 0; i < o->extra.n; i++)
    util_argv_add(a, o->extra.v[i]);
  util_argv_add(a, prog);
  for (size_t i = 0; i < o->pass.n; i++)
    util_argv_add(a, o->pass.v[i]);
  util_argv_add(a, "--out");
  util_argv_add(a, out);
}

static int parse(int argc, char **argv, measure_opts *o)
{
  memset(o, 0, sizeof *o);
  o->out = "-";
  o->yield = 1;
  o->mpirun = getenv("MPIRUN") && *getenv("MPIRUN") ? getenv("MPIRUN") : "mpirun";
  int c, idx;
  optind = 1;
  while ((c = getopt_long(argc, argv, ":o:", longopts, &idx)) != -1) {
    switch (c) {
    case 'o': o->out = optarg; break;
    case O_NP:
      if (cal_parse_int(optarg, 2, 1 << 20, &o->np) != 0)
        return cal_bad("--np needs a whole number of ranks >= 2, not '%s'", optarg);
      break;
    case O_HOSTS:
      if (!optarg[0] || strstr(optarg, ",,") || optarg[0] == ',' || optarg[strlen(optarg) - 1] == ',')
        return cal_bad("--hosts needs a comma-separated list of host names, not '%s'", optarg);
      o->hosts = optarg;
      break;
    case O_HOSTFILE:
      if (access(optarg, R_OK) != 0)
        return cal_bad("cannot read hostfile '%s'", optarg);
      o->hostfile = optarg;
      break;
    case O_MPIRUN: o->mpirun = optarg; break;
    case O_MPIARG: util_argv_add(&o->extra, optarg); break;
    case O_NOYIELD: o->yield = 0; break;
    case O_HELP: usage(stdout); return 0;
    case O_PASS_ARG:
      util_argv_addf(&o->pass, "--%s", longopts[idx].name);
      util_argv_add(&o->pass, optarg);
      break;
    case O_PASS_FLAG: util_argv_addf(&o->pass, "--%s", longopts[idx].name); break;
    default: return cal_bad_option("measure", c, argv[optind - 1]);
    }
  }
  if (optind < argc)
    return cal_bad("measure: unexpected argument '%s'", argv[optind]);
  if (cal_check_files("measure", o->out, NULL, 0, 0) != 0)
    return 2;
  if (o->hosts && o->hostfile)
    return cal_bad("measure: give --hosts or --hostfile, not both");
  if (o->np == 0)
    o->np = o->hosts && count_hosts(o->hosts) > 1 ? 3 : 2;
  return -1;
}

int cal_cmd_measure(int argc, char **argv)
{
  measure_opts o;
  int status = parse(argc, argv, &o);
  char prog[4200], out[4300], err[512];
  util_argv a = {0};
  md_data d = {0};
  if (status >= 0)
    goto done;
  status = 1;
  if (cal_helper_path("simcalib_pp", prog, sizeof prog) != 0) {
    cal_fail("cannot find where simcalib is installed");
    goto done;
  }
  if (access(prog, X_OK) != 0) {
    cal_fail("the ping-pong program %s is missing (make calib builds it with mpicc)", prog);
    goto done;
  }
  /* under $TMPDIR, removed on exit and on Ctrl-C, and by the next run if this one is killed */
  const char *tmp = util_tmpdir_create_as("simcalib-measure", err, sizeof err);
  if (!tmp) {
    cal_fail("%s", err);
    goto done;
  }
  snprintf(out, sizeof out, "%s/pp.json", tmp);
  launcher_args(&o, prog, out, &a);
  if (a.oom || o.pass.oom || o.extra.oom) {
    cal_fail("out of memory");
    goto done;
  }
  if (util_run(a.v, NULL, err, sizeof err) != 0) {
    cal_fail("measurement failed: %s", err);
    goto done;
  }
  if (md_data_read(&d, out, err, sizeof err) != 0) {
    cal_fail("%s", err);
    goto done;
  }
  status = cal_data_emit(&d, o.out);
done:
  util_tmpdir_remove();
  md_data_free(&d);
  util_argv_free(&a);
  util_argv_free(&o.pass);
  util_argv_free(&o.extra);
  return status;
}
