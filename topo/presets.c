/* presets.c: the servers of presets.h and their sources. Latencies are assumptions (no
 * vendor publishes a per-hop figure): 1 us per GPU link (2 us GPU to GPU, as
 * platforms/tencent16.xml), 2 us per NIC link; a fit replaces them. */
#include "presets.h"

#include <stdio.h>
#include <string.h>

/* NIC rates: line rates (the 400 Gb/s of a ConnectX-7 port is 50 GB/s), data moving at
 * TOPO_IB_EFFICIENCY of them (presets.h). */
static const topo_preset presets[] = {
    {"hgx-h100", "H100", "PCIe", TOPO_NODE_NVSWITCH, 8, 450e9, 1e-6, 8, 50e9, 2e-6, 1, 3.35e12, 67e12,
     "NVIDIA H100 Tensor Core GPU datasheet (SXM5): 18 NVLink4 links, 900 GB/s both ways (450 per\n"
     "       direction), 3.35 TB/s HBM3, 67 Tflop/s fp32; NVIDIA DGX H100 datasheet: 8 single-port\n"
     "       ConnectX-7, 400 Gb/s InfiniBand each; NVIDIA DGX SuperPOD reference architecture: one\n"
     "       leaf per rail (GPU j's NIC of every node on leaf j); DGX H100: 2 Intel Xeon Platinum 8480C",
     0},
    {"hgx-h200", "H200", "NVL", TOPO_NODE_NVSWITCH, 8, 450e9, 1e-6, 8, 50e9, 2e-6, 1, 4.8e12, 67e12,
     "NVIDIA H200 Tensor Core GPU datasheet (SXM): NVLink 900 GB/s both ways (450 per direction),\n"
     "       4.8 TB/s HBM3e, 67 Tflop/s fp32 (the H100 SXM's multiprocessors); NVIDIA DGX H200\n"
     "       datasheet: 8 single-port ConnectX-7, 400 Gb/s InfiniBand each, on rails; 2 Intel Xeon\n"
     "       Platinum 8480C",
     0},
    {"hgx-a100", "A100", "PCIe", TOPO_NODE_NVSWITCH, 8, 300e9, 1e-6, 8, 25e9, 2e-6, 1, 1.555e12, 19.5e12,
     "NVIDIA A100 Tensor Core GPU datasheet (SXM4 40GB): 12 NVLink3 links, 600 GB/s both ways (300 per\n"
     "       direction), 1555 GB/s HBM2, 19.5 Tflop/s fp32; NVIDIA DGX A100 datasheet: 8 single-port\n"
     "       ConnectX-6, 200 Gb/s HDR InfiniBand each, on rails (DGX SuperPOD reference architecture); 2\n"
     "       AMD EPYC 7742",
     1},
    {"hgx-b200", "B200", NULL, TOPO_NODE_NVSWITCH, 8, 900e9, 1e-6, 8, 50e9, 2e-6, 1, 8e12, 0,
     "NVIDIA HGX B200 datasheet: fifth-generation NVLink, 1.8 TB/s per GPU both ways (900 per\n"
     "       direction), 8 TB/s HBM3e per GPU; NVIDIA DGX B200 datasheet: 8 single-port ConnectX-7,\n"
     "       400 Gb/s InfiniBand each, on rails; 2 Intel Xeon Platinum 8570",
     0},
    {"dgx2-v100", "V100-SXM3", NULL, TOPO_NODE_NVSWITCH, 16, 150e9, 1e-6, 8, 12.5e9, 2e-6, 1, 900e9, 15.7e12,
     "NVIDIA V100 datasheet: 6 NVLink2 links, 300 GB/s both ways (150 per direction), 900 GB/s HBM2,\n"
     "       15.7 Tflop/s fp32; NVIDIA DGX-2 datasheet: 16 V100 on NVSwitches, 8 x 100 Gb/s EDR\n"
     "       InfiniBand; 2 Intel Xeon Platinum 8168",
     0},
    {"dgx1-v100", "V100-SXM2", NULL, TOPO_NODE_DGX1, 8, 25e9, 2e-6, 4, 12.5e9, 2e-6, 0, 900e9, 15.7e12,
     "NVIDIA DGX-1 with Tesla V100 System Architecture white paper (2017): the hybrid cube-mesh,\n"
     "       25 GB/s per NVLink2 per direction, one or two per GPU pair, 4 x 100 Gb/s EDR InfiniBand,\n"
     "       one per PCIe switch of two GPUs, 2 Intel Xeon E5-2698 v4; V100 datasheet: 900 GB/s HBM2,\n"
     "       15.7 Tflop/s fp32",
     0},
};

