/* cost_nccl_des.c: the slice pipeline replayed over a fluid network (see cost_nccl_des.h).
 *
 * Events, in time order (ties in the order they were made, so that a prediction is the same
 * bit for bit): a message's latency has passed (it starts to take bandwidth), a message has
 * been delivered, a rank's GPU has ended a sum, a slice a rank waits for becomes visible, a
 * receiver starts (its first receives posted). A message is one slice of one connection,
 * which has at most one on its way: the connection stands for the message. While a message
 * takes bandwidth it is on the lists of its links; when one joins or leaves, the rates of
 * every message reachable from it through shared links are shared again (the others cannot
 * change) and their deliveries rescheduled. */
#include "cost_nccl_des.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algos/algo_list.h"
#include "cost_fold.h"
#include "cost_nccl_layout.h"

enum { EV_LAT, EV_OP, EV_WAKE, EV_POSTED, EV_DONE };

typedef struct {
  double t;
  unsigned long seq;
  int kind, id;
  unsigned version;
} event;

typedef struct {
  int ss, sj, rs, rj; /* sender stream and its send slot, receiver stream and its receive slot */
  int from, to;       /* ranks */
  cost_route_use u;
  double late;  /* the latency the receiver pays after the bytes (cost_net's late_latency) */
  double extra; /* the protocol's latency beyond the link's: the slice is seen that much later */
  double per_wire; /* bytes on the link per byte on the wire (NCCL's NVLink efficiency) */
  double gap;      /* the proxy's time before each slice it sends (nccl_net_gap_s) */
  int holding;     /* the proxy holds the next slice, since held (its gap runs from then) */
  double held;
  /* the sender's side */
  long issued, completed;
  double wire[NCCL_STEPS]; /* packed slices, by number mod slots */
  int phase;               /* 0: none on its way, 1: in its latency, 2: taking bandwidth */
  double bytes;            /* of the slice on its way */
  int pos[COST_MAX_USES]; /* its place in each of its links' lists */
  /* the receiver's side */
  long arrived;
  double vis[NCCL_STEPS];
} conn;

/* A message taking bandwidth, apart from its connection (whose slices make it large): every
 * sharing and every move in the deliveries' heap reads these. */
typedef struct {
  double left, rate, since; /* bytes left, at the rate it has had since then */
  double due;               /* when it will be delivered at its rate now */
  unsigned long seq;        /* when that was decided, for ties */
  int hpos;                 /* its place in the deliveries' heap, -1: not there */
} flow;

/* A message's part in a sharing, apart from its connection (whose slices make it large):
 * where its links are in the des's use arrays, how many, its penalty, its bound, the level
 * at which its bound holds it (bound x penalty). A sharing reads these for every message it
 * touches. */
typedef struct {
  int at, n;
  double penalty, bound, reach;
} share_of;

typedef struct {
  long k, recvs, rdone, sdone;
  int rc[NCCL_MAX_PEERS], sc[NCCL_MAX_PEERS];
  /* operation k and its GPU time, made once (a rank looks at its next operations at every
   * event that may ready them) */
  long op_k;
  nccl_op op;
  double op_s, op_cap; /* its GPU seconds, and the most of the GPU it can take (nccl_op_floor_s) */
  /* what the readiness of operation k came out at (ready_k: for which k, -1: to be looked at
   * again): blocked, or ready at ready_t; only a delivery to or from the stream changes it */
  long ready_k;
  int blocked;
  double ready_t;
  /* the operation under way on the GPU, if any (busy): its GPU seconds left, as at the whole
   * GPU's rate, since `since`; ver tells its latest end event from those it was moved from */
  int busy;
  unsigned ver;
  double left, since;
  double num, den; /* its share of the GPU (num / den: den 0, none yet), at most op_cap */
  nccl_op cur;
} stream_state;

typedef struct {
  double start, end, wake; /* wake: a look it has coming, or -1 */
  int first, n; /* its streams: st[first .. first + n) */
} rank_state;

/* The messages on a link key: each one's connection and its use of that key (a route uses a
 * key once: cost_route_use_of merges repeats), its place in the des's use arrays. */
typedef struct {
  int *id, *use, n, cap;
} key_list;

typedef struct {
  cost_ctx *c;
  const cost_des_stream *st;
  stream_state *ss;
  rank_state *rk;
  conn *cn;
  int nst, ncn, slots, proto;
  int nr;         /* the ranks replayed: every rank, or a folded cluster's first period (cost_fold.h) */
  cost_fold fold; /* its images > 1: the cluster folded onto its first period */
  double now;
  event *heap;
  int nheap, capheap;
  int *due, ndue; /* the messages taking bandwidth, by delivery: a heap indexed by flow hpos */
  unsigned char *dirty; /* [key]: to be shared anew */
  int *unfixed;         /* [key]: messages on it whose rate a sharing has not fixed yet */
  int *ndirty_keys, ndirty;
  unsigned long seq, mark;
  key_list *keys;
  int nkeys;
  /* scratch for a sharing */
  int *comp, *queue, *open;
  unsigned char *fixed;
  double *rate, *load, *denom, *share, *reach;
  double *key_bw; /* [key]: its link's rate */
  share_of *sh;   /* [connection] */
  flow *fl;       /* [connection] */
  int *cidx;      /* [connection]: its place in the current sharing */
  unsigned long *cmark; /* [connection]: the sharing that visited it last */
  unsigned long *kmark; /* [key]: the same */
  int *okey;      /* a sharing's links with messages not yet fixed, in their order */
  int *ukey;      /* [use]: the link key of each connection's uses, connection after connection */
  double *ucoef, *uw; /* [use]: its coefficient, and that over the penalty (its weight in a sharing) */
  /* what the rates in place were shared for: [connection] whether it had a message on its
   * links then, and its rate; the connections whose message began or ended since */
  unsigned char *was_on, *in_toggled;
  double *kept_rate;
  int *toggled, ntoggled;
  sa_compute gpu; /* the platform's, as NCCL's kernels see it (cost_nccl_gpu_of) */
} des;

