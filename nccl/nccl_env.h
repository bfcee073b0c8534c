/* nccl_env.h: NCCL_ALGO and NCCL_PROTO as NCCL reads them, for an allreduce: which of its
 * algorithms and protocols a user left it to choose among (src/graph/tuning.cc parseList and
 * ncclTopoTuneModel at v2.26.2-1). No MPI here. */
#ifndef NCCL_NCCL_ENV_H
#define NCCL_NCCL_ENV_H

#include <stddef.h>

/* A set of NCCL's algorithms (NCCL_ALGO_*) or protocols (NCCL_PROTO_*) as bits; 0 stands for
 * no variable set: NCCL's own choice among all it runs (LL128 only where it allows it). */
#define NCCL_BIT(x) (1u << (x))

enum { NCCL_ENV_ALGO, NCCL_ENV_PROTO };

/* The allreduce's set in text of NCCL_ALGO's (kind NCCL_ENV_ALGO) or NCCL_PROTO's syntax:
 * names in any case, comma separated, all but those after a leading "^", entries for
 * functions after the first as "Function:list" separated by ";" (an allreduce takes the
 * first entry's list and any "AllReduce:" one's). Names NCCL has and nothing here models
 * (CollNetDirect, CollNetChain, PAT) are accepted and leave the set. Returns 0 with why
 * filled when the text is not what NCCL accepts, has no entry for an allreduce (NCCL's own
 * choice: give no set) or leaves no modelled one. A protocol in a
 * set NCCL_PROTO gives runs even where NCCL keeps it off by default (LL128: its
 * protoEnable 1, not 2). */
unsigned nccl_env_parse(int kind, const char *text, char *why, size_t len);

/* What NCCL ran a size with, as "NVLSTree/Simple/16" (NCCL_ALGO's and NCCL_PROTO's names, then
 * the channels where said: md_point.nccl_ran, topo/fit_ran.h): one algorithm's and one
 * protocol's bit and the channels (0: not said). Returns 1, or 0 for text of another form or
 * an algorithm or protocol nothing here models (CollNet, PAT). */
int nccl_env_ran(const char *ran, unsigned *algo_bit, unsigned *proto_bit, int *channels);
/* The same written from one algorithm's and one protocol's bit and the channels (0: left
 * out), as nccl_env_ran reads it. */
void nccl_env_ran_format(unsigned algo_bit, unsigned proto_bit, int channels, char *out, size_t len);

/* "Ring,Tree": the names of a set, in NCCL's order; "NCCL's choice" for 0. */
void nccl_env_format(int kind, unsigned set, char *out, size_t len);

#endif