const topo_preset *topo_preset_find(const char *name)
{
  for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
    if (strcmp(presets[i].name, name) == 0)
      return &presets[i];
  return NULL;
}

const topo_preset *topo_preset_for_gpu(const char *model)
{
  for (size_t i = 0; model && i < sizeof presets / sizeof presets[0]; i++)
    if (presets[i].match && strstr(model, presets[i].match) && !(presets[i].unless && strstr(model, presets[i].unless)))
      return &presets[i];
  return NULL;
}

void topo_preset_names(char *buf, size_t len)
{
  size_t n = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < sizeof presets / sizeof presets[0] && n < len; i++)
    n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "", presets[i].name);
}

void topo_preset_cluster(const topo_preset *p, int nodes, topo_cluster *t)
{
  memset(t, 0, sizeof *t);
  t->node = p->node;
  t->nodes = nodes;
  t->gpus = p->gpus;
  t->gpu_bw = p->gpu_bw;
  t->gpu_lat = p->gpu_lat;
  t->nics = p->nics;
  t->nic_bw = p->nic_line_Bps * TOPO_IB_EFFICIENCY;
  t->nic_lat = p->nic_lat;
  t->rails = p->rails;
  t->fabric = p->rails ? TOPO_FABRIC_FATTREE : TOPO_FABRIC_SWITCH;
  topo_defaults(t);
}

/* Compute measured on the GPU itself, where we have measured it: it wins over the figures
 * derived from the memory bandwidth. experiments/gpu/README.md says how each was measured;
 * the numbers are `simcalib fit` of its file (tests/check_topo.c checks they agree). */
static const struct {
  const char *preset;
  sa_compute c;
  const char *file;
} measured[] = {
    {"hgx-h100",
     {.reduce_bw = 926.301e9, .reduce_lat = 6.4216e-6, .copy_bw = 1508.28e9, .topk_a = 339.171e-6,
      .topk_b = 5.63489e-11, .mstopk_a = 3948.27e-6, .mstopk_b = 1.18835e-11, .scatter_a = 5.00018e-6,
      .scatter_b = 6.52125e-11},
     "experiments/gpu/h100-sxm-kernels.json"},
    {"hgx-h200",
     {.reduce_bw = 1215.61e9, .reduce_lat = 6.37749e-6, .copy_bw = 2138.56e9, .topk_a = 292.412e-6,
      .topk_b = 5.05205e-11, .mstopk_a = 3079.18e-6, .mstopk_b = 8.77532e-12, .scatter_a = 4.41989e-6,
      .scatter_b = 5.20543e-11},
     "experiments/gpu/h200-kernels.json"},
};

/* The floors of topo_floors, where measured (experiments/gpu/README.md), with the files they
 * come from: `call` an NCCL 2.2x allreduce on one rank, out of place, batched back to back
 * (the median of its sizes up to 64 KiB: 5.83 us on the H100, 7.07 on the H200); `steps` a
 * ring of 2 or 8 multiprocessors handing NCCL's steps on, time per step against its size,
 * whose fixed part beyond LL's (the lesser of the two rings) is a step's floor, LL's own (the
 * lesser) the floor of any hop (0.548 us on the H100, 0.422 on the H200): on the H100
 * LL 0.55 / 0.59 us, LL128 1.06 / 0.90, Simple 2.14 / 2.12; on the H200 LL 0.42 / 0.52,
 * LL128 0.96 / 0.94, Simple 2.00 / 2.10. NCCL's own per-hop figures on NVLink
 * (src/graph/tuning.cc hwLat at v2.26.2-1: 0.6, 1.9, 3.4 us) lie above each. One H100 80GB
 * HBM3 (SXM5) and one H200, 2026-11-27. */
