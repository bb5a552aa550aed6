// topocast-mpi: replays a schedule document on real message passing, one MPI rank per topology
// node, verifies every byte, and times each step against the MPI library's own collective.
// The MPI-free parts (payload bytes, checksums, per-rank plans, the measured-times document)
// live in core (topocast/analysis/replay.h, topocast/io/measured_json.h) and are unit-tested there.
#include "topocast/analysis/replay.h"
#include "topocast/analysis/validate.h"
#include "topocast/io/atomic_file.h"
#include "topocast/io/measured_json.h"
#include "topocast/io/schedule_file.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/error.h"
#include "topocast/text/durations.h"
#include "topocast/version.h"

#include "mpi_util.h"
#include "replayer.h"
#include "source_map.h"

#include <CLI/CLI.hpp>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace topocast::mpi {

namespace {

constexpr int kExitOk = 0;
constexpr int kExitMismatch = 1;
constexpr int kExitBadInput = 2;

const char* const kDescription =
    "Replays a topocast schedule (the JSON of `topocast-cli schedule --json`) with one MPI rank per\n"
    "topology node: each rank performs exactly its sends and receives, step by step, with\n"
    "MPI_Isend/MPI_Irecv + MPI_Waitany and a barrier before each step; with --async there are no\n"
    "barriers: every receive is posted at the start and each step's sends go as soon as the rank has\n"
    "combined what it received in the step before. Every byte received is checked (after the\n"
    "clock) against the deterministic payload of its blocks; every rank must end holding its blocks.\n"
    "Reduce, reduce-scatter and allreduce combine for real: each rank's contribution is an array of\n"
    "64-bit integers (48-bit values, so no sum overflows; --bytes must be a multiple of 8), partial\n"
    "results are their sums, every partial received is checked against the sum its sender should\n"
    "hold, and every result must be the sum of all contributions.\n"
    "Times the run end to end (MPI_Wtime, slowest rank, from a barrier to its last receive combined,\n"
    "packing and combining inside), each step and each transfer (at its receiver), the barriers on\n"
    "their own, and the MPI library's own collective (MPI_Bcast / MPI_Scatter / MPI_Allgather /\n"
    "MPI_Alltoall / MPI_Gather / MPI_Reduce / MPI_Allreduce / MPI_Reduce_scatter_block, the sums as\n"
    "MPI_SUM on MPI_UINT64_T) timed the same way on the same ranks and data; prints min/median over\n"
    "the repetitions.\n"
    "Run with exactly as many ranks as the topology has nodes, e.g.\n"
    "  mpirun -np 64 topocast-mpi mesh8x8.json --bytes 4096 --repeat 10 --out mesh8x8.measured.json\n"
    "(`topocast-mpi replay SCHEDULE …` is the same). The other command, `topocast-mpi source-map\n"
    "--topology T --algorithm A --metric M [--json] [--out FILE]`, computes the map of every source on\n"
    "any number of ranks (see `topocast-mpi source-map --help`).\n"
    "Exit status: 0 verified, 1 a payload mismatch or missing block, 2 bad input (unreadable or\n"
    "invalid schedule, wrong number of ranks, bad option); nothing is sent before the checks pass.";

/// Every rank parses the same argv; only rank 0 prints. Returns -1 to go on, else an exit code.
int parseOptions(int argc, char** argv, Options& o, int rank)
{
    CLI::App app{kDescription, "topocast-mpi"};
    app.set_version_flag("--version", std::string("topocast-mpi ") + kVersion, "print the version and exit");
    app.add_option("schedule", o.scheduleFile, "schedule JSON file (read by rank 0 and broadcast)")->required();
    app.add_option(
           "--bytes", o.bytes,
           "bytes per block (a transfer sends its payload's blocks back to back; a multiple of 8 for "
           "reduce, reduce-scatter and allreduce, whose chunks are 64-bit integers); given twice, the last counts")
        ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 28))
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast)
        ->capture_default_str();
    app.add_option("--repeat", o.repeat, "timed repetitions (after one untimed warm-up run)")
        ->check(CLI::Range(1, 100000))
        ->capture_default_str();
    app.add_option("--out", o.outFile, "write the measured-times JSON (format topocast-measured) to FILE");
    app.add_flag("--no-library", o.noLibrary, "skip timing the MPI library's own collective");
    app.add_flag("--async", o.async,
                 "no barriers: post every receive at the start, send each step's messages as soon as the rank "
                 "has combined what it received in the step before (an executor to race the library with)");
    app.add_option("--inject-fault", o.injectFault,
                   "testing aid: the sender of transfer INDEX (0-based, schedule order) flips one byte, so the "
                   "receiver must report a mismatch");
    return parseOnEveryRank(app, argc, argv, rank);
}

