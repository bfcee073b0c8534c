/* check_training.c: --workload end to end: the step each algorithm gets from its buckets'
 * allreduces, the way overlap with backprop and the input's size move the efficiency, the
 * trace's slices, bad input refused. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_util.h"
#include "cli_run.h"

static const cJSON *field(const cJSON *o, const char *key) { return cJSON_GetObjectItemCaseSensitive(o, key); }

/* The training object's entry of algo, or NULL. */
static const cJSON *algo_of(const cli_result *r, const char *algo)
{
  const cJSON *a;
  cJSON_ArrayForEach(a, field(field(r->json, "training"), "algos"))
  {
    if (strcmp(field(a, "algo")->valuestring, algo) == 0)
      return a;
  }
  return NULL;
}

static double efficiency(const char *args, const char *algo)
{
  cli_result r = cli_run(args, 1);
  ck_assert_msg(r.status == 0, "%s: %s", args, r.err);
  const cJSON *a = algo_of(&r, algo);
  ck_assert_msg(a != NULL, "%s: no %s", args, algo);
  double e = cli_num(a, "efficiency");
  cli_result_free(&r);
  return e;
}

/* tiny_times.json (tests/check_train.c works out its buckets): fp32 gradients of 38M
 * elements, 3 ms of optimizer. On 2 nodes of tencent16, simulated, every bucket's
 * allreduce is a point of the run, and the step follows from them: buckets one after
 * another from their ready times, the step the forward (6 ms) + the later of backprop's end
 * (12 ms) and the last allreduce's + the optimizer; its time over the compute is what is
 * exposed; samples/s = batch x GPUs / step. The trace holds each bucket as a slice. */
START_TEST(the_step_follows_from_the_buckets)
{
  char dir[64], args[512];
  ck_assert_int_eq(cli_tmpdir(dir, "training"), 0);
  snprintf(args, sizeof args,
           "--platform tencent16 --nodes 2 --algo ring,hier --workload tests/data/workloads/tiny_times.json "
           "--buckets 16M --mode sim --trace %s/t.json",
           dir);
  cli_result r = cli_run(args, 1);
  ck_assert_msg(r.status == 0, "%s", r.err);
  const cJSON *tr = field(r.json, "training"), *buckets = field(tr, "buckets"), *b;
  double compute = cli_num(tr, "compute_s");
  ck_assert(fabs(compute - (0.006 + 0.012 + 0.002)) < 1e-12);
  for (int k = 0; k < 2; k++) {
    const char *algo = k ? "hier" : "ring";
    const cJSON *a = algo_of(&r, algo), *slices = field(a, "buckets");
    double free_at = 0, comm = 0;
    int i = 0;
    cJSON_ArrayForEach(b, buckets)
    {
      double t = cli_time(&r, algo, cli_num(b, "bytes"));
      ck_assert_msg(t > 0, "%s: no point for a bucket of %g bytes", algo, cli_num(b, "bytes"));
      double start = fmax(cli_num(b, "ready_s"), free_at);
      const cJSON *s = cJSON_GetArrayItem(slices, i++);
      ck_assert(fabs(cli_num(s, "start_s") - start) < 1e-12 && fabs(cli_num(s, "end_s") - (start + t)) < 1e-12);
      free_at = start + t;
      comm += t;
    }
    double iter = 0.006 + fmax(0.012, free_at) + 0.002;
    ck_assert_msg(fabs(cli_num(a, "iter_s") - iter) < 1e-12, "%s: %g s, want %g s", algo, cli_num(a, "iter_s"), iter);
    ck_assert(fabs(cli_num(a, "comm_s") - comm) < 1e-12);
    ck_assert(fabs(cli_num(a, "exposed_s") - (iter - compute)) < 1e-12);
    ck_assert(fabs(cli_num(a, "samples_per_s") - 8 * 16 / iter) < 1e-9);
  }
  ck_assert_ptr_nonnull(strstr(r.out, "# training step: tiny-times, local batch 8, fp32 gradients"));
  int nbuckets = cJSON_GetArraySize(buckets);
  cli_result_free(&r);
  char path[128];
  snprintf(path, sizeof path, "%s/t.json", dir);
  cJSON *t = cli_load_json(path);
  ck_assert_ptr_nonnull(t);
  int slices = 0;
  const cJSON *e;
  cJSON_ArrayForEach(e, field(t, "traceEvents"))
  {
    const cJSON *cat = field(e, "cat"), *name = field(e, "name");
    slices += cat && strcmp(cat->valuestring, "training") == 0 && strncmp(name->valuestring, "bucket ", 7) == 0;
  }
  ck_assert_int_eq(slices, 2 * nbuckets);
  cJSON_Delete(t);
  cli_rmtree(dir);
}
END_TEST

