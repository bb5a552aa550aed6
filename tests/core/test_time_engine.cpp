// The time engine (analysis/time_engine.h), the network model and its units, and GOAL in and
// out: one transfer against the model's formula, LogGOPSim's own times on GOAL files its schedule
// generator wrote (tests/data/goal/, values and their origin in README.md there), the schedule
// reading with and without barriers, and bad GOAL files reported with their line.
#include "cli_runner.h"

#include "topocast/algorithms/registry.h"
#include "topocast/analysis/cost_model.h"
#include "topocast/analysis/time_bound.h"
#include "topocast/analysis/time_engine.h"
#include "topocast/io/goal.h"
#include "topocast/io/network_json.h"
#include "topocast/io/scenario_json.h"
#include "topocast/model/error.h"
#include "topocast/model/units.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

using namespace topocast;
namespace fs = std::filesystem;

namespace {

const fs::path kGoalData = fs::path(TOPOCAST_SOURCE_DIR) / "tests" / "data" / "goal";

/// One transfer from node 0 to node `to` of a 1-D mesh, step 1.
Schedule oneTransfer(int side, std::uint32_t to)
{
    Schedule s(Topology::mesh({side}), NodeId{0}, Pattern::Broadcast, PortModel::OnePort);
    s.add(NodeId{0}, NodeId{to}, StepNo{1});
    s.finalize();
    return s;
}

} // namespace

TEST_CASE("units: sizes, durations and bandwidths with their units, a value without one refused", "[time]")
{
    CHECK(parseBytes("64B", "m") == 64);
    CHECK(parseBytes("1MiB", "m") == 1048576);
    CHECK(parseBytes("1.5 KiB", "m") == 1536);
    CHECK(parseBytes("8KB", "m") == 8000);
    CHECK(parseBytes("0", "m") == 0);
    CHECK_THROWS_WITH(parseBytes("1024", "--message"), Catch::Contains("has no unit") && Catch::Contains("KiB"));
    CHECK_THROWS_WITH(parseBytes("1.5B", "--message"), Catch::Contains("whole number of bytes"));
    CHECK_THROWS_WITH(parseBytes("2048TiB", "--message"), Catch::Contains("1 PiB"));
    CHECK(parseSeconds("1us", "l") == Approx(1e-6));
    CHECK(parseSeconds("2500ns", "l") == Approx(2.5e-6));
    CHECK(parseSeconds("1.5 ms", "l") == Approx(1.5e-3));
    CHECK_THROWS_WITH(parseSeconds("1", "--latency"), Catch::Contains("--latency '1' has no unit"));
    CHECK_THROWS_WITH(parseSeconds("-1us", "--latency"), Catch::Contains("zero or more"));
    CHECK(parseSecondsPerByte("12.5GB/s", "b") == Approx(8e-11));
    CHECK(parseSecondsPerByte("100Gbit/s", "b") == Approx(8e-11));
    CHECK(parseSecondsPerByte("6ns/B", "b") == Approx(6e-9));
    CHECK_THROWS_WITH(parseSecondsPerByte("0GB/s", "--bandwidth"), Catch::Contains("not positive"));
    CHECK_THROWS_WITH(parseSecondsPerByte("-3GB/s", "--bandwidth"), Catch::Contains("not positive"));
    CHECK_THROWS_WITH(parseSecondsPerByte("12.5", "--bandwidth"), Catch::Contains("has no unit"));
    CHECK(formatSize(1048576) == "1 MiB");
    CHECK(formatSize(1536) == "1.5 KiB");
    CHECK(formatSize(1000) == "1000 B");
    CHECK(formatSeconds(2.5e-6) == "2.5 us");
}