/* Event times on a grid of TICK seconds. The channels of a ring are alike, so many of their
 * events fall at one time, and the order they are taken in (whose sum starts first, whose
 * slice takes the link first) shapes the rest of the replay; computed as sums from different
 * starts, they differ in their last bits, and then a figure's last bit reordered them: a
 * fitted L02 platform whose 3e-07 s SimGrid read one ulp off the fit's put 64 MiB 1.9% off
 * the fit's own table. On the grid they tie exactly and are taken in the order they were
 * pushed. A picosecond is a thousand times below any step's time (a byte over a 900 GB/s
 * port is 1.1 ps). */
#define TICK 1e-12

/* t on the grid: the next tick, or this one where t is within a thousandth of a tick past it
 * (a last bit's worth). Every time an event is taken at, or a slice is seen at, is on it, so
 * what is compared with the clock compares alike. */
static double on_grid(double t) { return ceil(t / TICK - 1e-3) * TICK; }

static int push(des *d, double t, int kind, int id, unsigned version)
{
  t = on_grid(t);
  if (d->nheap == d->capheap) {
    int cap = 2 * d->capheap + 64;
    event *h = realloc(d->heap, sizeof *h * (size_t)cap);
    if (!h)
      return SA_ENOMEM;
    d->heap = h;
    d->capheap = cap;
  }
  event e = {t, d->seq++, kind, id, version};
  int i = d->nheap++;
  while (i > 0) {
    int up = (i - 1) / 2;
    const event *p = &d->heap[up];
    if (p->t < e.t || (p->t == e.t && p->seq < e.seq))
      break;
    d->heap[i] = *p;
    i = up;
  }
  d->heap[i] = e;
  return 0;
}

static event pop(des *d)
{
  event top = d->heap[0], last = d->heap[--d->nheap];
  int i = 0;
  for (;;) {
    int l = 2 * i + 1, r = l + 1, m = i;
    const event *best = &last;
    if (l < d->nheap && (d->heap[l].t < best->t || (d->heap[l].t == best->t && d->heap[l].seq < best->seq)))
      m = l, best = &d->heap[l];
    if (r < d->nheap && (d->heap[r].t < best->t || (d->heap[r].t == best->t && d->heap[r].seq < best->seq)))
      m = r;
    if (m == i)
      break;
    d->heap[i] = d->heap[m];
    i = m;
  }
  d->heap[i] = last;
  return top;
}

/* The deliveries' heap: one entry per message taking bandwidth, moved as its time changes
 * (rather than a new event each time: every change of sharing moves many). */
static int due_before(const des *d, int a, int b)
{
  const flow *x = &d->fl[a], *y = &d->fl[b];
  return x->due < y->due || (x->due == y->due && x->seq < y->seq);
}

static void due_swap(des *d, int i, int j)
{
  int t = d->due[i];
  d->due[i] = d->due[j];
  d->due[j] = t;
  d->fl[d->due[i]].hpos = i;
  d->fl[d->due[j]].hpos = j;
}

static void due_fix(des *d, int i)
{
  while (i > 0 && due_before(d, d->due[i], d->due[(i - 1) / 2])) {
    due_swap(d, i, (i - 1) / 2);
    i = (i - 1) / 2;
  }
  for (;;) {
    int l = 2 * i + 1, r = l + 1, m = i;
    if (l < d->ndue && due_before(d, d->due[l], d->due[m]))
      m = l;
    if (r < d->ndue && due_before(d, d->due[r], d->due[m]))
      m = r;
    if (m == i)
      return;
    due_swap(d, i, m);
    i = m;
  }
}

static void due_set(des *d, int id, double t)
{
  flow *x = &d->fl[id];
  x->due = on_grid(t);
  x->seq = d->seq++;
  if (x->hpos < 0) {
    x->hpos = d->ndue;
    d->due[d->ndue++] = id;
  }
  due_fix(d, x->hpos);
}

static void due_remove(des *d, int id)
{
  int i = d->fl[id].hpos;
  if (i < 0)
    return;
  d->fl[id].hpos = -1;
  if (i == --d->ndue)
    return;
  d->due[i] = d->due[d->ndue];
  d->fl[d->due[i]].hpos = i;
  due_fix(d, i);
}

/* Connection id's use u (of its route) on its key's list, at *pos. */
static int key_add(des *d, int id, int u, int *pos)
{
  key_list *l = &d->keys[d->cn[id].u.key[u]];
  if (l->n == l->cap) {
    int cap = 2 * l->cap + 4, *g = realloc(l->id, sizeof *g * (size_t)cap);
    if (g)
      l->id = g;
    int *h = g ? realloc(l->use, sizeof *h * (size_t)cap) : NULL;
    if (!h)
      return SA_ENOMEM;
    l->use = h;
    l->cap = cap;
  }
  *pos = l->n;
  l->id[l->n] = id;
  l->use[l->n++] = d->sh[id].at + u;
  return 0;
}

static void key_remove(des *d, int key, int pos)
{
  key_list *l = &d->keys[key];
  int moved = l->id[--l->n];
  l->id[pos] = moved;
  l->use[pos] = l->use[l->n];
  if (pos == l->n)
    return;
  conn *m = &d->cn[moved];
  for (int u = 0; u < m->u.n; u++)
    if (m->u.key[u] == key)
      m->pos[u] = pos;
}

/* The messages reachable from the links of connection `from` through the lists of the links
 * they share, their rates shared anew and their deliveries rescheduled. */
/* A message of connection id joined or left the links of route u: they must be shared anew
 * before the clock moves (messages starting or ending at one instant are shared once,
 * together). */
static void touch(des *d, int id, const cost_route_use *u)
{
  if (!d->in_toggled[id]) {
    d->in_toggled[id] = 1;
    d->toggled[d->ntoggled++] = id;
  }
  for (int k = 0; k < u->n; k++)
    if (!d->dirty[u->key[k]]) {
      d->dirty[u->key[k]] = 1;
      d->ndirty_keys[d->ndirty++] = u->key[k];
    }
}

/* The weighted max-min rates of the n messages of d->comp over the links of d->queue (those
 * they use, the messages on them all among the n), as cost_share_rates computes them, by the
 * links: raise a common level L, message m at L / its penalty, until a link or a message's
 * bound saturates; fix the messages held there and go on with the rest. The links' lists
 * give each link's messages, so a round costs the links and the messages it fixes. Each
 * link's level is computed once a round and each message's own (its bound times its
 * penalty) once, and the links and messages still open are kept in lists in their order,
 * with the lowest of the messages' own levels: the same arithmetic in the same order, so the
 * same rates bit for bit, at a fraction of the cost (sharing is most of a replay's time). */
