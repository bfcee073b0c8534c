/* ar_activity.cpp: the first of several SimGrid activities to finish (see ar_activity.h). */
#include "ar_activity.h"

#include <simgrid/s4u/Activity.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Exec.hpp>

#include <vector>


int ar_wait_any(sg_comm_t *comms, int ncomm, sg_exec_t *execs, int nexec, double timeout)
{
  std::vector<simgrid::s4u::ActivityPtr> acts; /* references of their own, released on return */
  acts.reserve((size_t)(ncomm + nexec));
  for (int i = 0; i < ncomm; i++)
    acts.emplace_back(comms[i]);
  for (int i = 0; i < nexec; i++)
    acts.emplace_back(execs[i]);
  ssize_t pos = simgrid::s4u::Activity::wait_any_for(acts, timeout);
  if (pos >= 0)
    acts[(size_t)pos]->unref(); /* the caller's: the activity is over */
  return (int)pos;
}
