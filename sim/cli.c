/* cli.c: parses and checks the simallreduce options; every mistake gets one line. */
#include "cli.h"
#include "common/sa_error.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/cost.h"
#include "nccl/nccl_env.h"
#include "catalog.h"
#include "training.h"
#include "platform/sg_settings.h"
#include "util/sizes.h"

enum {
  O_PLATFORM = 256, O_ALGO, O_SIZE, O_SIZES, O_DTYPE, O_NODES, O_RPN, O_VERIFY, O_PHASES, O_JSON, O_CSV,
  O_SEGMENT, O_CHANNELS, O_DENSITY, O_OVERLAP, O_CFG, O_LIST_ALGOS, O_LIST_PLATFORMS, O_HELP, O_MODE,
  O_ALLOW_SPARSE, O_JSONL, O_RESUME, O_VERSION, O_LINKS, O_TRACE, O_TRACE_RANKS, O_TIMING, O_PROTO, O_NCCL_ALGO,
  O_NCCL_VERSION, O_EXPORT_TUNER, O_WHAT_IF, O_LIST_LINKS, O_WORKLOAD, O_BUCKETS, O_JOBS
};

static const struct option longopts[] = {
    {"platform", required_argument, NULL, O_PLATFORM}, {"algo", required_argument, NULL, O_ALGO},
    {"size", required_argument, NULL, O_SIZE},         {"sizes", required_argument, NULL, O_SIZES},
    {"dtype", required_argument, NULL, O_DTYPE},       {"nodes", required_argument, NULL, O_NODES},
    {"ranks-per-node", required_argument, NULL, O_RPN}, {"verify", no_argument, NULL, O_VERIFY},
    {"phases", no_argument, NULL, O_PHASES},           {"json", required_argument, NULL, O_JSON},
    {"csv", required_argument, NULL, O_CSV},           {"segment", required_argument, NULL, O_SEGMENT},
    {"channels", required_argument, NULL, O_CHANNELS}, {"density", required_argument, NULL, O_DENSITY},
    {"overlap", required_argument, NULL, O_OVERLAP},   {"cfg", required_argument, NULL, O_CFG},
    {"list-algos", no_argument, NULL, O_LIST_ALGOS},   {"list-platforms", no_argument, NULL, O_LIST_PLATFORMS},
    {"help", no_argument, NULL, O_HELP},               {"mode", required_argument, NULL, O_MODE},
    {"allow-sparse", no_argument, NULL, O_ALLOW_SPARSE}, {"jsonl", required_argument, NULL, O_JSONL},
    {"resume", required_argument, NULL, O_RESUME},     {"version", no_argument, NULL, O_VERSION},
    {"links", optional_argument, NULL, O_LINKS},       {"trace", required_argument, NULL, O_TRACE},
    {"trace-ranks", required_argument, NULL, O_TRACE_RANKS},
    {"timing", required_argument, NULL, O_TIMING},     {"proto", required_argument, NULL, O_PROTO},
    {"nccl-algo", required_argument, NULL, O_NCCL_ALGO}, {"nccl-version", required_argument, NULL, O_NCCL_VERSION},
    {"export-tuner", required_argument, NULL, O_EXPORT_TUNER},
    {"what-if", required_argument, NULL, O_WHAT_IF},   {"list-links", no_argument, NULL, O_LIST_LINKS},
    {"workload", required_argument, NULL, O_WORKLOAD}, {"buckets", required_argument, NULL, O_BUCKETS},
    {"jobs", required_argument, NULL, O_JOBS},
    {NULL, 0, NULL, 0},
};

