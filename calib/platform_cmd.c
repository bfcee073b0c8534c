/* platform_cmd.c: `simcalib platform`: calibration + cluster shape -> platform XML. */
#include <getopt.h>
#include <string.h>

#include "common/sa_error.h"
#include "calibration.h"
#include "commands.h"
#include "platform_gen.h"

static void usage(FILE *f)
{
  fputs("usage: simcalib platform --calib calib.json --nodes N --gpus-per-node G [--nics K] [-o X.xml]\n"
        "\n"
        "Writes a platform that simallreduce --platform X.xml runs on: hosts node<i>-gpu<j>, one\n"
        "cluster zone per node (per NIC rail with K > 1; G must be a multiple of K), NIC links\n"
        "into a switch, the fitted route latencies and bandwidths, SMPI's fitted lat/bw factors\n"
        "in <config>, and the fitted compute costs as host properties. simcalib check simulates\n"
        "the ping-pong on it against the measurement.\n",
        f);
}

enum { O_CALIB = 256, O_NODES, O_GPUS, O_NICS, O_HELP };

static const struct option longopts[] = {
    {"calib", required_argument, NULL, O_CALIB}, {"nodes", required_argument, NULL, O_NODES},
    {"gpus-per-node", required_argument, NULL, O_GPUS}, {"nics", required_argument, NULL, O_NICS},
    {"help", no_argument, NULL, O_HELP},         {NULL, 0, NULL, 0},
};

static const char *base_name(const char *path)
{
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

int cal_cmd_platform(int argc, char **argv)
{
  const char *calib = NULL, *out = "-";
  long nodes = 0, gpus = 0, nics = 1;
  int c;
  optind = 1;
  while ((c = getopt_long(argc, argv, ":o:", longopts, NULL)) != -1) {
    switch (c) {
    case 'o': out = optarg; break;
    case O_CALIB: calib = optarg; break;
    case O_NODES:
      if (cal_parse_int(optarg, 1, 100000, &nodes) != 0)
        return cal_bad("platform: --nodes needs 1..100000, not '%s'", optarg);
      break;
    case O_GPUS:
      if (cal_parse_int(optarg, 1, 1024, &gpus) != 0)
        return cal_bad("platform: --gpus-per-node needs 1..1024, not '%s'", optarg);
      break;
    case O_NICS:
      if (cal_parse_int(optarg, 1, 64, &nics) != 0)
        return cal_bad("platform: --nics needs 1..64, not '%s'", optarg);
      break;
    case O_HELP: usage(stdout); return 0;
    default: return cal_bad_option("platform", c, argv[optind - 1]);
    }
  }
  if (optind < argc)
    return cal_bad("platform: unexpected argument '%s'", argv[optind]);
  if (!calib || !nodes || !gpus)
    return cal_bad("platform: --calib, --nodes and --gpus-per-node are required");
  if (gpus % nics != 0)
    return cal_bad("platform: --gpus-per-node %ld is not a multiple of --nics %ld", gpus, nics);
  cal_calibration cal;
  char err[512];
  if (cal_calibration_read(calib, &cal, err, sizeof err) != 0)
    return cal_bad("%s", err);
  char name[256];
  snprintf(name, sizeof name, "%s", strcmp(out, "-") == 0 ? "calibrated" : base_name(out));
  if (strlen(name) > 4 && strcmp(name + strlen(name) - 4, ".xml") == 0)
    name[strlen(name) - 4] = '\0';
  cal_shape s = {(int)nodes, (int)gpus, (int)nics, name, calib};
  FILE *f = strcmp(out, "-") == 0 ? stdout : fopen(out, "w");
  if (!f)
    return cal_fail("cannot write %s", out);
  int rc = cal_platform_write(f, &cal, &s);
  if (f != stdout)
    rc = fclose(f) != 0 ? -1 : rc;
  if (rc != 0)
    return cal_fail("cannot write %s", out);
  cal_links l;
  cal_links_of(&cal, &l);
  if (l.inter_copied && nodes > 1)
    fprintf(stderr, "simcalib: note: no inter-node ping-pong in %s: inter-node links copy the intra-node fit\n", calib);
  if (l.intra_copied && gpus > 1)
    fprintf(stderr, "simcalib: note: no intra-node ping-pong in %s: intra-node links copy the inter-node fit\n", calib);
  return 0;
}
