/* pingpong.c: the MPI microbenchmark behind `simcalib measure` and `simcalib check`: one-way
 * ping-pong time and streaming bandwidth over a size sweep, for one pair of ranks on the same
 * node (intra) and one pair on different nodes (inter) when there is one. Built with mpicc
 * to measure a real machine and with smpicc (SA_SMPI) to simulate a platform with the very
 * same code. Rank 0 writes the measured-data file. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"
#include "measured/measured.h"
#include "pingpong_opts.h"

#ifdef SA_SMPI
#include <simgrid/host.h>

#include "topo/sg_latency.h"
#include "topo/shape.h"
#endif

#define NAME_LEN 256

/* What tells two ranks apart as on the same node: the real host name, or under simulation
 * the platform's "node" property (one SimGrid host per GPU, several per node). */
static void node_name(char *buf)
{
  int len = 0;
  MPI_Get_processor_name(buf, &len);
#ifdef SA_SMPI
  const char *node = sg_host_get_property_value(sg_host_self(), "node");
  if (node)
    snprintf(buf, NAME_LEN, "node%s", node);
#endif
}

/* Repetitions for one size: as many as --reps allows, fewer for large messages so that each
 * size moves about --budget bytes, and never fewer than --min-reps. */
static int reps_for(const pp_opts *o, double bytes_per_rep)
{
  double r = bytes_per_rep > 0 ? (double)o->budget / bytes_per_rep : o->reps;
  int n = r > o->reps ? o->reps : (int)r;
  return n < o->min_reps ? o->min_reps : n;
}

/* Round trips per timed sample: small messages are batched so that a sample is long against
 * the timer's own cost. */
static int batch_for(size_t bytes) { return bytes <= 65536 ? 8 : 1; }

