/* import_nccl.h: what the nccl-tests importer's two files share: the reading state and the
 * parsers of the lines around the table (import_nccl_header.c). */
#ifndef IMPORT_IMPORT_NCCL_H
#define IMPORT_IMPORT_NCCL_H

#include "import.h"

/* The parts of a run's output, in the order nccl-tests prints them. */
typedef enum {
  ST_NONE,    /* no run begun */
  ST_VERSION, /* "# nccl-tests version 2.18.3 nccl-headers=... nccl-library=23003" */
  ST_COLL,    /* "# Collective test starting: all_reduce_perf" */
  ST_PARAMS,  /* "# nThread 1 nGpus 8 minBytes ..." */
  ST_DEVICES, /* "#  Rank  0 Group  0 Pid 123 on host device  0 [0000:19:00] NVIDIA H100 ..." */
  ST_TABLE,   /* the column header and the rows */
  ST_SUMMARY  /* "# Out of bounds values" / "# Avg bus bandwidth" */
} imp_nccl_stage;

/* Where the table's columns are, from its header line: -1 absent. [0] out-of-place, [1]
 * in-place. */
typedef struct {
  int size, count, type, redop, root;
  int time[2], algbw[2], busbw[2], wrong[2];
  int wrong_is_count; /* "#wrong" (a count) rather than old versions' "error" (a magnitude) */
  int ncols;
  int timestamp;      /* the last column, -T's timestamp, may take several tokens */
} imp_nccl_cols;

/* One size's choice as NCCL's tuning lines print it ("AllReduce: 1048576 Bytes -> Algo
 * NVLSTree proto Simple channel{Lo..Hi}={0..15}", src/enqueue.cc at v2.26.2-1), as
 * md_point.nccl_ran writes it; mixed when two lines for the size disagree. */
typedef struct {
  double bytes;
  char ran[24];
  int mixed;
} imp_nccl_ran;

typedef struct {
  md_run run;          /* the run being read */
  imp_nccl_stage stage;     /* the furthest part of it seen */
  imp_nccl_cols cols;
  int in_table;         /* between its column header and its summary */
  size_t first_point;   /* its first point in the data */
  char **host, **gpu;   /* of each rank, from the device lines */
  int nranks, rank_cap;
  char pending_nccl[32]; /* an "NCCL version" line seen while no run was open */
  char pending_algo[64], pending_proto[64]; /* the same of NCCL_ALGO's and NCCL_PROTO's lines */
  char pending_dated[32];                   /* and of a line that dates NCCL (import_nccl.c) */
  imp_nccl_ran *ran;                        /* what NCCL's tuning lines say it ran each size with */
  int nran, ran_cap;
} imp_nccl_state;

/* A line of NCCL's tuning: 1 (and the choice kept in st) where s is one, whatever its
 * collective, 0 where not. Its three forms: "AllReduce: N Bytes -> Algo NAME proto NAME
 * channel{Lo..Hi}={a..b}" (2.24 on), "AllReduce: N Bytes -> Algo I proto J time T" (2.23),
 * "N Bytes -> Algo I proto J time T" (2.19 to 2.22, allreduce alone in all_reduce_perf),
 * I and J NCCL's indices (src/include/device.h: Tree, Ring, CollNetDirect, CollNetChain,
 * NVLS, NVLSTree, PAT; LL, LL128, Simple). Returns -1 when out of memory. */
int imp_nccl_ran_line(imp_nccl_state *st, const char *s);

/* Reads the column header ("# size count type redop root time algbw busbw #wrong time ...");
 * 0, or -1 when line is not one. Modifies line. */
int imp_nccl_cols_parse(char *line, imp_nccl_cols *c);

/* The "# nThread ..." line's parameters into q. */
void imp_nccl_params_parse(char *line, md_run_params *q);

/* A device line "Rank r [Group g] Pid p on HOST device d [bus] MODEL" (after its '#'):
 * 0 with its rank, host and model (pointers into line, which it modifies), or -1. */
int imp_nccl_rank_parse(char *line, int *rank, char **host, char **model);

/* "nccl-tests version V nccl-headers=H nccl-library=L": V into the run, and NCCL's version
 * from L where no "NCCL version" line gives it. */
void imp_nccl_tests_version(char *line, md_run *r);

/* The collective an nccl-tests binary (all_gather_perf, ...) measures: "allgather", ... */
const char *imp_nccl_collective_of(const char *binary, char *buf, size_t len);

/* nccl-tests' type name (float, half, bfloat16, ...): this project's name (fp32, fp16,
 * bf16, ...) into out and its size in bytes (0 unknown). */
int imp_nccl_type(const char *name, char *out, size_t len);

/* Sets the run's ranks, hosts (nodes), rank_node, gpus_per_node and gpu_models from the
 * device lines, each rank's host[i] and gpu[i]. 0 or SA_ENOMEM. */
int imp_nccl_run_shape(md_run *r, char **host, char **gpu, int n);

#endif
