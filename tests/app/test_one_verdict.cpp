// One road for a schedule file: the app's File ▸ Open schedule, `topocast-cli validate` and
// `topocast-cli import` open a file the one way (core openScheduleFile) and give it one verdict —
// valid or not, the same count of broken rules, the same sentences. Over every algorithm's
// schedule JSON and CSV, a file that breaks its promise of no step contention, the MSCCL programs
// of the suite (the right ones and the holdouts) and every GOAL program of the suite.
// (topocast-mpi's check is the same call; mpi/CMakeLists.txt runs it on the broken promise.)
#include "cli_runner.h"
#include "session/openschedule.h"
#include "temp_dir.h"

#include "topocast/algorithms/registry.h"
#include "topocast/analysis/metrics.h"
#include "topocast/io/export.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/error.h"

#include <nlohmann/json.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

using namespace topocast;
using namespace topocast::app;

namespace {

/// What a front end said of a file: whether it holds up, how many rules it breaks, in which words.
struct Verdict {
    bool valid = false;
    bool shown = false; ///< not refused: the app shows it, validate judges it (exit 0 or 1, not 2)
    std::size_t count = 0;
    std::vector<std::string> sentences;
};

Verdict appVerdict(const std::string& file, const std::optional<Topology>& topology)
{
    Verdict v;
    try {
        const OpenedSchedulePtr opened = openScheduleFile(QString::fromStdString(file), topology);
        v.shown = true;
        v.valid = opened->validation.ok();
        v.count = opened->validation.violationCount;
        v.sentences = opened->validation.violations;
    } catch (const Error& e) {
        v.sentences = {e.what()};
    }
    return v;
}

/// `validate FILE [--topology T] --json`: the schedule's verdict (`violations`) or an MSCCL
/// program's (`findings`, counted by `finding_count`).
Verdict cliVerdict(const std::string& file, const std::string& topology)
{
    std::vector<std::string> args{"validate", file, "--json"};
    if (!topology.empty())
        args.insert(args.end(), {"--topology", topology});
    const testing::CliRun run = testing::runCli(args);
    INFO(run.err);
    Verdict v;
    if (run.status == 2) { // refused: a program that parses but does not run to its end
        v.sentences = {run.err};
        return v;
    }
    REQUIRE(run.status <= 1);
    const auto doc = nlohmann::json::parse(run.out);
    v.shown = true;
    v.valid = doc.at("valid").get<bool>() && run.status == 0;
    if (doc.contains("violations")) {
        v.count = doc.at("violation_count").get<std::size_t>();
        v.sentences = doc.at("violations").get<std::vector<std::string>>();
    } else if (doc.contains("finding_count")) {
        v.count = doc.at("finding_count").get<std::size_t>();
    } else { // a GOAL program that cannot run: its findings with file and line
        v.count = doc.at("findings").size();
    }
    return v;
}

/// The app and validate agree on `file`: the same verdict; where the app shows the file, the same
/// count of broken rules, and for a schedule the same sentences.
void requireOneVerdict(const std::string& file, const std::string& topology)
{
    INFO(file << (topology.empty() ? "" : " on " + topology));
    const std::optional<Topology> topo =
        topology.empty() ? std::nullopt : std::optional<Topology>(Topology::parse(topology));
    const Verdict app = appVerdict(file, topo), cli = cliVerdict(file, topology);
    INFO((app.sentences.empty() ? std::string("(no finding)") : app.sentences.front()));
    CHECK(app.valid == cli.valid);
    if (!cli.shown)
        CHECK_FALSE(app.shown); // refused by both
    if (!app.shown)
        return; // refused: a program that cannot run, which validate refuses or lists as invalid
    CHECK(app.count == cli.count);
    if (!cli.sentences.empty())
        CHECK(app.sentences == cli.sentences);
}

/// A small network every algorithm applies to, or nullopt.
std::optional<Topology> networkFor(const AlgorithmInfo& info)
{
    for (const char* spec : {"mesh:4x4", "torus:4x4", "hypercube:3", "torus:8", "mesh:4x4x4", "mesh:8x8"}) {
        const Topology t = Topology::parse(spec);
        if (!info.whyNot(t))
            return t;
    }
    return std::nullopt;
}

} // namespace

