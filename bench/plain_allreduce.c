/* plain_allreduce.c: what a user without simallreduce would simulate: an MPI program that
 * times one MPI_Allreduce with MPI_SUM (so SMPI adds the payloads on the host, uncharged)
 * on SMPI_SHARED_MALLOC buffers. bench.sh runs it under smpirun with SimGrid's defaults. */
#include <mpi.h>
#include <smpi/smpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  size_t bytes = argc > 1 ? strtoull(argv[1], NULL, 10) : 0;
  float *send = SMPI_SHARED_MALLOC(bytes), *recv = SMPI_SHARED_MALLOC(bytes);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  MPI_Allreduce(send, recv, (int)(bytes / sizeof(float)), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  double t = MPI_Wtime() - t0, slowest;
  MPI_Reduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("%.17g\n", slowest);
  SMPI_SHARED_FREE(send);
  SMPI_SHARED_FREE(recv);
  MPI_Finalize();
  return 0;
}
