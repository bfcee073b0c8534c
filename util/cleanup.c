/* cleanup.c: the actions run at exit and on a stopping signal (cleanup.h). */
#include "cleanup.h"

#include <signal.h>
#include <stdlib.h>

#define MAX_ACTIONS 8

static void (*actions[MAX_ACTIONS])(void);
static volatile sig_atomic_t nactions;

static void run_all(void)
{
  for (int i = (int)nactions - 1; i >= 0; i--)
    actions[i]();
}

static void on_signal(int sig)
{
  run_all();
  signal(sig, SIG_DFL);
  raise(sig);
}

void util_cleanup_add(void (*action)(void))
{
  for (int i = 0; i < (int)nactions; i++)
    if (actions[i] == action)
      return;
  if (nactions == MAX_ACTIONS)
    abort(); /* a programming error: more modules than this registering */
  if (nactions == 0) {
    atexit(run_all);
    int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
      if (signal(sigs[i], on_signal) == SIG_IGN)
        signal(sigs[i], SIG_IGN);
  }
  actions[nactions] = action;
  nactions = nactions + 1;
}
