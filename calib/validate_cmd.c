/* validate_cmd.c: `simcalib validate`: measured allreduce runs against their simulation on
 * the calibrated platform (and the cost model, where there is one): a table, the validation
 * JSON and a CSV for the plot; published figures against their simulation as a second part. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/sizes.h"
#include "common/sa_error.h"
#include "commands.h"
#include "util/jsonlines.h"
#include "util/outfile.h"
#include "util/textfile.h"
#include "validate/validation.h"

#define MAX_FILES 64

typedef struct {
  const char *measured[MAX_FILES], *simulated[MAX_FILES], *model[MAX_FILES], *published[MAX_FILES];
  int nmeasured, nsimulated, nmodel, npublished;
  const char *link_rate, *out, *csv, *headroom;
  double headroom_factor;
  const char *algo; /* imported runs: the algorithm they are compared with */
  long run;
  int inplace;
  double min_bytes; /* imported runs: smaller points left out */
} validate_opts;

static void usage(FILE *f)
{
  fputs("usage: simcalib validate --measured M.json... --simulated S.json... [--model F.json]...\n"
        "                         [--link-rate RATE] [--published 'WHAT=LO:HI:S.json']...\n"
        "                         [--headroom H.json [--headroom-factor F]]\n"
        "                         [-o validation.json] [--csv validation.csv]\n"
        "\n"
        "Pairs every measured point (bin/ar_runner_mpi --result files) with the same algorithm and\n"
        "size simulated by simallreduce --json on the calibrated platform, and reports\n"
        "error = (simulated - measured) / measured per point and the median, geometric mean and\n"
        "maximum of |error|. The measured time is the median of the repetitions, the spread their\n"
        "interquartile range. A cost-model time is taken from model_time_s where the simulated\n"
        "or --model files carry one (null otherwise).\n"
        "\n"
        "Imported runs (simcalib import nccl-tests|osu) are measured files too: their allreduce\n"
        "points, out-of-place unless --inplace, are compared with --algo A of the simulated\n"
        "files (default: nccl, NCCL's own choice, for nccl-tests runs; ring for OSU's).\n"
        "Simulate them with --timing nccl-tests, which times allreduces as nccl-tests does.\n"
        "\n"
        "  --measured F     runner result of a measured run, or imported runs (repeatable; one\n"
        "                   shape for all)\n"
        "  --algo A         imported runs: the simulated algorithm to compare them with\n"
        "  --run N          imported files of several runs: run N\n"
        "  --inplace        imported nccl-tests runs: the in-place times\n"
        "  --min-bytes S    imported runs: leave out the points below S bytes (K/M/G/T, 1.5M,\n"
        "                   1MiB: as --size takes them)\n"
        "  --simulated F    simallreduce --json of the same points (repeatable)\n"
        "  --model F        simallreduce --json holding model_time_s (repeatable)\n"
        "  --link-rate R    the links' rate, as the testbed set it (e.g. 200mbit)\n"
        "  --published S    WHAT=LO:HI:FILE: a figure from a source, LO..HI seconds, next to the\n"
        "                   first result of FILE (a simallreduce --json); a second table\n"
        "  --headroom H     runner result of some measured points again, with the links F times\n"
        "                   faster (default 2): F times faster there means the network, not the\n"
        "                   CPU, set the measured times\n"
        "  -o FILE          the validation JSON (default stdout; the table then goes to stderr)\n"
        "  --csv FILE       one line per point for plotting\n",
        f);
}

enum {
  O_MEASURED = 256, O_SIMULATED, O_MODEL, O_LINK_RATE, O_PUBLISHED, O_CSV, O_HEADROOM, O_FACTOR, O_HELP, O_ALGO, O_RUN,
  O_INPLACE, O_MIN_BYTES
};

static const struct option longopts[] = {
    {"measured", required_argument, NULL, O_MEASURED}, {"simulated", required_argument, NULL, O_SIMULATED},
    {"model", required_argument, NULL, O_MODEL},       {"link-rate", required_argument, NULL, O_LINK_RATE},
    {"published", required_argument, NULL, O_PUBLISHED}, {"csv", required_argument, NULL, O_CSV},
    {"headroom", required_argument, NULL, O_HEADROOM}, {"headroom-factor", required_argument, NULL, O_FACTOR},
    {"help", no_argument, NULL, O_HELP},               {"algo", required_argument, NULL, O_ALGO},
    {"run", required_argument, NULL, O_RUN},           {"inplace", no_argument, NULL, O_INPLACE},
    {"min-bytes", required_argument, NULL, O_MIN_BYTES},
    {NULL, 0, NULL, 0},
};

