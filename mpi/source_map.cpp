// topocast-mpi source-map: every rank builds and measures its share of the sources with the same
// core code as `topocast-cli source-map` (sources dealt round-robin, so corners and centre are
// spread evenly), rank 0 gathers the shares and writes exactly the bytes topocast-cli writes.
#include "source_map.h"

#include "mpi_util.h"

#include "scenario_options.h"
#include "source_map_document.h"

#include "topocast/analysis/source_map.h"
#include "topocast/analysis/source_map_estimate.h"
#include "topocast/io/atomic_file.h"
#include "topocast/model/error.h"
#include "topocast/version.h"

#include <CLI/CLI.hpp>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <iostream>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace topocast::mpi {

namespace {

constexpr int kExitOk = 0;
constexpr int kExitBadInput = 2;
/// Brute forces of at least this many sources report their estimate and progress (as topocast-cli).
constexpr std::uint32_t kProgressFrom = 1024;

struct SourceMapCommand {
    cli::ScenarioOptions scenario;
    std::string metric;
    bool json = false;
    std::string outFile;
    unsigned threads = 0;
};

const char* const kDescription =
    "The map of every source (`topocast-cli source-map`) on MPI ranks: the sources are dealt to the\n"
    "ranks round-robin (rank r builds the schedules from sources r, r + ranks, …), each rank builds\n"
    "and measures its share on its threads with the same core code as topocast-cli, and rank 0 gathers\n"
    "the values and writes exactly what `topocast-cli source-map` writes (--json: the same bytes).\n"
    "Any number of ranks works; each holds one schedule per thread and its share of the values.\n"
    "Rank 0 states the estimate first and reports its share's progress on stderr. Algorithms with a\n"
    "closed form or one schedule for every source need no ranks: rank 0 computes them alone.\n"
    "  mpirun -np 64 topocast-mpi source-map --topology mesh:64x64x64 --algorithm binomial --metric tcd \\\n"
    "      --json --out source-map.json\n"
    "Exit status: 0 written, 2 bad input (options, scenario, an algorithm that does not apply).";

/// Every rank parses the same argv; only rank 0 prints. Returns -1 to go on, else an exit code.
int parse(int argc, char** argv, SourceMapCommand& o, int rank)
{
    CLI::App app{kDescription, "topocast-mpi source-map"};
    app.set_version_flag("--version", std::string("topocast-mpi ") + kVersion, "print the version and exit");
    o.scenario.add(app);
    app.add_option("--metric", o.metric, "tcd | steps | max_link_load | contention | time")->required();
    app.add_flag("--json", o.json, "write the JSON document of `topocast-cli source-map --json`");
    app.add_option("--out", o.outFile, "write to FILE (atomically) instead of standard output");
    app.add_option("--threads", o.threads,
                   "worker threads per rank (0: the hardware's threads shared among the ranks on one machine)")
        ->check(CLI::Range(0u, 4096u))
        ->capture_default_str();
    return parseOnEveryRank(app, argc, argv, rank);
}

/// The threads of one rank (the hardware's, shared among the ranks on its machine, unless
/// asked), and the cores of the whole job (each machine's hardware threads, counted once).
struct Workers {
    unsigned threadsPerRank = 1;
    unsigned cores = 1;
};

Workers countWorkers(unsigned asked)
{
    MPI_Comm local = MPI_COMM_NULL;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local);
    int localRanks = 1, localRank = 0;
    MPI_Comm_size(local, &localRanks);
    MPI_Comm_rank(local, &localRank);
    MPI_Comm_free(&local);
    const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
    unsigned mine = localRank == 0 ? hardware : 0, cores = 0;
    MPI_Allreduce(&mine, &cores, 1, MPI_UNSIGNED, MPI_SUM, MPI_COMM_WORLD);
    Workers w;
    w.threadsPerRank = asked ? asked : std::max(1u, hardware / static_cast<unsigned>(std::max(localRanks, 1)));
    w.cores = std::max(1u, cores);
    return w;
}

/// Every rank's share on rank 0 (empty elsewhere): the values by MPI_Gatherv, the failures by count
/// and message.
std::vector<SourceMapShare> gatherShares(SourceMapShare mine, std::uint32_t nodes, int rank, int ranks)
{
    const auto parts = static_cast<std::uint32_t>(ranks);
    std::vector<int> counts, offsets;
    std::vector<double> values;
    if (rank == 0) {
        int total = 0;
        for (std::uint32_t p = 0; p < parts; ++p) {
            counts.push_back(static_cast<int>(sourceMapShareSize(nodes, p, parts)));
            offsets.push_back(total);
            total += counts.back();
        }
        values.resize(static_cast<std::size_t>(total));
    }
    MPI_Gatherv(mine.values.data(), static_cast<int>(mine.values.size()), MPI_DOUBLE, values.data(), counts.data(),
                offsets.data(), MPI_DOUBLE, 0, MPI_COMM_WORLD);
    const std::uint32_t header[3] = {mine.missing, mine.firstMissing, mine.firstError};
    std::vector<std::uint32_t> headers(rank == 0 ? 3 * parts : 0);
    MPI_Gather(header, 3, MPI_UINT32_T, headers.data(), 3, MPI_UINT32_T, 0, MPI_COMM_WORLD);
    const std::vector<std::string> reasons = gatherStrings(mine.missingReason, 0, MPI_COMM_WORLD);
    const std::vector<std::string> errors = gatherStrings(mine.error, 0, MPI_COMM_WORLD);

    std::vector<SourceMapShare> shares;
    if (rank != 0)
        return shares;
    for (std::uint32_t p = 0; p < parts; ++p) {
        SourceMapShare s;
        s.part = p;
        s.parts = parts;
        s.values.assign(values.begin() + offsets[p], values.begin() + offsets[p] + counts[p]);
        s.missing = headers[3 * p];
        s.firstMissing = headers[3 * p + 1];
        s.firstError = headers[3 * p + 2];
        s.missingReason = reasons[p];
        s.error = errors[p];
        if (p == 0)
            s.exception = mine.exception; // rank 0's own failure keeps its type
        shares.push_back(std::move(s));
    }
    return shares;
}

