/* runner_coll.h: the runner's own collectives, cheap at any rank count (runner_coll.c). */
#ifndef RUNNER_COLL_H
#define RUNNER_COLL_H

#include <mpi.h>

/* The most values one call combines. */
#define RUNNER_COLL_MAX 16

/* MPI_Allreduce in place of n values (MPI_INT or MPI_DOUBLE) with MPI_MAX, MPI_MIN or
 * MPI_SUM over every rank of comm: 0, SA_EMPI, or SA_EINVAL for anything else. Collective. */
int runner_allreduce(void *buf, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm);

/* A barrier whose release times are those of SMPI's default MPI_Barrier. 0 or SA_EMPI. */
int runner_barrier(MPI_Comm comm);

/* Sends n values to dest while receiving n from src: 0 or SA_EMPI. */
int runner_exchange(const void *sbuf, void *rbuf, int n, MPI_Datatype t, int dest, int src, MPI_Comm comm);

#endif