TEST_CASE("network model: presets, fields with units read back exactly, bad values refused", "[time]")
{
    const NetworkModel log = networkPreset("loggopsim");
    CHECK(log.rendezvous == 65535);
    CHECK(log.hopLatency == 0);
    CHECK_THROWS_WITH(networkPreset("infiniband"), Catch::Contains("cluster") && Catch::Contains("loggopsim"));
    for (const NetworkModel& m : {NetworkModel{}, log}) {
        const NetworkModel back = networkFromJson(nlohmann::json::parse(networkJson(m).dump()), "network");
        CHECK(back == m);
    }
    NetworkModel m;
    setNetworkField(m, "bandwidth", "25GB/s");
    CHECK(m.preset == "custom");
    CHECK_THROWS_WITH(setNetworkField(m, "latency", "3"), Catch::Contains("has no unit"));
    CHECK_THROWS_WITH(setNetworkField(m, "speed", "3GB/s"), Catch::Contains("the keys are"));
    CHECK_THROWS_WITH(networkFromJson(nlohmann::json::parse(R"({"latency": 3})"), "network"),
                      Catch::Contains("network.latency") && Catch::Contains("string with its unit"));
    CHECK_THROWS_WITH(networkFromJson(nlohmann::json::parse(R"({"bandwidth": "0B/s"})"), "network"),
                      Catch::Contains("network.bandwidth"));
    // A scenario keeps its network and writes it back.
    Scenario s = defaultScenario();
    s.network = log;
    s.network->message = 1 << 20;
    CHECK(scenarioFromJson(nlohmann::json::parse(toJson(s).dump())).network == s.network);
}

TEST_CASE("one transfer of M bytes over h hops takes exactly the model's time", "[time]")
{
    for (const Routing routing : {Routing::CutThrough, Routing::StoreAndForward})
        for (std::uint32_t hops : {1u, 3u, 7u})
            for (std::uint64_t bytes : {std::uint64_t{1}, std::uint64_t{4096}, std::uint64_t{1} << 20}) {
                NetworkModel m;
                m.routing = routing;
                m.message = bytes;
                m.rendezvous = std::uint64_t{1} << 30;
                const Schedule s = oneTransfer(8, hops);
                const TimeResult t = timeSchedule(s, m);
                // o at the sender, L, the hops, o at the receiver and (M − 1)·G there (LogGP);
                // store-and-forward carries the whole message once more over every hop but the last.
                const double G = m.perByte * 1e9, o = m.overhead * 1e9, L = m.latency * 1e9, h = m.hopLatency * 1e9;
                double expected = 2 * o + L + hops * h + static_cast<double>(bytes - 1) * G;
                if (routing == Routing::StoreAndForward)
                    expected += (hops - 1) * static_cast<double>(bytes) * G;
                INFO(toString(routing) << ", " << hops << " hops, " << bytes << " B");
                CHECK(t.total == Approx(expected).epsilon(1e-12));
                CHECK(t.transfers.at(0).end == Approx(expected).epsilon(1e-12));
                CHECK(t.transfers.at(0).start == 0);
                CHECK(timeSchedule(s, m, {.steps = true}).total == Approx(expected).epsilon(1e-12));
            }
}

TEST_CASE("GOAL programs from LogGOPSim's schedule generator take LogGOPSim's time to the nanosecond", "[time][goal]")
{
    std::ifstream in(kGoalData / "loggopsim-times.txt");
    REQUIRE(in);
    const NetworkModel m = networkPreset("loggopsim");
    std::string line;
    int checked = 0, unmatched = 0;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        std::istringstream words(line);
        std::string file, max, host;
        words >> file >> max >> host;
        INFO(file);
        const OpProgram p = readGoal(kGoalData / file);
        const TimeResult t = timeProgram(p, m);
        if (max == "unmatched") {
            // LogGOPSim ends with receives or messages left over and prints no time.
            CHECK(!t.unfinished.empty());
            ++unmatched;
            continue;
        }
        CHECK(t.unfinished.empty());
        CHECK(t.total == std::stod(max));
        CHECK(t.lastRank == std::stoul(host));
        ++checked;
    }
    CHECK(checked >= 40);
    CHECK(unmatched >= 1);
}