static double lower(double a, double b) { return b < a ? b : a; } /* fmin without NaNs, inlined */

static void fill(des *d, int n, int nkeys)
{
  int left = n, nopen = n, nk = 0;
  double reach = INFINITY; /* the lowest of the open messages' own levels */
  for (int i = 0; i < n; i++) {
    d->cidx[d->comp[i]] = i;
    d->fixed[i] = 0;
    d->open[i] = i;
    d->reach[i] = d->sh[d->comp[i]].reach;
    reach = lower(reach, d->reach[i]);
  }
  for (int q = 0; q < nkeys; q++) { /* the links with messages on them, in their order */
    int key = d->queue[q];
    const key_list *l = &d->keys[key];
    d->load[key] = d->denom[key] = 0;
    d->unfixed[key] = l->n;
    for (int i = 0; i < l->n; i++)
      d->denom[key] += d->uw[l->use[i]];
    if (l->n > 0)
      d->okey[nk++] = key;
  }
  while (left > 0) {
    double level = INFINITY;
    int k = 0;
    for (int q = 0; q < nk; q++) { /* the links' levels, those whose messages are all fixed left out */
      int key = d->okey[q];
      if (d->unfixed[key] == 0)
        continue;
      double room = d->key_bw[key] - d->load[key];
      d->okey[k] = key;
      d->share[k] = (room > 0 ? room : 0) / d->denom[key];
      level = lower(level, d->share[k++]);
    }
    nk = k;
    level = lower(level, reach);
    double at = level * (1 + 1e-9);
    int held = 0;
    for (int q = 0; q < nk; q++) { /* the messages of the links saturated at this level */
      if (d->share[q] > at)
        continue;
      const key_list *l = &d->keys[d->okey[q]];
      for (int i = 0; i < l->n; i++) {
        int c = d->cidx[l->id[i]];
        if (!d->fixed[c]) {
          d->fixed[c] = 2;
          d->comp[n + held++] = c;
        }
      }
    }
    k = 0;
    reach = INFINITY;
    for (int j = 0; j < nopen; j++) { /* and those at their own bound; the others stay open */
      int i = d->open[j];
      if (d->fixed[i])
        continue;
      if (d->reach[j] <= at) {
        d->fixed[i] = 2;
        d->comp[n + held++] = i;
      } else {
        reach = lower(reach, d->reach[j]);
        d->reach[k] = d->reach[j];
        d->open[k++] = i;
      }
    }
    nopen = k;
    int last = held == left; /* then the links' loads are read no more */
    for (int h = 0; h < held; h++) { /* their load on their links, once all are known */
      int i = d->comp[n + h];
      const share_of *m = &d->sh[d->comp[i]];
      d->rate[i] = lower(level / m->penalty, m->bound);
      d->fixed[i] = 1;
      left--;
      for (int u = m->at; !last && u < m->at + m->n; u++) {
        d->load[d->ukey[u]] += d->ucoef[u] * d->rate[i];
        d->denom[d->ukey[u]] -= d->uw[u];
        d->unfixed[d->ukey[u]]--;
      }
    }
    if (held == 0)
      break; /* cannot happen: something saturates at the lowest level */
  }
}

/* Whether the messages on the links are those the rates in place were shared for: every
 * connection that began or ended a message since the last sharing has one on its links
 * exactly when it had then (a slice ending as the next one of its connection begins, at
 * one instant: NCCL's slices back to back). The rates depend on which connections have a
 * message on the links, not on the bytes: the same sharing would give the same. */
static int same_sharing(const des *d)
{
  for (int i = 0; i < d->ntoggled; i++) {
    int id = d->toggled[i];
    if ((d->cn[id].phase == 2) != d->was_on[id])
      return 0;
  }
  return 1;
}

static void reshare(des *d)
{
  if (same_sharing(d)) { /* each new message takes its connection's rate, as before */
    for (int i = 0; i < d->ndirty; i++)
      d->dirty[d->ndirty_keys[i]] = 0;
    d->ndirty = 0;
    for (int i = 0; i < d->ntoggled; i++) {
      int id = d->toggled[i];
      flow *x = &d->fl[id];
      d->in_toggled[id] = 0;
      if (d->cn[id].phase != 2 || x->rate == d->kept_rate[id])
        continue;
      x->left = fmax(x->left - x->rate * (d->now - x->since), 0);
      x->since = d->now;
      x->rate = d->kept_rate[id];
      if (x->rate > 0)
        due_set(d, id, d->now + x->left / x->rate);
      else
        due_remove(d, id);
    }
    d->ntoggled = 0;
    return;
  }
  unsigned long mark = ++d->mark;
  int n = 0, head = 0;
  for (int i = 0; i < d->ndirty; i++) {
    int key = d->ndirty_keys[i];
    d->dirty[key] = 0;
    d->kmark[key] = mark;
    d->queue[head++] = key;
  }
  d->ndirty = 0;
  for (int q = 0; q < head; q++) {
    const key_list *l = &d->keys[d->queue[q]];
    for (int i = 0; i < l->n; i++) {
      if (d->cmark[l->id[i]] == mark)
        continue;
      d->cmark[l->id[i]] = mark;
      d->comp[n++] = l->id[i];
      const share_of *m = &d->sh[l->id[i]];
      for (int u = m->at; u < m->at + m->n; u++)
        if (d->kmark[d->ukey[u]] != mark) {
          d->kmark[d->ukey[u]] = mark;
          d->queue[head++] = d->ukey[u];
        }
    }
  }
  fill(d, n, head);
  for (int i = 0; i < d->ntoggled; i++) { /* those that left are shared no more */
    d->in_toggled[d->toggled[i]] = 0;
    d->was_on[d->toggled[i]] = 0;
  }
  d->ntoggled = 0;
  for (int i = 0; i < n; i++) {
    d->was_on[d->comp[i]] = 1;
    d->kept_rate[d->comp[i]] = d->rate[i];
    flow *x = &d->fl[d->comp[i]];
    if (x->rate == d->rate[i])
      continue; /* its delivery stays where it was */
    x->left = fmax(x->left - x->rate * (d->now - x->since), 0);
    x->since = d->now;
    x->rate = d->rate[i];
    if (x->rate > 0)
      due_set(d, d->comp[i], d->now + x->left / x->rate);
    else
      due_remove(d, d->comp[i]);
  }
}

