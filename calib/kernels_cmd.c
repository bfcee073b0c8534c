/* kernels_cmd.c: `simcalib kernels`: CPU kernels here, or the CUDA kernels binary when
 * --device cuda; both write the same measured-data schema. */
#include <getopt.h>
#include <string.h>
#include <unistd.h>

#include "util/sizes.h"
#include "common/sa_error.h"
#include "commands.h"
#include "measure/kernels_cpu.h"
#include "measured_table.h"
#include "util/run.h"

static void usage(FILE *f)
{
  fputs("usage: simcalib kernels [--device cpu|cuda] [-o k.json] [--max-bytes B] [--max-elements N]\n"
        "                        [--density RHO] [--reps N] [--min-reps N]\n"
        "\n"
        "Times the work the simulation charges as compute: sum of two buffers (fp32, fp16),\n"
        "memcpy, MSTopK and exact top-k selection (k = RHO * d), over sizes growing x4 (buffers\n"
        "4 KiB..--max-bytes, default 64M; selections 4096..--max-elements, default 4M), median of\n"
        "repetitions after one untimed run. --device cuda runs bin/simcalib_cuda (make cuda):\n"
        "cudaMemcpy D2D/H2D/D2H, peer-to-peer copies, the sum, MSTopK and top-k kernels, and an\n"
        "NCCL allreduce sweep, in the same schema.\n",
        f);
}

enum { O_DEVICE = 256, O_MAXB, O_MAXE, O_DENSITY, O_REPS, O_MINREPS, O_HELP };

static const struct option longopts[] = {
    {"device", required_argument, NULL, O_DEVICE},  {"max-bytes", required_argument, NULL, O_MAXB},
    {"max-elements", required_argument, NULL, O_MAXE}, {"density", required_argument, NULL, O_DENSITY},
    {"reps", required_argument, NULL, O_REPS},      {"min-reps", required_argument, NULL, O_MINREPS},
    {"help", no_argument, NULL, O_HELP},            {NULL, 0, NULL, 0},
};

/* Hands the same options, less --device, to the CUDA binary, which writes the same schema. */
static int run_cuda(int argc, char **argv)
{
  char prog[4200], err[512];
  if (cal_helper_path("simcalib_cuda", prog, sizeof prog) != 0)
    return cal_fail("cannot find where simcalib is installed");
  if (access(prog, X_OK) != 0)
    return cal_fail("%s is missing: make cuda builds it where nvcc is installed", prog);
  util_argv a = {0};
  util_argv_add(&a, prog);
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--device") == 0)
      i++;
    else if (strncmp(argv[i], "--device=", 9) != 0)
      util_argv_add(&a, argv[i]);
  }
  int rc = a.oom ? SA_ENOMEM : util_run(a.v, NULL, err, sizeof err);
  util_argv_free(&a);
  return rc == 0 ? 0 : cal_fail("CUDA kernels: %s", rc == SA_ENOMEM ? "out of memory" : err);
}

int cal_cmd_kernels(int argc, char **argv)
{
  meas_kernel_opts o;
  meas_kernel_opts_default(&o);
  const char *out = "-", *device = "cpu";
  char why[200] = "";
  long v;
  int c;
  optind = 1;
  while ((c = getopt_long(argc, argv, ":o:", longopts, NULL)) != -1) {
    int bad = 0;
    switch (c) {
    case 'o': out = optarg; break;
    case O_DEVICE:
      device = optarg;
      bad = strcmp(optarg, "cpu") != 0 && strcmp(optarg, "cuda") != 0;
      break;
    case O_MAXB: bad = util_parse_size(optarg, &o.max_bytes, why, sizeof why) || o.max_bytes < o.min_bytes; break;
    case O_MAXE: bad = util_parse_size(optarg, &o.max_elems, why, sizeof why) || o.max_elems < o.min_elems; break;
    case O_DENSITY: bad = cal_parse_double(optarg, 1e-9, 1.0, &o.density); break;
    case O_REPS: bad = cal_parse_int(optarg, 1, 1000, &v) || (o.reps = (int)v) < 0; break;
    case O_MINREPS: bad = cal_parse_int(optarg, 1, 1000, &v) || (o.min_reps = (int)v) < 0; break;
    case O_HELP: usage(stdout); return 0;
    default: return cal_bad_option("kernels", c, argv[optind - 1]);
    }
    if (bad)
      return cal_bad("kernels: bad value '%s' for %s%s%s", optarg, argv[optind - 1], why[0] ? ": " : "", why);
  }
  if (optind < argc)
    return cal_bad("kernels: unexpected argument '%s'", argv[optind]);
  if (cal_check_files("kernels", out, NULL, 0, 0) != 0)
    return 2;
  if (o.min_reps > o.reps)
    o.min_reps = o.reps;
  if (strcmp(device, "cuda") == 0)
    return run_cuda(argc, argv);

  md_data d = {0};
  snprintf(d.source, sizeof d.source, "simcalib kernels");
  char host[64] = "";
  gethostname(host, sizeof host - 1);
  snprintf(d.machine, sizeof d.machine, "%s, cpu (one thread)", host);
  int rc = meas_kernels_cpu(&o, &d), status = 0;
  if (rc != 0)
    status = cal_fail("kernels: %s", sa_strerror(rc));
  else
    status = cal_data_emit(&d, out);
  md_data_free(&d);
  return status;
}
