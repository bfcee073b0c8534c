/* check_train_overlap.c: the training step's arithmetic (train/overlap.c) on a hand-made
 * workload whose every time is known. */
#include <math.h>

#include "check_util.h"
#include "train/train.h"

/* Three layers, forward 10, 20, 30 ms; backward 20, 40, 60 ms (backprop makes layer 2's
 * gradient first: ready at 60 ms from its start, layer 1's at 100, layer 0's at 120);
 * optimizer 5 ms. One bucket per layer, in the order they become ready, allreduces of
 * 50, 10 and 30 ms on one stream:
 *   bucket 0 (layer 2): ready 60, starts 60, ends 110
 *   bucket 1 (layer 1): ready 100, the stream busy until 110: starts 110, ends 120
 *   bucket 2 (layer 0): ready 120, starts 120, ends 150
 * Backprop ends at 120, the last allreduce at 150: the step is 60 (forward) + 150 + 5 =
 * 215 ms against 60 + 120 + 5 = 185 ms of compute: 30 ms of communication exposed, of the
 * 90 ms it took in all. */
START_TEST(three_buckets_expose_what_backprop_cannot_hide)
{
  train_layer layers[3] = {{"a", 1, 1, 0.010, 0.020}, {"b", 1, 1, 0.020, 0.040}, {"c", 1, 1, 0.030, 0.060}};
  train_workload w = {.name = "hand", .layers = layers, .nlayers = 3, .batch = 1, .elem = 4, .opt_s = 0.005};
  train_bucket b[3] = {{2, 2, 4, 0.060}, {1, 1, 4, 0.100}, {0, 0, 4, 0.120}};
  double ar[3] = {0.050, 0.010, 0.030};
  train_step s;
  ck_assert_int_eq(train_overlap(&w, b, 3, ar, NULL, &s), 0);
  ck_assert(fabs(s.start_s[0] - 0.060) < 1e-12 && fabs(s.end_s[0] - 0.110) < 1e-12);
  ck_assert(fabs(s.start_s[1] - 0.110) < 1e-12 && fabs(s.end_s[1] - 0.120) < 1e-12);
  ck_assert(fabs(s.start_s[2] - 0.120) < 1e-12 && fabs(s.end_s[2] - 0.150) < 1e-12);
  ck_assert(fabs(s.iter_s - 0.215) < 1e-12);
  ck_assert(fabs(s.compute_s - 0.185) < 1e-12);
  ck_assert(fabs(s.exposed_s - 0.030) < 1e-12);
  ck_assert(fabs(s.comm_s - 0.090) < 1e-12);
  ck_assert(fabs(train_compute_s(&w) - 0.185) < 1e-12);
  train_step_free(&s);
  /* allreduces short enough to hide: nothing exposed, the step is the compute */
  double quick[3] = {0.001, 0.001, 0.001};
  ck_assert_int_eq(train_overlap(&w, b, 3, quick, NULL, &s), 0);
  ck_assert(fabs(s.exposed_s - 0.001) < 1e-12); /* the last bucket's, after backprop ends */
  train_step_free(&s);
  /* each allreduce's first 5 ms a selection on the GPU: it runs as its bucket is ready and
   * pushes the rest of backprop back 5 ms each time. Bucket 0: ready 60, selection 60-65,
   * the rest of it 65-110; bucket 1: ready 100 + 5 = 105, selection 105-110, the rest
   * 110-115; bucket 2: ready 120 + 10 = 130, selection 130-135, the rest 135-160. Backprop
   * ends at 120 + 15 = 135; the step is 60 + 160 + 5 = 225 ms: 40 ms over the compute. */
  double sel[3] = {0.005, 0.005, 0.005};
  ck_assert_int_eq(train_overlap(&w, b, 3, ar, sel, &s), 0);
  ck_assert(fabs(s.end_s[0] - 0.110) < 1e-12 && fabs(s.end_s[1] - 0.115) < 1e-12 && fabs(s.end_s[2] - 0.160) < 1e-12);
  ck_assert(fabs(s.iter_s - 0.225) < 1e-12 && fabs(s.exposed_s - 0.040) < 1e-12);
  train_step_free(&s);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("train_overlap");
  TCase *t = tcase_create("overlap");
  tcase_add_test(t, three_buckets_expose_what_backprop_cannot_hide);
  suite_add_tcase(s, t);
  return check_run(s);
}