/* Sends the connection's next packed slice when none is on its way and the receiver has a
 * receive posted for it (its first ones when it starts, the next as it takes slices up). */
static int try_issue(des *d, int id)
{
  conn *x = &d->cn[id];
  const stream_state *s = &d->ss[x->ss], *r = &d->ss[x->rs];
  long posted = r->rdone + d->slots < r->recvs ? r->rdone + d->slots : r->recvs;
  if (x->phase != 0 || x->issued >= s->sdone)
    return 0;
  if (x->gap > 0 && !x->holding) { /* the proxy takes the slice up, whether or not a receive waits */
    x->holding = 1;
    x->held = d->now;
  }
  if (x->issued >= posted)
    return 0;
  if (d->now < d->rk[x->to].start) /* the receiver has not started: nothing posted yet */
    return push(d, d->rk[x->to].start, EV_POSTED, id, 0);
  double from = x->holding && x->held + x->gap > d->now ? x->held + x->gap : d->now;
  x->holding = 0;
  double w = x->wire[x->issued % d->slots];
  const cost_net *net = d->c->net;
  x->issued++;
  x->phase = 1;
  x->bytes = w > 0 ? w / sa_piecewise_at(&net->bw_factor, w) : 0;
  double lat = x->u.lat * sa_piecewise_at(&net->lat_factor, w);
  /* back to back, the receiver paying the latency (topo/sg_latency.h), or the latency first */
  x->late = net->late_latency ? lat : 0;
  return push(d, from + lat - x->late, EV_LAT, id, 0);
}

static int rank_step(des *d, int r);

/* A message delivered: the receiver sees it after the protocol's latency, the sender's slot
 * is free, the connection may send its next slice. */
static int delivered(des *d, int id)
{
  conn *x = &d->cn[id];
  d->ss[x->ss].ready_k = d->ss[x->rs].ready_k = -1; /* their streams look again */
  x->phase = 0;
  x->vis[x->arrived++ % d->slots] = on_grid(d->now + x->late + x->extra);
  x->completed++;
  rank_state *s = &d->rk[x->from];
  s->end = fmax(s->end, on_grid(d->now + x->late));
  int rc = try_issue(d, id);
  if (rc == 0)
    rc = rank_step(d, x->from);
  return rc ? rc : rank_step(d, x->to);
}

enum { BLOCKED, LATER, READY };

static int readiness(des *d, int s, const nccl_op *op, double *t)
{
  stream_state *x = &d->ss[s];
  if (x->ready_k != x->k) {
    x->ready_k = x->k;
    x->blocked = 0;
    x->ready_t = -INFINITY;
    for (int j = 0; (op->flags & NCCL_OP_RECV) && j < d->st[s].nrecv && !x->blocked; j++) {
      const conn *c = &d->cn[x->rc[j]];
      if (c->arrived <= x->rdone)
        x->blocked = 1;
      else
        x->ready_t = fmax(x->ready_t, c->vis[x->rdone % d->slots]);
    }
    for (int j = 0; (op->flags & NCCL_OP_SEND) && j < d->st[s].nsend && !x->blocked; j++)
      if (x->sdone - d->cn[x->sc[j]].completed >= d->slots)
        x->blocked = 1; /* the slot still holds a slice not yet delivered */
  }
  *t = x->ready_t;
  return x->blocked ? BLOCKED : *t <= d->now ? READY : LATER;
}

/* The channels stream s stands for. */
static double weight(const des *d, int s) { return d->st[s].weight > 1 ? d->st[s].weight : 1; }

/* One channel's GPU time for an operation of stream s (nccl/nccl_sched.h). */
static double sum_time(const des *d, int s, const nccl_op *op)
{
  return nccl_op_time_nvls(&d->gpu, d->proto, op->flags, d->st[s].nrecv, d->st[s].switch_recv, d->st[s].nsend,
                           d->st[s].copy_in, d->st[s].copy_out, op->n * (size_t)d->c->shape.elem);
}

/* An operation's end: its receives taken up (the senders may fill the freed slots), its
 * slice packed for every send peer and sent when the connection is free. */
static int apply(des *d, int r, int s, const nccl_op *op)
{
  stream_state *x = &d->ss[s];
  int rc = 0;
  if (op->flags & NCCL_OP_RECV) {
    x->rdone++;
    for (int j = 0; j < d->st[s].nrecv && rc == 0; j++)
      rc = try_issue(d, x->rc[j]);
  }
  if (op->flags & NCCL_OP_SEND) {
    double wire = (double)nccl_wire_bytes(d->proto, op->n * (size_t)d->c->shape.elem);
    for (int j = 0; j < d->st[s].nsend; j++) /* as the runner packs it (nccl_pipe.c) */
      d->cn[x->sc[j]].wire[x->sdone % d->slots] = ceil(wire * d->cn[x->sc[j]].per_wire);
    x->sdone++;
    for (int j = 0; j < d->st[s].nsend && rc == 0; j++)
      rc = try_issue(d, x->sc[j]);
  }
  x->k++;
  d->rk[r].end = fmax(d->rk[r].end, d->now);
  return rc;
}

/* Operation k of stream s, with its GPU time. */
static const nccl_op *next_op(des *d, int s, double *gpu_s)
{
  stream_state *x = &d->ss[s];
  if (x->op_k != x->k) {
    d->st[s].op(d->st[s].ctx, x->k, &x->op);
    double w = weight(d, s), one = sum_time(d, s, &x->op);
    double floor_s =
        nccl_op_floor_s(&d->gpu, d->proto, x->op.flags, d->st[s].nsend, x->op.n * (size_t)d->c->shape.elem, &one);
    x->op_s = w * one;
    x->op_cap = floor_s > 0 ? x->op_s / floor_s : INFINITY;
    x->op_k = x->k;
  }
  *gpu_s = x->op_s;
  return &x->op;
}

/* The GPU's operations under way at rank r, shared as the host's CPU model shares them in
 * the runner: evenly, each stream standing for w channels taking w shares, but none beyond
 * its cap (its channels' floor, nccl_op_floor_s: SimGrid's bound on an execution), what
 * that leaves shared evenly among the rest (max-min). Each is advanced to now at the share
 * it had, and its end moved to where its new share puts it. Shares are kept as num / den so
 * that, with no cap, the arithmetic is the even sharing's own (w / the weights under way). */