TEST_CASE("GOAL out and back: a schedule written as GOAL reads back with the same time", "[time][goal]")
{
    struct Case {
        const char* algorithm;
        const char* topology;
        const char* pattern;
    };
    const Case cases[] = {{"ring", "torus:4x4", "allreduce"},         {"bucket", "torus:4x4", "allreduce"},
                          {"rabenseifner", "torus:4x4", "allreduce"}, {"binomial", "mesh:4x4", "broadcast"},
                          {"sbt", "hypercube:4", "broadcast"},        {"nesbt", "hypercube:4", "broadcast"}};
    for (const NetworkModel& m : {networkPreset("loggopsim"), NetworkModel{}})
        for (const Case& c : cases)
            for (std::uint64_t message : {std::uint64_t{1024}, std::uint64_t{1} << 20}) {
                INFO(c.algorithm << " " << c.pattern << " on " << c.topology << ", " << message << " B, " << m.preset);
                const Schedule s =
                    buildSchedule(c.algorithm, Topology::parse(c.topology), NodeId{0}, {{"pattern", c.pattern}});
                NetworkModel net = m;
                net.message = message;
                net.hopLatency = 0; // GOAL has no routes: the same time needs no per-hop latency
                const OpProgram p = scheduleProgram(s, net);
                std::ostringstream goal;
                writeGoal(goal, p);
                const OpProgram back = parseGoal(goal.str(), "export.goal");
                CHECK(checkGoal(back, "export.goal").empty());
                CHECK(back.ops.size() == p.ops.size());
                const TimeResult a = timeSchedule(s, net);
                const TimeResult b = timeProgram(back, net);
                CHECK(b.unfinished.empty());
                CHECK(a.total == b.total);
            }
}

TEST_CASE("without barriers no preset is slower than with a barrier between steps", "[time]")
{
    int checked = 0;
    for (const auto& entry : fs::directory_iterator(fs::path(TOPOCAST_SOURCE_DIR) / "resources" / "scenarios")) {
        if (entry.path().extension() != ".json")
            continue;
        const Scenario sc = loadScenario(entry.path());
        const Schedule s = buildScenario(sc);
        if (s.size() > 200000)
            continue;
        for (std::uint64_t message : {std::uint64_t{64}, std::uint64_t{1} << 20}) {
            NetworkModel m;
            m.message = message;
            const TimeResult async = timeSchedule(s, m);
            const TimeResult steps = timeSchedule(s, m, {.steps = true});
            INFO(entry.path().filename().string()
                 << ", " << message << " B: " << async.total << " ns against " << steps.total);
            CHECK(async.total <= steps.total * (1 + 1e-12));
            CHECK(async.unfinished.empty());
            ++checked;
        }
    }
    CHECK(checked >= 20);
}

