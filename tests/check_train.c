/* check_train.c: the training step's workloads (built-in and JSON) and buckets. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"
#include "train/train.h"
#include "train/workload.h"
#include "util/tmpdir.h"
#include "check_util.h"

static char err[512];

static train_workload builtin(const char *name)
{
  train_workload w;
  ck_assert_msg(train_workload_builtin(name, 0, &w, err, sizeof err) == 0, "%s: %s", name, err);
  return w;
}

/* torchvision's resnet50 and vgg19 count these parameters (their weights files' sizes) */
START_TEST(parameter_totals)
{
  static const struct {
    const char *name;
    double params;
  } nets[] = {
      {"resnet50", 25557032},     {"resnet50-96", 25557032}, {"resnet50-128", 25557032},
      {"resnet50-288", 25557032}, {"vgg19", 143667240},
      /* Shi et al. 2021 §5.3, Fig. 8: 110M; nets_transformer.c says how it comes to that */
      {"transformer", 109998946},
      /* BERT-large with its pre-training heads: 335,141,888 + 1,084,220 (nets_transformer.c) */
      {"bert-large", 336226108},
  };
  for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++) {
    train_workload w = builtin(nets[i].name);
    ck_assert_msg(train_params_total(&w) == nets[i].params, "%s: %.0f parameters", nets[i].name,
                  train_params_total(&w));
    ck_assert_int_eq(w.elem, 2);
    ck_assert(w.source[0] != 0);
    train_workload_free(&w);
  }
}
END_TEST

/* Forward FLOPs per image, 2 x multiply-adds: ResNet-50 v1.5 ~4.1 G multiply-adds at 224x224
 * (He et al. 2016 Table 1 gives 3.8 G for v1, stride on the 1x1; v1.5 strides the 3x3 and
 * adds ~0.3 G); VGG-19 ~19.6 G (Simonyan & Zisserman 2015, configuration E). The input-size
 * variants scale the convolutions with the area: all but the FC's 2.048 M multiply-adds. */
START_TEST(flops_per_sample)
{
  train_workload r = builtin("resnet50"), v = builtin("vgg19");
  ck_assert_double_eq_tol(train_flops_total(&r) / 2, 4.1e9, 0.05e9);
  ck_assert_double_eq_tol(train_flops_total(&v) / 2, 19.6e9, 0.1e9);
  static const struct {
    const char *name;
    int res;
  } sizes[] = {{"resnet50-96", 96}, {"resnet50-128", 128}, {"resnet50-288", 288}};
  double fc = 2.0 * 2048 * 1000;
  for (size_t i = 0; i < 3; i++) {
    train_workload s = builtin(sizes[i].name);
    double area = (double)sizes[i].res * sizes[i].res / (224.0 * 224.0);
    ck_assert_double_eq_tol((train_flops_total(&s) - fc) / (train_flops_total(&r) - fc), area, 1e-12);
    train_workload_free(&s);
  }
  train_workload_free(&r);
  train_workload_free(&v);
}
END_TEST

/* One iteration on one GPU is batch / throughput (Shi21: ResNet-50 256 / 1150 images/s),
 * split by FLOPs with backward twice forward; another batch scales it. */
START_TEST(times_from_throughput)
{
  train_workload w = builtin("resnet50");
  ck_assert_int_eq(w.batch, 256);
  ck_assert_double_eq_tol(train_compute_s(&w), 256 / 1150.0, 1e-12);
  for (int i = 0; i < w.nlayers; i++)
    ck_assert_double_eq_tol(w.layers[i].bwd_s, 2 * w.layers[i].fwd_s, 1e-15);
  train_workload_free(&w);
  ck_assert_int_eq(train_workload_builtin("resnet50-288", 64, &w, err, sizeof err), 0);
  ck_assert_double_eq_tol(train_compute_s(&w), 64 / 710.0, 1e-12);
  train_workload_free(&w);
  ck_assert_int_eq(train_workload_builtin("alexnet", 0, &w, err, sizeof err), SA_EINVAL);
  ck_assert_msg(strstr(err, "resnet50") && !strchr(err, '\n'), "%s", err);
  ck_assert_int_eq(train_workload_builtin("vgg19", -1, &w, err, sizeof err), SA_EINVAL);
}
END_TEST

