/* nets.c: the built-in workloads by name (train.h); their layers in nets_cnn.c and
 * nets_transformer.c. */
#include <stdio.h>
#include <string.h>

#include "common/sa_error.h"
#include "nets.h"
#include "workload.h"

static int net_resnet50(train_workload *w) { return train_net_resnet50(w, 224); }
static int net_resnet50_96(train_workload *w) { return train_net_resnet50(w, 96); }
static int net_resnet50_128(train_workload *w) { return train_net_resnet50(w, 128); }
static int net_resnet50_288(train_workload *w) { return train_net_resnet50(w, 288); }

static const struct {
  const char *name;
  int (*build)(train_workload *w);
} nets[] = {
    {"resnet50", net_resnet50},       {"resnet50-96", net_resnet50_96}, {"resnet50-128", net_resnet50_128},
    {"resnet50-288", net_resnet50_288}, {"vgg19", train_net_vgg19},     {"transformer", train_net_transformer},
    {"bert-large", train_net_bert_large},
};

const char *train_workload_names(void)
{
  return "resnet50, resnet50-96, resnet50-128, resnet50-288, vgg19, transformer, bert-large";
}

int train_workload_builtin(const char *name, int batch, train_workload *w, char *err, size_t errlen)
{
  memset(w, 0, sizeof *w);
  if (batch < 0) {
    snprintf(err, errlen, "batch %d: want a positive number of samples per GPU (0: the workload's own)", batch);
    return SA_EINVAL;
  }
  for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++) {
    if (strcmp(nets[i].name, name) != 0)
      continue;
    snprintf(w->name, sizeof w->name, "%s", name);
    w->elem = 2; /* fp16 gradients: mixed precision, as Shi et al. 2021 §5.5.2 trained */
    int rc = nets[i].build(w);
    if (!rc && batch > 0)
      w->batch = batch; /* the same throughput at another batch: time scales with it */
    if (!rc)
      rc = train_split_times(w, err, errlen);
    else if (rc == SA_ENOMEM)
      snprintf(err, errlen, "workload %s: out of memory", name);
    if (rc)
      train_workload_free(w);
    return rc;
  }
  snprintf(err, errlen, "unknown workload '%s': built-ins are %s, or give a JSON file", name, train_workload_names());
  return SA_EINVAL;
}