static int gpu_share(des *d, int r)
{
  const rank_state *rk = &d->rk[r];
  double room = 1, wsum = 0;
  for (int s = rk->first; s < rk->first + rk->n; s++) {
    stream_state *x = &d->ss[s];
    if (!x->busy)
      continue;
    if (x->den > 0)
      x->left = fmax(x->left - (d->now - x->since) * x->num / x->den, 0);
    x->since = d->now;
    x->den = -1; /* not shared yet */
    wsum += weight(d, s);
  }
  for (int fixed = 1; fixed && wsum > 0;) { /* the capped below the even level take their caps */
    fixed = 0;
    for (int s = rk->first; s < rk->first + rk->n; s++) {
      stream_state *x = &d->ss[s];
      if (x->busy && x->den < 0 && x->op_cap * wsum <= room * weight(d, s)) {
        x->num = x->op_cap;
        x->den = 1;
        room -= x->op_cap;
        wsum -= weight(d, s);
        fixed = 1;
      }
    }
  }
  int rc = 0;
  for (int s = rk->first; s < rk->first + rk->n && rc == 0; s++) {
    stream_state *x = &d->ss[s];
    if (!x->busy)
      continue;
    if (x->den < 0) {
      x->num = weight(d, s) * room;
      x->den = wsum;
    }
    rc = push(d, d->now + x->left * x->den / x->num, EV_OP, s, ++x->ver);
  }
  return rc;
}

/* The runner's loop at rank r (nccl_pipe.c): every stream takes its ready operations at
 * once, up to the first that takes GPU time, which starts beside the others under way and
 * shares the GPU with them; the rank looks again when a slice it waits for becomes
 * visible. */
static int rank_step(des *d, int r)
{
  rank_state *rk = &d->rk[r];
  if (d->now < rk->start)
    return 0;
  int rc = 0;
  double soonest = INFINITY;
  for (int s = rk->first; s < rk->first + rk->n && rc == 0; s++)
    while (rc == 0 && !d->ss[s].busy && d->ss[s].k < d->st[s].nops) {
      double t, gpu_s;
      const nccl_op *op = next_op(d, s, &gpu_s);
      int st = readiness(d, s, op, &t);
      if (st == LATER)
        soonest = fmin(soonest, t);
      if (st != READY)
        break;
      if (gpu_s > 0) {
        stream_state *x = &d->ss[s];
        x->busy = 1;
        x->cur = *op;
        x->left = gpu_s;
        x->since = d->now;
        x->den = 0; /* its cap is op_cap: next_op is not asked again while it is busy */
        rc = gpu_share(d, r);
        break;
      }
      rc = apply(d, r, s, op);
    }
  if (rc == 0 && soonest < INFINITY && !(rk->wake >= d->now && rk->wake <= soonest)) {
    rk->wake = soonest = on_grid(soonest); /* one look coming is enough */
    rc = push(d, soonest, EV_WAKE, r, 0);
  }
  return rc;
}

/* The end of stream s's operation on the GPU (unless it was moved since: version). */
static int op_end(des *d, int s, unsigned version)
{
  stream_state *x = &d->ss[s];
  if (!x->busy || version != x->ver)
    return 0;
  int r = d->st[s].rank;
  x->busy = 0;
  int rc = gpu_share(d, r);
  rc = rc ? rc : apply(d, r, s, &x->cur);
  return rc ? rc : rank_step(d, r);
}

static int on_event(des *d, const event *e)
{
  conn *x = e->kind == EV_LAT || e->kind == EV_DONE ? &d->cn[e->id] : NULL;
  if (e->kind == EV_WAKE && d->rk[e->id].wake == e->t)
    d->rk[e->id].wake = -1;
  int rc = 0;
  switch (e->kind) {
  case EV_LAT:
    if (x->bytes <= 0)
      return delivered(d, e->id);
    x->phase = 2;
    d->fl[e->id].left = x->bytes;
    d->fl[e->id].since = d->now;
    d->fl[e->id].rate = 0;
    for (int u = 0; u < x->u.n && rc == 0; u++)
      rc = key_add(d, e->id, u, &x->pos[u]);
    if (x->u.n == 0) { /* no shared link: its bound alone */
      d->fl[e->id].rate = x->u.bound;
      due_set(d, e->id, d->now + d->fl[e->id].left / d->fl[e->id].rate);
      return 0;
    }
    touch(d, e->id, &x->u);
    return rc;
  case EV_DONE:
    due_remove(d, e->id);
    for (int u = 0; u < x->u.n; u++)
      key_remove(d, x->u.key[u], x->pos[u]);
    d->cmark[e->id] = 0;
    touch(d, e->id, &x->u);
    return delivered(d, e->id);
  case EV_OP: return op_end(d, e->id, e->version);
  case EV_POSTED:
    return try_issue(d, e->id);
  default:
    return rank_step(d, e->id);
  }
}

/* A stream's peer and tag, as a connection's end: sorted, senders and receivers of one
 * connection meet. */
typedef struct {
  int from, to, tag, stream, slot;
} endpoint;

static int by_conn(const void *a, const void *b)
{
  const endpoint *x = a, *y = b;
  if (x->from != y->from)
    return x->from < y->from ? -1 : 1;
  if (x->to != y->to)
    return x->to < y->to ? -1 : 1;
  return (x->tag > y->tag) - (x->tag < y->tag);
}

static int hop_class(const cost_ctx *c, const cost_nccl_layout *t, int a, int b)
{
  int R = c->shape.rpn;
  if (a / R != b / R)
    return NCCL_HW_NET;
  return topo_graph_nvlink(&t->node.g, a % R, b % R) ? NCCL_HW_NVLINK : NCCL_HW_PCI;
}

/* Each connection's part in a sharing (share_of), its weights computed once, as a sharing
 * computed them each time: the same numbers. */