static int add_file(const char **list, int *n, const char *opt, const char *path)
{
  if (*n == MAX_FILES)
    return cal_bad("validate: more than %d %s files", MAX_FILES, opt);
  list[(*n)++] = path;
  return 0;
}

/* 0 to go on, or the exit status. */
static int parse(int argc, char **argv, validate_opts *o)
{
  memset(o, 0, sizeof *o);
  o->out = "-";
  o->headroom_factor = 2;
  o->algo = NULL; /* imported runs: nccl for nccl-tests, ring for others */
  o->run = -1;
  int c, rc = 0;
  optind = 1;
  while (rc == 0 && (c = getopt_long(argc, argv, ":o:", longopts, NULL)) != -1) {
    switch (c) {
    case 'o': o->out = optarg; break;
    case O_MEASURED: rc = add_file(o->measured, &o->nmeasured, "--measured", optarg); break;
    case O_SIMULATED: rc = add_file(o->simulated, &o->nsimulated, "--simulated", optarg); break;
    case O_MODEL: rc = add_file(o->model, &o->nmodel, "--model", optarg); break;
    case O_PUBLISHED: rc = add_file(o->published, &o->npublished, "--published", optarg); break;
    case O_LINK_RATE: o->link_rate = optarg; break;
    case O_CSV: o->csv = optarg; break;
    case O_HEADROOM: o->headroom = optarg; break;
    case O_FACTOR:
      if (cal_parse_double(optarg, 1.01, 1000, &o->headroom_factor) != 0)
        return cal_bad("validate: --headroom-factor needs a number above 1, not '%s'", optarg);
      break;
    case O_ALGO: o->algo = optarg; break;
    case O_INPLACE: o->inplace = 1; break;
    case O_MIN_BYTES: {
      uint64_t b;
      char why[256];
      if (util_parse_size(optarg, &b, why, sizeof why) != 0)
        return cal_bad("validate: --min-bytes: %s", why);
      o->min_bytes = (double)b;
      break;
    }
    case O_RUN:
      if (cal_parse_int(optarg, 0, 1 << 24, &o->run) != 0)
        return cal_bad("validate: --run needs a run number (0, 1, ...), not '%s'", optarg);
      break;
    case O_HELP: usage(stdout); return -1;
    default: return cal_bad_option("validate", c, argv[optind - 1]);
    }
  }
  if (rc)
    return rc;
  if (optind < argc)
    return cal_bad("validate: unexpected argument '%s'", argv[optind]);
  if (o->nmeasured == 0 || o->nsimulated == 0)
    return cal_bad("validate: --measured and --simulated are required");
  const char *in[4 * MAX_FILES];
  int nin = 0;
  for (int i = 0; i < o->nmeasured; i++)
    in[nin++] = o->measured[i];
  for (int i = 0; i < o->nsimulated; i++)
    in[nin++] = o->simulated[i];
  for (int i = 0; i < o->nmodel; i++)
    in[nin++] = o->model[i];
  for (int i = 0; i < o->npublished; i++) /* WHAT=LO:HI:FILE: the file after the last colon */
    in[nin++] = strrchr(o->published[i], ':') ? strrchr(o->published[i], ':') + 1 : o->published[i];
  if (cal_check_files("validate", o->out, in, nin, 0) != 0 || cal_check_files("validate", o->csv, in, nin, 0) != 0)
    return 2;
  if (o->csv && strcmp(o->out, "-") != 0 && util_same_file(o->out, o->csv))
    return cal_bad("validate: -o and --csv are one file, %s: each output needs a file of its own", o->csv);
  return 0;
}

static cJSON *load(const char *path)
{
  char *text = util_read_text(path);
  cJSON *doc = text ? util_jsonl_runner_doc(text) : NULL; /* a runner's stream as one document */
  if (!text)
    cal_bad("validate: cannot read %s", path);
  else if (!doc)
    cal_bad("validate: %s is not JSON", path);
  free(text);
  return doc;
}

static int load_all(const char **paths, int n, cJSON **docs)
{
  for (int i = 0; i < n; i++)
    if (!(docs[i] = load(paths[i])))
      return 2;
  return 0;
}

