/* nets_transformer.c: the attention built-ins, the Transformer of Shi et al. 2021 and
 * BERT-large, sublayer by sublayer with the elements of each gradient and the forward FLOPs
 * per sample. FLOPs are 2 x multiply-adds, for a sample of n tokens:
 *   attention   projections Q, O on the n_q query tokens and K, V on the n_kv key tokens
 *               (d x d each), scores QK^T and their sum over V (n_q x n_kv x d each);
 *               params 4(d^2 + d)
 *   feed-forward n x 2 x d x d_ff; params 2 d d_ff + d_ff + d
 *   layer norm  n x d: one multiply-add per element (scale and shift; the statistics not
 *               counted); params 2d
 *   embedding   a lookup, no FLOPs; params V x d
 * The softmax, the dropouts and the residual adds are not counted. */
#include <stdio.h>

#include "common/sa_error.h"
#include "nets.h"
#include "workload.h"

static int attn(train_workload *w, const char *name, double d, double n_q, double n_kv)
{
  double macs = 2 * n_q * d * d + 2 * n_kv * d * d + 2 * n_q * n_kv * d;
  return train_add_layer(w, name, 4 * (d * d + d), 2 * macs);
}

static int ffn(train_workload *w, const char *name, double d, double dff, double n)
{
  return train_add_layer(w, name, 2 * d * dff + dff + d, 2 * n * 2 * d * dff);
}

static int ln(train_workload *w, const char *name, double d, double n)
{
  return train_add_layer(w, name, 2 * d, 2 * n * d);
}

/* a linear layer with bias applied to n tokens */
static int linear(train_workload *w, const char *name, double in, double out, double n)
{
  return train_add_layer(w, name, in * out + out, 2 * n * in * out);
}

/* One post-norm layer of n tokens, each sublayer followed by its layer norm: self-attention,
 * attention over the encoder's n tokens where cross (a decoder's), feed-forward. */
static int block(train_workload *w, const char *prefix, double d, double dff, double n, int cross)
{
  char name[48];
  int rc = attn(w, (snprintf(name, sizeof name, "%s.attn", prefix), name), d, n, n);
  rc = rc ? rc : ln(w, (snprintf(name, sizeof name, "%s.attn.ln", prefix), name), d, n);
  if (cross) {
    rc = rc ? rc : attn(w, (snprintf(name, sizeof name, "%s.cross", prefix), name), d, n, n);
    rc = rc ? rc : ln(w, (snprintf(name, sizeof name, "%s.cross.ln", prefix), name), d, n);
  }
  rc = rc ? rc : ffn(w, (snprintf(name, sizeof name, "%s.ffn", prefix), name), d, dff, n);
  return rc ? rc : ln(w, (snprintf(name, sizeof name, "%s.ffn.ln", prefix), name), d, n);
}

/* The Transformer of Shi et al. 2021 (§5.1: "Transformer from Vaswani et al. (2017)" on
 * WMT17; §5.3 and Fig. 8: 110 million parameters; §5.5.2: one sample is a sentence of 256
 * words, 32 samples/s on one V100 with mixed precision). Vaswani et al. 2017 Table 3 "base":
 * N = 6 encoder and 6 decoder layers, d_model 512, d_ff 2048, h 8 (h changes neither
 * parameters nor FLOPs), post-norm (a layer norm after each sublayer), sinusoidal positions
 * (no parameters). With the shared 37,000-token vocabulary and tied embeddings of their §5.1
 * and §3.4 that is 65M (their Table 3), far from 110M; so the vocabulary is unshared here:
 * source embedding, target embedding and the pre-softmax projection (with its bias) separate,
 * of V = 42,850 tokens each, the size that brings the total to Shi21's 110M (109,998,946).
 * Source and target are both taken as 256 tokens. */
static const double tf_d = 512, tf_dff = 2048, tf_n = 256; /* Vaswani Table 3 base; Shi21 §5.5.2 */
static const double tf_vocab = 42850;                     /* fitted to Shi21 Fig. 8's 110M */
static const int tf_layers = 6;                            /* Vaswani Table 3 base, N */