TEST_CASE("one verdict: every algorithm's schedule JSON and CSV are judged alike by the app and validate",
          "[app][findings]")
{
    testing::TempDir dir;
    int files = 0;
    for (const AlgorithmInfo& info : algorithms()) {
        const std::optional<Topology> topo = networkFor(info);
        if (!topo)
            continue;
        for (const std::string& pattern : info.patterns) {
            INFO(info.name << " " << pattern << " on " << topo->spec());
            Schedule s;
            try {
                s = buildSchedule(info.name, *topo, NodeId{0}, {{"pattern", pattern}});
            } catch (const Error&) {
                continue; // not from node 0 on this network (a divisible load's layers, …)
            }
            const std::string base = (dir.path / (info.name + "-" + pattern)).string();
            {
                std::ofstream json(base + ".json");
                writeScheduleJson(json, s, computeMetrics(s));
            }
            exportToFile(base + ".csv", s, ExportFormat::Csv);
            requireOneVerdict(base + ".json", "");
            requireOneVerdict(base + ".csv", "");
            files += 2;
        }
    }
    CHECK(files >= 40);
    // Files that break a rule: a broken promise of no step contention, a sender that does not
    // hold the message yet.
    const std::string data = TOPOCAST_SOURCE_DIR "/tests/data/mpi/";
    for (const char* broken : {"mesh4_contention_promised_free.json", "mesh2x4_corrupted_broadcast.json"}) {
        requireOneVerdict(data + broken, "");
        CHECK_FALSE(appVerdict(data + broken, std::nullopt).valid);
    }
}

TEST_CASE("one verdict: the suite's MSCCL programs and GOAL programs are judged alike by the app, validate and "
          "import",
          "[app][findings]")
{
    testing::TempDir dir;
    const std::string imported = (dir.path / "imported.json").string();
    const std::string msccl = TOPOCAST_SOURCE_DIR "/tests/fuzz/corpus/fuzz_msccl_xml/";
    const std::vector<std::pair<std::string, std::string>> programs{
        {"binomial-gather-2cube.xml", "hypercube:2"},    {"hp-alltoall-2cube.xml", "hypercube:2"},
        {"rabenseifner-rs-2x2.xml", "mesh:2x2"},         {"ring-allreduce-2cube.xml", "hypercube:2"},
        {"sbnt-scatter-2cube.xml", "hypercube:2"},       {"cycle.xml", "hypercube:1"},
        {"inplace-alias-past-output.xml", "hypercube:1"}};
    int invalid = 0;
    for (const auto& [name, topology] : programs) {
        const std::string file = msccl + name;
        requireOneVerdict(file, topology);
        // import writes a program only when the verdict is valid.
        const bool valid = appVerdict(file, Topology::parse(topology)).valid;
        std::filesystem::remove(imported);
        const testing::CliRun run = testing::runCli({"import", file, "--topology", topology, "--out", imported});
        INFO(name << ": " << run.out << run.err);
        CHECK((run.status == 0) == valid);
        CHECK(std::filesystem::exists(imported) == valid);
        if (valid)
            requireOneVerdict(imported, "");
        invalid += valid ? 0 : 1;
    }
    CHECK(invalid == 2);
    // Every GOAL program of the suite on a 16-node network: the program's verdict, and the
    // schedule import writes of it judged as the program was.
    int goals = 0;
    for (const auto& entry : std::filesystem::directory_iterator(TOPOCAST_SOURCE_DIR "/tests/data/goal")) {
        if (entry.path().extension() != ".goal")
            continue;
        const std::string file = entry.path().string();
        requireOneVerdict(file, "hypercube:4");
        const Verdict app = appVerdict(file, Topology::parse("hypercube:4"));
        std::filesystem::remove(imported);
        const testing::CliRun run = testing::runCli({"import", file, "--topology", "hypercube:4", "--out", imported});
        INFO(file << ": " << run.out << run.err);
        CHECK((run.status == 0) == app.shown);
        if (run.status == 0) {
            const Verdict again = appVerdict(imported, std::nullopt);
            CHECK(again.valid == app.valid);
            CHECK(again.count == app.count);
            requireOneVerdict(imported, "");
        }
        ++goals;
    }
    CHECK(goals >= 40);
}