std::string readText(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw Error(path + ": cannot open");
    std::ostringstream buf;
    buf << in.rdbuf();
    return buf.str();
}

std::string isoNow()
{
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

void printStatsLine(std::ostream& out, const std::string& label, const TimeStats& t)
{
    out << std::left << std::setw(32) << label << std::right << std::setw(12) << formatMicroseconds(t.min)
        << std::setw(12) << formatMicroseconds(t.median) << "\n";
}

void printSummary(std::ostream& out, const MeasuredTimes& m, const Schedule& s)
{
    const bool async = m.mode == "async";
    out << "topocast-mpi: " << m.topology << " " << m.algorithm << " " << m.pattern << ", " << m.ranks << " ranks on "
        << m.hosts << " host" << (m.hosts == 1 ? "" : "s") << " (" << m.mapping << "), " << m.bytesPerBlock
        << " B per block, " << m.repeat << " timed repetition" << (m.repeat == 1 ? "" : "s") << ", "
        << (async ? "async (no barriers)" : "stepped (a barrier before each step)") << "\n";
    out << (m.verified ? "verified: every receive and every rank's final blocks match byte for byte\n"
                       : "NOT verified: see the mismatches above\n");
    out << "step  transfers        bytes      min_us   median_us";
    if (!s.stepLabels.empty())
        out << "  label";
    out << "\n";
    for (const MeasuredStep& st : m.steps) {
        out << std::setw(4) << st.step << std::setw(11) << st.transfers << std::setw(13) << st.bytes << std::setw(12)
            << formatMicroseconds(st.time.min) << std::setw(12) << formatMicroseconds(st.time.median);
        if (st.step <= s.stepLabels.size())
            out << "  " << s.stepLabels[st.step - 1];
        out << "\n";
    }
    printStatsLine(out, "total (sum of steps)", m.total);
    if (m.barriers)
        printStatsLine(out, "barriers between steps", *m.barriers);
    if (m.endToEnd)
        printStatsLine(out, "end to end", *m.endToEnd);
    if (m.library)
        printStatsLine(out, m.library->operation + " (" + std::to_string(m.library->bytes) + " B per rank)",
                       m.library->time);
    out << "figures (us, slowest rank): "
        << (async ? "a step runs from the slowest rank's completion of the step before to its completion of this one"
                  : "a step runs from its barrier to the last receive combined, packing and combining inside")
        << "; end to end from the barrier that starts the run to the last receive combined"
        << (async ? "" : ", the barriers between steps included (listed on their own, in no step)");
    if (m.library)
        out << "; " << m.library->operation << " is timed the same way, from a barrier to its return";
    out << "; every byte is checked after the clock stops\n";
}

/// Rank 0's verdict on the schedule before anything moves: "" when it can run, else the problem
/// (and `code` its exit status). `text` gets the file's text for the other ranks.
std::string scheduleProblem(const Options& o, int worldSize, std::string& text, int& code)
{
    code = kExitBadInput;
    try {
        // The verdict every front end gives the file (what it promises: step contention counted
        // only where it forbids it), then its text for the other ranks.
        ScheduleFileRequest request;
        request.file = o.scheduleFile;
        const OpenedScheduleFile opened = openScheduleFile(request);
        if (opened.kind != ScheduleFileKind::Json)
            return o.scheduleFile + " is " +
                   (opened.kind == ScheduleFileKind::Csv        ? "a CSV schedule"
                    : opened.kind == ScheduleFileKind::MscclXml ? "an MSCCL XML program"
                                                                : "a GOAL program") +
                   "; topocast-mpi replays a schedule JSON (`topocast-cli schedule --json` or `topocast-cli "
                   "import` writes one)";
        text = readText(o.scheduleFile);
        const Schedule& s = opened.schedule;
        const Validation& v = opened.validation;
        if (!isCollective(s.pattern()))
            return o.scheduleFile +
                   " is a program of point-to-point messages (imported from GOAL): topocast-mpi "
                   "replays collectives, whose data it checks and sets against the MPI library's; time the "
                   "program with `topocast-cli time`";
        if (!v.ok()) {
            // A program found wrong where it was imported fails as a replay that lost data
            // would (exit 1): its moves are right, what it does with them is not.
            const bool importedWrong = std::all_of(v.findings.begin(), v.findings.end(), [](const Finding& f) {
                return f.kind == FindingKind::FoundWrongAtImport;
            });
            std::ostringstream msg;
            msg << o.scheduleFile << ": the schedule is invalid (" << v.violationCount << " violation"
                << (v.violationCount == 1 ? "" : "s") << "); nothing was sent"
                << (importedWrong ? "; NOT verified: the program it was imported from was found wrong" : "");
            for (const std::string& line : v.violations)
                msg << "\n  - " << line;
            code = importedWrong ? kExitMismatch : kExitBadInput;
            return msg.str();
        }
        if (s.topology().nodeCount() != static_cast<std::uint32_t>(worldSize))
            return o.scheduleFile + ": the " + s.topology().displayName() + " has " +
                   std::to_string(s.topology().nodeCount()) + " nodes but " + std::to_string(worldSize) +
                   " ranks are running; start exactly one rank per node (mpirun -np " +
                   std::to_string(s.topology().nodeCount()) + " …)";
        if (combines(s.pattern()) && o.bytes % 8 != 0)
            return "--bytes " + std::to_string(o.bytes) + ": a reduction (" + toString(s.pattern()) +
                   ") sums 64-bit integers, so the bytes per block must be a multiple of 8";
        if (o.injectFault >= static_cast<long long>(s.size()))
            return "--inject-fault " + std::to_string(o.injectFault) + " names no transfer (the schedule has " +
                   std::to_string(s.size()) + ")";
    } catch (const std::exception& e) {
        return e.what();
    }
    return {};
}

/// This rank's times of the library's collective, one per repetition (none where it is skipped).
std::vector<double> timeLibrary(Replayer& replayer, const Schedule& s, const Options& o, int rank)
{
    std::vector<double> times;
    const std::uint64_t libraryCount = std::uint64_t{s.parts} * o.bytes;
    const bool libraryFits = libraryCount <= static_cast<std::uint64_t>(INT_MAX) &&
                             libraryCount * s.topology().nodeCount() <= (std::uint64_t{1} << 34) &&
                             (s.participants.empty() || // MPI_Scatterv displacements are int
                              libraryCount * s.topology().nodeCount() <= static_cast<std::uint64_t>(INT_MAX));
    if (!o.noLibrary && !libraryFits && rank == 0)
        std::cerr << "topocast-mpi: note: the library collective is skipped (" << libraryCount
                  << " bytes per rank is too large for one MPI count or for this run's buffers)\n";
    if (!o.noLibrary && libraryFits) {
        replayer.runLibrary(-1);
        for (int r = 0; r < o.repeat; ++r)
            times.push_back(replayer.runLibrary(r));
    }
    return times;
}

/// Every rank's times brought to rank 0: the slowest rank's, per step, run, barrier and library
/// time and repetition; the receivers' per-transfer times; the hosts; the mismatches of all.
struct Gathered {
    std::vector<double> stepMax, endToEndMax, barrierMax, libMax;
    std::vector<double> transfers; // per receive: transfer index, then one time per repetition
    std::vector<char> names;       // MPI_MAX_PROCESSOR_NAME per rank
    unsigned long long errors = 0;
};

std::vector<double> slowest(const std::vector<double>& mine, MPI_Comm comm)
{
    std::vector<double> out(mine.size(), 0.0);
    if (!mine.empty())
        MPI_Reduce(mine.data(), out.data(), static_cast<int>(mine.size()), MPI_DOUBLE, MPI_MAX, 0, comm);
    return out;
}

Gathered gatherTimes(const Replayer& replayer, const std::vector<double>& libTimes, MPI_Comm comm, int rank,
                     int worldSize)
{
    Gathered g;
    g.stepMax = slowest(replayer.stepTimes(), comm);
    g.endToEndMax = slowest(replayer.endToEndTimes(), comm);
    g.barrierMax = slowest(replayer.barrierTimes(), comm);
    g.libMax = slowest(libTimes, comm);
    std::vector<double> mine;
    for (const auto& [index, times] : replayer.recvTimes()) {
        mine.push_back(static_cast<double>(index));
        mine.insert(mine.end(), times.begin(), times.end());
    }
    int count = static_cast<int>(mine.size());
    std::vector<int> counts(static_cast<std::size_t>(worldSize)), displs(static_cast<std::size_t>(worldSize));
    MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
    if (rank == 0) {
        int total = 0;
        for (int r = 0; r < worldSize; ++r) {
            displs[static_cast<std::size_t>(r)] = total;
            total += counts[static_cast<std::size_t>(r)];
        }
        g.transfers.resize(static_cast<std::size_t>(total));
    }
    MPI_Gatherv(mine.data(), count, MPI_DOUBLE, g.transfers.data(), counts.data(), displs.data(), MPI_DOUBLE, 0, comm);
    char name[MPI_MAX_PROCESSOR_NAME] = {};
    int nameLen = 0;
    MPI_Get_processor_name(name, &nameLen);
    g.names.resize(rank == 0 ? static_cast<std::size_t>(worldSize) * MPI_MAX_PROCESSOR_NAME : 0);
    MPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, g.names.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, comm);
    unsigned long long myErrors = replayer.errors();
    MPI_Allreduce(&myErrors, &g.errors, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm);
    return g;
}

