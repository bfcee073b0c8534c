/* table.h: the decision table simallreduce exports and its NCCL tuner plugin reads.
 *
 * A text file, CSV after a version line (docs/tuner.md describes it for users):
 *
 *   #simallreduce-tuner 1
 *   nodes,ranks_per_node,min_bytes,max_bytes,algo,proto,channels,sim_bytes,time_us,runner_up,runner_up_time_us
 *   4,8,8,11,Tree,LL,0,8,21.350,Ring/LL/0,24.125
 *
 * One row per simulated size: for jobs of `nodes` nodes with `ranks_per_node` ranks each, an
 * allreduce of min_bytes..max_bytes (inclusive) runs NCCL's algorithm `algo` with protocol
 * `proto` on `channels` channels (0: NCCL's own count); the simulation of sim_bytes took
 * time_us, and the fastest other candidate (runner_up, "Algo/Proto/channels", or "-" when
 * there was none) took runner_up_time_us. Lines starting with '#' after the first are
 * comments. Ranges of one shape must not overlap; sizes between or outside them are left to
 * NCCL. */
#ifndef TUNER_TABLE_H
#define TUNER_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TUNER_TABLE_MAGIC "#simallreduce-tuner 1"
#define TUNER_TABLE_COLUMNS \
  "nodes,ranks_per_node,min_bytes,max_bytes,algo,proto,channels,sim_bytes,time_us,runner_up,runner_up_time_us"

/* Bounds on what a table may hold, so that a damaged file is refused early and memory stays
 * small. Channels: NCCL's MAXCHANNELS (src/include/device.h: 64 from 2.25 on, 32 before). */
#define TUNER_MAX_FILE_BYTES (8u << 20)
#define TUNER_MAX_LINE 512
#define TUNER_MAX_ROWS 100000
#define TUNER_MAX_NODES 65536
#define TUNER_MAX_RANKS_PER_NODE 4096
#define TUNER_MAX_CHANNELS 64
#define TUNER_MAX_TIME_US 1e12

/* NCCL's algorithms and protocols, by the index NCCL gives them (nccl_tuner_api.h). */
#define TUNER_NUM_ALGOS 7
#define TUNER_NUM_PROTOS 3

/* One configuration of NCCL: algorithm and protocol indices, channels (0: NCCL's count). An
 * absent runner-up has algo -1. */
struct tuner_choice {
  int algo;
  int proto;
  int channels;
};

struct tuner_row {
  uint32_t nodes, ranks_per_node;
  uint64_t min_bytes, max_bytes, sim_bytes;
  struct tuner_choice choice;
  double time_us;
  struct tuner_choice runner_up;
  double runner_up_time_us;
};

/* A parsed table: rows ordered by nodes, ranks_per_node, min_bytes. */
struct tuner_table {
  struct tuner_row *rows;
  size_t nrows;
};

/* NCCL's names ("Tree", "Ring", "CollNetDirect", ... ; "LL", "LL128", "Simple"), the ones
 * NCCL_ALGO and NCCL_PROTO take. The index of a name (any case), or -1. */
const char *tuner_algo_name(int algo);
const char *tuner_proto_name(int proto);
int tuner_algo_index(const char *name, size_t len);
int tuner_proto_index(const char *name, size_t len);

/* How a load failed: the file could not be read, or its content is not a valid table. */
enum tuner_status { TUNER_OK = 0, TUNER_ERR_IO = -1, TUNER_ERR_FORMAT = -2 };

/* Parses len bytes of text; name prefixes the error ("NAME:LINE: reason"). On success fills
 * *out (free with tuner_table_free); on failure *out is empty and err holds one line. */
enum tuner_status tuner_table_parse(const char *text, size_t len, const char *name, struct tuner_table *out,
                                    char *err, size_t errlen);

/* Reads and parses the file at path (at most TUNER_MAX_FILE_BYTES). */
enum tuner_status tuner_table_load(const char *path, struct tuner_table *out, char *err, size_t errlen);

void tuner_table_free(struct tuner_table *t);

/* Writes a table of nrows rows (any order; written as given) to f. 0, or -1 on a write
 * error. */
int tuner_table_write(FILE *f, const struct tuner_row *rows, size_t nrows);

/* Writes the table to path, whole or not at all (util/outfile.h), after checking that it
 * parses as the plugin will parse it (the exporter never leaves a table the plugin refuses).
 * 0, or -1 with err. */
int tuner_table_save(const char *path, const struct tuner_row *rows, size_t nrows, char *err, size_t errlen);

/* Sets min_bytes and max_bytes of n rows of one shape, given in ascending sim_bytes: each
 * simulated size holds sizes up to the geometric mean of it and the next simulated size; the
 * first range starts at the smallest simulated size, the last ends at the largest. 0, or -1
 * when sim_bytes is not strictly ascending. */
int tuner_rows_set_ranges(struct tuner_row *rows, size_t n);

#endif
