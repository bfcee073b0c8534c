/* table_names.c: NCCL's names of its algorithms and protocols, as the table spells them. */
#include <string.h>
#include <strings.h>

#include "table.h"

/* By NCCL's index (src/include/plugin/nccl_tuner.h); the names NCCL_ALGO and NCCL_PROTO take
 * (ncclAlgoStr and ncclProtoStr, src/init.cc, NVIDIA/nccl v2.30.7-1). */
static const char *const algo_names[TUNER_NUM_ALGOS] = {"Tree", "Ring", "CollNetDirect", "CollNetChain",
                                                        "NVLS", "NVLSTree", "PAT"};
static const char *const proto_names[TUNER_NUM_PROTOS] = {"LL", "LL128", "Simple"};

static const char *name_of(const char *const *names, int n, int i)
{
  return i >= 0 && i < n ? names[i] : "?";
}

static int index_of(const char *const *names, int n, const char *s, size_t len)
{
  for (int i = 0; i < n; i++)
    if (strlen(names[i]) == len && strncasecmp(names[i], s, len) == 0)
      return i;
  return -1;
}

const char *tuner_algo_name(int algo)
{
  return name_of(algo_names, TUNER_NUM_ALGOS, algo);
}

const char *tuner_proto_name(int proto)
{
  return name_of(proto_names, TUNER_NUM_PROTOS, proto);
}

int tuner_algo_index(const char *name, size_t len)
{
  return index_of(algo_names, TUNER_NUM_ALGOS, name, len);
}

int tuner_proto_index(const char *name, size_t len)
{
  return index_of(proto_names, TUNER_NUM_PROTOS, name, len);
}
