/* runner_links.h: what each link of the simulated network carried while an allreduce ran, read
 * from the load SimGrid's network model gives it at every advance of the simulated clock
 * (runner/runner_links.cpp, SMPI builds only). None of it takes simulated time. */
#ifndef RUNNER_RUNNER_LINKS_H
#define RUNNER_RUNNER_LINKS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  const char *name; /* SimGrid's name (a split-duplex link is two: NAME_UP and NAME_DOWN) */
  double rate_Bps;  /* its bandwidth */
  double bytes;     /* carried during the window */
  double busy_s;    /* time during which it carried anything */
  double peak_Bps;  /* the highest load it had */
} runner_link;

/* Once, before the first window: lists the platform's links and hooks the accounting onto
 * the clock. With bins > 0 every link's bytes are also kept over time, in at most `bins`
 * bins per window (their width doubles as the window grows). 0 or SA_ENOMEM. */
int runner_links_init(int bins);

/* Every rank, right before and right after its allreduce: the window opens when the first
 * rank enters (forgetting the previous one) and closes when the last one leaves, so it
 * holds the allreduce's traffic and nothing of the barrier before or the results after. */
void runner_links_enter(void);
void runner_links_leave(void);

/* After the window closed: its start and end (simulated seconds) and the links that
 * carried anything, busiest first (the most bytes for their bandwidth: the highest mean
 * utilization; then platform order), *n of them; valid until the next window opens. */
const runner_link *runner_links_used(int *n, double *t0, double *t1);

/* Entry i of that list over time: *n bins of *width seconds from the window's start, each
 * the bytes the link carried in it; NULL when no bins are kept. */
const double *runner_links_series(int i, int *n, double *width);

#ifdef __cplusplus
}
#endif

#endif