TEST_CASE("bad GOAL files are refused with their line", "[time][goal]")
{
    const auto error = [](const std::string& text) {
        try {
            parseGoal(text, "bad.goal");
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("(no error)");
    };
    CHECK_THAT(error("rank 0 {\n}\n"), Catch::Contains("bad.goal:1:") && Catch::Contains("num_ranks"));
    CHECK_THAT(error("num_ranks 2\nrank 0 {\nl1: send 8b to 1 tag 0\n"),
               Catch::Contains("bad.goal:2:") && Catch::Contains("never closed"));
    CHECK_THAT(error("num_ranks 2\nrank 0 {\nl1: send 8b to 5 tag 0\n}\n"),
               Catch::Contains("bad.goal:3:") && Catch::Contains("outside num_ranks"));
    CHECK_THAT(error("num_ranks 2\nrank 0 {\nl1: send 8 to 1\n}\n"),
               Catch::Contains("bad.goal:3:") && Catch::Contains("1024b"));
    CHECK_THAT(error("num_ranks 2\nrank 0 {\nl1: send 8b to 1\nl2 requires l9\n}\n"),
               Catch::Contains("bad.goal:4:") && Catch::Contains("l2"));
    CHECK_THAT(error("num_ranks 2\nrank 0 {\nl1: jump 8b\n}\n"),
               Catch::Contains("bad.goal:3:") && Catch::Contains("unknown op"));
    CHECK_THAT(error("num_ranks 2\nrank 0 {\n}\nrank 0 {\n}\n"),
               Catch::Contains("bad.goal:4:") && Catch::Contains("twice"));
    CHECK_THAT(error("num_ranks 1\n/* open\nrank 0 {\n}\n"),
               Catch::Contains("bad.goal:2:") && Catch::Contains("never closed"));
    CHECK_THAT(error("num_ranks 99999999999\n"), Catch::Contains("bad.goal:1:"));

    // Parses, but cannot run: a receive without a send, a send nobody takes, a cycle.
    const OpProgram unmatched = parseGoal(
        "num_ranks 2\nrank 0 {\nl1: send 8b to 1 tag 3\n}\nrank 1 {\nl1: recv 8b from 0 tag 4\n}\n", "u.goal");
    const auto findings = checkGoal(unmatched, "u.goal");
    REQUIRE(findings.size() == 2);
    CHECK_THAT(findings[0], Catch::Contains("u.goal:6:") && Catch::Contains("no send to match it"));
    CHECK_THAT(findings[1], Catch::Contains("u.goal:3:") && Catch::Contains("no receive to take it"));
    const TimeResult t = timeProgram(unmatched, networkPreset("loggopsim"));
    CHECK(t.unfinished.size() == 1);

    const OpProgram cyclic =
        parseGoal("num_ranks 1\nrank 0 {\na: calc 5\nb: calc 6\na requires b\nb requires a\n}\n", "c.goal");
    const auto cycle = checkGoal(cyclic, "c.goal");
    REQUIRE(cycle.size() == 1);
    CHECK_THAT(cycle[0], Catch::Contains("cycle") && Catch::Contains("c.goal:3") && Catch::Contains("c.goal:4"));
    CHECK(timeProgram(cyclic, networkPreset("loggopsim")).unfinished.size() == 2); // and it does not hang
}

TEST_CASE("topocast's own schedules exported as GOAL take the time LogGOPSim gives them", "[time][goal]")
{
    // LogGOPSim (commit 76451de, default parameters; tests/data/goal/README.md) on the output of
    // `topocast-cli export -t T -a A --pattern P --format goal --size S`, its maximum finishing
    // time in ns as it printed it.
    struct Vector {
        const char* topology;
        const char* algorithm;
        const char* pattern;
        std::uint64_t bytes;
        double loggopsim;
    };
    const Vector vectors[] = {
        {"torus:4x4", "ring", "allreduce", 1024, 176340},
        {"torus:4x4", "ring", "allreduce", 1 << 20, 11961300},
        {"torus:4x4", "bucket", "allreduce", 1024, 77448},
        {"torus:4x4", "bucket", "allreduce", 1 << 20, 11862408},
        {"torus:4x4", "rabenseifner", "allreduce", 1024, 55472},
        {"torus:4x4", "rabenseifner", "allreduce", 1 << 20, 11840432},
        {"mesh:4x4", "binomial", "broadcast", 1024, 46552},
        {"mesh:4x4", "binomial", "broadcast", 1 << 20, 25187800},
        {"hypercube:4", "sbt", "broadcast", 1024, 46552},
        {"hypercube:4", "sbt", "broadcast", 1 << 20, 25187800},
        {"hypercube:4", "nesbt", "broadcast", 1024, 58190},
        {"hypercube:4", "nesbt", "broadcast", 1 << 20, 31484750},
    };
    NetworkModel m = networkPreset("loggopsim");
    for (const Vector& v : vectors) {
        INFO(v.algorithm << " " << v.pattern << " on " << v.topology << ", " << v.bytes << " B");
        m.message = v.bytes;
        const Schedule s = buildSchedule(v.algorithm, Topology::parse(v.topology), NodeId{0}, {{"pattern", v.pattern}});
        CHECK(timeSchedule(s, m).total == v.loggopsim);
    }
}

TEST_CASE("no time is below its bound: every algorithm, pattern, topology family, port model and size", "[time][bound]")
{
    const char* topologies[] = {"mesh:4x4",    "torus:4x4",   "mesh:8x8", "torus:5x5",  "mesh:4x4x4",
                                "hypercube:4", "hypercube:6", "mesh:8",   "torus:3x3x3"};
    const std::uint64_t sizes[] = {1, 64, 4096, 65537, std::uint64_t{1} << 20};
    std::vector<NetworkModel> networks;
    for (const char* preset : {"cluster", "loggopsim"})
        for (const char* ports : {"one-port", "k-port:2", "all-port"}) {
            NetworkModel m = networkPreset(preset);
            setNetworkField(m, "ports", ports);
            networks.push_back(m);
        }
    NetworkModel saf;
    saf.routing = Routing::StoreAndForward;
    saf.ports = NetworkPorts::All;
    networks.push_back(saf);
    std::size_t checked = 0;
    double tightest = 1e300;
    std::string tightestWhat;
    for (const char* spec : topologies) {
        const Topology topo = Topology::parse(spec);
        for (const AlgorithmInfo& info : algorithms()) {
            if (info.whyNot(topo))
                continue;
            for (const std::string& pattern : info.patterns) {
                const Pattern p = parsePattern(pattern);
                for (const NodeId source : {NodeId{0}, NodeId{topo.nodeCount() / 2 + 1}}) {
                    if (!hasRoot(p) && source != NodeId{0})
                        continue;
                    Schedule s;
                    try {
                        s = buildSchedule(info.name, topo, source, {{"pattern", pattern}});
                    } catch (const Error&) {
                        continue; // refused here (a source or size the algorithm does not take)
                    }
                    for (NetworkModel m : networks)
                        for (std::uint64_t size : sizes) {
                            m.message = size;
                            const TimeBound bound = timeBound(s, m);
                            for (const bool steps : {false, true}) {
                                const double t = timeSchedule(s, m, {.steps = steps}).total;
                                INFO(info.name << " " << pattern << " on " << spec << " from " << source << ", " << size
                                               << " B, " << describe(m) << (steps ? ", steps" : "") << ": " << t
                                               << " ns against the bound " << bound.total << " (" << bound.latencyReason
                                               << "; " << bound.bandwidthReason << ")");
                                CHECK(t >= bound.total * (1 - 1e-12));
                                if (t / bound.total < tightest) {
                                    tightest = t / bound.total;
                                    tightestWhat = info.name + " " + pattern + " on " + spec;
                                }
                                ++checked;
                            }
                        }
                }
            }
        }
    }
    std::cout << "time >= bound: " << checked << " times checked, the closest " << tightest << "× the bound ("
              << tightestWhat << ")\n";
    CHECK(checked > 5000);
}

TEST_CASE("compare on hypercubes: no counted time below its lower bound (n-port broadcast with M < n included)",
          "[time][bound]")
{
    for (int n = 2; n <= 8; ++n)
        for (const char* message : {"1", "2", "3", "5", "7", "64"}) {
            INFO("hypercube:" << n << ", M = " << message);
            const testing::CliRun r = testing::runCli({"compare", "-t", "hypercube:" + std::to_string(n), "--pattern",
                                                       "broadcast", "--message", message, "--json"});
            REQUIRE(r.status == 0);
            const nlohmann::json doc = nlohmann::json::parse(r.out);
            for (const auto& row : doc["rows"]) {
                INFO(row["algorithm"].get<std::string>() << " " << row["ports"].get<std::string>());
                CHECK(row["time"]["value"].get<double>() >= row["lower_bound"]["value"].get<double>() * (1 - 1e-12));
            }
        }
    // The 8-cube's all-to-all: nRBRG's schedule is too large to count, so its closed form ranks it.
    CHECK(testing::runCli({"compare", "-t", "hypercube:8", "--pattern", "alltoall"}).status == 0);
}

TEST_CASE("sweep: a row per size, every algorithm's time, the bound, the winner and the crossovers in words",
          "[time][sweep]")
{
    const testing::CliRun r = testing::runCli({"sweep", "-t", "hypercube:6", "--pattern", "broadcast", "--sizes",
                                               "8B..64MiB", "--network-ports", "all-port", "--json"});
    REQUIRE(r.status == 0);
    const auto doc = nlohmann::json::parse(r.out);
    CHECK(doc["format"] == "topocast-sweep");
    CHECK(doc["request"]["network"]["ports"] == "all-port");
    REQUIRE(doc["rows"].size() == 24); // 2^3 … 2^26
    for (const auto& row : doc["rows"]) {
        CHECK(row["size"]["unit"] == "B");
        double best = 1e300;
        for (const auto& [name, t] : row["times"].items()) {
            CHECK(t["unit"] == "ns");
            CHECK(t["value"].get<double>() >= row["bound"]["value"].get<double>() * (1 - 1e-9));
            best = std::min(best, t["value"].get<double>());
        }
        CHECK(row["times"][row["winner"].get<std::string>()]["value"].get<double>() == best);
    }
    // Trees for small messages, the n rotated trees (a part down each) for large ones.
    REQUIRE(!doc["crossovers"].empty());
    CHECK(doc["crossovers"][0]["text"] == "nrsbt overtakes binomial at 8 KiB");
    CHECK(doc["rows"][0]["winner"] == "binomial");
    CHECK(doc["rows"].back()["winner"] == "nrsbt");

    // The chart: one line per algorithm, the bound, every label in it.
    const fs::path svg = fs::temp_directory_path() / "topocast-sweep-test.svg";
    REQUIRE(testing::runCli(
                {"sweep", "-t", "torus:4x4", "--pattern", "allreduce", "--sizes", "1KiB,1MiB", "--plot", svg.string()})
                .status == 0);
    std::ifstream in(svg);
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    fs::remove(svg);
    for (const char* word :
         {"ring", "bucket", "rabenseifner", "the bound", "allreduce on the 4×4 torus", "message size"})
        CHECK(text.find(word) != std::string::npos);
    CHECK(std::count(text.begin(), text.end(), '\n') > 20);

    // Bad input: sizes without units, ranges that go down or are not powers of two, unknown names.
    CHECK_THAT(testing::runCli({"sweep", "-t", "torus:4x4", "--pattern", "allreduce", "--sizes", "1024"}).err,
               Catch::Contains("has no unit"));
    CHECK_THAT(testing::runCli({"sweep", "-t", "torus:4x4", "--pattern", "allreduce", "--sizes", "1MiB..1KiB"}).err,
               Catch::Contains("goes down"));
    CHECK_THAT(testing::runCli({"sweep", "-t", "torus:4x4", "--pattern", "allreduce", "--sizes", "3B..1KiB"}).err,
               Catch::Contains("powers of two"));
    CHECK_THAT(testing::runCli({"sweep", "-t", "torus:4x4", "--pattern", "allreduce", "--algorithms", "ringo"}).err,
               Catch::Contains("ringo"));
    // A PNG is drawn by the app program (tests/app checks it); without it, refused with what to give.
    CHECK_THAT(testing::runCli({"sweep", "-t", "torus:4x4", "--pattern", "allreduce", "--plot", "x.png"}).err,
               Catch::Contains("drawn by the app program") && Catch::Contains("FILE.svg"));
    CHECK_THAT(testing::runCli({"sweep", "-t", "torus:4x4", "--pattern", "allreduce", "--plot", "x.pdf"}).err,
               Catch::Contains("SVG or PNG"));
    // Work too big is estimated and refused before it starts.
    CHECK_THAT(testing::runCli({"sweep", "-t", "mesh:64x64", "--pattern", "allreduce", "--algorithms", "bucket",
                                "--max-seconds", "1"})
                   .err,
               Catch::Contains("would take about") && Catch::Contains("--max-seconds"));
}

TEST_CASE("a network model from the constants fitted to measured times", "[time]")
{
    // t_s + h·t_h + m·t_b of the wormhole model (cost_model.h) is the engine's time of one message
    // with the fitted model, but for the one byte LogGP leaves out ((m − 1)·G).
    const LinearCost cost{2e-6, 5e-8, 1e-9};
    NetworkModel m = networkFromFit(cost);
    CHECK(m.preset == "measured");
    m.message = 4096;
    const Schedule s = oneTransfer(8, 3);
    CHECK(timeSchedule(s, m).total == Approx((cost.time(3, 4096) - cost.perByte) * 1e9).epsilon(1e-9));
    // It reads back from the file `measured --network-out` writes, as "measured".
    const NetworkModel back = networkFromJson(nlohmann::json::parse(networkJson(m).dump()), "network");
    CHECK(back.preset == "measured");
    CHECK(back.perByte == Approx(m.perByte));
    // A fit that could not tell the bytes' cost gives no model, and says what to measure.
    CHECK_THROWS_WITH(networkFromFit(LinearCost{1e-6, 0, 0}), Catch::Contains("two block sizes"));
    const testing::CliRun r = testing::runCli(
        {"measured", std::string(TOPOCAST_SOURCE_DIR) + "/resources/measured/cang-wu-4x4.measured.json", "--schedule",
         std::string(TOPOCAST_SOURCE_DIR) + "/resources/measured/cang-wu-4x4.schedule.json", "--network-out",
         (fs::temp_directory_path() / "topocast-net.json").string()});
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Catch::Contains("t_b = 0"));
}