static int share_view(des *d)
{
  int nu = 0;
  for (int i = 0; i < d->ncn; i++)
    nu += d->cn[i].u.n;
  d->sh = malloc(sizeof *d->sh * (size_t)(d->ncn + 1));
  d->cidx = malloc(sizeof *d->cidx * (size_t)(d->ncn + 1));
  d->cmark = calloc((size_t)d->ncn + 1, sizeof *d->cmark);
  d->fl = calloc((size_t)d->ncn + 1, sizeof *d->fl);
  d->ukey = malloc(sizeof *d->ukey * (size_t)(nu + 1));
  d->ucoef = malloc(sizeof *d->ucoef * (size_t)(nu + 1));
  d->uw = malloc(sizeof *d->uw * (size_t)(nu + 1));
  if (!d->sh || !d->cidx || !d->cmark || !d->fl || !d->ukey || !d->ucoef || !d->uw)
    return SA_ENOMEM;
  nu = 0;
  for (int i = 0; i < d->ncn; i++) {
    const cost_route_use *u = &d->cn[i].u;
    d->fl[i].hpos = -1;
    d->sh[i] = (share_of){nu, u->n, u->penalty, u->bound, u->bound * u->penalty};
    for (int k = 0; k < u->n; k++, nu++) {
      d->ukey[nu] = u->key[k];
      d->ucoef[nu] = u->coef[k];
      d->uw[nu] = u->coef[k] / u->penalty;
    }
  }
  return 0;
}

/* The connections: every send end matched with the receive end of the same (from, to, tag). */
static int connect(des *d, int algo)
{
  cost_nccl_layout *t;
  int rc = cost_nccl_layout_of(d->c, &t), ns = 0, nr = 0;
  for (int s = 0; s < d->nst; s++) {
    ns += d->st[s].nsend;
    nr += d->st[s].nrecv;
  }
  endpoint *se = malloc(sizeof *se * (size_t)(ns + 1)), *re = malloc(sizeof *re * (size_t)(nr + 1));
  d->cn = calloc((size_t)ns + 1, sizeof *d->cn);
  rc = rc ? rc : se && re && d->cn ? 0 : SA_ENOMEM;
  cost_nccl_shape shape; /* the GPUs' generation: what NCCL gets of their NVLinks */
  cost_ctx_nccl_shape(d->c, &shape);
  int arch = shape.arch;
  ns = nr = 0;
  for (int s = 0; s < d->nst && rc == 0; s++) { /* a folded cluster's peers: their likes replayed */
    const cost_des_stream *x = &d->st[s];
    for (int j = 0; j < x->nsend; j++)
      se[ns++] = (endpoint){x->rank, x->send_peer[j] % d->nr, x->send_tag[j], s, j};
    for (int j = 0; j < x->nrecv; j++)
      re[nr++] = (endpoint){x->recv_peer[j] % d->nr, x->rank, x->recv_tag[j], s, j};
  }
  if (rc == 0 && ns != nr)
    rc = SA_EINVAL;
  if (rc == 0) {
    qsort(se, (size_t)ns, sizeof *se, by_conn);
    qsort(re, (size_t)nr, sizeof *re, by_conn);
  }
  for (int i = 0; i < ns && rc == 0; i++) {
    conn *x = &d->cn[i];
    const cost_des_stream *from = &d->st[se[i].stream];
    int to = from->send_peer[se[i].slot]; /* the peer itself, wherever it is */
    if (by_conn(&se[i], &re[i]) != 0)
      rc = SA_EINVAL;
    else
      rc = d->fold.images > 1 ? cost_fold_use(&d->fold, d->c, se[i].from, to, &x->u)
                              : cost_route_use_of(d->c, se[i].from, to, &x->u);
    /* back to back, NCCL's slices pay no latency in SimGrid's network (the receiver pays it):
     * penalty 1, as cost_route_use_of gives a route of no latency, so they share evenly */
    if (rc == 0 && d->c->net->late_latency)
      x->u.penalty = 1;
    double w = d->st[se[i].stream].weight > 1 ? d->st[se[i].stream].weight : 1;
    for (int k = 0; k < x->u.n; k++) /* a stream standing for w loads its links w times */
      x->u.coef[k] *= w;
    x->ss = se[i].stream;
    x->sj = se[i].slot;
    x->rs = re[i].stream;
    x->rj = re[i].slot;
    x->from = se[i].from;
    x->to = se[i].to;
    int hw = rc ? NCCL_HW_NET : hop_class(d->c, t, x->from, to);
    x->extra = rc ? 0 : nccl_step_s(&d->c->net->compute, hw, algo, d->proto, d->c->shape.nodes);
    x->gap = rc || hw != NCCL_HW_NET ? 0 : nccl_net_gap_s(&d->c->net->compute, algo, d->proto);
    x->per_wire = hw == NCCL_HW_NVLINK ? nccl_nvlink_per_wire(arch, d->st[x->ss].nvlink_scale) : 1; /* as nccl_pipe.c */
    d->ss[x->ss].sc[x->sj] = d->ss[x->rs].rc[x->rj] = i;
  }
  d->ncn = ns;
  free(se);
  free(re);
  return rc ? rc : share_view(d);
}

static int setup(des *d, const double *offset, double start)
{
  int p = d->nr, nkeys = d->c->net->rt.nlinks * d->c->owners + 1;
  d->ss = calloc((size_t)d->nst + 1, sizeof *d->ss);
  d->rk = calloc((size_t)p, sizeof *d->rk);
  d->keys = calloc((size_t)nkeys, sizeof *d->keys);
  d->load = calloc((size_t)nkeys, sizeof *d->load);
  d->denom = calloc((size_t)nkeys, sizeof *d->denom);
  d->queue = calloc((size_t)nkeys, sizeof *d->queue);
  d->dirty = calloc((size_t)nkeys, 1);
  d->unfixed = calloc((size_t)nkeys, sizeof *d->unfixed);
  d->ndirty_keys = calloc((size_t)nkeys, sizeof *d->ndirty_keys);
  d->share = calloc((size_t)nkeys, sizeof *d->share);
  d->okey = calloc((size_t)nkeys, sizeof *d->okey);
  d->kmark = calloc((size_t)nkeys, sizeof *d->kmark);
  d->key_bw = calloc((size_t)nkeys, sizeof *d->key_bw);
  d->nkeys = nkeys;
  if (!d->ss || !d->rk || !d->keys || !d->load || !d->denom || !d->queue || !d->dirty || !d->ndirty_keys || !d->unfixed ||
      !d->share || !d->okey || !d->kmark || !d->key_bw)
    return SA_ENOMEM;
  for (int k = 0; k < d->c->net->rt.nlinks * d->c->owners; k++)
    d->key_bw[k] = d->c->net->rt.links[k / d->c->owners].bw;
  for (int r = 0; r < p; r++) {
    d->rk[r].start = d->rk[r].end = on_grid(offset[r] + start);
    d->rk[r].wake = -1;
    d->rk[r].first = -1;
  }
  for (int s = 0; s < d->nst; s++) { /* a rank's streams come together */
    if (d->st[s].rank < 0 || d->st[s].rank >= p)
      return SA_EINVAL;
    rank_state *rk = &d->rk[d->st[s].rank];
    if (rk->first < 0)
      rk->first = s;
    else if (rk->first + rk->n != s)
      return SA_EINVAL;
    rk->n++;
    d->ss[s].op_k = d->ss[s].ready_k = -1;
    for (long k = 0; k < d->st[s].nops; k++) {
      nccl_op op;
      d->st[s].op(d->st[s].ctx, k, &op);
      d->ss[s].recvs += (op.flags & NCCL_OP_RECV) != 0;
    }
  }
  return 0;
}

