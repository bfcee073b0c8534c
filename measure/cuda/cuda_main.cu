// cuda_main.cu: simcalib_cuda, the GPU half of `simcalib kernels --device cuda`: copies, sum,
// MSTopK, exact top-k, NCCL's protocols, multicast and an NCCL allreduce sweep, written in the
// measured-data schema.
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_bench.h"

static void usage(FILE *f)
{
  fputs("usage: simcalib_cuda [-o k.json] [--max-bytes B] [--max-elements N] [--density RHO] [--reps N]\n"
        "                     [--nccl-max B] [--gpus G] [--no-nccl] [--protocols-only] [--nvls-only]\n"
        "Times cudaMemcpy D2D/H2D/D2H and GPU 0 -> 1 peer copies, the fp32/fp16 sum kernel,\n"
        "MSTopK and exact top-k on GPU 0, one channel of NCCL's ring with each protocol (LL,\n"
        "LL128, Simple) on GPU 0's multiprocessors, and NCCL allreduce over the first G GPUs\n"
        "(all by default), out-of-place and in-place, 8 B .. --nccl-max (default 256M) doubling;\n"
        "and where the GPU offers multicast (NVSwitch), what a block's warps move through it\n"
        "with multimem.ld_reduce and multimem.st, as NCCL's NVLS stages do.\n"
        "--protocols-only runs the protocols' rings alone, --nvls-only the multicast alone.\n",
        f);
}

static int bytes_arg(const char *s, uint64_t *v)
{
  char *end;
  double x = strtod(s, &end);
  double mul = *end == 'K' ? 1024.0 : *end == 'M' ? 1048576.0 : *end == 'G' ? 1073741824.0 : 1.0;
  if (mul != 1.0)
    end++;
  if (end == s || *end || x <= 0)
    return -1;
  *v = (uint64_t)(x * mul);
  return 0;
}

static int parse(int argc, char **argv, cb_opts *o)
{
  static const struct option longopts[] = {
      {"max-bytes", required_argument, nullptr, 'b'},
      {"max-elements", required_argument, nullptr, 'e'},
      {"density", required_argument, nullptr, 'r'},
      {"reps", required_argument, nullptr, 'n'},
      {"nccl-max", required_argument, nullptr, 'm'},
      {"gpus", required_argument, nullptr, 'g'},
      {"no-nccl", no_argument, nullptr, 'x'},
      {"help", no_argument, nullptr, 'h'},
      {"protocols-only", no_argument, nullptr, 'p'},
      {"nvls-only", no_argument, nullptr, 'v'},
      {nullptr, 0, nullptr, 0},
  };
  *o = cb_opts{
      4096, (uint64_t)256 << 20, 4096, (uint64_t)16 << 20, 8, (uint64_t)256 << 20, 0.01, 20, 2, 20, 0, 1, 1, 1, 1, "-"};
  int c, li = -1;
  opterr = 0; /* one line of ours for a bad option, not getopt's as well */
  while ((c = getopt_long(argc, argv, ":o:", longopts, &li)) != -1) {
    int bad = 0;
    switch (c) {
    case 'o': o->out = optarg; break;
    case 'b': bad = bytes_arg(optarg, &o->max_bytes) || o->max_bytes < o->min_bytes; break;
    case 'e': bad = bytes_arg(optarg, &o->max_elems) || o->max_elems < o->min_elems; break;
    case 'm': bad = bytes_arg(optarg, &o->nccl_max) || o->nccl_max < o->nccl_min; break;
    case 'r': o->density = atof(optarg); bad = !(o->density > 0 && o->density <= 1); break;
    case 'n': o->reps = atoi(optarg); bad = o->reps < 1 || o->reps > 1000; break;
    case 'g': o->gpus = atoi(optarg); bad = o->gpus < 1; break;
    case 'x': o->nccl = 0; break;
    case 'p': o->nccl = o->kernels = o->nvls = 0, o->protocols = 1; break;
    case 'v': o->nccl = o->kernels = o->protocols = 0, o->nvls = 1; break;
    case 'h': usage(stdout); exit(0);
    case ':': fprintf(stderr, "simcalib_cuda: %s needs a value\n", argv[optind - 1]); return 2;
    default: fprintf(stderr, "simcalib_cuda: unknown option '%s'\n", argv[optind - 1]); return 2;
    }
    if (bad) {
      fprintf(stderr, "simcalib_cuda: bad value '%s' for --%s\n", optarg, li >= 0 ? longopts[li].name : "o");
      return 2;
    }
    li = -1; /* getopt_long sets it for long options only */
  }
  if (optind < argc) {
    fprintf(stderr, "simcalib_cuda: unexpected argument '%s'\n", argv[optind]);
    return 2;
  }
  return 0;
}

int main(int argc, char **argv)
{
  cb_opts o;
  int status = parse(argc, argv, &o), n = 0;
  if (status != 0)
    return status;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    fprintf(stderr, "simcalib_cuda: no CUDA device here; run it on a machine with a GPU\n");
    return 1;
  }
  cudaDeviceProp prop;
  md_data d = {};
  snprintf(d.source, sizeof d.source, "simcalib kernels");
  if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess)
    snprintf(d.machine, sizeof d.machine, "%d x %.100s", n, prop.name);
  int rc = o.kernels ? cb_copies(o, &d) : 0;
  if (rc == 0 && o.kernels)
    rc = cb_reduce(o, &d);
  if (rc == 0 && o.kernels)
    rc = cb_topk(o, &d);
  if (rc == 0 && o.protocols)
    rc = cb_protocols(o, &d);
  if (rc == 0 && o.nvls)
    rc = cb_nvls(o, &d);
  if (rc == 0 && o.nccl)
    rc = cb_nccl(o, &d);
  if (rc != 0)
    fprintf(stderr, "simcalib_cuda: %s\n", sa_strerror(rc));
  else if (md_data_write(&d, o.out) != 0) {
    fprintf(stderr, "simcalib_cuda: cannot write %s\n", o.out);
    rc = SA_EIO;
  }
  md_data_free(&d);
  return rc == 0 ? 0 : 1;
}
