/* zone.cpp: a platform loader for SimGrid (a shared object SimGrid loads in place of
 * a platform file, calling its load_platform), for the files the generator writes.
 *
 * Why: a generated platform puts each GPU in a zone of its own, under its rail's leaf, so
 * that each GPU leaves through its own NIC; the links inside a node are then bypass routes
 * between GPU zones (platform_xml.c). SimGrid 3.32 finds such a route through a map of every
 * bypass and three walks up the zones, about 1 us per message on 512 nodes, and 3 us across
 * rails; a 4096-rank ring sends 33.5 million messages. Here the same hosts and links are
 * made in one zone whose route between two GPUs is cluster.c's (the function the file's routes
 * were written from), in about 0.1 us.
 *
 * Only for a file of NVSwitch nodes that is exactly what the generator writes for the shape
 * it carries (shape_file.c: written again from that shape and compared as it goes). Any
 * other file, a generated one edited by hand included, is read by SimGrid's own parser, as
 * if it had been given to SimGrid directly. The file's path
 * comes in $SIMALLREDUCE_PLATFORM_XML (TOPO_SHAPE_FILE_ENV; platform/zone_loader.c). */
#include <simgrid/kernel/routing/NetPoint.hpp>
#include <simgrid/kernel/routing/NetZoneImpl.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>
#include <xbt/config.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

extern "C" { /* cluster.h and platform_xml.h are C headers of their own */
#include "shape.h"
}

namespace sg4 = simgrid::s4u;
namespace kr = simgrid::kernel::routing;

namespace {
using LinkImpl = simgrid::kernel::resource::StandardLinkImpl;

/* A number as the file writes it (platform_xml.c) and SimGrid reads it back: the same
 * double the XML route would have given. */
double as_written(int digits, double v)
{
  char buf[64];
  return strtod(topo_xml_number(buf, sizeof buf, digits, v), nullptr);
}

struct Halves {
  LinkImpl *up;
  LinkImpl *down;
  double latency;
};

/* Every GPU of the platform in one zone; a route is cluster.c's path between the two, its links
 * in the order SimGrid's routing through the file's zones gives them. An NVSwitch node's
 * links are its GPUs' and its NICs', the fabric's its leaves' uplinks and their units': each
 * kind at a place of its own in one table, found by arithmetic. */
class GpuZone : public kr::NetZoneImpl {
  topo_cluster topo_;
  std::vector<Halves> links_;
  size_t nic0_;
  size_t uplink0_;
  size_t unit0_;
  std::vector<int> node_of_, gpu_of_; /* by netpoint id */

  size_t index(const topo_hop &h) const
  {
    size_t node = static_cast<size_t>(h.node);
    size_t a = static_cast<size_t>(h.a);
    switch (h.kind) {
    case TOPO_LK_GPU: return node * static_cast<size_t>(topo_.gpus) + a;
    case TOPO_LK_NIC: return nic0_ + node * static_cast<size_t>(topo_.nics) + a;
    case TOPO_LK_UPLINK: return uplink0_ + a;
    case TOPO_LK_UNIT: return unit0_ + a * static_cast<size_t>(topo_units(&topo_)) + static_cast<size_t>(h.b);
    default: throw std::invalid_argument("platform_zone.so: a link of a kind NVSwitch nodes do not have");
    }
  }

public:
  GpuZone(const std::string &name, const topo_cluster &t)
      : NetZoneImpl(name), topo_(t), nic0_(static_cast<size_t>(t.nodes) * static_cast<size_t>(t.gpus)),
        uplink0_(nic0_ + static_cast<size_t>(t.nodes) * static_cast<size_t>(t.nics)),
        unit0_(uplink0_ + static_cast<size_t>(topo_leaves(&t)))
  {
    links_.resize(unit0_ + static_cast<size_t>(topo_leaves(&t)) * static_cast<size_t>(topo_units(&t)));
  }

  void add_link(const topo_hop &h)
  {
    char name[64];
    double bw;
    double lat;
    topo_link_name(&topo_, &h, name, sizeof name);
    topo_link_rate(&topo_, &h, &bw, &lat);
    lat = as_written(12, lat);
    auto *l = get_iface()->create_split_duplex_link(name, as_written(12, bw));
    l->set_latency(lat);
    l->seal();
    links_.at(index(h)) = Halves{l->get_link_up()->get_impl(), l->get_link_down()->get_impl(), lat};
  }

  void add_gpu(const sg4::Host *h, int node, int gpu)
  {
    unsigned long id = h->get_netpoint()->id();
    if (node_of_.size() <= id) {
      node_of_.resize(id + 1, -1);
      gpu_of_.resize(id + 1, -1);
    }
    node_of_[id] = node;
    gpu_of_[id] = gpu;
  }