/// Rank 0: the measured-times document of the run.
MeasuredTimes measuredTimes(const Schedule& s, const Options& o, const Mapping& map, const Gathered& g, int worldSize)
{
    const std::uint32_t steps = s.stepCount();
    const int reps = o.repeat;
    MeasuredTimes m;
    m.scheduleFile = o.scheduleFile;
    m.topology = s.topology().spec();
    m.algorithm = s.algorithm;
    m.pattern = toString(s.pattern());
    m.fingerprint = scheduleFingerprint(s);
    m.stepCount = steps;
    m.ranks = static_cast<std::uint32_t>(worldSize);
    m.bytesPerBlock = o.bytes;
    m.repeat = reps;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING] = {};
    int libLen = 0;
    MPI_Get_library_version(lib, &libLen);
    m.mpiLibrary = std::string(lib, static_cast<std::size_t>(libLen));
    m.mpiLibrary = m.mpiLibrary.substr(0, m.mpiLibrary.find_first_of(",\n"));
    std::set<std::string> hosts;
    for (int r = 0; r < worldSize; ++r)
        hosts.insert(std::string(g.names.data() + static_cast<std::size_t>(r) * MPI_MAX_PROCESSOR_NAME));
    m.hosts = static_cast<std::uint32_t>(hosts.size());
    m.mapping = map.how;
    m.verified = g.errors == 0;
    m.date = isoNow();
    std::vector<double> totals(static_cast<std::size_t>(reps), 0.0);
    for (StepNo step{1}; step <= steps; ++step) {
        MeasuredStep st;
        st.step = step;
        st.transfers = s.stepTransfers(step).size();
        for (const Transfer& t : s.stepTransfers(step))
            st.bytes += transferBytes(s, t, o.bytes);
        std::vector<double> samples;
        for (int r = 0; r < reps; ++r) {
            // Async: the slowest rank's completions of this step and the one before.
            const std::size_t at = static_cast<std::size_t>(r) * steps + step - 1;
            const double v = o.async ? g.stepMax[at] - (step > 1 ? g.stepMax[at - 1] : 0.0) : g.stepMax[at];
            samples.push_back(v);
            totals[static_cast<std::size_t>(r)] += v;
        }
        st.time = makeTimeStats(std::move(samples));
        m.steps.push_back(std::move(st));
    }
    m.total = makeTimeStats(totals);
    m.mode = o.async ? "async" : "stepped";
    m.endToEnd = makeTimeStats(g.endToEndMax);
    if (!o.async)
        m.barriers = makeTimeStats(g.barrierMax);
    const auto& all = g.transfers;
    for (std::size_t i = 0; i < all.size(); i += static_cast<std::size_t>(reps) + 1) {
        MeasuredTransfer mt;
        mt.index = static_cast<std::size_t>(all[i]);
        const Transfer& t = s.transfers()[mt.index];
        mt.step = t.step;
        mt.from = t.from;
        mt.to = t.to;
        mt.bytes = transferBytes(s, t, o.bytes);
        mt.time = makeTimeStats(std::vector<double>(all.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                                                    all.begin() + static_cast<std::ptrdiff_t>(i) + 1 + reps));
        m.transfers.push_back(std::move(mt));
    }
    std::sort(m.transfers.begin(), m.transfers.end(),
              [](const MeasuredTransfer& a, const MeasuredTransfer& b) { return a.index < b.index; });
    if (!g.libMax.empty())
        m.library =
            LibraryTiming{Replayer::libraryOperation(s), std::uint64_t{s.parts} * o.bytes, makeTimeStats(g.libMax)};
    return m;
}

