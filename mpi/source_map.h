#pragma once
// topocast-mpi source-map: the map of every source with the sources dealt to the MPI ranks.

namespace topocast::mpi {

/// Runs `source-map` with argv[0] = "source-map" and its options after it, on every rank of
/// MPI_COMM_WORLD. Returns the exit status (the same on every rank): 0 written, 2 bad input
/// (an option, the scenario, the algorithm's own refusal, or an output file that cannot be written).
int runSourceMap(int argc, char** argv);

} // namespace topocast::mpi