/* Every simulated run must have the measured shape. */
static int check_shape(const validate_opts *o, cJSON **sim, int hosts, int rpn)
{
  for (int i = 0; i < o->nsimulated; i++) {
    const cJSON *nodes = cJSON_GetObjectItemCaseSensitive(sim[i], "nodes");
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(sim[i], "ranks_per_node");
    if (!cJSON_IsNumber(nodes) || !cJSON_IsNumber(r))
      return cal_bad("validate: %s is not a simallreduce --json result (no \"nodes\", \"ranks_per_node\")",
                     o->simulated[i]);
    if (nodes->valueint != hosts || r->valueint != rpn)
      return cal_bad("validate: %s simulates %d nodes x %d ranks, but the measurement ran on %d x %d",
                     o->simulated[i], nodes->valueint, r->valueint, hosts, rpn);
  }
  return 0;
}

static double find(cJSON **docs, int n, const char *algo, double bytes, int want_model)
{
  for (int i = 0; i < n; i++) {
    double t = val_lookup(docs[i], algo, bytes, want_model);
    if (t > 0)
      return t;
  }
  return -1;
}

static const char *size_text(double bytes, char *buf, size_t len)
{
  util_format_size((uint64_t)bytes, buf, len);
  return buf;
}

typedef struct {
  size_t rank; /* where the point's algorithm first appears */
  val_point v;
} ranked_point;

static int by_rank_then_size(const void *a, const void *b)
{
  const ranked_point *x = a, *y = b;
  if (x->rank != y->rank)
    return x->rank < y->rank ? -1 : 1;
  return (x->v.bytes > y->v.bytes) - (x->v.bytes < y->v.bytes);
}

/* Points grouped by algorithm (in the order the algorithms first appear), by size within
 * each: the table reads per algorithm, and each curve of the plot is one run of lines.
 * (algorithm, size) is unique, so the order is total. */
static int group_by_algo(val_point *p, size_t n)
{
  ranked_point *r = malloc(sizeof *r * (n ? n : 1));
  if (!r)
    return cal_fail("out of memory");
  for (size_t i = 0; i < n; i++) {
    r[i].rank = 0;
    while (strcmp(p[r[i].rank].algo, p[i].algo) != 0)
      r[i].rank++;
    r[i].v = p[i];
  }
  qsort(r, n, sizeof *r, by_rank_then_size);
  for (size_t i = 0; i < n; i++)
    p[i] = r[i].v;
  free(r);
  return 0;
}

/* Fills in simulated and model times and the errors; 0 or exit status 2. */
static int pair(const validate_opts *o, cJSON **sim, cJSON **model, val_point *p, size_t n)
{
  char sz[32];
  for (size_t i = 0; i < n; i++) {
    for (size_t j = 0; j < i; j++)
      if (p[j].bytes == p[i].bytes && strcmp(p[j].algo, p[i].algo) == 0)
        return cal_bad("validate: %s at %s bytes is measured twice", p[i].algo, size_text(p[i].bytes, sz, sizeof sz));
    p[i].simulated_s = find(sim, o->nsimulated, p[i].algo, p[i].bytes, 0);
    if (p[i].simulated_s <= 0)
      return cal_bad("validate: %s at %s bytes is measured but not simulated", p[i].algo,
                     size_text(p[i].bytes, sz, sizeof sz));
    double m = find(sim, o->nsimulated, p[i].algo, p[i].bytes, 1);
    if (m <= 0)
      m = find(model, o->nmodel, p[i].algo, p[i].bytes, 1);
    p[i].model_s = m > 0 ? m : NAN;
    p[i].error = val_error(p[i].simulated_s, p[i].measured_s);
  }
  return 0;
}

static void print_table(FILE *f, const validate_opts *o, int hosts, int rpn, const val_point *p, size_t n,
                        const val_summary *s)
{
  char sz[32], model[32];
  fprintf(f, "# validation: %d hosts x %d ranks%s%s; measured = median of the repetitions, spread = IQR;\n"
             "# error = (simulated - measured) / measured\n",
          hosts, rpn, o->link_rate ? ", links " : "", o->link_rate ? o->link_rate : "");
  fprintf(f, "# %-9s %9s %5s %13s %11s %14s %10s %8s\n", "algo", "size", "reps", "measured(ms)", "spread(ms)",
          "simulated(ms)", "model(ms)", "error");
  for (size_t i = 0; i < n; i++) {
    snprintf(model, sizeof model, isfinite(p[i].model_s) ? "%.3f" : "-", p[i].model_s * 1e3);
    fprintf(f, "  %-9s %9s %5d %13.3f %11.3f %14.3f %10s %+7.1f%%\n", p[i].algo, size_text(p[i].bytes, sz, sizeof sz),
            p[i].reps, p[i].measured_s * 1e3, (p[i].q3_s - p[i].q1_s) * 1e3, p[i].simulated_s * 1e3, model,
            100 * p[i].error);
  }
  fprintf(f, "# %zu points: median |error| %.1f%%, geometric mean %.1f%%, max %.1f%% (%s at %s)\n", s->n,
          100 * s->median_abs, 100 * s->geomean_abs, 100 * s->max_abs, p[s->worst].algo,
          size_text(p[s->worst].bytes, sz, sizeof sz));
}

