/* The time of one MPI collective on every rank, for SMPI's own algorithms beside topocast's
 * schedules (docs/mpi.md): collective_time allreduce|bcast BYTES…
 * For each size: a barrier, the collective once to warm up, a barrier, then the collective timed
 * from before the slowest rank enters to after the last leaves (the most over the ranks of each
 * one's end, less the barrier's end). Rank 0 prints one line per size:
 *   allreduce 1048576 B 626.3 us
 * Built with smpicc (SimGrid's SMPI) and run with smpirun on a platform of topocast-cli platform;
 * with a real MPI it times the real machine. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double timed(const char* what, char* in, char* out, int bytes)
{
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    if (strcmp(what, "allreduce") == 0)
        MPI_Allreduce(in, out, bytes / 4, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    else
        MPI_Bcast(in, bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
    const double mine = MPI_Wtime() - start;
    double slowest = 0;
    MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    return slowest;
}

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc < 3 || (strcmp(argv[1], "allreduce") != 0 && strcmp(argv[1], "bcast") != 0)) {
        if (rank == 0)
            fprintf(stderr, "usage: collective_time allreduce|bcast BYTES…\n");
        MPI_Finalize();
        return 2;
    }
    for (int a = 2; a < argc; ++a) {
        const int bytes = atoi(argv[a]);
        if (bytes < 4) {
            if (rank == 0)
                fprintf(stderr, "collective_time: %s: sizes are whole numbers of bytes, at least 4\n", argv[a]);
            MPI_Finalize();
            return 2;
        }
#ifdef SMPI_SHARED_MALLOC
        /* Under SMPI the bytes' values do not matter: every rank shares one buffer, so 512 ranks
         * of 16 MiB fit in memory. */
        char* in = SMPI_SHARED_MALLOC((size_t)bytes);
        char* out = SMPI_SHARED_MALLOC((size_t)bytes);
#else
        char* in = calloc((size_t)bytes, 1);
        char* out = calloc((size_t)bytes, 1);
#endif
        timed(argv[1], in, out, bytes);  /* warm-up */
        const double t = timed(argv[1], in, out, bytes);
        if (rank == 0)
            printf("%s %d B %.1f us\n", argv[1], bytes, t * 1e6);
#ifdef SMPI_SHARED_MALLOC
        SMPI_SHARED_FREE(in);
        SMPI_SHARED_FREE(out);
#else
        free(in);
        free(out);
#endif
    }
    MPI_Finalize();
    return 0;
}
