/* nets.h: the built-in networks' builders (nets_cnn.c, nets_transformer.c): each appends its
 * layers to an empty workload and sets its batch, single-GPU throughput and source; nets.c
 * names them and splits their time. 0, SA_ENOMEM, or SA_EINVAL (a resolution not measured). */
#ifndef TRAIN_NETS_H
#define TRAIN_NETS_H

#include "train.h"

int train_net_resnet50(train_workload *w, int res);
int train_net_vgg19(train_workload *w);
int train_net_transformer(train_workload *w);
int train_net_bert_large(train_workload *w);

#endif