static void pingpong_once(char *buf, size_t bytes, int peer, int first, int batch)
{
  for (int i = 0; i < batch; i++) {
    if (first) {
      MPI_Send(buf, (int)bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
      MPI_Recv(buf, (int)bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buf, (int)bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, (int)bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
    }
  }
}

static void stream_once(char *buf, size_t bytes, int peer, int first, int window, MPI_Request *req)
{
  char ack = 0;
  for (int i = 0; i < window; i++) {
    if (first)
      MPI_Isend(buf, (int)bytes, MPI_BYTE, peer, 2, MPI_COMM_WORLD, &req[i]);
    else
      MPI_Irecv(buf, (int)bytes, MPI_BYTE, peer, 2, MPI_COMM_WORLD, &req[i]);
  }
  MPI_Waitall(window, req, MPI_STATUSES_IGNORE);
  if (first)
    MPI_Recv(&ack, 1, MPI_BYTE, peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  else
    MPI_Send(&ack, 1, MPI_BYTE, peer, 3, MPI_COMM_WORLD);
}

/* Times one (op, size) between ranks a and b; on rank a returns the point, with one-way
 * time per message. */
static int measure_point(const pp_opts *o, char *buf, double *samples, MPI_Request *req, int stream,
                         size_t bytes, int a, int b, int me, md_point *pt)
{
  int window = stream ? o->window : 1;
  if (stream && bytes > 0 && (double)bytes * window > (double)o->window_bytes) {
    window = (int)((double)o->window_bytes / (double)bytes);
    window = window < 1 ? 1 : window;
  }
  int batch = stream ? 1 : batch_for(bytes);
  int reps = reps_for(o, (double)bytes * (stream ? window : 2 * batch));
  int warm = o->warmup;
  int in = me == a || me == b, first = me == a, peer = first ? b : a;
  for (int r = -warm; r < reps && in; r++) {
    double t0 = MPI_Wtime();
    if (stream)
      stream_once(buf, bytes, peer, first, window, req);
    else
      pingpong_once(buf, bytes, peer, first, batch);
    double t = MPI_Wtime() - t0;
    if (r >= 0)
      samples[r] = stream ? t / window : t / (2.0 * batch);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (me != a)
    return 0;
  pt->bytes = (double)bytes;
  pt->ranks = 2;
  md_point_summarize(pt, samples, reps);
  return 1;
}

static int sweep(const pp_opts *o, const char *path, int a, int b, int me, md_data *d)
{
  size_t max = (size_t)o->sizes[o->nsizes - 1];
  char *buf = malloc(max);
  double *samples = malloc(sizeof(double) * (size_t)(o->reps > o->min_reps ? o->reps : o->min_reps));
  MPI_Request *req = malloc(sizeof(MPI_Request) * (size_t)o->window);
  int ok = buf && samples && req, all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (all_ok) {
    memset(buf, 0x5a, max);
    for (int stream = 0; stream <= o->stream; stream++)
      for (int i = 0; i < o->nsizes; i++) {
        size_t s = (size_t)o->sizes[i];
        md_point pt = md_point_blank(stream ? "stream" : "pingpong", "simcalib");
        snprintf(pt.path, sizeof pt.path, "%s", path);
        if (measure_point(o, buf, samples, req, stream, s, a, b, me, &pt) && md_data_add(d, &pt) != 0)
          all_ok = 0;
      }
  }
  free(req);
  free(samples);
  free(buf);
  return all_ok ? 0 : SA_ERUN;
}

/* The first rank on rank 0's node (intra) and the first on another node (inter), or -1. */
static void find_peers(int size, int *intra, int *inter)
{
  char mine[NAME_LEN] = "";
  node_name(mine);
  char *all = calloc((size_t)size, NAME_LEN);
  *intra = *inter = -1;
  if (!all)
    return;
  MPI_Allgather(mine, NAME_LEN, MPI_CHAR, all, NAME_LEN, MPI_CHAR, MPI_COMM_WORLD);
  for (int r = 1; r < size; r++) {
    int same = strncmp(all, all + (size_t)r * NAME_LEN, NAME_LEN) == 0;
    if (same && *intra < 0)
      *intra = r;
    if (!same && *inter < 0)
      *inter = r;
  }
  free(all);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int me, size, status = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
#ifdef SA_SMPI
  /* before any message: the platform's latency factor, as the runner applies it */
  if (topo_latency_init() < 0) {
    if (me == 0)
      fprintf(stderr, "simcalib_pp: the platform's %s does not parse\n", TOPO_LAT_FACTOR_PROP);
    MPI_Finalize();
    return 2;
  }
#endif
  pp_opts o;
  char err[256];
  if (pp_opts_parse(argc, argv, &o, err, sizeof err) != 0 || size < 2) {
    if (me == 0)
      fprintf(stderr, "simcalib_pp: %s\n", size < 2 ? "needs at least 2 ranks" : err);
    MPI_Finalize();
    return 2;
  }
  int intra, inter;
  find_peers(size, &intra, &inter);
  md_data d;
  memset(&d, 0, sizeof d);
  snprintf(d.source, sizeof d.source, "simcalib measure");
  int len = 0;
  char lib[MPI_MAX_LIBRARY_VERSION_STRING];
  MPI_Get_library_version(lib, &len);
  lib[strcspn(lib, "\n,")] = '\0';
  char host[NAME_LEN];
  MPI_Get_processor_name(host, &len);
  snprintf(d.machine, sizeof d.machine, "%.60s, %d ranks, %.50s", host, size, lib);
  if ((o.want_intra && intra > 0 && sweep(&o, "intra", 0, intra, me, &d) != 0) ||
      (o.want_inter && inter > 0 && sweep(&o, "inter", 0, inter, me, &d) != 0))
    status = 1;
  if (me == 0 && status == 0) {
    if (intra < 0 && inter < 0)
      fprintf(stderr, "simcalib_pp: no pair of ranks to measure\n");
    if (d.n == 0 || md_data_write(&d, o.out) != 0) {
      fprintf(stderr, "simcalib_pp: cannot write %s\n", o.out);
      status = 1;
    }
  }
  md_data_free(&d);
  pp_opts_free(&o);
  MPI_Finalize();
  return status;
}
