/* workload.h: building a workload, what the built-ins (nets*.c) and the JSON loader
 * (workload_json.c) share: adding layers and splitting one GPU's iteration time between
 * them by FLOPs, in one place. */
#ifndef TRAIN_WORKLOAD_H
#define TRAIN_WORKLOAD_H

#include <stddef.h>

#include "train.h"

/* Appends a layer (forward order) with its gradient elements and forward FLOPs per sample;
 * times are left 0 for train_split_times. Returns 0 or SA_ENOMEM. */
int train_add_layer(train_workload *w, const char *name, double params, double flops);

/* One iteration on one GPU takes batch / single_sps seconds; each layer gets the share of
 * it that its FLOPs are of the total, a third forward and two thirds backward. Kaplan et al.
 * 2020 ("Scaling Laws for Neural Language Models") §2.1: training costs C ~ 6N FLOPs per
 * token against 2N for the forward pass, i.e. the backward pass is about twice the forward.
 * Returns 0, or SA_EINVAL with err (no throughput, no batch, no FLOPs). */
int train_split_times(train_workload *w, char *err, size_t errlen);

/* The sum of the layers' gradient elements. */
double train_params_total(const train_workload *w);
/* The sum of the layers' forward FLOPs per sample. */
double train_flops_total(const train_workload *w);

#endif
