/* ar_native_sg.cpp: what the runner's exchanges on mailboxes (ar_native.c) need of SimGrid's
 * C++ interface, which its C one lacks.
 *
 * Messages that carry their payload pointer: SMPI makes its own copy function every
 * message's default (it copies a message's bytes from the payload, and frees a detached
 * one's), so each message here names SimGrid's pointer copy itself.
 *
 * Whether the exchanges may go on mailboxes at all, read from SimGrid's settings (the C
 * interface reads no strings). SMPI adds time of its own around a message when smpi/os, smpi/ois or
 * smpi/or is set, globally or as a host's property (smpi_host.cpp, SimGrid 3.32), and sends
 * small messages to another mailbox when smpi/async-small-thresh is: then every exchange
 * goes through MPI. */
#include "ar_native.h"

#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Mailbox.hpp>
#include <simgrid/simix.hpp>
#include <xbt/config.hpp>

#include <cstdlib>

namespace sg4 = simgrid::s4u;

namespace {
const char* const overheads[] = {"smpi/os", "smpi/ois", "smpi/or"};

/* Read once per process: the hosts are walked once, not once per rank. */
int verdict = -1;

int overheads_unset()
{
  for (const char* key : overheads)
    if (not simgrid::config::is_default(key))
      return 0;
  if (simgrid::config::get_value<int>("smpi/async-small-thresh") != 0)
    return 0;
  for (const auto* host : sg4::Engine::get_instance()->get_all_hosts())
    for (const char* key : overheads)
      if (host->get_property(key) != nullptr)
        return 0;
  return 1;
}
} // namespace

int ar_native_allowed(long long* detached_thresh)
{
  if (verdict < 0)
    verdict = overheads_unset();
  *detached_thresh = simgrid::config::get_value<int>("smpi/send-is-detached-thresh");
  return verdict;
}

void ar_native_start(sg_mailbox_t put_mb, void* payload, long bytes, sg_comm_t* put, sg_mailbox_t get_mb, void** got,
                     sg_comm_t* get)
{
  /* Made here, in the rank's own context, so that each names the rank as its sender or
   * receiver; started below in one step of the kernel's (each start is a kernel call of its
   * own otherwise, and a rank's every kernel call costs a switch to the kernel and back). */
  sg4::CommPtr out;
  sg4::CommPtr in;
  if (put_mb)
    out = put_mb->put_init(payload, bytes)->set_copy_data_callback(&sg4::Comm::copy_pointer_callback);
  if (get_mb)
    in = get_mb->get_init()->set_dst_data(got, sizeof(void*))->set_copy_data_callback(
        &sg4::Comm::copy_pointer_callback);
  simgrid::kernel::actor::simcall_answered([&out, &in] {
    if (out) /* the send first, as MPI_Sendrecv posts it */
      out->start();
    if (in)
      in->start();
  });
  /* the C interface's references, released by its waits */
  if (out) {
    out->add_ref();
    *put = out.get();
  }
  if (in) {
    in->add_ref();
    *get = in.get();
  }
}