TEST_CASE("time: a scenario's network is its default, the command line overrides it, and the document records both",
          "[time]")
{
    const fs::path file = fs::temp_directory_path() / "topocast-time-scenario.json";
    {
        Scenario sc = defaultScenario();
        sc.topology = Topology::parse("torus:4x4");
        sc.algorithm = "ring";
        sc.source = NodeId{0};
        sc.params = Params{};
        sc.params.set("pattern", "allreduce");
        NetworkModel m = networkPreset("loggopsim");
        m.message = 1 << 20;
        sc.network = m;
        std::ofstream(file) << toJson(sc).dump(2);
    }
    const testing::CliRun a = testing::runCli({"time", "--scenario", file.string(), "--json"});
    REQUIRE(a.status == 0);
    const auto doc = nlohmann::json::parse(a.out);
    CHECK(doc["request"]["network"]["preset"] == "loggopsim");
    CHECK(doc["message"]["value"] == 1 << 20);
    CHECK(doc["total"]["value"] == 11961300.0); // LogGOPSim's time for this schedule (the GOAL test above)
    CHECK(doc["total"]["value"].get<double>() >= doc["bound"]["total"]["value"].get<double>());
    CHECK(doc["other_model"]["model"] == "loggp-steps");
    const testing::CliRun b = testing::runCli({"time", "--scenario", file.string(), "--message", "1KiB", "--json"});
    REQUIRE(b.status == 0);
    const auto small = nlohmann::json::parse(b.out);
    CHECK(small["total"]["value"] == 176340.0);
    CHECK(small["request"]["network"]["message"] == "1KiB");
    CHECK(small["request"]["network"]["preset"] == "loggopsim"); // the size is not the network's
    // Text: both readings, the bound, nccl-tests' figures, and what is not charged.
    const testing::CliRun t = testing::runCli({"time", "--scenario", file.string()});
    CHECK_THAT(t.out, Catch::Contains("LogGP") && Catch::Contains("barrier between steps") &&
                          Catch::Contains("above the bound") && Catch::Contains("busbw") &&
                          Catch::Contains("contention"));
    fs::remove(file);
    // A GOAL program has no steps to put barriers between.
    CHECK_THAT(testing::runCli({"time", (kGoalData / "a_send1b.goal").string(), "--sync", "steps"}).err,
               Catch::Contains("no"));
}

