/* nets_cnn.c: the convolutional built-ins, ResNet-50 and VGG-19, layer by layer with the
 * elements of each gradient and the forward FLOPs per image. FLOPs are 2 x multiply-adds:
 *   convolution  k*k*Cin*Cout*Hout*Wout multiply-adds (its bias add not counted)
 *   batch norm   C*H*W: one multiply-add per element (scale and shift; the statistics not
 *                counted), params 2C (gamma, beta)
 *   linear       In*Out multiply-adds, params In*Out + Out
 * Layers without parameters (ReLU, pooling, the residual adds) are not listed: their time is
 * small and they make no gradient. */
#include <stdio.h>

#include "common/sa_error.h"
#include "nets.h"
#include "workload.h"

static int conv(train_workload *w, const char *name, int k, int cin, int cout, int hout, int bias)
{
  double macs = (double)k * k * cin * cout * hout * hout;
  return train_add_layer(w, name, (double)k * k * cin * cout + (bias ? cout : 0), 2 * macs);
}

static int bn(train_workload *w, const char *name, int c, int h)
{
  return train_add_layer(w, name, 2.0 * c, 2.0 * c * h * h);
}

static int fc(train_workload *w, const char *name, int in, int out)
{
  return train_add_layer(w, name, (double)in * out + out, 2.0 * in * out);
}

/* ResNet-50 (He et al. 2016, "Deep Residual Learning for Image Recognition", Table 1, the
 * 50-layer column: conv1 7x7/2, 3x3 max pool /2, bottleneck stages of 3, 4, 6, 3 blocks of
 * widths 64, 128, 256, 512 expanded 4x, global average pool, 1000-way FC), in its v1.5 form
 * (torchvision's resnet50, NVIDIA DeepLearningExamples' ResNet-50 v1.5): the stride-2 of a
 * stage's first block on the 3x3 convolution rather than the first 1x1. The parameters are the
 * same either way (25,557,032 with the BN gammas and betas and the FC bias); the FLOPs at
 * 224x224 are ~4.1 G multiply-adds for v1.5, where Table 1 gives 3.8 G for the original.
 * res: the input's side, a multiple of 32 (every feature map is then res/2^k exactly, so the
 * convolutions' FLOPs scale with the image's area; the FC's do not). */
static int resnet50(train_workload *w, int res)
{
  static const int blocks[4] = {3, 4, 6, 3}; /* He et al. 2016, Table 1, 50-layer */
  char name[48];
  int rc = conv(w, "conv1", 7, 3, 64, res / 2, 0);
  if (!rc)
    rc = bn(w, "bn1", 64, res / 2);
  int in = 64, r = res / 4; /* after the 3x3/2 max pool */
  for (int s = 0; s < 4 && !rc; s++) {
    int width = 64 << s, out = width * 4;
    for (int b = 0; b < blocks[s] && !rc; b++) {
      int rin = r, rout = (s > 0 && b == 0) ? r / 2 : r;
#define L(part) (snprintf(name, sizeof name, "layer%d.%d.%s", s + 1, b, part), name)
      rc = conv(w, L("conv1"), 1, in, width, rin, 0);
      rc = rc ? rc : bn(w, L("bn1"), width, rin);
      rc = rc ? rc : conv(w, L("conv2"), 3, width, width, rout, 0);
      rc = rc ? rc : bn(w, L("bn2"), width, rout);
      rc = rc ? rc : conv(w, L("conv3"), 1, width, out, rout, 0);
      rc = rc ? rc : bn(w, L("bn3"), out, rout);
      if (b == 0) {
        rc = rc ? rc : conv(w, L("downsample.0"), 1, in, out, rout, 0);
        rc = rc ? rc : bn(w, L("downsample.1"), out, rout);
      }
#undef L
      in = out;
      r = rout;
    }
  }
  return rc ? rc : fc(w, "fc", 2048, 1000);
}

/* VGG-19: Simonyan & Zisserman 2015 ("Very Deep Convolutional Networks for Large-Scale Image
 * Recognition"), Table 1 configuration E: 3x3 convolutions with biases, stride 1, padding 1,
 * in blocks of 64, 64 | 128, 128 | 256 x4 | 512 x4 | 512 x4, each block followed by a 2x2/2
 * max pool; then FC-4096, FC-4096, FC-1000 on the 7x7x512 map; 224x224 input. 143,667,240
 * parameters, ~19.6 G multiply-adds. */