/* The buckets of w under scheme, asserting how many */
static train_bucket *buckets(const train_workload *w, const char *scheme, int want)
{
  train_bucket *b;
  int n = train_buckets(w, scheme, &b, err, sizeof err);
  ck_assert_msg(n == want, "%s: %d buckets, want %d: %s", scheme, n, want, err);
  return b;
}

/* PyTorch DDP on ResNet-50's fp16 gradients, from the FC back: fc (2,049,000 elements,
 * 4,098,000 bytes) passes the 1 MiB first cap alone; the next bucket closes with the layer
 * that takes it to 25 MiB or past (27.5 MiB), the rest (17.3 MiB) is the last. */
START_TEST(ddp_resnet50)
{
  train_workload w = builtin("resnet50");
  int n = 3;
  train_bucket *b = buckets(&w, "ddp", n);
  ck_assert_double_eq(b[0].bytes, 4098000);
  ck_assert_double_eq(b[1].bytes, 28878848);
  ck_assert_double_eq(b[2].bytes, 18137216);
  ck_assert_double_eq(b[0].bytes + b[1].bytes + b[2].bytes, 2 * 25557032.0);
  /* contiguous from the last layer to the first, each ready with its earliest layer */
  ck_assert_int_eq(b[0].last, w.nlayers - 1);
  ck_assert_int_eq(b[2].first, 0);
  double cap[3] = {1 << 20, 25 << 20, 25 << 20};
  for (int i = 0; i < n; i++) {
    if (i > 0)
      ck_assert_int_eq(b[i].last, b[i - 1].first - 1);
    /* a bucket is under its cap until its last (earliest) layer is added */
    if (i < n - 1)
      ck_assert(b[i].bytes - w.layers[b[i].first].params * 2 < cap[i] && b[i].bytes >= cap[i]);
    double ready = 0;
    for (int l = b[i].first; l < w.nlayers; l++)
      ready += w.layers[l].bwd_s;
    ck_assert_double_eq_tol(b[i].ready_s, ready, 1e-12);
  }
  /* backprop: 2/3 of one GPU's iteration less LARS's 7 ms (Shi21 §5.4) */
  ck_assert_double_eq_tol(b[2].ready_s, 2 * (256 / 1150.0 - 0.007) / 3, 1e-12);
  free(b);
  train_workload_free(&w);
}
END_TEST

static train_workload load(const char *path)
{
  train_workload w;
  ck_assert_msg(train_workload_load(path, &w, err, sizeof err) == 0, "%s", err);
  return w;
}

static void expect(const train_bucket *b, int first, int last, double bytes, double ready)
{
  ck_assert_int_eq(b->first, first);
  ck_assert_int_eq(b->last, last);
  ck_assert_double_eq(b->bytes, bytes);
  ck_assert_double_eq_tol(b->ready_s, ready, 1e-12);
}

/* tiny_times.json, fp32, layers a..f (0..5) of 1M, 0, 20M, 8M, 8M, 1M elements and backward
 * 4, 2, 3, 1, 1, 1 ms: backprop from f makes f ready at 1 ms, e 2, d 3, c 6, (b 8, no
 * gradient), a 12. Horovod's ticks every 5 ms: at 5 ms f, e, d (4 + 32 + 32 MB) are ready;
 * f + e = 36 MB fit 64 MiB (67,108,864 bytes), d would pass it and goes next; at 10 ms c,
 * 80 MB, alone; at 15 ms a. */