/* One line and one "by_algo" entry per algorithm (the points are grouped by algorithm): the
 * dense algorithms are network-bound on the testbed, hitopk compute-bound on shared cores,
 * and one summary over all of them would hide which is which. */
static int per_algo(FILE *tab, cJSON *sum, const val_point *p, size_t n)
{
  cJSON *by = cJSON_AddObjectToObject(sum, "by_algo");
  fprintf(tab, "# per algorithm, median / max |error|:");
  for (size_t i = 0, j; i < n; i = j) {
    for (j = i; j < n && strcmp(p[j].algo, p[i].algo) == 0; j++)
      ;
    val_summary s;
    if (val_summarize(p + i, j - i, &s) != 0)
      return SA_ENOMEM;
    fprintf(tab, " %s %.1f%% / %.1f%%%s", p[i].algo, 100 * s.median_abs, 100 * s.max_abs, j < n ? ";" : "\n");
    cJSON *a = cJSON_AddObjectToObject(by, p[i].algo);
    cJSON_AddNumberToObject(a, "median_abs_err", s.median_abs);
    cJSON_AddNumberToObject(a, "max_abs_err", s.max_abs);
  }
  return 0;
}

/* The cost model's errors against the measurement, where every point has a model time. */
static int model_summary(const val_point *p, size_t n, val_summary *s)
{
  val_point *m = malloc(sizeof *m * (n ? n : 1));
  if (!m)
    return SA_ENOMEM;
  int rc = 0;
  for (size_t i = 0; i < n && rc == 0; i++) {
    m[i] = p[i];
    m[i].error = val_error(p[i].model_s, p[i].measured_s);
    if (!isfinite(p[i].model_s))
      rc = SA_ENODATA;
  }
  if (rc == 0)
    rc = val_summarize(m, n, s);
  free(m);
  return rc;
}

static int write_csv(const char *path, const val_point *p, size_t n)
{
  char *text = NULL, err[PATH_MAX + 200];
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f)
    return cal_fail("validate: out of memory");
  /* An empty model field is a missing value to gnuplot, not a zero. */
  fputs("algo,bytes,measured_s,q1_s,q3_s,min_s,max_s,simulated_s,model_s,error\n", f);
  for (size_t i = 0; i < n; i++) {
    fprintf(f, "%s,%.0f,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,", p[i].algo, p[i].bytes, p[i].measured_s, p[i].q1_s, p[i].q3_s,
            p[i].min_s, p[i].max_s, p[i].simulated_s);
    if (isfinite(p[i].model_s))
      fprintf(f, "%.9g", p[i].model_s);
    fprintf(f, ",%.6f\n", p[i].error);
  }
  int rc = fclose(f) == 0 ? util_outfile_write(path, text, len, err, sizeof err) : SA_ENOMEM;
  free(text);
  if (rc)
    return cal_fail("validate: %s", rc == SA_ENOMEM ? "out of memory" : err);
  return 0;
}

