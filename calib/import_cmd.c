/* import_cmd.c: `simcalib import nccl-tests|osu LOG`. */
#include <ctype.h>
#include <getopt.h>
#include <string.h>

#include "common/sa_error.h"
#include "commands.h"
#include "import/import.h"
#include "measured_table.h"

static void usage(FILE *f)
{
  fputs("usage: simcalib import nccl-tests LOG [-o measured.json] [--partial] [--run N]\n"
        "       simcalib import osu LOG [-o measured.json] [--path intra|inter] [--ranks N] [--nodes N] [--run N]\n"
        "\n"
        "Reads nccl-tests (or rccl-tests) all_reduce_perf output (one point per row for the\n"
        "out-of-place and one for the in-place columns) or OSU osu_latency / osu_bw /\n"
        "osu_allreduce output into the measured-data schema. Every run in the log becomes a run\n"
        "of the file (ranks, nodes and GPUs per node from nccl-tests' device lines, NCCL\n"
        "version, parameters, datatype), each point naming its own; --run N keeps run N only.\n"
        "Lines that are not part of a table (launcher, MPI, NCCL output) are skipped and counted\n"
        "on stderr. --path says whether the OSU pair was on one node or two (default inter);\n"
        "--ranks and --nodes give osu_allreduce's shape where its log has no launcher line\n"
        "(mpirun -np N) saying it. A malformed row, another collective or tool, a run cut short\n"
        "(unless --partial) or a file that is not a log exits 2 naming the line. Without -o the\n"
        "JSON goes to stdout and a table of the points to stderr; with -o FILE one line on stdout\n"
        "says what was written there.\n",
        f);
}

enum { O_PATH = 256, O_RANKS, O_NODES, O_RUN, O_PARTIAL, O_HELP };

static const struct option longopts[] = {
    {"path", required_argument, NULL, O_PATH}, {"ranks", required_argument, NULL, O_RANKS},
    {"nodes", required_argument, NULL, O_NODES}, {"run", required_argument, NULL, O_RUN},
    {"partial", no_argument, NULL, O_PARTIAL}, {"help", no_argument, NULL, O_HELP},
    {NULL, 0, NULL, 0},
};

/* What was passed over or assumed, one line each on stderr. */
static void notes(const char *log, const imp_report *rep, const md_data *d)
{
  if (rep->skipped > 0) {
    fprintf(stderr, "simcalib: import: skipped %ld line%s that %s not part of the table", rep->skipped,
            rep->skipped == 1 ? "" : "s", rep->skipped == 1 ? "is" : "are");
    if (rep->skipped_inside > 0)
      fprintf(stderr, " (%ld inside it, the first at %s:%ld)", rep->skipped_inside, log, rep->first_inside);
    fputc('\n', stderr);
  }
  for (size_t r = 0; r < d->nruns; r++) {
    const char *v = d->runs[r].nccl_version;
    /* every NCCL (and RCCL) release since 2017 is 2.x */
    if (v[0] && (strncmp(v, "2.", 2) != 0 || !isdigit((unsigned char)v[2])))
      fprintf(stderr, "simcalib: import: run %zu (line %ld) names NCCL version %s, which no release has been "
                      "(they are 2.x): kept as written\n", r, d->runs[r].line, v);
  }
  for (size_t r = 0; r < d->nruns; r++)
    if (!d->runs[r].nccl_version[0] && d->runs[r].nccl_dated[0])
      fprintf(stderr,
              "simcalib: import: run %zu (line %ld) names no NCCL version; its NCCL INFO lines are those of "
              "NCCL %s only (the fit takes the choice of the release it models there that fits best)\n",
              r, d->runs[r].line, d->runs[r].nccl_dated);
  for (size_t r = 0; r < d->nruns; r++) { /* NCCL's tuning lines (import_nccl.h) */
    size_t said = 0, i = 0;
    for (const md_point *p; (p = md_run_next(d, (int)r, "allreduce", &i));)
      said += p->nccl_ran[0] && p->inplace != 1;
    if (said)
      fprintf(stderr, "simcalib: import: run %zu (line %ld): its tuning lines name NCCL's choice at %zu size%s; the fit "
                      "of NCCL's choice follows them\n", r, d->runs[r].line, said, said == 1 ? "" : "s");
  }
  for (size_t r = 0; r < d->nruns; r++)
    if (d->runs[r].dtype_assumed)
      fprintf(stderr, "simcalib: import: run %zu (%s, line %ld) does not name its datatype: %s assumed, the "
              "type it reduces by default\n", r, d->runs[r].test, d->runs[r].line, d->runs[r].dtype);
}