START_TEST(horovod_fusion)
{
  train_workload w = load("tests/data/workloads/tiny_times.json");
  ck_assert_int_eq(w.elem, 4);
  ck_assert_double_eq_tol(train_compute_s(&w), 0.006 + 0.012 + 0.002, 1e-12);
  train_bucket *b = buckets(&w, "horovod", 4);
  expect(&b[0], 4, 5, 36e6, 0.005);
  expect(&b[1], 3, 3, 32e6, 0.005);
  expect(&b[2], 2, 2, 80e6, 0.010);
  expect(&b[3], 0, 0, 4e6, 0.015);
  free(b);
  train_workload_free(&w);
}
END_TEST

/* The same file with DDP's caps: f (4 MB) passes 1 MiB alone, e, d and c each pass 25 MiB
 * alone, a is the rest; each ready with its gradient. With 40M (41,943,040 bytes) buckets of
 * at most that: f + e (36 MB), d (d + c would pass it), c (larger than the size: alone), a. */
START_TEST(ddp_and_size_on_tiny)
{
  train_workload w = load("tests/data/workloads/tiny_times.json");
  train_bucket *b = buckets(&w, "ddp", 5);
  expect(&b[0], 5, 5, 4e6, 0.001);
  expect(&b[1], 4, 4, 32e6, 0.002);
  expect(&b[2], 3, 3, 32e6, 0.003);
  expect(&b[3], 2, 2, 80e6, 0.006);
  expect(&b[4], 0, 0, 4e6, 0.012);
  free(b);
  b = buckets(&w, "40M", 4);
  expect(&b[0], 4, 5, 36e6, 0.002);
  expect(&b[1], 3, 3, 32e6, 0.003);
  expect(&b[2], 2, 2, 80e6, 0.006);
  expect(&b[3], 0, 0, 4e6, 0.012);
  free(b);
  /* whole: one allreduce of all 80M + 36M + 32M + 4M bytes when backprop ends (12 ms) */
  b = buckets(&w, "whole", 1);
  expect(&b[0], 0, 5, 152e6, 0.012);
  free(b);
  ck_assert_int_eq(train_buckets(&w, "big", &b, err, sizeof err), SA_EINVAL);
  ck_assert_msg(strstr(err, "ddp, horovod, whole or a size") && !strchr(err, '\n'), "%s", err);
  ck_assert_ptr_null(b);
  train_workload_free(&w);
}
END_TEST

/* FLOPs in a file split as the built-ins' are: 30 / 100 = 0.3 s, 3/4 to conv, 1/4 to fc */
START_TEST(json_flops_split)
{
  train_workload w = load("tests/data/workloads/tiny_flops.json");
  ck_assert_int_eq(w.nlayers, 3);
  ck_assert_int_eq(w.elem, 2);
  ck_assert_double_eq_tol(w.layers[0].fwd_s, 0.075, 1e-15);
  ck_assert_double_eq_tol(w.layers[0].bwd_s, 0.15, 1e-15);
  ck_assert_double_eq(w.layers[1].fwd_s + w.layers[1].bwd_s, 0);
  ck_assert_double_eq_tol(w.layers[2].fwd_s + w.layers[2].bwd_s, 0.075, 1e-15);
  ck_assert_double_eq_tol(train_compute_s(&w), 0.3, 1e-15);
  train_workload_free(&w);
}
END_TEST