void sim_cli_usage(FILE *f)
{
  fputs("usage: simallreduce [--platform P] [--algo A[,B...]|all|best] [--size S | --sizes MIN:MAX[:FACTOR]|S1,S2,...]\n"
        "                    [--dtype fp32|fp16] [--nodes N] [--ranks-per-node R] [--verify] [--phases]\n"
        "                    [--json FILE] [--csv FILE] [--jsonl FILE] [--resume FILE]\n"
        "                    [--segment BYTES] [--channels C]\n"
        "                    [--density RHO] [--overlap F] [--cfg KEY:VALUE]...\n"
        "                    [--mode sim|model|both [--jobs N]] [--allow-sparse] [--timing barrier|nccl-tests]\n"
        "                    [--links [N]] [--trace FILE.json [--trace-ranks LIST]]\n"
        "                    [--proto P[,P...]] [--nccl-algo A[,A...]] [--nccl-version V] [--export-tuner FILE]\n"
        "                    [--what-if SPEC]... [--workload NAME|FILE.json [--buckets ddp|horovod|SIZE]]\n"
        "       simallreduce --list-algos | --list-platforms | [--platform P] --list-links | --version | --help\n"
        "\n"
        "Simulates allreduce algorithms, running their real code over SimGrid's SMPI on a GPU\n"
        "cluster described by a platform file (one SimGrid host per GPU).\n"
        "\n"
        "  --platform P         platform file, or a name in platforms/ (default tencent16)\n"
        "  --algo LIST          comma-separated algorithms, or 'all' for every dense one but NCCL's\n"
        "                       (default ring); 'best' alone: per size, the dense one the cost models\n"
        "                       predict fastest; nccl-ring, nccl-tree: NCCL's own; nccl: what NCCL\n"
        "                       would run at each size\n"
        "  --size S             bytes per rank (default 100M): K/M/G/T = 2^10/2^20/2^30/2^40 in any\n"
        "                       case, as nccl-tests takes them, KiB/MiB/... and KB/MB/... the same;\n"
        "                       fractions that make whole elements (1.5M)\n"
        "  --sizes MIN:MAX[:F]  sweep MIN, MIN*F, ... up to MAX (F defaults to 2; at most 100000 sizes)\n"
        "  --sizes S1,S2,...    exactly these sizes\n"
        "  --dtype T            fp32 (default) or fp16\n"
        "  --nodes N            use the first N nodes (default all)\n"
        "  --ranks-per-node R   use the first R GPUs of each node (default all)\n"
        "  --verify             move and reduce real data and check it against a reference\n"
        "  --phases             print each algorithm's phase breakdown (always for a single size)\n"
        "  --json FILE, --csv FILE  write every result (the CSV row by row, as points finish)\n"
        "  --jsonl FILE         write every result as JSON Lines, each line as its point finishes\n"
        "  --resume FILE        skip the points an earlier run of the same sweep wrote to FILE\n"
        "                       (its --jsonl or --json): a stopped sweep goes on where it stopped\n"
        "  --segment BYTES      pipelining segment of the trees (default 1M; at most 4096 segments\n"
        "                       of the largest size when simulated)\n"
        "  --channels C         concurrent rings for ring (default 1); channels of nccl-ring, nccl-tree\n"
        "                       and nccl (default: NCCL's choice at each size), 1 to 64\n"
        "  --proto P            the protocols nccl-ring, nccl-tree and nccl may run, as NCCL_PROTO\n"
        "                       gives them: LL, LL128, Simple, a list (LL,Simple) or all but a list\n"
        "                       (^LL128) (default: NCCL's choice at each size)\n"
        "  --nccl-algo A        the algorithms nccl chooses among, as NCCL_ALGO gives them: Ring,\n"
        "                       Tree, NVLS, NVLSTree, a list or ^list (default: all NCCL runs there)\n"
        "  --nccl-version V     the NCCL whose choices nccl follows and whose tuning model is shown:\n"
        "                       2.30.7, 2.29.7, 2.28.9, 2.27.7, 2.26.2, 2.12.12 or 2.7.5; a series (2.30)\n"
        "                       names its latest (default: the release a fitted platform's fit\n"
        "                       modelled, else 2.26.2)\n"
        "  --export-tuner FILE  with --algo nccl: run every algorithm and protocol NCCL could pick at\n"
        "                       each size and write the fastest per size as the decision table of\n"
        "                       the NCCL tuner plugin (docs/tuner.md); a summary of it on stderr\n"
        "  --density RHO        top-k density, in (0,1] (default 0.01)\n"
        "  --overlap F          top-k timing mode: fraction of indices shared between ranks (default 0)\n"
        "  --cfg KEY:VALUE      extra SimGrid setting, e.g. --cfg smpi/allreduce:lr\n"
        "  --mode M             sim: simulate; model: cost models only, no simulation; both (default):\n"
        "                       simulate and add each model's prediction and its difference\n"
        "  --jobs N             with --mode model: the processes NCCL's models (which replay its\n"
        "                       pipeline) run in side by side (default: one per processor); the same\n"
        "                       predictions, bit for bit\n"
        "  --allow-sparse       with --algo best: top-k algorithms (whose result is a sparsified\n"
        "                       sum) may be chosen too\n"
        "  --links [N]          after each point, its N busiest links (default 10): MiB carried, busy\n"
        "                       time, mean and peak utilization; every link used in the JSON\n"
        "  --trace FILE.json    a timeline of every rank and the busiest links' throughput, in the\n"
        "                       Chrome trace-event format (open it in https://ui.perfetto.dev)\n"
        "  --trace-ranks LIST   the ranks the trace shows, e.g. 0-7,64 (default all, or the first 128)\n"
        "  --timing T           barrier (default): each allreduce from a barrier to the slowest rank's\n"
        "                       end, start skew included; nccl-tests: as all_reduce_perf times it, the\n"
        "                       steady state of back-to-back allreduces (compare with its logs this way)\n"
        "  --what-if SPEC       a fault, repeatable (docs/what-if.md); each row then shows the healthy\n"
        "                       time beside it and the slowdown:\n"
        "                         straggler:RANK:+TIME   the rank reaches every allreduce TIME late (10ms)\n"
        "                         straggler:RANK:xF      its GPU sums, copies and selects F times slower\n"
        "                         link:NAME:xF           a link's bandwidth times F (names: --list-links)\n"
        "                         link:NAME:+LAT         a link's latency plus LAT (2us)\n"
        "                         nic-down:NODE-K        NIC K of a node gone (its GPUs use another, as NCCL)\n"
        "                         rail-down:K            NIC K of every node gone\n"
        "                         background:NAME:SHARE  another job holds SHARE of a link, in (0,1)\n"
        "                         jitter:SIGMA[:SEED]    every rank late by |N(0,SIGMA)|, drawn per rank\n"
        "  --list-links         every link of the platform: name, bandwidth, latency\n"
        "  --workload W         a training step instead of --sizes (docs/training.md): a model's\n"
        "                       gradients in buckets, each bucket's allreduce overlapping backprop;\n"
        "                       per algorithm the iteration, exposed communication, samples/s and\n"
        "                       scaling efficiency; W a built-in (resnet50, vgg19, transformer,\n"
        "                       bert-large, ...) or a JSON file\n"
        "  --buckets B          ddp (PyTorch DDP's 25 MiB, default), horovod (64 MiB fusion every\n"
        "                       5 ms), whole (one allreduce after backprop: no overlap) or a size\n"
        "\n"
        "Output columns follow nccl-tests: algbw = size/time, busbw = algbw * 2(n-1)/n.\n"
        "Exit status: 0 ok, 1 simulation failed or did not verify, 2 bad input.\n",
        f);
}

