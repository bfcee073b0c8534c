/* fdjac.c: forward differences for the fit's Jacobian, a child process per column.
 *
 * A child evaluates its column's residuals and writes them to a pipe as raw doubles, then
 * leaves with _exit (nothing of the parent's to clean up or flush twice: its cleanup list,
 * stdio buffers). A column whose child could not be started, or whose bytes do not all
 * arrive, is computed here instead: the same arithmetic, so the Jacobian does not depend on
 * how it was shared out. */
#include "fdjac.h"

#include <errno.h>
#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The step for coordinate xj, as GSL's forward_jac takes it. */
static double step(double xj, double h)
{
  double d = h * fabs(xj);
  return d == 0.0 ? h : d;
}

/* fn at x with coordinate j moved by its step, into out. */
static int column(fit_fdjac_fn fn, void *params, const gsl_vector *x, size_t j, double h, gsl_vector *x1,
                  gsl_vector *out)
{
  gsl_vector_memcpy(x1, x);
  gsl_vector_set(x1, j, gsl_vector_get(x, j) + step(gsl_vector_get(x, j), h));
  return fn(x1, params, out);
}

/* (fnext - f0) / h_j into column j of J, as GSL writes it (times the step's inverse). */
static void difference(gsl_matrix *J, size_t j, const gsl_vector *fnext, const gsl_vector *f0, double d)
{
  double inv = 1.0 / d;
  for (size_t i = 0; i < f0->size; i++)
    gsl_matrix_set(J, i, j, (gsl_vector_get(fnext, i) - gsl_vector_get(f0, i)) * inv);
}

static int read_all(int fd, void *buf, size_t len)
{
  for (size_t got = 0; got < len;) {
    ssize_t k = read(fd, (char *)buf + got, len - got);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      return -1;
    got += (size_t)k;
  }
  return 0;
}

static void write_all(int fd, const void *buf, size_t len)
{
  for (size_t put = 0; put < len;) {
    ssize_t k = write(fd, (const char *)buf + put, len - put);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      return;
    put += (size_t)k;
  }
}

typedef struct {
  pid_t pid;
  int fd;
} child;

/* Starts column j in a child; pid -1 when it could not be. The child sends fn's status, then
 * its residuals. */
static child start(fit_fdjac_fn fn, void *params, const gsl_vector *x, size_t j, double h, gsl_vector *x1,
                   gsl_vector *out)
{
  child c = {-1, -1};
  int p[2];
  if (pipe(p) != 0)
    return c;
  c.pid = fork();
  if (c.pid == 0) {
    close(p[0]);
    int st = column(fn, params, x, j, h, x1, out);
    write_all(p[1], &st, sizeof st);
    if (st == 0)
      write_all(p[1], out->data, sizeof(double) * out->size); /* out: a whole vector, stride 1 */
    _exit(0);
  }
  close(p[1]);
  if (c.pid < 0)
    close(p[0]);
  else
    c.fd = p[0];
  return c;
}

/* A child's column into out: 0, 1 when it did not arrive (the caller computes it), or fn's
 * status. */
static int finish(child c, gsl_vector *out)
{
  int st = 0, lost = read_all(c.fd, &st, sizeof st) != 0 || (st == 0 && read_all(c.fd, out->data, sizeof(double) * out->size) != 0);
  close(c.fd);
  while (waitpid(c.pid, NULL, 0) < 0 && errno == EINTR)
    ;
  return lost ? 1 : st;
}

int fit_fdjac(fit_fdjac_fn fn, void *params, const gsl_vector *x, const gsl_vector *f0, double h, int workers,
              gsl_matrix *J)
{
  size_t n = f0->size, p = x->size;
  gsl_vector *x1 = gsl_vector_alloc(p), *out = gsl_vector_alloc(n);
  child *kids = calloc(p + 1, sizeof *kids);
  int rc = x1 && out && kids ? 0 : GSL_ENOMEM;
  for (size_t lo = 0; rc == 0 && lo < p; lo += (size_t)workers) {
    size_t hi = lo + (size_t)workers < p ? lo + (size_t)workers : p;
    /* every column of this batch but the first to a child, the first here meanwhile */
    for (size_t j = lo + 1; workers > 1 && j < hi; j++)
      kids[j] = start(fn, params, x, j, h, x1, out);
    for (size_t j = lo; rc == 0 && j < hi; j++) {
      int got = j > lo && workers > 1 && kids[j].pid > 0 ? finish(kids[j], out) : 1;
      kids[j].pid = -1;
      if (got == 1)
        got = column(fn, params, x, j, h, x1, out);
      if (got == 0)
        difference(J, j, out, f0, step(gsl_vector_get(x, j), h));
      rc = got;
    }
    for (size_t j = lo + 1; j < hi; j++) /* after an error: the children still running */
      if (kids[j].pid > 0)
        finish(kids[j], out);
  }
  gsl_vector_free(x1);
  gsl_vector_free(out);
  free(kids);
  return rc;
}

int fit_fdjac_workers(void)
{
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 1 ? (int)(n < 64 ? n : 64) : 1;
}