static int vgg19(train_workload *w)
{
  static const int width[5] = {64, 128, 256, 512, 512}; /* Table 1, configuration E */
  static const int convs[5] = {2, 2, 4, 4, 4};
  char name[48];
  int rc = 0, in = 3, r = 224;
  for (int s = 0; s < 5 && !rc; s++) {
    for (int c = 0; c < convs[s] && !rc; c++) {
      snprintf(name, sizeof name, "conv%d_%d", s + 1, c + 1);
      rc = conv(w, name, 3, in, width[s], r, 1);
      in = width[s];
    }
    r /= 2;
  }
  rc = rc ? rc : fc(w, "fc6", 512 * 7 * 7, 4096);
  rc = rc ? rc : fc(w, "fc7", 4096, 4096);
  return rc ? rc : fc(w, "fc8", 4096, 1000);
}

/* The throughputs are Shi et al. 2021 (MLSys, "Towards Scalable Distributed Training of Deep
 * Learning on Public Cloud Clusters") on one V100 with mixed precision. At 224x224 the §5.5.2
 * text beside Table 3 gives 1150 images/s, the baseline of Table 3's scaling efficiencies
 * (64000 / (128 x 1150) = 43.5%, the table's own figure); its Table 4 (the DAWNBench schedule)
 * gives 1240 at 224 with another setup, and 4400, 3010, 710 at 96, 128, 288. The local batch
 * is 256 (§5.5.1 for the CNNs; Table 4's BS column: 128 at 288). */
/* LARS's step, after the last allreduce: Shi21 §5.4 measured 11 ms on ResNet-50, 7 ms with
 * its parallel tensor operator (PTO), which its 128-GPU runs use. LARS takes the norms of
 * every layer's weights and gradients: its time grows with the parameters, so another
 * model's is ResNet-50's scaled by its parameter count (VGG-19's a derivation, not a
 * measurement). */
#define RESNET50_LARS_S 0.007
#define RESNET50_PARAMS 25557032.0

int train_net_resnet50(train_workload *w, int res)
{
  static const struct {
    int res, batch;
    double sps;
  } runs[] = {
      {224, 256, 1150}, /* Shi21 §5.5.2 text with Table 3; batch §5.5.1 */
      {96, 256, 4400},  /* Shi21 Table 4 */
      {128, 256, 3010}, /* Shi21 Table 4 */
      {288, 128, 710},  /* Shi21 Table 4 */
  };
  for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
    if (runs[i].res != res)
      continue;
    w->batch = runs[i].batch;
    w->single_sps = runs[i].sps;
    w->opt_s = RESNET50_LARS_S;
    snprintf(w->source, sizeof w->source,
             "ResNet-50 v1.5 at %dx%d: layers from He et al. 2016 Table 1 (stride on the 3x3, as torchvision); "
             "%.0f images/s on one V100 with mixed precision and local batch %d from Shi et al. MLSys 2021 (%s); "
             "time split by FLOPs, backward 2x forward (Kaplan et al. 2020 §2.1); fp16 gradients (Shi21 mixed "
             "precision); LARS 7 ms after the last allreduce (Shi21 §5.4, with its parallel tensor operator)",
             res, res, runs[i].sps, runs[i].batch, res == 224 ? "§5.5.2 text with Table 3" : "Table 4");
    return resnet50(w, res);
  }
  return SA_EINVAL;
}

int train_net_vgg19(train_workload *w)
{
  w->batch = 256;      /* Shi21 §5.5.1: local batch 256 for the CNNs */
  w->single_sps = 560; /* Shi21 §5.5.2 text with Table 3: one V100, mixed precision */
  w->opt_s = RESNET50_LARS_S * 143667240.0 / RESNET50_PARAMS; /* LARS scaled by parameters: 39.3 ms */
  snprintf(w->source, sizeof w->source,
           "VGG-19 (configuration E, 224x224): layers from Simonyan & Zisserman 2015 Table 1; 560 images/s on "
           "one V100 with mixed precision and local batch 256 from Shi et al. MLSys 2021 (§5.5.2 text with "
           "Table 3, §5.5.1); time split by FLOPs, backward 2x forward (Kaplan et al. 2020 §2.1); fp16 gradients; "
           "LARS 39.3 ms after the last allreduce (ResNet-50's 7 ms with PTO, Shi21 §5.4, scaled by the parameters: "
           "derived)");
  return vgg19(w);
}