/* --what-if SPEC: checked as text now, against the platform once it is loaded. */
static int add_whatif(sim_opts *o, const char *spec, char *err, size_t errlen)
{
  sa_whatif *g = realloc(o->whatif, sizeof *g * (size_t)(o->nwhatif + 1));
  if (!g) {
    snprintf(err, errlen, "out of memory");
    return SA_ENOMEM;
  }
  o->whatif = g;
  int rc = sa_whatif_parse(spec, &g[o->nwhatif], err, errlen);
  if (rc == 0)
    o->nwhatif++;
  return rc;
}

static int fail(char *err, size_t errlen, const char *msg, const char *arg);

/* --workload: its buckets' sizes are the run's, in the workload's gradient type. */
static int workload_sizes(sim_opts *o, int sizes_given, int dtype_given, char *err, size_t errlen)
{
  if (sizes_given)
    return fail(err, errlen, "--workload gives the sizes (its buckets'): it cannot go with --size or --sizes%s", "");
  if (!(o->training = malloc(sizeof *o->training)))
    return fail(err, errlen, "out of memory%s", "");
  int rc = sim_training_open(o->training, o->workload, o->buckets, dtype_given ? (int)kn_dtype_size(o->dtype) : 0, err,
                             errlen);
  if (rc != 0) {
    free(o->training);
    o->training = NULL;
    return rc;
  }
  o->dtype = o->training->w.elem == 2 ? KN_FP16 : KN_FP32; /* the workload's, or --dtype's */
  int n = sim_training_sizes(o->training, &o->sizes);
  if (n <= 0)
    return fail(err, errlen, n == 0 ? "--workload %s has no gradient to reduce" : "out of memory", o->workload);
  o->nsizes = n;
  return 0;
}

