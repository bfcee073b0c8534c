/* main.c: simcalib, calibration of simallreduce against a real machine: measure, fit, make a
 * platform, check it, import other tools' logs. */
#include <string.h>

#include "commands.h"
#include "util/tmpdir.h"

static void usage(FILE *f)
{
  fputs("usage: simcalib COMMAND [options]\n"
        "\n"
        "  measure  [--np N] [--hosts H1,H2,... | --hostfile F] [-o pp.json]\n"
        "           MPI ping-pong and streaming bandwidth, 1 B..256 MiB (mpicc/mpirun)\n"
        "  kernels  [--device cpu|cuda] [-o k.json]\n"
        "           throughput of sum fp32/fp16, memcpy, MSTopK and exact top-k\n"
        "  fit      IN.json... [-o calib.json]\n"
        "           alpha/beta per path class, piecewise by size; SMPI factors; compute costs;\n"
        "           the node and fabric of allreduce runs (nccl-tests, OSU)\n"
        "  platform (--calib calib.json | --from-nccl-tests LOG | --preset NAME | --node KIND ...)\n"
        "           --nodes N [--gpus-per-node G] [-o X.xml]\n"
        "           a platform file for simallreduce --platform: NVSwitch, PCIe or DGX-1 nodes,\n"
        "           NICs on rails, a fat-tree\n"
        "  check    --platform X.xml --measured pp.json [--tol 0.1]\n"
        "           simulates the ping-pong on the platform and compares it with the measurement\n"
        "  import   nccl-tests|osu LOG [-o measured.json]\n"
        "           nccl-tests all_reduce_perf or OSU osu_latency/osu_bw/osu_allreduce output\n"
        "  validate --measured M.json... --simulated S.json... [-o validation.json]\n"
        "           measured allreduce runs against their simulation: errors per point and summary\n"
        "\n"
        "simcalib COMMAND --help describes each. Exit status: 0 ok, 1 a run failed, 2 bad input.\n",
        f);
}

int main(int argc, char **argv)
{
  static const struct {
    const char *name;
    int (*fn)(int, char **);
  } cmds[] = {{"measure", cal_cmd_measure}, {"kernels", cal_cmd_kernels},   {"fit", cal_cmd_fit},
              {"platform", cal_cmd_platform}, {"check", cal_cmd_check}, {"import", cal_cmd_import},
              {"validate", cal_cmd_validate}};
  util_tmpdir_sweep(); /* what runs killed outright left, whatever this one does */
  if (argc < 2)
    return usage(stderr), 2;
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
    usage(stdout);
    return 0;
  }
  for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
    if (strcmp(argv[1], cmds[i].name) == 0)
      return cmds[i].fn(argc - 1, argv + 1);
  return cal_bad("unknown command '%s' (measure, kernels, fit, platform, check, import, validate; --help)", argv[1]);
}
