#pragma once
// Small collectives topocast-mpi's commands share (MPI's C API only).

#include <CLI/CLI.hpp>
#include <mpi.h>

#include <algorithm>
#include <string>
#include <vector>

namespace topocast::mpi {

/// Parses argv on every rank (all parse the same), rank 0 alone printing help, version or the
/// error. Returns -1 to go on, else the exit status: 0 after help or version, 2 on a bad option.
inline int parseOnEveryRank(CLI::App& app, int argc, char** argv, int rank)
{
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (rank == 0)
            app.exit(e);
        return e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success) ? 0 : 2;
    }
    return -1;
}

/// `s` from `root` on every rank of `comm` (in pieces: MPI counts are int).
inline void bcastString(std::string& s, int root, MPI_Comm comm)
{
    unsigned long long n = s.size();
    MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, root, comm);
    s.resize(static_cast<std::size_t>(n));
    std::size_t done = 0;
    while (done < s.size()) {
        const int piece = static_cast<int>(std::min<std::size_t>(s.size() - done, 1u << 30));
        MPI_Bcast(s.data() + done, piece, MPI_CHAR, root, comm);
        done += static_cast<std::size_t>(piece);
    }
}

/// True on every rank iff `ok` on every rank.
inline bool allOk(bool ok, MPI_Comm comm)
{
    int mine = ok ? 1 : 0, all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, comm);
    return all != 0;
}

/// Every rank's `s` on `root` (index = rank; empty elsewhere). Strings are short (messages).
inline std::vector<std::string> gatherStrings(const std::string& s, int root, MPI_Comm comm)
{
    int rank = 0, size = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int length = static_cast<int>(std::min<std::size_t>(s.size(), 1u << 20));
    std::vector<int> lengths(rank == root ? static_cast<std::size_t>(size) : 0);
    MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, root, comm);
    std::vector<int> offsets(lengths.size());
    int total = 0;
    for (std::size_t r = 0; r < lengths.size(); ++r) {
        offsets[r] = total;
        total += lengths[r];
    }
    std::string all(static_cast<std::size_t>(total), '\0');
    MPI_Gatherv(s.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, root, comm);
    std::vector<std::string> out;
    for (std::size_t r = 0; r < lengths.size(); ++r)
        out.push_back(all.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(lengths[r])));
    return out;
}

} // namespace topocast::mpi