/* "WHAT=LO:HI:FILE" -> a row of the published-figures part; 0 or exit status. */
static int published_row(const char *spec, FILE *tab, cJSON *list)
{
  const char *eq = strrchr(spec, '=');
  char *end;
  double lo = eq ? strtod(eq + 1, &end) : NAN, hi = NAN;
  if (eq && *end == ':')
    hi = strtod(end + 1, &end);
  if (!eq || eq == spec || !(lo > 0) || !(hi >= lo) || *end != ':' || !end[1])
    return cal_bad("validate: --published needs WHAT=LO:HI:FILE with 0 < LO <= HI seconds, not '%s'", spec);
  cJSON *doc = load(end + 1);
  if (!doc)
    return 2;
  const cJSON *first = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "results"), 0);
  const cJSON *t = cJSON_GetObjectItemCaseSensitive(first, "time_s");
  if (!cJSON_IsNumber(t) || !(t->valuedouble > 0)) {
    cJSON_Delete(doc);
    return cal_bad("validate: %s holds no simulated time", end + 1);
  }
  double sim = t->valuedouble, err = val_range_error(sim, lo, hi);
  int what_len = (int)(eq - spec);
  char range[64];
  snprintf(range, sizeof range, lo == hi ? "~%.3g" : "%.3g-%.3g", lo, hi);
  fprintf(tab, "  %-64.*s %14s %14.4f %+8.1f%%\n", what_len, spec, range, sim, 100 * err);
  cJSON *row = cJSON_CreateObject();
  char what[512];
  snprintf(what, sizeof what, "%.*s", what_len, spec);
  cJSON_AddStringToObject(row, "what", what);
  cJSON_AddNumberToObject(row, "published_lo_s", lo);
  cJSON_AddNumberToObject(row, "published_hi_s", hi);
  cJSON_AddNumberToObject(row, "simulated_s", sim);
  cJSON_AddNumberToObject(row, "error", err);
  cJSON_AddItemToArray(list, row);
  cJSON_Delete(doc);
  return 0;
}

static int published(const validate_opts *o, FILE *tab, cJSON *root)
{
  if (o->npublished == 0)
    return 0;
  cJSON *list = cJSON_AddArrayToObject(root, "published");
  fprintf(tab, "\n# published figures: the sources' own numbers, not measured here, next to the simulation\n"
               "# of the same cluster; error = distance of the simulated time from the published range\n");
  fprintf(tab, "# %-64s %14s %14s %9s\n", "what", "published(s)", "simulated(s)", "error");
  for (int i = 0; i < o->npublished; i++) {
    int rc = published_row(o->published[i], tab, list);
    if (rc)
      return rc;
  }
  return 0;
}

/* The CPU check: points measured again with faster links, against the same points at the
 * validated rate. */
static int headroom(const validate_opts *o, FILE *tab, cJSON *root, const val_point *p, size_t n)
{
  if (!o->headroom)
    return 0;
  cJSON *doc = load(o->headroom);
  if (!doc)
    return 2;
  val_point *h = NULL;
  size_t nh = 0, cap = 0;
  int r, k, status = 0;
  char err[256], sz[32];
  int rc = val_read_measured(doc, &h, &nh, &cap, &r, &k, err, sizeof err);
  if (rc == SA_ENOMEM)
    status = cal_fail("out of memory");
  else if (rc)
    status = cal_bad("validate: %s: %s", o->headroom, err);
  cJSON *list = status ? NULL : cJSON_AddArrayToObject(root, "cpu_headroom");
  for (size_t i = 0; i < nh && !status; i++) {
    const val_point *m = NULL;
    for (size_t j = 0; j < n && !m; j++)
      if (p[j].bytes == h[i].bytes && strcmp(p[j].algo, h[i].algo) == 0)
        m = &p[j];
    if (!m) {
      status = cal_bad("validate: %s: %s at %s bytes is not among the measured points", o->headroom, h[i].algo,
                       size_text(h[i].bytes, sz, sizeof sz));
      break;
    }
    double speedup = m->measured_s / h[i].measured_s;
    fprintf(tab, "# CPU headroom: %s at %s took %.4f s at the link rate, %.4f s with links %gx faster: %.2fx as fast "
                 "(%gx when the network alone sets the time)\n",
            m->algo, size_text(m->bytes, sz, sizeof sz), m->measured_s, h[i].measured_s, o->headroom_factor, speedup,
            o->headroom_factor);
    cJSON *row = cJSON_CreateObject();
    cJSON_AddStringToObject(row, "algo", m->algo);
    cJSON_AddNumberToObject(row, "bytes", m->bytes);
    cJSON_AddNumberToObject(row, "rate_factor", o->headroom_factor);
    cJSON_AddNumberToObject(row, "measured_s", m->measured_s);
    cJSON_AddNumberToObject(row, "faster_links_s", h[i].measured_s);
    cJSON_AddNumberToObject(row, "speedup", speedup);
    cJSON_AddItemToArray(list, row);
  }
  free(h);
  cJSON_Delete(doc);
  return status;
}

static void free_docs(cJSON **docs, int n)
{
  for (int i = 0; i < n; i++)
    cJSON_Delete(docs[i]);
}

