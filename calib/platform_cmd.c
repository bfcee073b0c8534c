/* platform_cmd.c: `simcalib platform`: a calibration, a preset server or nccl-tests logs, a
 * cluster shape and the node and fabric of choice -> platform XML. */
#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"
#include "commands.h"
#include "util/outfile.h"
#include "import/import.h"
#include "fit/platform_base.h"

static void usage(FILE *f)
{
  fputs("usage: simcalib platform (--calib calib.json | --from-nccl-tests LOG [--from-nccl-tests LOG2] |\n"
        "                          --preset NAME | --node KIND --gpu-bw R --nic-rate R)\n"
        "                         --nodes N [--gpus-per-node G] [-o X.xml] [--name NAME]\n"
        "                         [--node nvswitch|pcie|dgx1-mesh|cluster] [--gpu-bw R] [--gpu-lat T]\n"
        "                         [--gpus-per-switch S] [--nics K] [--nic-rate R] [--nic-lat T] [--rails]\n"
        "                         [--fabric switch|fattree] [--oversubscription F] [--nodes-per-leaf L]\n"
        "\n"
        "Writes a platform that simallreduce --platform X.xml runs on: hosts node<i>-gpu<j>, the\n"
        "node's GPUs joined as KIND says (nvswitch: each GPU's NVLinks into one switch at R per\n"
        "direction; pcie: PCIe switches of S GPUs under two CPU sockets; dgx1-mesh: the DGX-1\n"
        "cube mesh, R per NVLink; cluster: a private link per GPU, also on its way to the NIC),\n"
        "K NICs per node (GPU j on NIC floor(j*K/G)), one switch between the nodes or a fat-tree\n"
        "of leaves (--rails: leaf k holds NIC k of every node; else L nodes per leaf, default 32)\n"
        "whose uplinks carry their NICs' rate / F.\n"
        "\n"
        "--calib: a calibration (simcalib fit): a cluster fit of allreduce runs, else a\n"
        "ping-pong's routes, SMPI factors and compute costs. --from-nccl-tests: all_reduce_perf\n"
        "logs (a single-node one and a multi-node one, or either), fitted here as simcalib fit\n"
        "does (the fit's table on stderr): a platform of the same node and fabric at --nodes N.\n"
        "--preset: a server from its published figures (hgx-h100, ...), its NICs moving data at\n"
        "98.2% of their line rate. --gpus-per-node below a preset's or a fit's: its first GPUs,\n"
        "on the NICs they use unless --nics is given. Rates as 450GBps, 450GB/s, 400Gbps or\n"
        "bytes/s, each the rate data moves at, used as given (--nic-rate 400Gbps: 50 GB/s, over\n"
        "any base; --from-nccl-tests fits the rest with the NICs held there); times as 1us, 500ns\n"
        "or seconds. The fit's options:\n" FIT_CLUSTER_OPTIONS,
        f);
}

enum {
  O_CALIB = 256, O_NODES, O_GPUS, O_NICS, O_HELP, O_PRESET, O_NAME, O_NODE, O_GPU_BW, O_GPU_LAT, O_PER_SWITCH,
  O_NIC_RATE, O_NIC_LAT, O_RAILS, O_FABRIC, O_OVERSUB, O_PER_LEAF, O_FROM, O_CLUSTER
};

static const struct option longopts[] = {
    {"calib", required_argument, NULL, O_CALIB},
    {"nodes", required_argument, NULL, O_NODES},
    {"gpus-per-node", required_argument, NULL, O_GPUS},
    {"nics", required_argument, NULL, O_NICS},
    {"preset", required_argument, NULL, O_PRESET},
    {"name", required_argument, NULL, O_NAME},
    {"node", required_argument, NULL, O_NODE},
    {"gpu-bw", required_argument, NULL, O_GPU_BW},
    {"gpu-lat", required_argument, NULL, O_GPU_LAT},
    {"gpus-per-switch", required_argument, NULL, O_PER_SWITCH},
    {"nic-rate", required_argument, NULL, O_NIC_RATE},
    {"nic-lat", required_argument, NULL, O_NIC_LAT},
    {"rails", no_argument, NULL, O_RAILS},
    {"fabric", required_argument, NULL, O_FABRIC},
    {"oversubscription", required_argument, NULL, O_OVERSUB},
    {"nodes-per-leaf", required_argument, NULL, O_PER_LEAF},
    {"from-nccl-tests", required_argument, NULL, O_FROM},
    {"help", no_argument, NULL, O_HELP},
    FIT_CLUSTER_LONGOPTS(O_CLUSTER),
    {NULL, 0, NULL, 0},
};

