/* sg_latency.cpp: a slice's latency paid at its receiver (see sg_latency.h). */
#include "sg_latency.h"

#include <simgrid/host.h>
#include <simgrid/kernel/resource/NetworkModelIntf.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/NetZone.hpp>
#include <xbt/config.hpp>

#include <stdexcept>
#include <string>
#include <unordered_set>

#include "common/piecewise.h"
#include "shape.h"

namespace {
sa_piecewise factor;                                  /* the platform's latency factor */
std::unordered_set<const simgrid::s4u::Host *> slicing; /* hosts whose rank runs the pipeline */
int state;                                            /* 0: not tried, 1: installed, else not */

double message_factor(double size, const simgrid::s4u::Host *src, const simgrid::s4u::Host *,
                      const std::vector<simgrid::s4u::Link *> &, const std::unordered_set<simgrid::s4u::NetZone *> &)
{
  return slicing.count(src) ? 0.0 : sa_piecewise_at(&factor, size);
}
} // namespace

int topo_latency_init(void)
{
  if (state == 0) {
    auto *root = simgrid::s4u::Engine::get_instance()->get_netzone_root();
    const char *own = root->get_property(TOPO_LAT_FACTOR_PROP);
    /* no property: the setting SMPI would apply, its default included */
    std::string text = own ? own : simgrid::config::get_value<std::string>("smpi/lat-factor");
    if (sa_piecewise_parse(text.c_str(), SA_PIECE_FACTOR, &factor) != 0)
      state = -1;
    else
      try {
        root->get_network_model()->set_lat_factor_cb(message_factor);
        state = 1;
      } catch (const std::invalid_argument &) { /* smpi/lat-factor is set: SMPI applies it */
        state = 2;
      }
  }
  return state == 1 ? 1 : state == 2 ? 0 : -1;
}

void topo_latency_slices(int on)
{
  if (state != 1)
    return;
  if (on)
    slicing.insert(simgrid::s4u::Host::current());
  else
    slicing.erase(simgrid::s4u::Host::current());
}

double topo_latency_route(sg_host_t from)
{
  return state == 1 && from ? sg_host_get_route_latency(from, sg_host_self()) : 0;
}

double topo_latency_factor(double bytes) { return sa_piecewise_at(&factor, bytes); }