/* --dtype fp32 doubles every bucket: ResNet-50's 25,557,032 gradients, 2 bytes each in
 * DDP's 3 fp16 buckets, 4 bytes each in fp32 buckets that hold them all. */
START_TEST(dtype_sets_the_gradients)
{
  const double params = 25557032;
  for (int k = 0; k < 2; k++) {
    cli_result r = cli_run(k ? "--platform tencent16 --algo hier --workload resnet50 --mode model --dtype fp32"
                             : "--platform tencent16 --algo hier --workload resnet50 --mode model",
                           1);
    ck_assert_msg(r.status == 0, "%s", r.err);
    const cJSON *tr = field(r.json, "training"), *b;
    double bytes = 0;
    cJSON_ArrayForEach(b, field(tr, "buckets")) bytes += cli_num(b, "bytes");
    ck_assert_double_eq(bytes, params * (k ? 4 : 2));
    ck_assert_str_eq(field(tr, "dtype")->valuestring, k ? "fp32" : "fp16");
    cli_result_free(&r);
  }
}
END_TEST

/* Shi et al. 2021's Table 4 trend for 2DTAR (hier) on its 16 x 8 V100 cluster: the smaller
 * the input, the shorter the compute that hides the same gradients' allreduces, the lower
 * the scaling efficiency (96 < 128 < 224); and allreduces overlapping backprop (PyTorch
 * DDP's buckets) never do worse than one allreduce after it (whole). */
START_TEST(efficiency_falls_with_the_input_and_rises_with_overlap)
{
  const char *inputs[] = {"resnet50-96", "resnet50-128", "resnet50"};
  double last = 0;
  for (int i = 0; i < 3; i++) {
    char ddp[256], whole[300];
    snprintf(ddp, sizeof ddp, "--platform tencent16 --algo hier,hitopk --workload %s --mode model", inputs[i]);
    snprintf(whole, sizeof whole, "%s --buckets whole", ddp);
    double e = efficiency(ddp, "hier"), w = efficiency(whole, "hier");
    ck_assert_msg(e > last, "%s: %g after %g", inputs[i], e, last);
    ck_assert_msg(e >= w && w > 0.4, "%s: overlapped %g, whole %g", inputs[i], e, w);
    ck_assert_msg(efficiency(ddp, "hitopk") > e, "%s: the sparse exchange, a hundredth of the bytes", inputs[i]);
    last = e;
  }
}
END_TEST

START_TEST(bad_input_is_refused)
{
  static const struct {
    const char *args, *says;
  } bad[] = {
      {"--workload nosuch", "unknown workload 'nosuch'"},
      {"--workload resnet50 --size 1M", "cannot go with --size or --sizes"},
      {"--buckets ddp", "--buckets only goes with --workload"},
      {"--workload resnet50 --buckets 0", "buckets '0'"},
      {"--workload resnet50 --buckets sometimes", "want ddp, horovod, whole or a size"},
      {"--workload tests/data/workloads/nosuch.json", "nosuch.json"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char args[256];
    snprintf(args, sizeof args, "--platform tencent16 --algo ring --mode model %s", bad[i].args);
    cli_result r = cli_run(args, 0);
    ck_assert_msg(r.status == 2 && cli_lines(r.err) == 1 && strstr(r.err, bad[i].says), "%s: %d %s", bad[i].args,
                  r.status, r.err);
    cli_result_free(&r);
  }
}
END_TEST

int main(void)
{
  Suite *s = suite_create("training");
  TCase *t = tcase_create("training");
  tcase_set_timeout(t, 300);
  tcase_add_test(t, the_step_follows_from_the_buckets);
  tcase_add_test(t, efficiency_falls_with_the_input_and_rises_with_overlap);
  tcase_add_test(t, dtype_sets_the_gradients);
  tcase_add_test(t, bad_input_is_refused);
  suite_add_tcase(s, t);
  return check_run(s);
}