TEST_CASE("export writes a schedule file as GOAL (and every other format) with the time the schedule has",
          "[time][goal]")
{
    const fs::path dir = fs::temp_directory_path() / "topocast-export-file";
    fs::create_directories(dir);
    const std::string json = (dir / "ring.json").string(), goal = (dir / "ring.goal").string();
    REQUIRE(testing::runCli({"schedule", "-t", "torus:4x4", "-a", "ring", "--pattern", "allreduce", "--out", json})
                .status == 0);
    REQUIRE(testing::runCli({"export", json, "--format", "goal", "--size", "1MiB", "--out", goal}).status == 0);
    const testing::CliRun t = testing::runCli({"time", goal, "--network", "loggopsim", "--json"});
    REQUIRE(t.status == 0);
    CHECK(nlohmann::json::parse(t.out)["total"]["value"] == 11961300.0); // as LogGOPSim gives it
    for (const char* format : {"json", "csv", "channels-csv", "trace", "msccl-xml", "graphml", "dot"}) {
        INFO(format);
        const testing::CliRun e = testing::runCli({"export", json, "--format", format});
        CHECK(e.status == 0);
        CHECK(!e.out.empty());
    }
    CHECK_THAT(testing::runCli({"export", json, "-a", "ring", "--format", "goal"}).err, Catch::Contains("not both"));
    CHECK_THAT(testing::runCli({"export", json, "-t", "torus:4x4", "--format", "goal"}).err,
               Catch::Contains("names its topology"));
    fs::remove_all(dir);
}

