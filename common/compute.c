/* compute.c: names, fields and the one validator of the compute properties. */
#include "compute.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sa_error.h"

static const struct {
  const char *name;
  sa_prop_kind kind;
  size_t off;
} props[] = {
#define SA_COMPUTE_ROW(name, kind, what) {#name, kind, offsetof(sa_compute, name)},
    SA_COMPUTE_PROPS(SA_COMPUTE_ROW)
#undef SA_COMPUTE_ROW
};

const char *sa_compute_name(int i) { return i >= 0 && i < SA_COMPUTE_N ? props[i].name : NULL; }

int sa_compute_written(const sa_compute *c, int i)
{
  return i < SA_COMPUTE_INDEX_launch_lat || sa_compute_get(c, i) != 0;
}

double *sa_compute_field(sa_compute *c, int i) { return (double *)((char *)c + props[i].off); }

double sa_compute_get(const sa_compute *c, int i) { return *(const double *)((const char *)c + props[i].off); }

/* What is not the GPU's own work stays: NCCL's launch and per-hop protocol latencies, and
 * NVLS's rate through the NVSwitch; rates of 0 (work not charged) stay 0. */
void sa_compute_slower(sa_compute *c, double factor)
{
  for (int i = 0; i < SA_COMPUTE_N; i++) {
    if (i == SA_COMPUTE_INDEX_launch_lat || i == SA_COMPUTE_INDEX_ll128_lat || i == SA_COMPUTE_INDEX_simple_lat ||
        i == SA_COMPUTE_INDEX_nvls_bw)
      continue;
    double *v = sa_compute_field(c, i);
    *v = props[i].kind == SA_PROP_RATE ? *v / factor : *v * factor;
  }
}

int sa_compute_find(const char *name)
{
  for (int i = 0; i < SA_COMPUTE_N; i++)
    if (strcmp(props[i].name, name) == 0)
      return i;
  return -1;
}

/* Ranges wide enough for any hardware, narrow enough that a charge stays a finite number
 * of seconds for any message: a rate below 1 kB/s or a cost above these is a typo. */
#define MIN_RATE 1e3
#define MAX_TIME 10.0
#define MAX_PER_UNIT 1.0

int sa_compute_check(int i, double v, char *why, size_t whylen)
{
  const char *bad = NULL;
  if (!isfinite(v))
    bad = "not a finite number";
  else if (v < 0)
    bad = "negative";
  else if (props[i].kind == SA_PROP_RATE && v < MIN_RATE)
    bad = "a rate must be at least 1e3 bytes/s (leave the property out to charge nothing)";
  else if (props[i].kind == SA_PROP_TIME && v > MAX_TIME)
    bad = "a fixed time must be at most 10 s";
  else if (props[i].kind == SA_PROP_PER_UNIT && v > MAX_PER_UNIT)
    bad = "a cost per unit must be at most 1 s";
  if (bad)
    snprintf(why, whylen, "%s", bad);
  return bad ? SA_EINVAL : 0;
}

int sa_compute_parse(int i, const char *text, double *out, char *why, size_t whylen)
{
  char *end;
  double v = strtod(text, &end);
  while (end != text && (*end == ' ' || *end == '\t'))
    end++;
  if (end == text || *end) {
    snprintf(why, whylen, "not a number");
    return SA_EINVAL;
  }
  int rc = sa_compute_check(i, v, why, whylen);
  if (rc == 0)
    *out = v;
  return rc;
}

/* Appends to buf (len bytes, n of them used) what fmt says; returns the new length, at most
 * len - 1 where the text was cut. */
static size_t append(char *buf, size_t len, size_t n, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static size_t append(char *buf, size_t len, size_t n, const char *fmt, ...)
{
  if (n + 1 >= len)
    return n;
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(buf + n, len - n, fmt, ap);
  va_end(ap);
  return k < 0 ? n : n + (size_t)k < len ? n + (size_t)k : len - 1;
}

void sa_compute_describe(const sa_compute *c, unsigned parts, char *buf, size_t len)
{
  if (len == 0)
    return;
  buf[0] = 0;
  size_t n = append(buf, len, 0, "reduce %.6g GB/s + %.6g us, copy %.6g GB/s", c->reduce_bw / 1e9, c->reduce_lat * 1e6,
                    c->copy_bw / 1e9);
  if (parts & SA_DESCRIBE_SPARSE)
    n = append(buf, len, n, ", top-k %.6g us + %.6g ns/element, MSTopK %.6g us + %.6g ns/byte, scatter-add %.6g us + "
               "%.6g ns/pair", c->topk_a * 1e6, c->topk_b * 1e9, c->mstopk_a * 1e6, c->mstopk_b * 1e9,
               c->scatter_a * 1e6, c->scatter_b * 1e9);
  /* NCCL's own, where a platform was fitted with them; a protocol's rate of 0 charges
   * nothing for the GPU's writing (a multi-node log leaves it to the NICs): left out */
  if (c->launch_lat > 0 || c->ll_bw > 0 || c->ll128_bw > 0 || c->simple_bw > 0) {
    const double rate[3] = {c->ll_bw, c->ll128_bw, c->simple_bw};
    const char *proto[3] = {"LL", "LL128", "Simple"};
    n = append(buf, len, n, ", NCCL launch %.6g us, GPU writing", c->launch_lat * 1e6);
    int any = 0;
    for (int i = 0; i < 3; i++)
      if (rate[i] > 0)
        n = append(buf, len, n, "%s %s %.6g GB/s", any++ ? "," : "", proto[i], rate[i] / 1e9);
    if (!any)
      n = append(buf, len, n, " not charged");
    n = append(buf, len, n, ", per hop LL128 %.6g us, Simple %.6g us", c->ll128_lat * 1e6, c->simple_lat * 1e6);
  }
  if (c->nvls_bw > 0)
    n = append(buf, len, n, ", NVLS %.6g GB/s", c->nvls_bw / 1e9);
  if (c->nvls_copy_bw > 0)
    n = append(buf, len, n, ", NVLS's copies %.6g GB/s", c->nvls_copy_bw / 1e9);
  if (c->proxy_lat > 0 || c->proxy_simple_lat > 0)
    append(buf, len, n, ", a ring's step across nodes at least LL/LL128 %.6g us, Simple %.6g us", c->proxy_lat * 1e6,
           c->proxy_simple_lat * 1e6);
}