/// Rank 0's share, reported in tenths on stderr, as topocast-cli reports the whole.
std::function<void(std::uint32_t, std::uint32_t)> progressOnRankZero(std::uint32_t nodes, int ranks, std::mutex& m,
                                                                     std::uint32_t& lastTenth)
{
    return [nodes, ranks, &m, &lastTenth](std::uint32_t done, std::uint32_t total) {
        if (nodes < kProgressFrom || total == 0)
            return;
        const std::lock_guard lock(m);
        const auto tenth = static_cast<std::uint32_t>(std::uint64_t{done} * 10 / total);
        if (done == 0 || tenth > lastTenth) {
            lastTenth = tenth;
            std::cerr << "source map: " << done << " of " << total << " sources of rank 0 (" << ranks
                      << (ranks == 1 ? " rank, " : " ranks, ") << nodes << " sources in all)\n";
        }
    };
}

/// Writes the document to --out (atomically) or standard output. Rank 0 only.
void writeOutput(const SourceMapCommand& o, const Scenario& sc, const SourceMap& sourceMap)
{
    std::ostringstream text;
    if (o.json)
        text << cli::sourceMapJson(sc, sourceMap) << '\n';
    else
        cli::writeSourceMapText(text, sc, sourceMap);
    if (o.outFile.empty())
        std::cout << text.str() << std::flush;
    else
        writeFileAtomic(o.outFile, text.str());
}

} // namespace

int runSourceMap(int argc, char** argv)
{
    int rank = 0, ranks = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    SourceMapCommand o;
    if (const int code = parse(argc, argv, o, rank); code >= 0)
        return code;

    // Every rank reads the scenario (a --scenario file must be where every rank can read it);
    // any rank's problem stops all of them before work starts, rank 0 names its own.
    Scenario sc;
    SourceMapMetric metric = SourceMapMetric::Tcd;
    SourceMapMethod method = SourceMapMethod::EverySource;
    std::string problem;
    try {
        sc = o.scenario.resolve();
        metric = parseSourceMapMetric(o.metric);
        method = sourceMapMethod(sc.algorithm, sc.topology, sc.params, metric);
    } catch (const std::exception& e) {
        problem = e.what();
    }
    if (!allOk(problem.empty(), MPI_COMM_WORLD)) {
        if (rank == 0)
            std::cerr << "topocast-mpi: " << (problem.empty() ? "another rank could not read the scenario" : problem)
                      << "\n";
        return kExitBadInput;
    }
    const std::uint32_t nodes = sc.topology.nodeCount();
    const Workers job = countWorkers(o.threads);
    const unsigned threads = job.threadsPerRank;

    int code = kExitOk;
    std::optional<SourceMap> sourceMap;
    if (method != SourceMapMethod::EverySource) {
        if (rank == 0) {
            try {
                sourceMap = computeSourceMap(sc.algorithm, sc.topology, sc.params, metric);
            } catch (const std::exception& e) {
                std::cerr << "topocast-mpi: " << e.what() << "\n";
                code = kExitBadInput;
            }
        }
    } else {
        if (nodes >= kProgressFrom) {
            // Rank 0 times its sample before the others start, so that they do not slow it down.
            if (rank == 0) {
                const unsigned workers = std::min(job.cores, job.threadsPerRank * static_cast<unsigned>(ranks));
                const SourceMapEstimate est = estimateSourceMap(sc.algorithm, sc.topology, sc.params, metric, workers);
                std::cerr << "source map: " << nodes << " sources on " << ranks << " rank" << (ranks == 1 ? "" : "s")
                          << " × " << threads << " thread" << (threads == 1 ? "" : "s") << ", " << estimateText(est)
                          << " (timed on " << est.sampled << " sources of " << est.sampledOn << ")\n";
            }
            MPI_Barrier(MPI_COMM_WORLD);
        }
        std::mutex progressMutex;
        std::uint32_t lastTenth = 0;
        topocast::SourceMapOptions options;
        options.threads = threads;
        if (rank == 0)
            options.progress = progressOnRankZero(nodes, ranks, progressMutex, lastTenth);
        std::optional<SourceMapShare> mine =
            computeSourceMapShare(sc.algorithm, sc.topology, sc.params, metric, static_cast<std::uint32_t>(rank),
                                  static_cast<std::uint32_t>(ranks), options);
        std::vector<SourceMapShare> shares = gatherShares(std::move(*mine), nodes, rank, ranks);
        if (rank == 0) {
            try {
                sourceMap = combineSourceMapShares(std::move(shares), metric, nodes);
            } catch (const std::exception& e) {
                std::cerr << "topocast-mpi: " << e.what() << "\n";
                code = kExitBadInput;
            }
        }
    }
    if (rank == 0 && sourceMap) {
        try {
            writeOutput(o, sc, *sourceMap);
        } catch (const std::exception& e) {
            std::cerr << "topocast-mpi: " << e.what() << "\n";
            code = kExitBadInput;
        }
    }
    MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return code;
}

} // namespace topocast::mpi
