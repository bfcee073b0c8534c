/* presets.h: the servers people run NCCL on, from their vendors' published figures: how the
 * GPUs of a node are joined, at what rate, the NICs beside them, the GPU's memory bandwidth.
 * A preset starts a nominal platform (simcalib platform --preset) and is what a fit starts
 * from when a log's GPU model names one (--from-nccl-tests). */
#ifndef TOPO_PRESETS_H
#define TOPO_PRESETS_H

#include <stddef.h>

#include "common/compute.h"
#include "cluster.h"

typedef struct {
  const char *name;    /* hgx-h100, ... */
  const char *match;   /* a word of nccl-tests' GPU model string ("H100"), NULL: only by name */
  const char *unless;  /* ... unless it also holds this one ("PCIe") */
  topo_node_kind node;
  int gpus;
  double gpu_bw, gpu_lat;
  int nics;
  double nic_line_Bps, nic_lat; /* a NIC's line rate per direction (its data rate: topo_preset_cluster) */
  int rails;
  double hbm_Bps;      /* memory bandwidth: the compute properties' source */
  double flops;        /* fp32 peak: only converts charged seconds */
  const char *sources; /* the documents the numbers come from, for the platform's comment */
  int host_amd;        /* the reference server's CPUs are AMD's, else Intel's: NCCL's figure for
                        * its network proxy differs by the host (nccl_host_proxy) */
} topo_preset;

/* The preset of this name, or NULL. */
const topo_preset *topo_preset_find(const char *name);
/* The preset whose GPU model a log names ("NVIDIA H100 80GB HBM3"), or NULL. */
const topo_preset *topo_preset_for_gpu(const char *model);
/* The names, comma-separated, for messages. */
void topo_preset_names(char *buf, size_t len);

/* The share of a NIC's line rate that data moves at through a preset's NIC: what NCCL's
 * ring reached over InfiniBand (NVIDIA/nccl-tests issue #309, the NCCL_ALGO=Ring run by
 * gj-aion, 8 GiB: 392.7 GB/s of bus bandwidth over 8 ConnectX-7 of 400 Gb/s on 2 x 8
 * H100, 49.1 GB/s per NIC of its 50). Applied to every preset's InfiniBand NIC, and only
 * there: a rate given on simcalib's command line (--nic-rate) is the rate data moves at. */
#define TOPO_IB_EFFICIENCY 0.982

/* A topology of the preset's node and NICs (rails on a fat-tree when it has them): each
 * NIC at TOPO_IB_EFFICIENCY of its line rate. */
void topo_preset_cluster(const topo_preset *p, int nodes, topo_cluster *t);

/* The compute properties from the GPU's memory bandwidth, as platforms/tencent16.xml derives
 * them for the V100: a sum at 85% of it moving 3 bytes per output byte, a copy 2, the top-k
 * costs scaled from tencent16's by the bandwidth ratio. */
void topo_preset_compute(const topo_preset *p, sa_compute *c);
/* The file of measurements the preset's compute properties come from instead (a kernel run
 * on the GPU itself, experiments/gpu/), or NULL when they are derived as above. */
const char *topo_preset_measured(const topo_preset *p);

/* What NCCL's NVLS kernels copy per second on the preset's GPU, every channel together (the
 * platform's nvls_copy_bw: their scatter and gather warps), where a public log has shown it,
 * and that log in *log; 0 (and NULL) where none has: the device's copy rate then bounds them. */
double topo_preset_nvls_copy(const topo_preset *p, const char **log);

/* The least that NCCL's steps and start can take on the preset's GPU, measured on it
 * (experiments/gpu/README.md), in seconds; 0 where not measured. A fit keeps NCCL's figures
 * at these or above: below, the times it matches are matched for another reason. */
typedef struct {
  double launch;     /* an NCCL allreduce call, back to back on one GPU (launch_lat) */
  double ll_lat;     /* a step of LL, as the multiprocessors hand it on: the least of any hop */
  double ll128_lat;  /* a step of LL128 beyond one of LL, as the multiprocessors hand it on */
  double simple_lat; /* a step of Simple beyond one of LL */
} topo_floors;
void topo_preset_floors(const topo_preset *p, topo_floors *f);
/* The file a preset's floors come from: steps 1 the steps' (the ll128 and simple floors), 0
 * the NCCL call's (launch); NULL where not measured. */
const char *topo_preset_floor_file(const topo_preset *p, int steps);

#endif
