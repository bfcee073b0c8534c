/* ar_steps.c: the per-rank step recorder (ar_steps.h). */
#include "ar_steps.h"

#include <stdlib.h>

#ifdef SA_SMPI
#include <simgrid/engine.h>
#endif

void ar_steps_init(ar_steps *tr, int cap)
{
  *tr = (ar_steps){0};
  tr->cap = cap > 0 ? cap : 0;
}

void ar_steps_clear(ar_steps *tr)
{
  for (int i = 0; i < tr->ncomm; i++)
    free(tr->world[i]);
  tr->ncomm = 0;
  tr->n = 0;
  tr->dropped = 0;
}

void ar_steps_free(ar_steps *tr)
{
  ar_steps_clear(tr);
  free(tr->ev);
  tr->ev = NULL;
  tr->room = 0;
}

double ar_steps_clock(void)
{
#ifdef SA_SMPI
  /* MPI_Wtime would sleep smpi/wtime (10 ns) of simulated time at every call */
  return simgrid_get_clock();
#else
  return MPI_Wtime();
#endif
}

/* comm's ranks as MPI_COMM_WORLD's, translated once per communicator and allreduce. */
static const int *world_of(ar_steps *tr, MPI_Comm comm, int *size)
{
  for (int i = 0; i < tr->ncomm; i++)
    if (tr->comm[i] == comm) {
      *size = tr->size[i];
      return tr->world[i];
    }
  if (tr->ncomm == AR_STEPS_COMMS || MPI_Comm_size(comm, size) != MPI_SUCCESS)
    return NULL;
  int *in = malloc(sizeof *in * (size_t)*size), *out = malloc(sizeof *out * (size_t)*size);
  MPI_Group g = MPI_GROUP_NULL, wg = MPI_GROUP_NULL;
  int ok = in && out && MPI_Comm_group(comm, &g) == MPI_SUCCESS && MPI_Comm_group(MPI_COMM_WORLD, &wg) == MPI_SUCCESS;
  for (int r = 0; ok && r < *size; r++)
    in[r] = r;
  ok = ok && MPI_Group_translate_ranks(g, *size, in, wg, out) == MPI_SUCCESS;
  if (g != MPI_GROUP_NULL)
    MPI_Group_free(&g);
  if (wg != MPI_GROUP_NULL)
    MPI_Group_free(&wg);
  free(in);
  if (!ok) {
    free(out);
    return NULL;
  }
  tr->comm[tr->ncomm] = comm;
  tr->size[tr->ncomm] = *size;
  tr->world[tr->ncomm++] = out;
  return out;
}

static int world_rank(ar_steps *tr, MPI_Comm comm, int r)
{
  if (r < 0 || comm == MPI_COMM_NULL)
    return -1;
  if (comm == MPI_COMM_WORLD)
    return r;
  int size;
  const int *w = world_of(tr, comm, &size);
  return w && r < size ? w[r] : -1;
}

static ar_event *push(ar_steps *tr, char kind, const char *name, double t0, double t1)
{
  if (tr->n == tr->room) { /* room doubles up to cap; what finds none is counted */
    int room = tr->room ? 2 * tr->room : 256;
    ar_event *ev = tr->n < tr->cap ? realloc(tr->ev, sizeof *ev * (size_t)(room < tr->cap ? room : tr->cap)) : NULL;
    if (!ev) {
      tr->dropped++;
      return NULL;
    }
    tr->ev = ev;
    tr->room = room < tr->cap ? room : tr->cap;
  }
  ar_event *e = &tr->ev[tr->n++];
  *e = (ar_event){name, kind, t0, t1, -1, -1, -1, -1};
  return e;
}

void ar_steps_step(ar_steps *tr, const char *name, double t0, MPI_Comm comm, long long sbytes, int to, long long rbytes,
                   int from)
{
  if (!tr)
    return;
  ar_event *e = push(tr, AR_EV_COMM, name, t0, ar_steps_clock());
  if (!e)
    return;
  e->sbytes = sbytes;
  e->rbytes = rbytes;
  e->to = world_rank(tr, comm, to);
  e->from = world_rank(tr, comm, from);
}

void ar_steps_work(ar_steps *tr, const char *name, double t0, long long bytes)
{
  ar_event *e = tr ? push(tr, AR_EV_WORK, name, t0, ar_steps_clock()) : NULL;
  if (e)
    e->rbytes = bytes;
}

void ar_steps_post(ar_steps *tr, int send, MPI_Comm comm, long long bytes, int peer)
{
  double now = tr ? ar_steps_clock() : 0;
  ar_event *e = tr ? push(tr, AR_EV_POST, send ? AR_EV_ISEND : AR_EV_IRECV, now, now) : NULL;
  if (!e)
    return;
  int world = world_rank(tr, comm, peer);
  if (send) {
    e->sbytes = bytes;
    e->to = world;
  } else {
    e->rbytes = bytes;
    e->from = world;
  }
}