static void teardown(des *d)
{
  for (int k = 0; d->keys && k < d->nkeys; k++) {
    free(d->keys[k].id);
    free(d->keys[k].use);
  }
  free(d->keys);
  free(d->ss);
  free(d->rk);
  free(d->cn);
  free(d->heap);
  free(d->comp);
  free(d->queue);
  free(d->fixed);
  free(d->rate);
  free(d->due);
  free(d->dirty);
  free(d->unfixed);
  free(d->ndirty_keys);
  free(d->load);
  free(d->denom);
  free(d->share);
  free(d->key_bw);
  free(d->reach);
  free(d->open);
  free(d->was_on);
  free(d->in_toggled);
  free(d->kept_rate);
  free(d->toggled);
  free(d->sh);
  free(d->cidx);
  free(d->cmark);
  free(d->fl);
  free(d->okey);
  free(d->kmark);
  free(d->ukey);
  free(d->ucoef);
  free(d->uw);
}

/* The replay itself of ranks 0 .. nr - 1 (c->p, or a folded cluster's first period): *time from
 * each rank's offset to its end (ends[r], where not NULL), its operations starting at
 * offset[r] + start. */
static int replay(cost_ctx *c, const cost_des_stream *st, int nst, int nr, int algo, int proto, const double *offset,
                  double start, double *ends, double *time)
{
  des d;
  memset(&d, 0, sizeof d);
  d.c = c;
  d.st = st;
  d.nst = nst;
  d.nr = nr;
  d.proto = proto;
  d.slots = nccl_slots(algo, proto);
  *time = 0;
  if (nst < 1)
    return 0;
  int rc = cost_nccl_gpu_of(c, &d.gpu);
  if (rc == 0 && nr < c->p)
    rc = cost_fold_init(&d.fold, c, nr);
  if (rc == 0)
    rc = setup(&d, offset, start);
  if (rc == 0)
    rc = connect(&d, algo);
  if (rc == 0) {
    d.comp = malloc(sizeof *d.comp * 2 * (size_t)(d.ncn + 1)); /* a sharing's messages, then those it fixes */
    d.fixed = malloc((size_t)d.ncn + 1);
    d.rate = malloc(sizeof *d.rate * (size_t)(d.ncn + 1));
    d.due = malloc(sizeof *d.due * (size_t)(d.ncn + 1));
    d.reach = malloc(sizeof *d.reach * (size_t)(d.ncn + 1));
    d.open = malloc(sizeof *d.open * (size_t)(d.ncn + 1));
    d.was_on = calloc((size_t)d.ncn + 1, 1);
    d.in_toggled = calloc((size_t)d.ncn + 1, 1);
    d.kept_rate = calloc((size_t)d.ncn + 1, sizeof *d.kept_rate);
    d.toggled = malloc(sizeof *d.toggled * (size_t)(d.ncn + 1));
    int got = d.comp && d.fixed && d.rate && d.due && d.reach && d.open;
    rc = got && d.was_on && d.in_toggled && d.kept_rate && d.toggled ? 0 : SA_ENOMEM;
  }
  for (int r = 0; r < nr && rc == 0; r++) /* every rank starts with its first ready operation */
    rc = push(&d, d.rk[r].start, EV_WAKE, r, 0);
  while (rc == 0 && (d.nheap > 0 || d.ndue > 0 || d.ndirty > 0)) {
    if (d.ndirty && !(d.nheap && d.heap[0].t <= d.now))
      reshare(&d); /* before the clock moves */
    if (d.nheap == 0 && d.ndue == 0)
      break;
    const flow *next = d.ndue ? &d.fl[d.due[0]] : NULL;
    event e;
    if (next && (d.nheap == 0 || next->due < d.heap[0].t || (next->due == d.heap[0].t && next->seq < d.heap[0].seq)))
      e = (event){next->due, next->seq, EV_DONE, d.due[0], 0};
    else
      e = pop(&d);
    d.now = e.t;
    rc = on_event(&d, &e);
  }
  for (int s = 0; s < nst && rc == 0; s++)
    if (d.ss[s].k < st[s].nops)
      rc = SA_EINVAL; /* a stream waits for a message nobody sends */
  for (int r = 0; r < nr && rc == 0; r++) {
    *time = fmax(*time, d.rk[r].end - offset[r]);
    if (ends)
      ends[r] = d.rk[r].end;
  }
  teardown(&d);
  cost_fold_free(&d.fold);
  return rc;
}

/* nccl-tests' steady state (COST_TIMING_NCCL_TESTS): calls back to back, each rank starting
 * the next when its last ends, the first from the barrier's release (as the runner's:
 * runner.c, time_steady); each rank's time over those after the first, from its own start,
 * averaged over the calls and the ranks, as nccl-tests averages its timed calls and then its
 * ranks (BenchTime). One call from a common start would keep NCCL's channels in step
 * (START_STAGGER, below): 8 channels of LL at 256 KiB on 8 A100 (an L02 fit) took the 58.3 us
 * of one (the simulation: 46.1). The ends of a call are not all alike; from them the channels
 * drift apart, as the simulation's do (and a GPU's SMs), to the steady state, which wobbles
 * from call to call (46.7, 46.4, 46.1, 45.9, 46.3 us from the second call, the simulation's
 * own too): the mean of three holds it within about 1%. The fits' quick replay takes one
 * call less. */
