/* plugin.c: the NCCL tuner plugin: at communicator setup it reads the decision table
 * SIMALLREDUCE_TUNER_TABLE names and keeps the rows for the communicator's shape; per
 * allreduce it answers NCCL with the table's algorithm, protocol and channel count for the
 * size, or leaves NCCL's own choice where the table has none. One implementation behind every
 * interface version NCCL looks up (nccl_tuner_api.h). The library exports those structs and
 * nothing else (built with hidden visibility). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "nccl_tuner_api.h"
#include "table_index.h"

#define TUNER_NAME "simallreduce"
#define TUNER_ENV_TABLE "SIMALLREDUCE_TUNER_TABLE"
#define EXPORT __attribute__((visibility("default")))

struct context {
  struct tuner_index ix;
};

/* Through NCCL's logger (WARN always shows, INFO with NCCL_DEBUG=INFO); to stderr when a
 * caller gives none. */
__attribute__((format(printf, 3, 4))) static void say(ncclDebugLogger_t log, ncclDebugLogLevel level,
                                                      const char *fmt, ...)
{
  char msg[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (log)
    log(level, NCCL_INIT | NCCL_TUNING, __FILE__, __LINE__, "%s tuner: %s", TUNER_NAME, msg);
  else if (level == NCCL_LOG_WARN)
    fprintf(stderr, "%s tuner: %s\n", TUNER_NAME, msg);
}

static ncclResult_t init(size_t nRanks, size_t nNodes, ncclDebugLogger_t log, void **context)
{
  *context = NULL;
  const char *path = getenv(TUNER_ENV_TABLE);
  if (!path || !*path) {
    say(log, NCCL_LOG_WARN, "%s is not set: it names the table simallreduce --export-tuner wrote", TUNER_ENV_TABLE);
    return ncclInvalidUsage;
  }
  struct tuner_table table;
  char err[512];
  enum tuner_status st = tuner_table_load(path, &table, err, sizeof err);
  if (st != TUNER_OK) {
    say(log, NCCL_LOG_WARN, "%s", err);
    return st == TUNER_ERR_IO ? ncclSystemError : ncclInvalidUsage;
  }

  /* a shape the table cannot hold (uneven nodes, beyond its bounds) gets no rows */
  size_t rpn = nNodes ? nRanks / nNodes : 0;
  int even = nNodes > 0 && nRanks % nNodes == 0 && nNodes <= TUNER_MAX_NODES && rpn <= TUNER_MAX_RANKS_PER_NODE;
  struct context *c = malloc(sizeof *c);
  if (!c || tuner_index_build(&c->ix, &table, even ? (uint32_t)nNodes : 0, even ? (uint32_t)rpn : 0) != 0) {
    free(c);
    tuner_table_free(&table);
    say(log, NCCL_LOG_WARN, "out of memory reading %s", path);
    return ncclSystemError;
  }
  tuner_table_free(&table);
  if (c->ix.ranges == 0)
    say(log, NCCL_LOG_INFO, "%s: no rows for %zu ranks on %zu nodes; NCCL chooses for every size", path, nRanks,
        nNodes);
  else
    say(log, NCCL_LOG_INFO, "%s: %d size ranges for %zu nodes x %zu ranks (a lookup steps over at most %d more)",
        path, c->ix.ranges, nNodes, rpn, c->ix.max_scan);
  *context = c;
  return ncclSuccess;
}

static ncclResult_t init_v5(void **context, uint64_t commId, size_t nRanks, size_t nNodes, ncclDebugLogger_t log,
                            ncclNvlDomainInfo_v5_t *nvlDomainInfo, ncclTunerConstants_v5_t *constants)
{
  (void)commId, (void)nvlDomainInfo, (void)constants;
  return init(nRanks, nNodes, log, context);
}

/* The table's choice for this call, or NULL: allreduce only, the one collective simulated. */
static const struct tuner_choice *lookup(const void *context, ncclFunc_t collType, size_t nBytes)
{
  const struct context *c = context;
  return c && collType == ncclFuncAllReduce ? tuner_index_find(&c->ix, nBytes) : NULL;
}

/* v3 onwards: the chosen entry's cost drops to 0, below any NCCL computes, so NCCL picks it;
 * an entry NCCL marks unavailable, or one its table has no room for, stays as it is and
 * NCCL chooses. The channel count goes with the choice, never alone. */
static ncclResult_t get_coll_info(void *context, ncclFunc_t collType, size_t nBytes, int numPipeOps,
                                  float **collCostTable, int numAlgo, int numProto, int regBuff, int *nChannels)
{
  (void)numPipeOps, (void)regBuff;
  const struct tuner_choice *ch = lookup(context, collType, nBytes);
  if (!ch || ch->algo >= numAlgo || ch->proto >= numProto)
    return ncclSuccess;
  float *cost = (float *)collCostTable + ch->algo * numProto + ch->proto;
  if (*cost == NCCL_ALGO_PROTO_IGNORE)
    return ncclSuccess;
  *cost = 0.0f;
  if (ch->channels > 0)
    *nChannels = ch->channels;
  return ncclSuccess;
}

static ncclResult_t get_coll_info_v3(void *context, ncclFunc_t collType, size_t nBytes, int numPipeOps,
                                     float **collCostTable, int numAlgo, int numProto, int *nChannels)
{
  return get_coll_info(context, collType, nBytes, numPipeOps, collCostTable, numAlgo, numProto, 0, nChannels);
}

/* v2: NCCL 2.21 takes algorithm and protocol as given and knew six algorithms (PAT came in
 * 2.23), so only choices it can run: not PAT, not CollNet or NVLS where unsupported. */
static ncclResult_t get_coll_info_v2(void *context, ncclFunc_t collType, size_t nBytes, int collNetSupport,
                                     int nvlsSupport, int numPipeOps, int *algorithm, int *protocol, int *nChannels)
{
  (void)numPipeOps;
  const struct tuner_choice *ch = lookup(context, collType, nBytes);
  if (!ch || ch->algo == NCCL_ALGO_PAT)
    return ncclSuccess;
  if (!collNetSupport && (ch->algo == NCCL_ALGO_COLLNET_DIRECT || ch->algo == NCCL_ALGO_COLLNET_CHAIN))
    return ncclSuccess;
  if (!nvlsSupport && (ch->algo == NCCL_ALGO_NVLS || ch->algo == NCCL_ALGO_NVLS_TREE))
    return ncclSuccess;
  *algorithm = ch->algo;
  *protocol = ch->proto;
  if (ch->channels > 0)
    *nChannels = ch->channels;
  return ncclSuccess;
}

/* NCCL calls it with the context init left, NULL when init failed. */
static ncclResult_t finalize(void *context)
{
  struct context *c = context;
  if (c) {
    tuner_index_free(&c->ix);
    free(c);
  }
  return ncclSuccess;
}

EXPORT ncclTuner_v6_t ncclTunerPlugin_v6 = {TUNER_NAME, init_v5, get_coll_info, finalize, NULL};
EXPORT ncclTuner_v5_t ncclTunerPlugin_v5 = {TUNER_NAME, init_v5, get_coll_info, finalize};
EXPORT ncclTuner_v4_t ncclTunerPlugin_v4 = {TUNER_NAME, init, get_coll_info, finalize};
EXPORT ncclTuner_v3_t ncclTunerPlugin_v3 = {TUNER_NAME, init, get_coll_info_v3, finalize};
EXPORT ncclTuner_v2_t ncclTunerPlugin_v2 = {TUNER_NAME, init, get_coll_info_v2, finalize};
