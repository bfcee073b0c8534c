/* report_links.h: --links: each link's traffic during a point, as the runner accounted it
 * (runner/runner_links.cpp), read from its result and reported as a table block and JSON. */
#ifndef SIM_REPORT_LINKS_H
#define SIM_REPORT_LINKS_H

#include <cjson/cJSON.h>
#include <stdio.h>

typedef struct {
  char *name;      /* SimGrid's link name */
  double rate_Bps; /* its bandwidth */
  double bytes;    /* carried during the point */
  double busy_s;   /* time it carried anything */
  double peak_Bps; /* its highest load */
} sim_link;

/* A point's links, busiest (highest mean utilization) first. */
typedef struct {
  sim_link *v;
  int n;
  double window_s; /* from the first rank's start to the last one's end */
} sim_links;

/* The point object's "links" and "links_window_s", when present (else l stays empty).
 * 0, or SA_EPARSE / SA_ENOMEM. */
int sim_links_read(const cJSON *point, sim_links *l);
void sim_links_free(sim_links *l);

/* bytes / (rate x window), and peak / rate. */
double sim_link_mean_util(const sim_link *k, double window_s);
double sim_link_peak_util(const sim_link *k);

/* "# links of ALGO at SIZE" and the n busiest, one line each, bytes in MiB. steady_s: the
 * row's time when the allreduces ran back to back (--timing nccl-tests), whose window a
 * line then explains; 0 otherwise. */
void sim_links_print(FILE *f, const char *algo, const char *size, const sim_links *l, int n, double steady_s);
/* The point's "links": every link, with its mean and peak utilization. */
void sim_links_json(cJSON *point, const sim_links *l);

#endif