int train_net_transformer(train_workload *w)
{
  char name[48];
  int rc = train_add_layer(w, "encoder.embed", tf_vocab * tf_d, 0);
  for (int i = 0; i < tf_layers && !rc; i++) {
    snprintf(name, sizeof name, "encoder.%d", i);
    rc = block(w, name, tf_d, tf_dff, tf_n, 0);
  }
  rc = rc ? rc : train_add_layer(w, "decoder.embed", tf_vocab * tf_d, 0);
  for (int i = 0; i < tf_layers && !rc; i++) {
    snprintf(name, sizeof name, "decoder.%d", i);
    rc = block(w, name, tf_d, tf_dff, tf_n, 1);
  }
  rc = rc ? rc : linear(w, "generator", tf_d, tf_vocab, tf_n);
  /* Shi21 gives no local batch for the Transformer. Vaswani et al. §5.1 batch about 25,000
   * source tokens over 8 GPUs: ~3,125 a GPU, 12 sentences of 256: an assumption. */
  w->batch = 12;
  w->single_sps = 32; /* Shi21 §5.5.2 text with Table 3 */
  w->opt_s = 0.014;   /* LARS with Shi21's parallel tensor operator: 14 ms (§5.4; 30 ms without) */
  snprintf(w->source, sizeof w->source,
           "Transformer base (Vaswani et al. 2017 Table 3: 6+6 layers, d_model 512, d_ff 2048) with unshared "
           "source/target embeddings and output projection of 42,850 tokens each, chosen to give the 110M "
           "parameters of Shi et al. MLSys 2021 (§5.3, Fig. 8); a sample is a sentence of 256 words, 32 "
           "samples/s on one V100 with mixed precision (Shi21 §5.5.2); local batch 12 ASSUMED (Vaswani §5.1: "
           "~25,000 source tokens over 8 GPUs); time split by FLOPs, backward 2x forward (Kaplan et al. 2020 "
           "§2.1); fp16 gradients; LARS 14 ms after the last allreduce (Shi21 §5.4, with its PTO)");
  return rc;
}

/* BERT-large, Devlin et al. 2019 ("BERT: Pre-training of Deep Bidirectional Transformers for
 * Language Understanding") §3: L = 24 layers, H = 1024, A = 16 heads, feed-forward 4H;
 * WordPiece vocabulary (30,522 entries in the released vocabulary files), 512 positions, 2
 * segment types, a layer norm on the embeddings; post-norm layers; a pooler (H x H) and the
 * pre-training heads: the masked-LM transform (H x H, layer norm) and output bias, its weights
 * tied to the word embeddings, and next-sentence prediction (H x 2). 336,226,108 parameters
 * (335,141,888 without the pre-training heads; Devlin §3 rounds to 340M). Sequences of 128
 * tokens (§A.2: 90% of the pre-training steps), of which 15% are predicted (§3.1): the
 * masked-LM head runs on 19.2 tokens a sequence, the pooler and NSP on one. */
static const double bert_d = 1024, bert_dff = 4096, bert_vocab = 30522, bert_pos = 512; /* Devlin §3 */
static const double bert_n = 128, bert_masked = 0.15 * 128; /* Devlin §A.2, §3.1 */
static const int bert_layers = 24;                          /* Devlin §3 */

int train_net_bert_large(train_workload *w)
{
  char name[48];
  int rc = train_add_layer(w, "embeddings.word", bert_vocab * bert_d, 0);
  rc = rc ? rc : train_add_layer(w, "embeddings.position", bert_pos * bert_d, 0);
  rc = rc ? rc : train_add_layer(w, "embeddings.token_type", 2 * bert_d, 0);
  rc = rc ? rc : ln(w, "embeddings.ln", bert_d, bert_n);
  for (int i = 0; i < bert_layers && !rc; i++) {
    snprintf(name, sizeof name, "encoder.%d", i);
    rc = block(w, name, bert_d, bert_dff, bert_n, 0);
  }
  rc = rc ? rc : linear(w, "pooler", bert_d, bert_d, 1);
  rc = rc ? rc : linear(w, "mlm.transform", bert_d, bert_d, bert_masked);
  rc = rc ? rc : ln(w, "mlm.ln", bert_d, bert_masked);
  /* the decoder's weights are the word embeddings': only its bias is a gradient of its own */
  rc = rc ? rc : train_add_layer(w, "mlm.decoder", bert_vocab, 2 * bert_masked * bert_d * bert_vocab);
  rc = rc ? rc : linear(w, "nsp", bert_d, 2, 1);
  /* NVIDIA DeepLearningExamples, TensorFlow/LanguageModeling/BERT/README.md, "Pre-training
   * training performance: single-node on 32G" (TensorFlow 19.08-py3 container, DGX-1 V100
   * 32G): 1 GPU, sequence 128, batch 48 per GPU, mixed precision: 140.30 sentences/s */
  w->batch = 48;
  w->single_sps = 140.30;
  snprintf(w->source, sizeof w->source,
           "BERT-large (Devlin et al. 2019 §3: 24 layers, hidden 1024, 16 heads, vocabulary 30,522) with its "
           "pre-training heads, sequences of 128 tokens (§A.2), 15%% of them predicted (§3.1); 140.30 "
           "sequences/s at batch 48 on one V100 32G with mixed precision (NVIDIA DeepLearningExamples, "
           "TensorFlow/LanguageModeling/BERT/README.md, single-node pre-training on 32G, 19.08 container); "
           "time split by FLOPs, backward 2x forward (Kaplan et al. 2020 §2.1); fp16 gradients; optimizer "
           "(LAMB) time unknown, 0");
  return rc;
}