TEST_CASE("Half-duplex: a port's receive waits while the same port sends", "[time]")
{
    // Rank 1 sends 60,000 B to rank 2 at once while 1,000 B from rank 0 arrive: one-port takes
    // both at once (a send and a receive have their own gaps), half-duplex takes the message only
    // when its port has put the 60,000 B on the wire.
    OpProgram p;
    p.ranks = 3;
    p.ops = {ProgramOp{.kind = ProgramOp::Kind::Send, .rank = 0, .peer = 1, .tag = 0, .size = 1000},
             ProgramOp{.kind = ProgramOp::Kind::Recv, .rank = 1, .peer = 0, .tag = 0, .size = 1000},
             ProgramOp{.kind = ProgramOp::Kind::Send, .rank = 1, .peer = 2, .tag = 1, .size = 60000},
             ProgramOp{.kind = ProgramOp::Kind::Recv, .rank = 2, .peer = 1, .tag = 1, .size = 60000}};
    NetworkModel m = networkPreset("cluster");
    const double o = 200, L = 1000, g = 100, G = 0.08;
    const TimeResult one = timeProgram(p, m);
    CHECK(one.ops[1].end == Approx(o + L + o + 999 * G).epsilon(1e-12));
    m.ports = NetworkPorts::Half;
    const TimeResult half = timeProgram(p, m);
    CHECK(half.ops[1].end == Approx(g + 59999 * G + o + 999 * G).epsilon(1e-12));
    int k = 0;
    CHECK(parseNetworkPorts("half-duplex", k) == NetworkPorts::Half);
    CHECK(toString(NetworkPorts::Half) == "half-duplex");
}