static const struct {
  const char *preset;
  topo_floors f;
  const char *call, *steps;
} floors[] = {
    {"hgx-h100",
     {.launch = 5.83e-6, .ll_lat = 0.548e-6, .ll128_lat = 0.898e-6 - 0.585e-6, .simple_lat = 2.118e-6 - 0.585e-6},
     "experiments/gpu/h100-sxm-nccl1.json",
     "experiments/gpu/h100-sxm-steps.json"},
    {"hgx-h200",
     {.launch = 7.073e-6, .ll_lat = 0.422e-6, .ll128_lat = 0.942e-6 - 0.522e-6, .simple_lat = 1.997e-6 - 0.422e-6},
     "experiments/gpu/h200-nccl1.json",
     "experiments/gpu/h200-steps.json"},
};

/* NVLS's copies, from simcalib's fit of a log where NCCL ran NVLS tree (platform
 * --from-nccl-tests LOG --nodes 2, its default): L07, 2 x 8 H100 SXM, NCCL 2.26.2 (a cluster
 * of its own: tests/data/measured/README.md), the switch held at NCCL's model of it
 * (fit/clustercal.c says why). The fit of L09, another cluster of 2 x 8 H100, gives 593
 * GB/s, 1.7% above. The figure is what NCCL 2.26.2's most copy warps move (scatter 8, gather
 * 7 of a channel's 20: one node, or a tree's root; a node with a parent in the tree has 6
 * and 5, src/device/all_reduce.h, nccl_nvls_copy_warps), 39% of the device's copy rate: each
 * warp with its loads in flight, not the whole GPU a copy kernel has. With it one node of 8
 * H100 runs NVLS at 455 GB/s of busbw at 1 GiB, where published runs give 460 to 480
 * (tests/check_nvls.c; tests/check_cluster_fit.c refits the figure). */
static const struct {
  const char *preset, *log;
  double bw;
} nvls_copies[] = {
    {"hgx-h100", "tests/data/measured/L07_hgx_h100_2node16_nccl2262_xpmem.log", 583.429e9},
};

double topo_preset_nvls_copy(const topo_preset *p, const char **log)
{
  for (size_t i = 0; i < sizeof nvls_copies / sizeof nvls_copies[0]; i++)
    if (strcmp(nvls_copies[i].preset, p->name) == 0) {
      if (log)
        *log = nvls_copies[i].log;
      return nvls_copies[i].bw;
    }
  if (log)
    *log = NULL;
  return 0;
}

const char *topo_preset_floor_file(const topo_preset *p, int steps)
{
  for (size_t i = 0; i < sizeof floors / sizeof floors[0]; i++)
    if (strcmp(floors[i].preset, p->name) == 0)
      return steps ? floors[i].steps : floors[i].call;
  return NULL;
}

void topo_preset_floors(const topo_preset *p, topo_floors *f)
{
  memset(f, 0, sizeof *f);
  for (size_t i = 0; i < sizeof floors / sizeof floors[0]; i++)
    if (strcmp(floors[i].preset, p->name) == 0)
      *f = floors[i].f;
}

const char *topo_preset_measured(const topo_preset *p)
{
  for (size_t i = 0; i < sizeof measured / sizeof measured[0]; i++)
    if (strcmp(measured[i].preset, p->name) == 0)
      return measured[i].file;
  return NULL;
}

void topo_preset_compute(const topo_preset *p, sa_compute *c)
{
  for (size_t i = 0; i < sizeof measured / sizeof measured[0]; i++)
    if (strcmp(measured[i].preset, p->name) == 0) {
      *c = measured[i].c;
      return;
    }
  double sustained = 0.85 * p->hbm_Bps, v100 = 900e9 / p->hbm_Bps;
  memset(c, 0, sizeof *c);
  c->reduce_bw = sustained / 3;
  c->copy_bw = sustained / 2;
  c->topk_a = 1e-5;
  c->topk_b = 9.3e-9 * v100;
  c->mstopk_a = 3e-4;
  c->mstopk_b = 4.31e-11 * v100;
  c->scatter_a = 5e-6;
  c->scatter_b = 9.4e-11 * v100;
}