static int fail(char *err, size_t errlen, const char *msg, const char *arg)
{
  snprintf(err, errlen, msg, arg);
  return SA_EINVAL;
}

static int parse_int(const char *opt, const char *s, long lo, long hi, int *out, char *err, size_t errlen)
{
  char *end;
  long v = strtol(s, &end, 10);
  if (end == s || *end || v < lo || v > hi) {
    snprintf(err, errlen, "%s '%s' must be a whole number from %ld to %ld", opt, s, lo, hi);
    return SA_EINVAL;
  }
  *out = (int)v;
  return 0;
}

static int parse_real(const char *s, double *out)
{
  char *end;
  *out = strtod(s, &end);
  return end != s && *end == '\0' && isfinite(*out) ? 0 : SA_EINVAL;
}

static int add_algo(sim_opts *o, const char *name, char *err, size_t errlen)
{
  for (int i = 0; i < o->nalgos; i++)
    if (strcmp(o->algos[i], name) == 0)
      return 0;
  if (o->nalgos == SIM_MAX_ALGOS)
    return fail(err, errlen, "too many algorithms in --algo%s", "");
  o->algos[o->nalgos++] = name;
  return 0;
}

/* --links [N]: the number may follow as the next argument, as --links 20, or be left out. */
static int parse_links(sim_opts *o, int argc, char **argv, char *err, size_t errlen)
{
  const char *n = optarg;
  if (!n && optind < argc && argv[optind][0] >= '0' && argv[optind][0] <= '9')
    n = argv[optind++];
  o->links = SIM_DEFAULT_LINKS;
  return n ? parse_int("--links", n, 1, 1000000, &o->links, err, errlen) : 0;
}

const char *sim_timing_name(cost_timing t) { return t == COST_TIMING_NCCL_TESTS ? "nccl-tests" : "barrier"; }

const char *sim_mode_name(sim_mode m) { return m == SIM_MODE_SIM ? "sim" : m == SIM_MODE_MODEL ? "model" : "both"; }

/* --algo best: the candidates are the algorithms with a model, dense ones unless
 * --allow-sparse (a top-k algorithm changes the result, so it must be asked for). */
static int best_candidates(sim_opts *o, char *err, size_t errlen)
{
  int rc = 0;
  o->best = 1;
  for (const sim_algo_info *a = sim_catalog; a->name && rc == 0; a++)
    if (cost_has_model(a->name) && !(a->flags & AR_NCCL) && ((a->flags & AR_DENSE) || o->allow_sparse))
      rc = add_algo(o, a->name, err, errlen);
  return rc;
}

static int parse_algos(sim_opts *o, const char *list, char *err, size_t errlen)
{
  o->nalgos = 0;
  if (strcmp(list, "best") == 0)
    return best_candidates(o, err, errlen);
  if (strstr(list, "best") && strlen(list) > 4) {
    for (const char *t = list; (t = strstr(t, "best")); t += 4)
      if ((t == list || t[-1] == ',') && (t[4] == ',' || t[4] == '\0'))
        return fail(err, errlen, "--algo best chooses one algorithm per size: give it alone, not in '%s'", list);
  }
  char *copy = strdup(list), *save = NULL;
  int rc = copy ? 0 : SA_ENOMEM;
  for (char *tok = copy ? strtok_r(copy, ",", &save) : NULL; tok && rc == 0; tok = strtok_r(NULL, ",", &save)) {
    if (strcmp(tok, "all") == 0) {
      for (const sim_algo_info *a = sim_catalog; a->name && rc == 0; a++)
        if ((a->flags & AR_DENSE) && !(a->flags & AR_NCCL))
          rc = add_algo(o, a->name, err, errlen);
      continue;
    }
    const sim_algo_info *a = sim_catalog_find(tok);
    if (!a) {
      char known[512] = "";
      for (const sim_algo_info *k = sim_catalog; k->name; k++)
        snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", known[0] ? ", " : "", k->name);
      snprintf(err, errlen, "unknown algorithm '%s' (known: %s, all)", tok, known);
      rc = SA_EINVAL;
    } else {
      rc = add_algo(o, a->name, err, errlen);
    }
  }
  free(copy);
  if (rc == 0 && o->nalgos == 0)
    return fail(err, errlen, "--algo '%s' names no algorithm", list);
  return rc;
}