/// Rank 0: prints the run and writes its file; the exit status.
int report(const MeasuredTimes& m, const Schedule& s, const Options& o, unsigned long long errors)
{
    int code = errors ? kExitMismatch : kExitOk;
    printSummary(std::cout, m, s);
    if (errors)
        std::cerr << "topocast-mpi: FAILED: " << errors << " mismatch" << (errors == 1 ? "" : "es")
                  << " over all ranks and repetitions (the first ones are listed above)\n";
    if (!o.outFile.empty()) {
        try {
            writeFileAtomic(o.outFile, toJson(m).dump(1) + "\n");
            std::cout << "measured times written to " << o.outFile << "\n";
        } catch (const Error& e) {
            std::cerr << "topocast-mpi: " << e.what() << "\n";
            code = kExitBadInput;
        }
    }
    std::cout.flush();
    return code;
}

int run(int argc, char** argv)
{
    int worldRank = 0, worldSize = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &worldRank);
    MPI_Comm_size(MPI_COMM_WORLD, &worldSize);

    // `source-map …` (once `landscape …`, still understood) is its own command; `replay SCHEDULE …`
    // is the bare `SCHEDULE …`. The word takes the program name's place, so each parser sees its
    // own options only.
    if (argc > 1 && (std::string_view(argv[1]) == "source-map" || std::string_view(argv[1]) == "landscape"))
        return runSourceMap(argc - 1, argv + 1);
    if (argc > 1 && std::string_view(argv[1]) == "replay") {
        --argc;
        ++argv;
    }
    Options o;
    if (const int code = parseOptions(argc, argv, o, worldRank); code >= 0)
        return code;

    // Rank 0 reads and checks the schedule before anything moves; the others wait for its verdict.
    std::string text, problem;
    int problemCode = kExitBadInput;
    if (worldRank == 0)
        problem = scheduleProblem(o, worldSize, text, problemCode);
    bcastString(problem, 0, MPI_COMM_WORLD);
    MPI_Bcast(&problemCode, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!problem.empty()) {
        if (worldRank == 0)
            std::cerr << "topocast-mpi: " << problem << "\n";
        return problemCode;
    }
    bcastString(text, 0, MPI_COMM_WORLD);
    Schedule s;
    try {
        s = scheduleFromJson(parseJsonText(text, o.scheduleFile));
    } catch (const std::exception& e) { // same text as rank 0 parsed: cannot happen
        std::cerr << "topocast-mpi: rank " << worldRank << ": " << e.what() << "\n";
        MPI_Abort(MPI_COMM_WORLD, kExitBadInput);
    }
    text.clear();
    text.shrink_to_fit();

    Mapping map = mapRanks(s.topology());
    int rank = 0;
    MPI_Comm_rank(map.comm, &rank);
    Replayer replayer(s, o, map, rank);
    if (!allOk(replayer.plan(), map.comm)) {
        MPI_Comm_free(&map.comm);
        return kExitBadInput;
    }
    replayer.run(-1);
    for (int r = 0; r < o.repeat; ++r)
        replayer.run(r);
    const std::vector<double> libTimes = timeLibrary(replayer, s, o, rank);
    const Gathered g = gatherTimes(replayer, libTimes, map.comm, rank, worldSize);
    int code = g.errors ? kExitMismatch : kExitOk;
    if (rank == 0)
        code = report(measuredTimes(s, o, map, g, worldSize), s, o, g.errors);
    MPI_Bcast(&code, 1, MPI_INT, 0, map.comm);
    MPI_Comm_free(&map.comm);
    return code;
}

} // namespace

} // namespace topocast::mpi

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    int code = 0;
    try {
        code = topocast::mpi::run(argc, argv);
    } catch (const std::exception& e) {
        // Reached only by a bug or resource exhaustion on one rank; the others may be blocked in
        // a collective, so only MPI_Abort can end the job without hanging it.
        std::cerr << "topocast-mpi: " << e.what() << "\n";
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    MPI_Finalize();
    return code;
}
