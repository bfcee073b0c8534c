/* runner_links.cpp: per-link traffic of the simulated network while an allreduce runs.
 *
 * At every advance of the simulated clock SimGrid tells its observers how far time moved
 * (s4u::Engine::on_time_advance, fired once the models have accounted for the interval and
 * before any actor runs again), and every link still has the load the network model's
 * solver gave it for that interval (s4u::Link::get_usage(), bytes per second). Integrated
 * here interval by interval, that is exactly what each link carried: bytes, time busy,
 * highest load, and optionally bytes over time.
 *
 * Why not SimGrid's link-load plugin (plugin:link_load): it multiplies a link's current
 * load by the time since its last update and updates only when a communication starts or
 * ends, so the latency phase of every message (no bandwidth used) is counted at the rate
 * that follows it: 9% too many bytes on tencent16's NICs and 58% on its NVLinks in a
 * 10-step ring of 512 KiB messages. SimGrid 3.32's tracing (tracing/uncategorized) aborts on
 * cluster platforms with split-duplex links ("container with name node0_link_0_DOWN not
 * found"). The time-advance signal exists only in SimGrid's C++ interface, hence this one
 * C++ file behind a C header. */
#include "runner_links.h"

#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Link.hpp>

#include <algorithm>
#include <cmath>
#include <new>
#include <vector>

#include "common/sa_error.h"

namespace {

struct Window {
  std::vector<simgrid::s4u::Link *> links;
  std::vector<runner_link> acc; /* one per link, in platform order */
  std::vector<runner_link> used;
  std::vector<int> used_at; /* index in links of each entry of used */
  int nbins = 0;            /* bins kept per link, 0: none */
  std::vector<double> bins; /* links x nbins, bytes */
  double width = 0;         /* seconds per bin */
  int active = 0;           /* ranks inside the allreduce */
  double t0 = 0, t1 = 0;
};

Window w;

/* The first bin's width: fine enough for a microsecond allreduce; doubled as needed. */
constexpr double first_width = 1e-8;

/* Halves the resolution: bin i becomes bins 2i and 2i+1. */
void coarsen()
{
  size_t n = w.links.size(), h = (size_t)w.nbins / 2;
  for (size_t l = 0; l < n; l++) {
    double *b = &w.bins[l * (size_t)w.nbins];
    for (size_t i = 0; i < h; i++)
      b[i] = b[2 * i] + b[2 * i + 1];
    std::fill(b + h, b + w.nbins, 0.0);
  }
  w.width *= 2;
}

/* Spreads `rate` bytes per second over [a, b) into link l's bins (b is inside the last). */
void add_bins(size_t l, double a, double b, double rate)
{
  double *bin = &w.bins[l * (size_t)w.nbins];
  a = std::max(a, w.t0); /* now - delta can fall an ulp before the window's start */
  long lo = (long)((a - w.t0) / w.width), hi = std::min((long)((b - w.t0) / w.width), (long)w.nbins - 1);
  for (long i = lo; i <= hi; i++) {
    double from = std::max(a, w.t0 + (double)i * w.width), to = std::min(b, w.t0 + (double)(i + 1) * w.width);
    if (to > from)
      bin[i] += rate * (to - from);
  }
}

void on_advance(double delta)
{
  if (w.active == 0 || delta <= 0)
    return;
  double now = simgrid::s4u::Engine::get_clock(), start = now - delta;
  while (w.nbins > 0 && now - w.t0 >= w.width * w.nbins)
    coarsen();
  for (size_t l = 0; l < w.links.size(); l++) {
    double u = w.links[l]->get_usage();
    if (!(u > 0))
      continue;
    runner_link &a = w.acc[l];
    a.bytes += u * delta;
    a.busy_s += delta;
    a.peak_Bps = std::max(a.peak_Bps, u);
    if (w.nbins > 0)
      add_bins(l, start, now, u);
  }
}

} // namespace

extern "C" int runner_links_init(int bins)
{
  try {
    w.links = simgrid::s4u::Engine::get_instance()->get_all_links();
    w.acc.resize(w.links.size());
    w.nbins = bins > 1 ? bins - bins % 2 : 0;
    w.bins.assign(w.links.size() * (size_t)w.nbins, 0.0);
  } catch (const std::bad_alloc &) {
    return SA_ENOMEM;
  }
  for (size_t l = 0; l < w.links.size(); l++)
    w.acc[l] = {w.links[l]->get_cname(), w.links[l]->get_bandwidth(), 0, 0, 0};
  simgrid::s4u::Engine::on_time_advance_cb(on_advance);
  return 0;
}

extern "C" void runner_links_enter(void)
{
  if (w.active++ > 0)
    return;
  for (auto &a : w.acc)
    a.bytes = a.busy_s = a.peak_Bps = 0;
  std::fill(w.bins.begin(), w.bins.end(), 0.0);
  w.width = first_width;
  w.t0 = w.t1 = simgrid::s4u::Engine::get_clock();
}

extern "C" void runner_links_leave(void)
{
  if (--w.active == 0)
    w.t1 = simgrid::s4u::Engine::get_clock();
}

extern "C" const runner_link *runner_links_used(int *n, double *t0, double *t1)
{
  w.used.clear();
  w.used_at.clear();
  for (size_t l = 0; l < w.acc.size(); l++)
    if (w.acc[l].bytes > 0)
      w.used_at.push_back((int)l);
  /* busiest: the most bytes for its bandwidth, i.e. the highest mean utilization */
  auto load = [](int l) { return w.acc[l].rate_Bps > 0 ? w.acc[l].bytes / w.acc[l].rate_Bps : w.acc[l].bytes; };
  std::stable_sort(w.used_at.begin(), w.used_at.end(), [&](int a, int b) { return load(a) > load(b); });
  for (int l : w.used_at)
    w.used.push_back(w.acc[l]);
  *n = (int)w.used.size();
  *t0 = w.t0;
  *t1 = w.t1;
  return w.used.data();
}

extern "C" const double *runner_links_series(int i, int *n, double *width)
{
  if (w.nbins == 0 || i < 0 || i >= (int)w.used_at.size())
    return nullptr;
  *n = std::min(w.nbins, (int)std::ceil((w.t1 - w.t0) / w.width));
  *width = w.width;
  return &w.bins[(size_t)w.used_at[i] * (size_t)w.nbins];
}