static int set_sizes(sim_opts *o, const char *size, const char *sweep, char *err, size_t errlen)
{
  size_t elem = kn_dtype_size(o->dtype);
  uint64_t min, max;
  double factor = 2;
  if (size && sweep)
    return fail(err, errlen, "give --size or --sizes, not both%s", "");
  if (sweep && !strchr(sweep, ':')) {
    int n = util_parse_size_list(sweep, elem, &o->sizes, err, errlen);
    if (n < 0)
      return n;
    o->nsizes = n;
    return 0;
  }
  if (sweep) {
    if (util_parse_sweep(sweep, &min, &max, &factor, err, errlen))
      return SA_EINVAL;
    if (max < elem)
      return fail(err, errlen, "--sizes '%s' holds not even one element", sweep);
    /* counted before they are made: a factor a hair above 1 would take forever */
    double steps = log((double)max / (double)(min > elem ? min : elem)) / log(factor);
    if (steps >= SIM_MAX_SIZES) {
      snprintf(err, errlen, "--sizes '%s' makes about %.3g sizes, more than the %d a run takes: use a larger factor",
               sweep, steps + 1, SIM_MAX_SIZES);
      return SA_EINVAL;
    }
  } else {
    min = SIM_DEFAULT_SIZE;
    if (size && util_parse_size(size, &min, err, errlen))
      return SA_EINVAL;
    if (min % elem != 0) {
      snprintf(err, errlen, "--size %s is not a whole number of %s elements (%zu bytes each)", size,
               kn_dtype_name(o->dtype), elem);
      return SA_EINVAL;
    }
    max = min;
  }
  uint64_t *v;
  int n = util_expand_sweep(min, max, factor, elem, &v);
  if (n < 0)
    return fail(err, errlen, "out of memory%s", "");
  o->sizes = v;
  o->nsizes = n;
  return 0;
}

/* The trees' segments at the largest size: SMPI's cost grows with the square of the
 * messages pending at a rank (its matching walks them), so a tiny --segment makes a run
 * that does not end (1M in 1-byte segments: 262144 of them, still running after minutes;
 * 4096 take seconds). The models have no such limit. */
static int check_segments(const sim_opts *o, char *err, size_t errlen)
{
  uint64_t largest = 0, elem = kn_dtype_size(o->dtype), seg = o->segment / elem ? o->segment / elem : 1;
  for (int i = 0; i < o->nsizes; i++)
    largest = o->sizes[i] > largest ? o->sizes[i] : largest;
  uint64_t nseg = (largest / elem + seg - 1) / seg;
  for (int a = 0; a < o->nalgos && o->mode != SIM_MODE_MODEL; a++) {
    const sim_algo_info *info = sim_catalog_find(o->algos[a]);
    if (!info || !(info->flags & AR_TREES) || nseg <= SIM_MAX_SEGMENTS)
      continue;
    char sz[32], min[32];
    util_format_size(largest, sz, sizeof sz);
    util_format_size((largest + SIM_MAX_SEGMENTS - 1) / SIM_MAX_SEGMENTS, min, sizeof min);
    snprintf(err, errlen,
             "--segment %llu: %s at %s would be cut into %llu segments, more than the %d a simulation can take: "
             "give --segment %s or more",
             (unsigned long long)o->segment, o->algos[a], sz, (unsigned long long)nseg, SIM_MAX_SEGMENTS, min);
    return SA_EINVAL;
  }
  return 0;
}

/* --cfg KEY:VALUE: the settings the models read, and those with which a run cannot end,
 * are checked as SimGrid would read them (platform/sg_settings.c); the rest SimGrid checks. */
static int add_cfg(sim_opts *o, const char *arg, char *err, size_t errlen)
{
  const char *colon = strchr(arg, ':');
  if (!colon || colon == arg || o->ncfg == SIM_MAX_CFG)
    return fail(err, errlen, "--cfg '%s' must be KEY:VALUE", arg);
  char key[128], why[256];
  snprintf(key, sizeof key, "%.*s", (int)(colon - arg), arg);
  if (plat_setting_check(key, colon + 1, why, sizeof why) != 0)
    return fail(err, errlen, "--cfg %s", why);
  o->cfg[o->ncfg++] = arg;
  return 0;
}

