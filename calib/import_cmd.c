/* import_cmd.c: `simcalib import nccl-tests|osu LOG`. */
#include <getopt.h>
#include <string.h>

#include "common/sa_error.h"
#include "commands.h"
#include "import.h"
#include "measured_table.h"

static void usage(FILE *f)
{
  fputs("usage: simcalib import nccl-tests LOG [-o measured.json] [--partial]\n"
        "       simcalib import osu LOG [-o measured.json] [--path intra|inter] [--ranks N]\n"
        "\n"
        "Reads nccl-tests all_reduce_perf output (one point per row for the out-of-place and one\n"
        "for the in-place columns) or OSU osu_latency / osu_bw / osu_allreduce output into the\n"
        "measured-data schema. --path says whether the OSU pair was on one node or two (default\n"
        "inter); --ranks gives osu_allreduce's process count. A line that is neither a comment\n"
        "nor a data row is an error naming the line (exit status 2).\n",
        f);
}

enum { O_PATH = 256, O_RANKS, O_PARTIAL, O_HELP };

static const struct option longopts[] = {
    {"path", required_argument, NULL, O_PATH}, {"ranks", required_argument, NULL, O_RANKS},
    {"partial", no_argument, NULL, O_PARTIAL}, {"help", no_argument, NULL, O_HELP},
    {NULL, 0, NULL, 0},
};

int cal_cmd_import(int argc, char **argv)
{
  cal_import_opts o = {"inter", 0, 0};
  const char *out = "-";
  long ranks;
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
      if (cal_parse_int(optarg, 1, 1 << 24, &ranks) != 0)
        return cal_bad("import: --ranks needs a positive whole number, not '%s'", optarg);
      o.ranks = (int)ranks;
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
  FILE *f = strcmp(log, "-") == 0 ? stdin : fopen(log, "r");
  if (!f)
    return cal_bad("import: cannot read %s", log);
  cal_data d = {0};
  char err[512];
  int rc = nccl ? cal_import_nccl(f, log, &o, &d, err, sizeof err) : cal_import_osu(f, log, &o, &d, err, sizeof err);
  if (f != stdin)
    fclose(f);
  int status = 0;
  if (rc != 0)
    status = rc == SA_ENOMEM ? cal_fail("%s", err) : cal_bad("%s", err);
  else
    status = cal_data_emit(&d, out);
  cal_data_free(&d);
  return status;
}