  void get_local_route(const kr::NetPoint *src, const kr::NetPoint *dst, kr::Route *into, double *latency) override
  {
    unsigned long s = src->id();
    unsigned long d = dst->id();
    if (s >= node_of_.size() || d >= node_of_.size() || node_of_[s] < 0 || node_of_[d] < 0)
      throw std::invalid_argument("no route between " + src->get_name() + " and " + dst->get_name());
    if (s == d)
      return; /* as the file's one-host zones: nothing between a GPU and itself */
    topo_path p;
    topo_path_between(&topo_, node_of_[s], gpu_of_[s], node_of_[d], gpu_of_[d], &p);
    /* Between nodes SimGrid lists each GPU's way to its NIC (a piece of the file's routes
     * inside a leaf's zone) backwards: the NIC link first out of the source, last into the
     * destination. It sums the latencies in that order when both GPUs are in one zone (a
     * leaf, or a leaf's unit), else in the path's. Only a GPU whose NIC is down has more than
     * its NIC link in its piece (PXN), where either order shows, in the sum's last bit. */
    int out = 0;
    int in = 0;
    if (node_of_[s] != node_of_[d]) {
      topo_path piece;
      topo_to_nic(&topo_, node_of_[s], gpu_of_[s], &piece);
      out = piece.n;
      topo_to_nic(&topo_, node_of_[d], gpu_of_[d], &piece);
      in = piece.n;
    }
    int one_zone = out + in == p.n && p.n > 0;
    for (int k = 0; k < p.n; k++) {
      int i = k < out ? out - 1 - k : k >= p.n - in ? 2 * p.n - in - 1 - k : k;
      const Halves &l = links_[index(p.h[i])];
      into->link_list_.push_back(p.h[i].up ? l.up : l.down);
      if (latency)
        *latency += links_[index(p.h[one_zone ? i : k])].latency;
    }
  }
};

std::string read_file(const std::string &path)
{
  std::string text;
  FILE *f = fopen(path.c_str(), "rb");
  if (not f)
    return text;
  char buf[1 << 16];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0)
    text.append(buf, n);
  fclose(f);
  return text;
}

/* The platform of shape s, as the file describes it: its settings, every link in the file's
 * order, every GPU in the file's order (leaf by leaf) with its properties. */
void build(const topo_shape &s)
{
  const topo_cluster &t = s.topo;
  /* the file's <config>, as SimGrid applies it: in the keys' order, a user's own setting
   * winning */
  const std::pair<const char *, std::string> settings[] = {{"network/crosstraffic", "0"}, {"smpi/bw-factor", s.bw_factor}};
  for (const auto &[key, value] : settings)
    if (simgrid::config::is_default(key))
      simgrid::config::set_parse(std::string(key) + ":" + value);
  auto *zone = new GpuZone("world", t);
  zone->get_iface()->set_property(TOPO_LAT_FACTOR_PROP, s.lat_factor); /* the file's, as its root zone's */
  std::vector<topo_hop> hops(static_cast<size_t>(topo_fabric_links(&t, nullptr, 0)));
  topo_fabric_links(&t, hops.data(), static_cast<int>(hops.size()));
  for (const auto &h : hops)
    zone->add_link(h);
  for (int i = 0; i < t.nodes; i++) {
    hops.resize(static_cast<size_t>(topo_node_links(&t, i, nullptr, 0)));
    topo_node_links(&t, i, hops.data(), static_cast<int>(hops.size()));
    for (const auto &h : hops)
      zone->add_link(h);
  }
  double speed = as_written(9, s.spec.host_speed > 0 ? s.spec.host_speed : 1e12);
  char value[64];
  for (int l = 0; l < topo_leaves(&t); l++)
    for (int i = 0; i < t.nodes; i++)
      for (int j = 0; j < t.gpus; j++) {
        if (topo_leaf_of(&t, i, j) != l)
          continue;
        auto *host = zone->get_iface()->create_host("node" + std::to_string(i) + "-gpu" + std::to_string(j), speed);
        host->set_property("node", std::to_string(i));
        if (s.spec.recv_overhead)
          host->set_property("smpi/or", s.spec.recv_overhead);
        for (int k = 0; s.spec.has_compute && k < SA_COMPUTE_N; k++)
          if (sa_compute_written(&s.spec.compute, k)) {
            host->set_property(sa_compute_name(k),
                               topo_xml_number(value, sizeof value, 9, sa_compute_get(&s.spec.compute, k)));
          }
        zone->add_gpu(host, i, j);
      }
  zone->get_iface()->seal();
}
} // namespace

extern "C" XBT_PUBLIC void load_platform(const sg4::Engine &e);

void load_platform(const sg4::Engine &e)
{
  const char *path = getenv(TOPO_SHAPE_FILE_ENV);
  if (not path || not *path)
    throw std::invalid_argument(std::string("platform_zone.so: $") + TOPO_SHAPE_FILE_ENV + " names no platform file");
  topo_shape shape;
  std::string text = read_file(path);
  if (topo_shape_of_file(text.data(), text.size(), &shape))
    build(shape);
  else
    e.load_platform(path);
}