int sim_cli_parse(int argc, char **argv, sim_opts *o, char *err, size_t errlen)
{
  memset(o, 0, sizeof *o);
  o->platform = "tencent16";
  o->segment = 1 << 20;
  o->nccl_version = nccl_version_default();
  o->density = 0.01;
  const char *size = NULL, *sweep = NULL, *algos = "ring";
  int dtype_given = 0;
  optind = 0; /* GNU getopt: start afresh, so the parser can be called again (tests do) */
  opterr = 0;
  int c, rc = 0;
  while (rc == 0 && (c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
    switch (c) {
    case O_PLATFORM: o->platform = optarg; break;
    case O_ALGO: algos = optarg; break;
    case O_SIZE: size = optarg; break;
    case O_SIZES: sweep = optarg; break;
    case O_DTYPE:
      dtype_given = 1;
      if (kn_dtype_parse(optarg, &o->dtype))
        rc = fail(err, errlen, "unknown --dtype '%s' (fp32 or fp16)", optarg);
      break;
    case O_NODES: rc = parse_int("--nodes", optarg, 1, 1 << 20, &o->nodes, err, errlen); break;
    case O_RPN: rc = parse_int("--ranks-per-node", optarg, 1, 4096, &o->ranks_per_node, err, errlen); break;
    case O_VERIFY: o->verify = 1; break;
    case O_PHASES: o->phases = 1; break;
    case O_JSON: o->json_path = optarg; break;
    case O_CSV: o->csv_path = optarg; break;
    case O_JSONL: o->jsonl_path = optarg; break;
    case O_RESUME: o->resume_path = optarg; break;
    case O_JOBS: rc = parse_int("--jobs", optarg, 1, 1024, &o->jobs, err, errlen); break;
    case O_VERSION: o->action = SIM_VERSION; break;
    case O_SEGMENT: rc = util_parse_size(optarg, &o->segment, err, errlen); break;
    case O_CHANNELS: rc = parse_int("--channels", optarg, 1, 64, &o->channels, err, errlen); break;
    case O_DENSITY:
      if (parse_real(optarg, &o->density) || !(o->density > 0 && o->density <= 1))
        rc = fail(err, errlen, "--density '%s' must be in (0,1]", optarg);
      break;
    case O_OVERLAP:
      if (parse_real(optarg, &o->overlap) || !(o->overlap >= 0 && o->overlap <= 1))
        rc = fail(err, errlen, "--overlap '%s' must be in [0,1]", optarg);
      break;
    case O_CFG: rc = add_cfg(o, optarg, err, errlen); break;
    case O_LIST_ALGOS: o->action = SIM_LIST_ALGOS; break;
    case O_LIST_PLATFORMS: o->action = SIM_LIST_PLATFORMS; break;
    case 'h':
    case O_HELP: o->action = SIM_HELP; break;
    case O_MODE:
      if (strcmp(optarg, "sim") == 0)
        o->mode = SIM_MODE_SIM;
      else if (strcmp(optarg, "model") == 0)
        o->mode = SIM_MODE_MODEL;
      else if (strcmp(optarg, "both") == 0)
        o->mode = SIM_MODE_BOTH;
      else
        rc = fail(err, errlen, "unknown --mode '%s' (sim, model or both)", optarg);
      break;
    case O_ALLOW_SPARSE: o->allow_sparse = 1; break;
    case O_LINKS: rc = parse_links(o, argc, argv, err, errlen); break;
    case O_TRACE: o->trace_path = optarg; break;
    case O_TRACE_RANKS: o->trace_ranks = optarg; break;
    case O_TIMING:
      if (strcmp(optarg, "barrier") == 0 || strcmp(optarg, "nccl-tests") == 0)
        o->timing = strcmp(optarg, "barrier") == 0 ? COST_TIMING_BARRIER : COST_TIMING_NCCL_TESTS;
      else
        rc = fail(err, errlen, "unknown --timing '%s' (barrier or nccl-tests)", optarg);
      break;
    case O_PROTO:
    case O_NCCL_ALGO: {
      char why[256];
      unsigned *set = c == O_PROTO ? &o->nccl_protos : &o->nccl_algos;
      if (!(*set = nccl_env_parse(c == O_PROTO ? NCCL_ENV_PROTO : NCCL_ENV_ALGO, optarg, why, sizeof why)))
        rc = fail(err, errlen, c == O_PROTO ? "--proto: %s" : "--nccl-algo: %s", why);
      break;
    }
    case O_NCCL_VERSION:
      o->nccl_version_given = 1;
      if (!(o->nccl_version = nccl_version_find(optarg))) {
        snprintf(err, errlen, "unknown --nccl-version '%s' (known: %s)", optarg, nccl_version_list());
        rc = SA_EINVAL;
      }
      break;
    case O_EXPORT_TUNER: o->export_tuner = optarg; break;
    case O_WHAT_IF: rc = add_whatif(o, optarg, err, errlen); break;
    case O_WORKLOAD: o->workload = optarg; break;
    case O_BUCKETS: o->buckets = optarg; break;
    case O_LIST_LINKS: o->action = SIM_LIST_LINKS; break;
    case ':': rc = fail(err, errlen, "option %s needs a value", argv[optind - 1]); break;
    default: rc = fail(err, errlen, "unknown option '%s' (--help lists them)", argv[optind - 1]); break;
    }
  }
  if (rc == 0 && optind < argc)
    rc = fail(err, errlen, "unexpected argument '%s' (--help lists the options)", argv[optind]);
  if (rc == 0 && o->action == SIM_RUN)
    rc = parse_algos(o, algos, err, errlen);
  int own = 0; /* NCCL's own choice among its algorithms */
  for (int i = 0; rc == 0 && i < o->nalgos; i++) {
    o->nccl |= (sim_catalog_find(o->algos[i])->flags & AR_NCCL) != 0;
    own |= strcmp(o->algos[i], "nccl") == 0;
  }
  if (rc == 0 && o->action == SIM_RUN && o->nccl_protos && !o->nccl)
    rc = fail(err, errlen, "--proto applies to NCCL's algorithms only (nccl-ring, nccl-tree, nccl)%s", "");
  if (rc == 0 && o->action == SIM_RUN && o->nccl_algos && !own)
    rc = fail(err, errlen, "--nccl-algo restricts NCCL's own choice: it goes with --algo nccl%s", "");
  if (rc == 0 && o->action == SIM_RUN && o->export_tuner && (o->nalgos != 1 || strcmp(o->algos[0], "nccl") != 0))
    rc = fail(err, errlen, "--export-tuner writes the choices among NCCL's algorithms: it goes with --algo nccl alone%s", "");
  if (rc == 0 && o->action == SIM_RUN && o->allow_sparse && !o->best)
    rc = fail(err, errlen, "--allow-sparse only goes with --algo best%s", "");
  if (rc == 0 && o->action == SIM_RUN && o->jobs && o->mode != SIM_MODE_MODEL)
    rc = fail(err, errlen, "--jobs runs the models side by side: it goes with --mode model (a simulation is one SMPI run)%s",
              "");
  if (rc == 0 && o->action == SIM_RUN && o->resume_path && o->mode == SIM_MODE_MODEL)
    rc = fail(err, errlen, "--resume skips simulated points: --mode model simulates none%s", "");
  if (rc == 0 && o->action == SIM_RUN && o->verify && o->mode == SIM_MODE_MODEL)
    rc = fail(err, errlen, "--verify checks simulated data: it cannot go with --mode model%s", "");
  if (rc == 0 && o->action == SIM_RUN && (o->links || o->trace_path) && o->mode == SIM_MODE_MODEL)
    rc = fail(err, errlen, "--links and --trace look inside a simulation: they cannot go with --mode model%s", "");
  if (rc == 0 && o->action == SIM_RUN && o->resume_path && o->nwhatif)
    rc = fail(err, errlen, "--resume cannot go with --what-if (a faulty run is made beside its healthy one)%s", "");
  if (rc == 0 && o->trace_ranks && !o->trace_path)
    rc = fail(err, errlen, "--trace-ranks only goes with --trace%s", "");
  if (rc == 0 && o->action == SIM_RUN && o->workload)
    rc = workload_sizes(o, size || sweep, dtype_given, err, errlen);
  else if (rc == 0 && o->buckets)
    rc = fail(err, errlen, "--buckets only goes with --workload%s", "");
  else if (rc == 0 && o->action == SIM_RUN)
    rc = set_sizes(o, size, sweep, err, errlen);
  if (rc == 0 && o->action == SIM_RUN)
    rc = check_segments(o, err, errlen);
  return rc;
}

void sim_cli_free(sim_opts *o)
{
  free(o->sizes);
  o->sizes = NULL;
  free(o->whatif);
  o->whatif = NULL;
  if (o->training)
    sim_training_free(o->training);
  free(o->training);
  o->training = NULL;
}