/* Bad files: refused with the one field named, in one line. */
START_TEST(json_refused)
{
  static const struct {
    const char *text, *why;
    int rc;
  } bad[] = {
      {"{", "not valid JSON", SA_EPARSE},
      {"[]", "must be a JSON object", SA_EINVAL},
      {"{\"batch\": 1, \"layers\": [{\"name\": \"a\", \"params\": 1, \"flops\": 1}]}", "'name'", SA_EINVAL},
      {"{\"name\": \"x\", \"layers\": [{\"name\": \"a\", \"params\": 1, \"fwd_s\": 1, \"bwd_s\": 1}]}", "'batch'",
       SA_EINVAL},
      {"{\"name\": \"x\", \"batch\": 0, \"layers\": []}", "'batch'", SA_EINVAL},
      {"{\"name\": \"x\", \"batch\": 2, \"layers\": []}", "'layers'", SA_EINVAL},
      {"{\"name\": \"x\", \"batch\": 2, \"dtype\": \"bf16\", \"layers\": []}", "'dtype'", SA_EINVAL},
      {"{\"name\": \"x\", \"batch\": 2, \"opt_s\": -1, \"layers\": []}", "'opt_s'", SA_EINVAL},
      {"{\"name\": \"x\", \"batch\": 2, \"layerz\": []}", "unknown field 'layerz'", SA_EINVAL},
      {"{\"name\": \"x\", \"batch\": 2, \"single_sps\": 1, \"layers\": [{\"name\": \"a\", \"params\": -1, "
       "\"flops\": 1}]}",
       "layers[0]: 'params'", SA_EINVAL},
      {"{\"name\": \"x\", \"batch\": 2, \"single_sps\": 1, \"layers\": [{\"name\": \"a\", \"flops\": 1}]}",
       "layers[0]: 'params'", SA_EINVAL},
      {"{\"name\": \"x\", \"batch\": 2, \"layers\": [{\"name\": \"a\", \"params\": 1}]}", "either 'flops'",
       SA_EINVAL},
      {"{\"name\": \"x\", \"batch\": 2, \"single_sps\": 1, \"layers\": [{\"name\": \"a\", \"params\": 1, "
       "\"flops\": 1, \"fwd_s\": 1, \"bwd_s\": 1}]}",
       "either 'flops'", SA_EINVAL},
      {"{\"name\": \"x\", \"batch\": 2, \"layers\": [{\"name\": \"a\", \"params\": 1, \"fwd_s\": 1}]}",
       "both 'fwd_s' and 'bwd_s'", SA_EINVAL},
      {"{\"name\": \"x\", \"batch\": 2, \"single_sps\": 1, \"layers\": [{\"name\": \"a\", \"params\": 1, "
       "\"flops\": 1}, {\"name\": \"b\", \"params\": 1, \"fwd_s\": 1, \"bwd_s\": 1}]}",
       "layers[1]: every layer", SA_EINVAL},
      {"{\"name\": \"x\", \"batch\": 2, \"layers\": [{\"name\": \"a\", \"params\": 1, \"flops\": 1}]}",
       "'single_sps'", SA_EINVAL},
      {"{\"name\": \"x\", \"batch\": 2, \"single_sps\": 5, \"layers\": [{\"name\": \"a\", \"params\": 1, "
       "\"flops\": 0}]}",
       "FLOPs", SA_EINVAL},
      {"{\"name\": \"x\", \"batch\": 2, \"layers\": [{\"name\": \"a\", \"params\": 1, \"fwd_s\": \"1\", "
       "\"bwd_s\": 1}]}",
       "layers[0]: 'fwd_s'", SA_EINVAL},
  };
  const char *dir = util_tmpdir_create_as("check_train", err, sizeof err);
  ck_assert_msg(dir != NULL, "%s", err);
  char path[512];
  snprintf(path, sizeof path, "%s/bad.json", dir);
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(bad[i].text, f);
    fclose(f);
    train_workload w;
    int rc = train_workload_load(path, &w, err, sizeof err);
    ck_assert_msg(rc == bad[i].rc, "case %zu: %d (%s)", i, rc, err);
    ck_assert_msg(strstr(err, bad[i].why) && !strchr(err, '\n'), "case %zu: '%s'", i, err);
    ck_assert_ptr_null(w.layers);
  }
  train_workload w;
  ck_assert_int_eq(train_workload_load("tests/data/workloads/absent.json", &w, err, sizeof err), SA_EIO);
  util_tmpdir_remove();
}
END_TEST

int main(void)
{
  Suite *s = suite_create("train");
  CHECK_CASE(s, "workloads", 30, parameter_totals, flops_per_sample, times_from_throughput);
  CHECK_CASE(s, "buckets", 30, ddp_resnet50, horovod_fusion, ddp_and_size_on_tiny);
  CHECK_CASE(s, "json", 30, json_flops_split, json_refused);
  return check_run(s);
}