int cal_cmd_validate(int argc, char **argv)
{
  validate_opts o;
  int status = parse(argc, argv, &o);
  if (status)
    return status < 0 ? 0 : status;
  cJSON *meas[MAX_FILES] = {0}, *sim[MAX_FILES] = {0}, *model[MAX_FILES] = {0}, *root = NULL;
  val_point *p = NULL;
  size_t n = 0, cap = 0;
  int ranks = 0, rpn = 0, imported = 0;
  status = load_all(o.measured, o.nmeasured, meas);
  if (!status)
    status = load_all(o.simulated, o.nsimulated, sim);
  if (!status)
    status = load_all(o.model, o.nmodel, model);
  for (int i = 0; i < o.nmeasured && !status; i++) {
    char err[256];
    int r, k, rc;
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(meas[i], "schema");
    if (cJSON_IsString(schema) && strncmp(schema->valuestring, "simallreduce-measured", 21) == 0) {
      rc = val_read_imported(o.measured[i], o.algo, (int)o.run, o.inplace, o.min_bytes, &p, &n, &cap, &r, &k, err,
                                 sizeof err);
      if (rc == 0 && !o.algo)
        fprintf(stderr, "simcalib: validate: %s: compared with %s\n", o.measured[i], p[n - 1].algo);
      imported = 1;
    } else {
      rc = val_read_measured(meas[i], &p, &n, &cap, &r, &k, err, sizeof err);
    }
    if (rc == SA_ENOMEM)
      status = cal_fail("out of memory");
    else if (rc)
      status = cal_bad("validate: %s: %s", o.measured[i], err);
    else if (i > 0 && (r != ranks || k != rpn))
      status = cal_bad("validate: %s ran %d ranks, %d per host; %s ran %d, %d per host", o.measured[i], r, k,
                       o.measured[0], ranks, rpn);
    ranks = r;
    rpn = k;
  }
  if (!status)
    status = check_shape(&o, sim, ranks / (rpn ? rpn : 1), rpn);
  for (int i = 0; !status && imported && i < o.nsimulated; i++) {
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(sim[i], "timing");
    if (!cJSON_IsString(t) || strcmp(t->valuestring, "nccl-tests") != 0)
      fprintf(stderr, "simcalib: validate: note: %s was not simulated with --timing nccl-tests, as the logs were timed\n",
              o.simulated[i]);
  }
  if (!status)
    status = pair(&o, sim, model, p, n);
  if (!status)
    status = group_by_algo(p, n);
  val_summary s;
  if (!status && val_summarize(p, n, &s) != 0)
    status = cal_fail("out of memory");
  FILE *tab = cal_table_stream(o.out);
  if (!status) {
    print_table(tab, &o, ranks / rpn, rpn, p, n, &s);
    root = val_json(ranks / rpn, rpn, o.link_rate, p, n, &s);
    val_summary ms;
    int mrc = model_summary(p, n, &ms);
    cJSON *sum = cJSON_GetObjectItemCaseSensitive(root, "summary");
    if (per_algo(tab, sum, p, n) != 0)
      status = cal_fail("out of memory");
    if (mrc == 0) {
      char sz[32];
      fprintf(tab, "# cost model against the measurement: median |error| %.1f%%, geometric mean %.1f%%, max %.1f%% (%s at %s)\n",
              100 * ms.median_abs, 100 * ms.geomean_abs, 100 * ms.max_abs, p[ms.worst].algo,
              size_text(p[ms.worst].bytes, sz, sizeof sz));
      cJSON *mo = cJSON_AddObjectToObject(sum, "model");
      cJSON_AddNumberToObject(mo, "median_abs_err", ms.median_abs);
      cJSON_AddNumberToObject(mo, "geomean_abs_err", ms.geomean_abs);
      cJSON_AddNumberToObject(mo, "max_abs_err", ms.max_abs);
    } else if (mrc == SA_ENOMEM) {
      status = cal_fail("out of memory");
    } else {
      cJSON_AddNullToObject(sum, "model");
    }
    if (!status)
      status = headroom(&o, tab, root, p, n);
  }
  if (!status)
    status = published(&o, tab, root);
  if (!status && util_json_write(root, o.out) != 0)
    status = cal_fail("validate: cannot write %s: %s", o.out, strerror(errno));
  if (!status && o.csv)
    status = write_csv(o.csv, p, n);
  cJSON_Delete(root);
  free(p);
  free_docs(meas, o.nmeasured);
  free_docs(sim, o.nsimulated);
  free_docs(model, o.nmodel);
  return status;
}