/* -o FILE: the points go to the file and one line on stdout says where; a table of them
 * would print the log again. */
static int wrote(const md_data *d, const char *out)
{
  int rc = cal_data_write(d, out);
  if (rc == 0)
    printf("wrote %zu point%s of %zu run%s to %s\n", d->n, d->n == 1 ? "" : "s", d->nruns, d->nruns == 1 ? "" : "s",
           out);
  return rc;
}

int cal_cmd_import(int argc, char **argv)
{
  imp_opts o = {"inter", 0, 0, 0};
  const char *out = "-";
  long v, run = -1;
  int c;
  optind = 1;
  while ((c = getopt_long(argc, argv, ":o:", longopts, NULL)) != -1) {
    switch (c) {
    case 'o': out = optarg; break;
    case O_PATH:
      if (strcmp(optarg, "intra") != 0 && strcmp(optarg, "inter") != 0)
        return cal_bad("import: --path is intra or inter, not '%s'", optarg);
      o.path = optarg;
      break;
    case O_RANKS:
    case O_NODES:
      if (cal_parse_int(optarg, 1, 1 << 24, &v) != 0)
        return cal_bad("import: --%s needs a positive whole number, not '%s'", c == O_RANKS ? "ranks" : "nodes",
                       optarg);
      *(c == O_RANKS ? &o.ranks : &o.nodes) = (int)v;
      break;
    case O_RUN:
      if (cal_parse_int(optarg, 0, 1 << 24, &run) != 0)
        return cal_bad("import: --run needs a run number (0, 1, ...), not '%s'", optarg);
      break;
    case O_PARTIAL: o.partial = 1; break;
    case O_HELP: usage(stdout); return 0;
    default: return cal_bad_option("import", c, argv[optind - 1]);
    }
  }
  if (argc - optind != 2)
    return cal_bad("import: give the tool (nccl-tests or osu) and one log file");
  const char *tool = argv[optind], *log = argv[optind + 1];
  int nccl = strcmp(tool, "nccl-tests") == 0;
  if (!nccl && strcmp(tool, "osu") != 0)
    return cal_bad("import: unknown tool '%s' (nccl-tests or osu)", tool);
  if (cal_check_files("import", out, &log, 1, 1) != 0)
    return 2;
  FILE *f = strcmp(log, "-") == 0 ? stdin : fopen(log, "r");
  if (!f)
    return cal_bad("import: cannot read %s", log);
  md_data d = {0};
  imp_report rep;
  char err[512];
  int rc = nccl ? imp_nccl(f, log, &o, &d, &rep, err, sizeof err)
                : imp_osu(f, log, &o, &d, &rep, err, sizeof err);
  if (f != stdin)
    fclose(f);
  int status = 0;
  if (rc == 0 && run >= 0 && md_data_keep_run(&d, (int)run) != 0)
    status = cal_bad("import: --run %ld, but %s holds %zu run%s (0 to %zu)", run, log, d.nruns,
                     d.nruns == 1 ? "" : "s", d.nruns - 1);
  else if (rc != 0)
    status = rc == SA_ENOMEM ? cal_fail("%s", err) : cal_bad("%s", err);
  else {
    notes(log, &rep, &d);
    status = strcmp(out, "-") == 0 ? cal_data_emit(&d, out) : wrote(&d, out);
  }
  md_data_free(&d);
  return status;
}
