/* fuzz_workload.c: the loader of --workload's JSON files, then the buckets each framework
 * makes of what it read. */
#include "train/train.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char path[256], err[512];
  if (fuzz_file(data, size, path, sizeof path) != 0)
    return 0;
  train_workload w;
  if (train_workload_load(path, &w, err, sizeof err) == 0) {
    static const char *const schemes[] = {"ddp", "horovod", "whole", "4K"};
    for (size_t i = 0; i < sizeof schemes / sizeof schemes[0]; i++) {
      train_bucket *b = NULL;
      if (train_buckets(&w, schemes[i], &b, err, sizeof err) >= 0)
        free(b);
    }
    train_workload_free(&w);
  }
  unlink(path);
  return 0;
}