/* The command line's own choices, applied over the base: set[o] says which were given. */
#define MAX_LOGS 4
typedef struct {
  const char *calib, *preset, *out, *name;
  const char *logs[MAX_LOGS];
  int nlogs;
  fit_cluster_opts fit;
  long nodes, gpus;
  int log_nodes; /* the most nodes a log's run had */
  topo_cluster t;
  int set[O_CLUSTER + FIT_CLUSTER_NOPTS];
} platform_opts;

static const char *base_name(const char *path)
{
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

static int parse(platform_opts *o, int c, const char *arg)
{
  long v;
  o->set[c] = 1;
  switch (c) {
  case 'o': o->out = arg; return 0;
  case O_CALIB: o->calib = arg; return 0;
  case O_PRESET: o->preset = arg; return 0;
  case O_NAME: o->name = arg; return 0;
  case O_RAILS: o->t.rails = 1; return 0;
  case O_FROM:
    if (o->nlogs == MAX_LOGS)
      return cal_bad("platform: at most %d --from-nccl-tests logs", MAX_LOGS);
    o->logs[o->nlogs++] = arg;
    return 0;
  case O_NODES: return cal_parse_int(arg, 1, TOPO_MAX_NODES, &o->nodes) ? cal_bad("platform: --nodes needs 1..%d, not '%s'", TOPO_MAX_NODES, arg) : 0;
  case O_GPUS:
    return cal_parse_int(arg, 1, TOPO_MAX_GPUS, &o->gpus) ? cal_bad("platform: --gpus-per-node needs 1..%d, not '%s'", TOPO_MAX_GPUS, arg) : 0;
  case O_NICS:
    if (cal_parse_int(arg, 1, TOPO_MAX_NICS, &v))
      return cal_bad("platform: --nics needs 1..%d, not '%s'", TOPO_MAX_NICS, arg);
    o->t.nics = (int)v;
    return 0;
  case O_PER_SWITCH:
    if (cal_parse_int(arg, 1, TOPO_MAX_GPUS, &v))
      return cal_bad("platform: --gpus-per-switch needs 1..%d, not '%s'", TOPO_MAX_GPUS, arg);
    o->t.gpus_per_switch = (int)v;
    return 0;
  case O_PER_LEAF:
    if (cal_parse_int(arg, 1, TOPO_MAX_NODES, &v))
      return cal_bad("platform: --nodes-per-leaf needs 1..%d, not '%s'", TOPO_MAX_NODES, arg);
    o->t.nodes_per_leaf = (int)v;
    return 0;
  case O_NODE:
    return topo_node_kind_parse(arg, &o->t.node)
               ? cal_bad("platform: --node is nvswitch, pcie, dgx1-mesh or cluster, not '%s'", arg)
               : 0;
  case O_FABRIC:
    if (strcmp(arg, "switch") != 0 && strcmp(arg, "fattree") != 0)
      return cal_bad("platform: --fabric is switch or fattree, not '%s'", arg);
    o->t.fabric = strcmp(arg, "switch") == 0 ? TOPO_FABRIC_SWITCH : TOPO_FABRIC_FATTREE;
    return 0;
  case O_OVERSUB:
    return cal_parse_double(arg, 1, 1024, &o->t.oversub)
               ? cal_bad("platform: --oversubscription is a ratio from 1 (non-blocking) to 1024, not '%s'", arg)
               : 0;
  case O_GPU_BW:
  case O_NIC_RATE:
    return cal_parse_rate(arg, c == O_GPU_BW ? &o->t.gpu_bw : &o->t.nic_bw)
               ? cal_bad("platform: --%s needs a rate (450GBps, 400Gbps, bytes/s), not '%s'",
                         c == O_GPU_BW ? "gpu-bw" : "nic-rate", arg)
               : 0;
  case O_GPU_LAT:
  case O_NIC_LAT:
    return cal_parse_time(arg, c == O_GPU_LAT ? &o->t.gpu_lat : &o->t.nic_lat)
               ? cal_bad("platform: --%s needs a time (1us, 500ns, seconds) up to 1 s, not '%s'",
                         c == O_GPU_LAT ? "gpu-lat" : "nic-lat", arg)
               : 0;
  default:
    if (c >= O_CLUSTER)
      return fit_cluster_option(&o->fit, cal_option_name(longopts, c), arg ? arg : "") < 0 ? 2 : 0;
    return 0;
  }
}

/* The base's topology with the command line's choices over it: each option's field. */
#define FIELD(opt, f) {opt, offsetof(topo_cluster, f), sizeof(((topo_cluster *)0)->f)}
static const struct {
  int opt;
  size_t off, size;
} fields[] = {FIELD(O_NODE, node),         FIELD(O_GPU_BW, gpu_bw),       FIELD(O_GPU_LAT, gpu_lat),
              FIELD(O_PER_SWITCH, gpus_per_switch), FIELD(O_NICS, nics),   FIELD(O_NIC_RATE, nic_bw),
              FIELD(O_NIC_LAT, nic_lat),   FIELD(O_RAILS, rails),         FIELD(O_FABRIC, fabric),
              FIELD(O_OVERSUB, oversub),   FIELD(O_PER_LEAF, nodes_per_leaf)};
#undef FIELD

static void apply(const platform_opts *o, topo_cluster *t)
{
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
    if (o->set[fields[i].opt])
      memcpy((char *)t + fields[i].off, (const char *)&o->t + fields[i].off, fields[i].size);
  if (t->rails && !o->set[O_FABRIC])
    t->fabric = TOPO_FABRIC_FATTREE;
  t->nodes = (int)o->nodes;
  if (o->gpus)
    t->gpus = (int)o->gpus;
  topo_defaults(t);
}

/* Fewer GPUs a node than the base's server (--gpus-per-node 2 of an 8-GPU preset or fit):
 * its first GPUs, with the NICs they are on (GPU j on NIC floor(j K / G), topo/cluster.h),
 * unless --nics says otherwise; said on stderr and in the file's notes. */
static void nics_of_subset(const platform_opts *o, int base_gpus, int base_nics, fit_platform_base *b, char *line,
                           size_t len)
{
  topo_cluster *t = &b->topo;
  line[0] = '\0';
  if (o->set[O_NICS] || !o->gpus || base_gpus < 1 || t->gpus >= base_gpus || base_nics <= 1)
    return;
  t->nics = (t->gpus - 1) * base_nics / base_gpus + 1;
  snprintf(line, len,
           "%d of the server's %d GPUs a node, on the %d of its %d NICs they use (--nics sets another count)", t->gpus,
           base_gpus, t->nics, base_nics);
  size_t used = strlen(b->notes);
  if (used < sizeof b->notes)
    snprintf(b->notes + used, sizeof b->notes - used, "\n     GPUs: %s.", line);
}

/* A platform fitted to logs of at most log_nodes nodes, drawn at more: what links the nodes
 * beyond what the logs crossed (a leaf's uplinks, the spine) the logs cannot say, so it is
 * the options' or the base's, and said so on stderr and in the file's notes. */
static void fabric_assumed(const platform_opts *o, fit_platform_base *b)
{
  const topo_cluster *t = &b->topo;
  if (!o->nlogs || o->nodes <= o->log_nodes || o->nodes < 2)
    return;
  int given = o->set[O_FABRIC] || o->set[O_OVERSUB] || o->set[O_PER_LEAF] || o->set[O_RAILS];
  char what[512];
  if (t->fabric == TOPO_FABRIC_SWITCH)
    snprintf(what, sizeof what, "one non-blocking switch between the %ld nodes", o->nodes);
  else
    snprintf(what, sizeof what, "a fat-tree, %s%.0d%s under a spine, each leaf's uplink its NICs' rate / %g",
             t->rails ? "one leaf per rail (NIC k of every node on leaf k)" : "leaves of ", t->rails ? 0 : t->nodes_per_leaf,
             t->rails ? "" : " nodes", t->oversub);
  char line[1024];
  snprintf(line, sizeof line, "%s %s: the logs ran at most %d nodes and %s", given ? "given:" : "assumed:", what,
           o->log_nodes, given ? "the options set what they cannot say" :
           "say nothing of what joins more; --fabric, --rails, --oversubscription and --nodes-per-leaf set it");
  fprintf(stderr, "simcalib: %s\n", line);
  size_t used = strlen(b->notes);
  if (used < sizeof b->notes)
    snprintf(b->notes + used, sizeof b->notes - used, "\n     Fabric %s", line);
}

/* A cluster fitted to the logs: imported as simcalib import does, fitted as simcalib fit
 * does, its table on stderr. 0 or the exit status. */
static int from_logs(platform_opts *o, fit_platform_base *b)
{
  md_data d = {0};
  char err[1024], sources[1024] = "";
  int status = 0;
  for (int i = 0; i < o->nlogs && status == 0; i++) {
    FILE *f = fopen(o->logs[i], "r");
    imp_opts io = {"inter", 0, 0, 0};
    imp_report rep = {0};
    if (!f) {
      status = cal_bad("platform: cannot read %s", o->logs[i]);
      break;
    }
    int rc = imp_nccl(f, o->logs[i], &io, &d, &rep, err, sizeof err);
    fclose(f);
    for (size_t r = 0; rc == 0 && r < d.nruns; r++)
      o->log_nodes = d.runs[r].nodes > o->log_nodes ? d.runs[r].nodes : o->log_nodes;
    if (rc)
      status = rc == SA_ENOMEM ? cal_fail("out of memory") : cal_bad("%s", err);
    size_t n = strlen(sources);
    snprintf(sources + n, sizeof sources - n, "%s%s", i ? " and " : "", o->logs[i]);
  }
  fit_cluster c;
  o->fit.preset = o->preset;
  o->fit.nic_bw = o->set[O_NIC_RATE] ? o->t.nic_bw : 0; /* known: the fit holds the NICs there */
  if (status == 0) {
    int rc = fit_cluster_calibrate(&d, &o->fit, &c, err, sizeof err);
    if (rc == 0) {
      fit_cluster_report(stderr, &c, &o->fit);
      fit_cluster_cal cc;
      fit_cluster_cal_of(&c, &o->fit, sources, &cc);
      fit_base_from_cluster(&cc, b);
      if (!o->gpus)
        o->gpus = cc.topo.gpus;
    } else {
      status = rc == SA_ENOMEM ? cal_fail("out of memory") : rc == SA_EFIT ? cal_fail("platform: %s", err)
                                                                           : cal_bad("platform: %s", err);
    }
    fit_cluster_free(&c);
  }
  md_data_free(&d);
  return status;
}

/* The base the options name; 0 or the exit status. */
static int base_of(platform_opts *o, fit_platform_base *b)
{
  char names[256];
  if ((o->calib != NULL) + (o->nlogs > 0) > 1 || (o->calib && o->preset))
    return cal_bad("platform: give one of --calib, --from-nccl-tests and --preset (which --from-nccl-tests may take)");
  const char *in[MAX_LOGS + 1];
  int nin = 0;
  for (int i = 0; i < o->nlogs; i++)
    in[nin++] = o->logs[i];
  if (o->calib)
    in[nin++] = o->calib;
  if (cal_check_files("platform", o->out, in, nin, 0) != 0)
    return 2;
  if (o->nlogs)
    return from_logs(o, b);
  if (o->calib) {
    fit_calibration cal;
    char err[512];
    if (fit_calibration_read(o->calib, &cal, err, sizeof err) != 0)
      return cal_bad("%s", err);
    if (cal.cluster.has)
      fit_base_from_cluster(&cal.cluster, b);
    else
      fit_base_from_pingpong(&cal, o->calib, o->set[O_NICS] ? o->t.nics : 1, b);
    if (cal.cluster.has && cal.has_smpi)
      fprintf(stderr, "simcalib: note: %s holds a ping-pong fit and a cluster fit: the cluster fit is used\n", o->calib);
    return 0;
  }
  if (o->preset) {
    const topo_preset *p = topo_preset_find(o->preset);
    topo_preset_names(names, sizeof names);
    if (!p)
      return cal_bad("platform: unknown --preset '%s' (%s)", o->preset, names);
    fit_base_from_preset(p, o->set[O_NIC_RATE], b);
    return 0;
  }
  if (!o->set[O_NODE] || !o->set[O_GPU_BW] || !o->set[O_NIC_RATE])
    return cal_bad("platform: give --calib, --from-nccl-tests, --preset, or --node with --gpu-bw and --nic-rate");
  /* a platform from the options alone: the assumed latencies of presets.c */
  memset(b, 0, sizeof *b);
  b->topo.gpu_lat = 1e-6;
  b->topo.nic_lat = 2e-6;
  b->topo.nics = 1;
  snprintf(b->notes, sizeof b->notes, "     Generated by simcalib platform from its options: no compute properties "
                                      "(device work not charged).");
  b->spec.notes = b->notes;
  return 0;
}

int cal_cmd_platform(int argc, char **argv)
{
  platform_opts o = {0};
  o.out = "-";
  int c;
  optind = 1;
  while ((c = getopt_long(argc, argv, ":o:", longopts, NULL)) != -1) {
    if (c == O_HELP) {
      usage(stdout);
      return 0;
    }
    if (c == '?' || c == ':')
      return cal_bad_option("platform", c, argv[optind - 1]);
    int rc = parse(&o, c, optarg);
    if (rc)
      return rc;
  }
  if (optind < argc)
    return cal_bad("platform: unexpected argument '%s'", argv[optind]);
  fit_platform_base b;
  int rc = base_of(&o, &b);
  if (rc)
    return rc;
  if (!o.nodes || (!o.gpus && !b.has_gpus))
    return cal_bad("platform: --nodes and --gpus-per-node are required");
  int base_gpus = b.topo.gpus, base_nics = b.topo.nics;
  apply(&o, &b.topo);
  char subset[256];
  nics_of_subset(&o, base_gpus, base_nics, &b, subset, sizeof subset);
  fabric_assumed(&o, &b);
  /* a base with a NIC rate of its own (a preset's, a fit's) whose rate the option replaced:
   * the notes say what the NIC now is, and that the rate given is the rate data moves at */
  size_t used = strlen(b.notes);
  if (o.set[O_NIC_RATE] && (o.preset || o.calib || o.nlogs) && used < sizeof b.notes)
    snprintf(b.notes + used, sizeof b.notes - used,
             "\n     NIC rate: %.4g GB/s (%.4g Gb/s) from --nic-rate, the rate data moves at, used as given\n"
             "     (a preset's own NIC rate is %.1f%% of its line rate; a rate given is not reduced).",
             b.topo.nic_bw / 1e9, b.topo.nic_bw * 8 / 1e9, 100 * TOPO_IB_EFFICIENCY);
  char err[256];
  if (topo_check(&b.topo, err, sizeof err) != 0)
    return cal_bad("platform: %s", err);
  if (subset[0])
    fprintf(stderr, "simcalib: note: %s\n", subset);
  snprintf(b.name, sizeof b.name, "%s", o.name ? o.name : strcmp(o.out, "-") == 0 ? "calibrated" : base_name(o.out));
  size_t len = strlen(b.name);
  if (len > 4 && strcmp(b.name + len - 4, ".xml") == 0)
    b.name[len - 4] = '\0';
  b.spec.name = b.name;
  char *xml = NULL, why[PATH_MAX + 200];
  size_t xml_len = 0;
  FILE *f = open_memstream(&xml, &xml_len);
  rc = f ? topo_platform_xml(f, &b.topo, &b.spec) : SA_ENOMEM;
  if (f && fclose(f) != 0 && rc == 0)
    rc = SA_ENOMEM;
  if (rc == 0)
    rc = util_outfile_write(o.out, xml, xml_len, why, sizeof why);
  else
    snprintf(why, sizeof why, "cannot write %s: %s", o.out, sa_strerror(rc));
  free(xml);
  if (rc != 0)
    return cal_fail("%s", why);
  if (b.inter_copied && o.nodes > 1)
    fprintf(stderr, "simcalib: note: no inter-node ping-pong in %s: inter-node links copy the intra-node fit\n", o.calib);
  if (b.intra_copied && b.topo.gpus > 1)
    fprintf(stderr, "simcalib: note: no intra-node ping-pong in %s: intra-node links copy the inter-node fit\n", o.calib);
  return 0;
}