#define BACK_TO_BACK 4
#define BACK_TO_BACK_QUICK 3

/* No two GPUs start a kernel at one instant (each is launched by its own process), where a
 * barrier's release gives ranks the same start (rank 0 releases the others at once): rank r
 * starts its first call r x START_STAGGER late. Alike ranks started together stay in step
 * for ever, every channel of every GPU summing at once and then sending at once, the links
 * idle while the GPUs sum: 8 H100 at 16 MiB (LL128, 32 channels) took 160.6 us a call where
 * the simulation, whose ranks SMPI's first allreduce leaves apart by a few us, takes 115.4.
 * From any offset at all the replay drifts to the simulation's steady state (1 ns: 115.3, 10
 * ns: 115.8, 100 ns: 115.3 us); a nanosecond shows in no time. */
#define START_STAGGER 1e-9

static int steady_replay(cost_ctx *c, const cost_des_stream *st, int nst, int nr, int algo, int proto, double launch,
                         double *time)
{
  double *offset = malloc(sizeof *offset * (size_t)c->p), *ends = malloc(sizeof *ends * (size_t)c->p);
  int rc = offset && ends ? 0 : SA_ENOMEM;
  for (int r = 0; r < nr && rc == 0; r++)
    offset[r] = c->release[r] + r * START_STAGGER;
  int calls = c->shape.nccl_quick > 0 ? BACK_TO_BACK_QUICK : BACK_TO_BACK;
  double sum = 0;
  for (int k = 0; k < calls && rc == 0; k++) {
    double t = 0;
    rc = replay(c, st, nst, nr, algo, proto, offset, launch, ends, &t);
    for (int r = 0; k > 0 && r < nr && rc == 0; r++)
      sum += ends[r] - offset[r];
    double first = INFINITY;
    for (int r = 0; r < nr && rc == 0; r++)
      first = fmin(first, ends[r]);
    for (int r = 0; r < nr && rc == 0; r++)
      offset[r] = ends[r] - first;
  }
  *time = sum / ((calls - 1) * (double)nr);
  free(offset);
  free(ends);
  return rc;
}

int cost_nccl_des_run(cost_ctx *c, const cost_des_stream *st, int nst, int algo, int proto, const char *phase,
                      cost_result *r)
{
  return cost_nccl_des_run_folded(c, st, nst, c->p, algo, proto, phase, r);
}

int cost_nccl_des_run_folded(cost_ctx *c, const cost_des_stream *st, int nst, int nr, int algo, int proto,
                             const char *phase, cost_result *r)
{
  int tests = c->shape.timing == COST_TIMING_NCCL_TESTS;
  for (int k = nr; k < c->p && !tests; k++) /* every node's ranks start as the first node's */
    if (c->skew[k] != c->skew[k % nr])
      return COST_UNFOLDED;
  double launch = nccl_start_s(&c->net->compute, algo, proto), worst = 0;
  int rc = tests ? steady_replay(c, st, nst, nr, algo, proto, launch, &worst)
                 : replay(c, st, nst, nr, algo, proto, c->skew, launch, NULL, &worst);
  if (rc == 0) {
    cost_result_phase(r, AR_PH_LAUNCH, launch);
    cost_result_phase(r, phase, worst - launch);
  }
  return rc;
}

/* The replays cost_nccl_steady ran on this layout: sizes in whole units past the steady
 * state all take the same two (at k and 2k units), so that a sweep's largest sizes cost one
 * pair of replays together. */
#define STEADY_MEMO 16
typedef struct {
  int n, next;
  struct {
    uint64_t count;
    int proto, nc, quick;
    cost_nccl_model_fn fn;
    cost_result r;
  } e[STEADY_MEMO];
} steady_memo;

/* the key of the memo kept for a layout (cost_ctx.h) */
static char memo_key;

static int memo_replay(cost_ctx *c, uint64_t count, int proto, int nc, cost_nccl_model_fn fn, cost_result *r)
{
  steady_memo *m = cost_cache_get(c, &memo_key);
  if (!m) {
    int rc = cost_cache_keep(c, &memo_key, calloc(1, sizeof *m), free, 0, (void **)&m);
    if (rc == 0 && !m)
      return fn(c, count, proto, nc, r);
  }
  for (int i = 0; i < m->n; i++)
    if (m->e[i].count == count && m->e[i].proto == proto && m->e[i].nc == nc && m->e[i].fn == fn &&
        m->e[i].quick == c->shape.nccl_quick) {
      *r = m->e[i].r;
      return 0;
    }
  int rc = fn(c, count, proto, nc, r);
  if (rc == 0) { /* the oldest goes when full */
    int i = m->n < STEADY_MEMO ? m->n++ : m->next;
    m->next = (i + 1) % STEADY_MEMO;
    m->e[i].count = count;
    m->e[i].proto = proto;
    m->e[i].nc = nc;
    m->e[i].quick = c->shape.nccl_quick;
    m->e[i].fn = fn;
    m->e[i].r = *r;
  }
  return rc;
}

int cost_nccl_steady(cost_ctx *c, uint64_t count, uint64_t unit, uint64_t k, int proto, int nc, cost_nccl_model_fn fn,
                     cost_result *r)
{
  uint64_t units = unit ? cost_ceil_div(cost_ceil_div(count, (uint64_t)nc), unit) : 0, step = unit * (uint64_t)nc;
  if (units <= 2 * k)
    return fn(c, count, proto, nc, r);
  uint64_t m = units - k, at = count - m * step;
  cost_result a, b;
  cost_result_init(&a);
  cost_result_init(&b);
  int rc = memo_replay(c, at, proto, nc, fn, &a);
  if (rc == 0)
    rc = memo_replay(c, at + k * step, proto, nc, fn, &b);
  if (rc == 0)
    cost_nccl_line(&a, &b, (double)m / (double)k, r);
  return rc;
}

void cost_nccl_line(const cost_result *a, const cost_result *b, double x, cost_result *r)
{
  for (int i = 0; i < a->nphases && i < b->nphases; i++)
    cost_result_phase(r, a->phase_name[i], a->phase_s[i] + x * (b->phase_s[i] - a->phase_s[i]));
}
