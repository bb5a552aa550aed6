// The MPI-free half of topocast-mpi: payload bytes, checksums, per-rank plans, and
// the measured-times document. The in-process replay (replaySchedule) drives every rank's plan
// the way topocast-mpi does, so the plans are proven to pair up and deliver without starting MPI.
#include "topocast/analysis/replay.h"

#include "commands.h"

#include "topocast/algorithms/registry.h"
#include "topocast/analysis/metrics.h"
#include "topocast/analysis/validate.h"
#include "topocast/io/atomic_file.h"
#include "topocast/io/measured_json.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/error.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using namespace topocast;

namespace {

std::filesystem::path dataFile(const std::string& name)
{
    return std::filesystem::path(TOPOCAST_SOURCE_DIR) / "tests" / "data" / "mpi" / name;
}

Schedule loadData(const std::string& name)
{
    return scheduleFromJson(readJsonFile(dataFile(name)));
}

/// Replays `s` in-process (replaySchedule) with `bytes` per block; `corrupt` flips a byte of that
/// transfer's message on the wire.
ReplayReport replayInProcess(const Schedule& s, std::uint64_t bytes, std::size_t corrupt = SIZE_MAX)
{
    ReplayOptions o;
    o.bytesPerBlock = bytes;
    if (corrupt != SIZE_MAX)
        o.onWire = [corrupt](std::size_t transfer, std::span<std::uint8_t> message) {
            if (transfer == corrupt)
                message[message.size() / 2] ^= 1;
        };
    return replaySchedule(s, o);
}

} // namespace

TEST_CASE("FNV-1a checksum matches the published test vectors", "[replay]")
{
    const std::vector<std::uint8_t> empty;
    CHECK(checksum(empty) == 0xcbf29ce484222325ull);
    const std::vector<std::uint8_t> a{'a'};
    CHECK(checksum(a) == 0xaf63dc4c8601ec8cull);
    const std::vector<std::uint8_t> foobar{'f', 'o', 'o', 'b', 'a', 'r'};
    CHECK(checksum(foobar) == 0x85944171f73967e8ull);
}

TEST_CASE("block bytes are deterministic, distinct per block, and agree across helpers", "[replay]")
{
    const Block b{3, 5, 1};
    std::vector<std::uint8_t> bytes(1027);
    fillBlock(b, bytes);
    for (std::size_t i = 0; i < bytes.size(); ++i)
        REQUIRE(bytes[i] == blockByte(b, i));
    CHECK(blockChecksum(b, bytes.size()) == checksum(bytes));
    CHECK(firstMismatch(b, bytes) == bytes.size());
    // A shorter block is a prefix of a longer one.
    std::vector<std::uint8_t> shorter(13);
    fillBlock(b, shorter);
    CHECK(std::equal(shorter.begin(), shorter.end(), bytes.begin()));

    // Changing any of origin, dest or part changes the bytes.
    for (const Block& other :
         {Block{4, 5, 1}, Block{3, 6, 1}, Block{3, 5, 2}, Block{3, Block::kAll, 1}, Block{5, 3, 1}}) {
        std::vector<std::uint8_t> o(bytes.size());
        fillBlock(other, o);
        CHECK(o != bytes);
        CHECK(firstMismatch(b, o) < 8); // differs within the first word
    }
    // Bytes look random: every value occurs, none more than 3× the mean, in 64 KiB.
    std::vector<std::uint8_t> big(1 << 16);
    fillBlock(Block{0, Block::kAll, 0}, big);
    std::vector<int> hist(256, 0);
    for (auto c : big)
        ++hist[c];
    CHECK(*std::min_element(hist.begin(), hist.end()) > 0);
    CHECK(*std::max_element(hist.begin(), hist.end()) < 3 * (1 << 16) / 256);
}

TEST_CASE("firstMismatch finds one flipped byte anywhere", "[replay]")
{
    const Block b{0, 7, 0};
    std::vector<std::uint8_t> bytes(100);
    fillBlock(b, bytes);
    for (std::size_t i : {0u, 1u, 7u, 8u, 63u, 99u}) {
        auto copy = bytes;
        copy[i] ^= 0x80;
        CHECK(firstMismatch(b, copy) == i);
        CHECK(checksum(copy) != blockChecksum(b, copy.size()));
    }
}

TEST_CASE("describeBlock names origin, destination and part", "[replay]")
{
    const Topology mesh = Topology::mesh({4, 4});
    CHECK(describeBlock(mesh, Block{5, Block::kAll, 0}) == "block (origin (1,1), dest all, part 0)");
    CHECK(describeBlock(Topology::hypercube(3), Block{1, 3, 2}) == "block (origin 001, dest 011, part 2)");
}

TEST_CASE("requiredBlocks: what each pattern leaves at each node", "[replay]")
{
    const Topology cube = Topology::hypercube(2);
    Schedule bcast(cube, NodeId{1}, Pattern::Broadcast, PortModel::OnePort);
    bcast.parts = 2;
    CHECK(requiredBlocks(bcast, NodeId{1}).empty());
    CHECK(requiredBlocks(bcast, NodeId{0}) == std::vector<Block>{{1, Block::kAll, 0}, {1, Block::kAll, 1}});

    Schedule scatter(cube, NodeId{2}, Pattern::Scatter, PortModel::AllPort);
    CHECK(requiredBlocks(scatter, NodeId{2}).empty());
    CHECK(requiredBlocks(scatter, NodeId{3}) == std::vector<Block>{{2, 3, 0}});

    scatter.participants = {NodeId{2}, NodeId{0}}; // a scatter over part of the topology leaves the rest idle
    CHECK(requiredBlocks(scatter, NodeId{0}) == std::vector<Block>{{2, 0, 0}});
    CHECK(requiredBlocks(scatter, NodeId{3}).empty());

    Schedule allgather(cube, NodeId{0}, Pattern::Allgather, PortModel::OnePort);
    CHECK(requiredBlocks(allgather, NodeId{2}) ==
          std::vector<Block>{{0, Block::kAll, 0}, {1, Block::kAll, 0}, {3, Block::kAll, 0}});

    Schedule alltoall(cube, NodeId{0}, Pattern::Alltoall, PortModel::OnePort);
    CHECK(requiredBlocks(alltoall, NodeId{1}) == std::vector<Block>{{0, 1, 0}, {2, 1, 0}, {3, 1, 0}});
    CHECK_THROWS_AS(requiredBlocks(alltoall, NodeId{4}), Error);
}

TEST_CASE("transferTag: ordinal and step fit in MPI's guaranteed 32767", "[replay]")
{
    CHECK(transferTag(1, 0, 32767) == 1);
    CHECK(transferTag(4097, 0, 32767) == 1);
    CHECK(transferTag(5, 7, 32767) == 7 * 4096 + 5);
    CHECK_THROWS_WITH(transferTag(5, 8, 32767), Catch::Contains("tag limit 32767"));
    CHECK(transferTag(5, 8, 2147483647) == 8 * 4096 + 5);
}

TEST_CASE("rankPlan of the hand-made SBT scatter on a 3-cube (all-port)", "[replay]")
{
    const Schedule s = loadData("hypercube3_sbt_scatter.json");
    REQUIRE(validate(s).ok());
    const RankPlan root = rankPlan(s, NodeId{0});
    REQUIRE(root.steps.size() == 3);
    REQUIRE(root.steps[0].sends.size() == 3); // one message per dimension in step 1
    CHECK(root.steps[0].receives.empty());
    CHECK(root.steps[0].sends[0].peer == 1);
    CHECK(root.steps[0].sends[0].blocks == 4); // blocks for 1, 3, 5, 7
    CHECK(root.steps[0].sends[1].blocks == 2); // 2, 6
    CHECK(root.steps[0].sends[2].blocks == 1); // 4
    CHECK(root.steps[1].sends.empty());
    CHECK(root.required.empty());

    const RankPlan seven = rankPlan(s, NodeId{7});
    CHECK(seven.steps[0].receives.empty());
    CHECK(seven.steps[1].receives.empty());
    REQUIRE(seven.steps[2].receives.size() == 1);
    CHECK(seven.steps[2].receives[0].peer == 3);
    CHECK(seven.required == std::vector<Block>{{0, 7, 0}});
}

TEST_CASE("two transfers between the same pair in one step get distinct tags", "[replay]")
{
    Schedule s(Topology::hypercube(1), NodeId{0}, Pattern::Broadcast, PortModel::MultiPort);
    s.parts = 2;
    const Block p0[] = {{0, Block::kAll, 0}};
    const Block p1[] = {{0, Block::kAll, 1}};
    s.add(NodeId{0}, NodeId{1}, StepNo{1}, {}, s.addPayload(p0));
    s.add(NodeId{0}, NodeId{1}, StepNo{1}, {}, s.addPayload(p1));
    s.maxSendsPerStep = 2;
    s.finalize();
    const RankPlan sender = rankPlan(s, NodeId{0}), receiver = rankPlan(s, NodeId{1});
    REQUIRE(sender.steps[0].sends.size() == 2);
    CHECK(sender.steps[0].sends[0].tag != sender.steps[0].sends[1].tag);
    CHECK(receiver.steps[0].receives[0].tag == sender.steps[0].sends[0].tag);
    CHECK(receiver.steps[0].receives[1].tag == sender.steps[0].sends[1].tag);
    const ReplayReport r = replayInProcess(s, 16);
    CHECK(r.ok());
    CHECK(r.messages == 2);
}

TEST_CASE("in-process replay of the registry baselines delivers every byte", "[replay]")
{
    const auto [topo, algorithm, source] = GENERATE(table<std::string, std::string, std::string>({
        {"mesh:4x4", "binomial", "0,0"},
        {"mesh:2x4", "recursive-doubling", "1,2"},
        {"torus:4x4", "bfs", "1,2"},
        {"hypercube:3", "recursive-doubling", "5"},
        {"mesh:3x5", "bfs", "2,2"},
    }));
    CAPTURE(topo, algorithm);
    const Topology t = Topology::parse(topo);
    const Schedule s = buildSchedule(algorithm, t, t.parseNode(source), Params{});
    const ReplayReport r = replayInProcess(s, 37);
    CHECK(r.ok());
    CHECK(r.messages == s.size());
}

TEST_CASE("in-process replay of the hand-made personalized schedules delivers every byte", "[replay]")
{
    const std::string file = GENERATE(as<std::string>{}, "hypercube3_sbt_scatter.json", "hypercube4_sbt_scatter.json",
                                      "hypercube3_direct_alltoall.json", "hypercube3_dimension_alltoall.json",
                                      "hypercube4_dimension_alltoall.json", "hypercube3_allgather.json");
    CAPTURE(file);
    const Schedule s = loadData(file);
    const Validation v = validate(s); // contention-free too
    INFO((v.violations.empty() ? std::string() : v.violations.front()));
    REQUIRE(v.ok());
    const ReplayReport r = replayInProcess(s, 64);
    CHECK(r.ok());
    CHECK(r.messages == s.size());
}

TEST_CASE("in-process replay catches a corrupted message at its receiver and downstream", "[replay]")
{
    const Schedule s = loadData("hypercube3_sbt_scatter.json");
    // Transfer 0 carries the blocks for 1, 3, 5, 7 to node 1, which relays them.
    const ReplayReport r = replayInProcess(s, 64, 0);
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.problems.front(), Catch::Contains("step 1: transfer 0"));
    // The flipped byte (the middle of 4 × 64 bytes) lies in the third block, node 5's, which
    // node 1 relays: it arrives wrong again at 5, and 5 is the one node that ends wrong.
    CHECK_THAT(r.problems.front(),
               Catch::Contains("block (origin 000, dest 101, part 0) reaches 001 wrong from byte 0"));
    CHECK(std::count(r.problems.begin(), r.problems.end(),
                     "node 101 ends with wrong bytes of block (origin 000, dest 101, part 0)") == 1);
    CHECK(r.problemCount == 3);
    CHECK(r.messages == s.size()); // every message is still delivered, just wrong
}

TEST_CASE("in-process replay of a clean schedule counts every message, block and byte", "[replay]")
{
    const Schedule s = loadData("hypercube3_sbt_scatter.json");
    const ReplayReport r = replayInProcess(s, 10);
    CHECK(r.ok());
    CHECK(r.problemCount == 0);
    std::uint64_t blocks = 0;
    for (const Transfer& t : s.transfers())
        blocks += s.payload(t.payload).size();
    CHECK(blocks == 4 + 2 + 1 + 2 + 1 + 1 + 1); // the SBT scatter on a 3-cube moves 12 blocks
    CHECK(r.messages == s.size());
    CHECK(r.blocksChecked == blocks);
    CHECK(r.bytes == blocks * 10);
}

TEST_CASE("in-process replay of deliberately broken schedules names what breaks", "[replay]")
{
    SECTION("a node forwards the message before it holds it: zero bytes travel on and arrive wrong")
    {
        const Schedule s = loadData("mesh2x4_corrupted_broadcast.json");
        const ReplayReport r = replayInProcess(s, 24);
        REQUIRE_FALSE(r.ok());
        CHECK_THAT(r.problems.front(), Catch::Contains("step 1: transfer 0: (1,0) sends block (origin (0,0), dest "
                                                       "all, part 0) but does not hold it"));
        CHECK_THAT(r.problems[1], Catch::Contains("step 1: transfer 0 block (origin (0,0), dest all, part 0) reaches "
                                                  "(1,1) wrong from byte 0"));
        // (1,1) relays the zeros to (1,2), which relays them to (1,3): three nodes end wrong.
        std::size_t wrongAtEnd = 0;
        for (const std::string& p : r.problems)
            wrongAtEnd += p.find("ends with wrong bytes") != std::string::npos;
        CHECK(wrongAtEnd == 3);
    }
    SECTION("a transfer left out: its receiver and everything it would relay end without the message")
    {
        const Topology t = Topology::mesh({4, 4});
        Schedule s = buildSchedule("binomial", t, NodeId{0}, Params{});
        REQUIRE(replayInProcess(s, 16).ok());
        // Step 1 of the binomial broadcast from (0,0) is 0 → 8 = (0,2), which then informs the
        // lower half: drop it and (0,2) and the 7 nodes below it never get the message; (0,2)'s
        // own sends go out with blocks it does not hold.
        auto& transfers = s.mutableTransfers();
        REQUIRE(transfers.front().step == 1);
        REQUIRE(transfers.front().to == t.id({0, 2}));
        transfers.erase(transfers.begin());
        s.finalize();
        const ReplayReport r = replayInProcess(s, 16);
        REQUIRE_FALSE(r.ok());
        CHECK_THAT(r.problems.front(), Catch::Contains("(0,2) sends block (origin (0,0), dest all, part 0) but does "
                                                       "not hold it"));
        std::size_t without = 0;
        for (const std::string& p : r.problems)
            without +=
                p.find("ends with wrong bytes") != std::string::npos || p.find("ends without") != std::string::npos;
        CHECK(without == 8);
        CHECK(std::count(r.problems.begin(), r.problems.end(),
                         "node (0,2) ends without block (origin (0,0), dest all, part 0)") == 1);
    }
    SECTION("a personalized block delivered to the wrong node: the right one ends without it")
    {
        Schedule s(Topology::hypercube(1), NodeId{0}, Pattern::Scatter, PortModel::OnePort);
        const Block wrong[] = {{0, 0, 0}}; // addressed to the source itself
        s.add(NodeId{0}, NodeId{1}, StepNo{1}, {}, s.addPayload(wrong));
        s.finalize();
        const ReplayReport r = replayInProcess(s, 8);
        REQUIRE(r.problemCount == 1);
        CHECK(r.problems[0] == "node 1 ends without block (origin 0, dest 1, part 0)");
    }
    SECTION("problems past the limit are counted, not listed")
    {
        Schedule s = loadData("hypercube3_sbt_scatter.json");
        ReplayOptions o;
        o.bytesPerBlock = 8;
        o.maxProblems = 2;
        o.onWire = [](std::size_t, std::span<std::uint8_t> message) { message[0] ^= 0xFF; };
        const ReplayReport r = replaySchedule(s, o);
        CHECK(r.problems.size() == 2);
        CHECK(r.problemCount > 2);
    }
}

TEST_CASE("the corrupted test schedule is refused by the checker", "[replay]")
{
    const Schedule s = loadData("mesh2x4_corrupted_broadcast.json");
    const Validation v = validate(s);
    REQUIRE(v.violationCount == 1);
    CHECK_THAT(v.violations[0], Catch::Contains("step 1: (1,0) sends to (1,1) but does not hold the message yet"));
}

TEST_CASE("scheduleFingerprint survives a JSON round trip and changes with any transfer", "[replay]")
{
    const Topology t = Topology::mesh({4, 4});
    Schedule s = buildSchedule("binomial", t, NodeId{0}, Params{});
    const std::string fp = scheduleFingerprint(s);
    CHECK(fp.size() == 16);
    const Schedule back = scheduleFromJson(nlohmann::json::parse(toJson(s, computeMetrics(s)).dump()));
    CHECK(scheduleFingerprint(back) == fp);

    Schedule moved = s;
    ++moved.mutableTransfers().back().step;
    moved.finalize();
    CHECK(scheduleFingerprint(moved) != fp);
    Schedule redirected = s;
    redirected.mutableTransfers().front().to = NodeId{redirected.transfers().front().to ^ 1};
    redirected.finalize();
    CHECK(scheduleFingerprint(redirected) != fp);
    CHECK(scheduleFingerprint(buildSchedule("binomial", t, NodeId{1}, Params{})) != fp);
}

TEST_CASE("makeTimeStats: min and median of odd and even counts", "[replay][measured]")
{
    const TimeStats odd = makeTimeStats({3.0, 1.0, 2.0});
    CHECK(odd.min == 1.0);
    CHECK(odd.median == 2.0);
    CHECK(odd.samples == std::vector<double>{3.0, 1.0, 2.0}); // kept in run order
    const TimeStats even = makeTimeStats({4.0, 1.0, 2.0, 8.0});
    CHECK(even.median == 3.0);
    CHECK(makeTimeStats({}).median == 0.0);
}

namespace {

MeasuredTimes sampleMeasured(const Schedule& s)
{
    MeasuredTimes m;
    m.scheduleFile = "mesh4x4.json";
    m.topology = s.topology().spec();
    m.algorithm = s.algorithm;
    m.pattern = toString(s.pattern());
    m.fingerprint = scheduleFingerprint(s);
    m.stepCount = s.stepCount();
    m.ranks = s.topology().nodeCount();
    m.bytesPerBlock = 1024;
    m.repeat = 2;
    m.mpiLibrary = "Open MPI v4.1.4";
    m.hosts = 1;
    m.mapping = "MPI_Cart_create (reorder allowed)";
    m.verified = true;
    m.date = "2026-11-21T19:00:00Z";
    std::vector<double> totals(2, 0.0);
    for (StepNo step : steps(s)) {
        MeasuredStep st;
        st.step = step;
        st.transfers = s.stepTransfers(step).size();
        st.bytes = st.transfers * 1024;
        st.time = makeTimeStats({1e-5 * step, 2e-5 * step});
        totals[0] += 1e-5 * step;
        totals[1] += 2e-5 * step;
        m.steps.push_back(st);
    }
    m.total = makeTimeStats(totals);
    for (std::size_t i = 0; i < s.size(); ++i) {
        const Transfer& t = s.transfers()[i];
        m.transfers.push_back(MeasuredTransfer{i, t.step, t.from, t.to, 1024, makeTimeStats({4e-6, 5e-6})});
    }
    m.library = LibraryTiming{"MPI_Bcast", 1024, makeTimeStats({3e-5, 6e-5})};
    m.endToEnd = makeTimeStats({totals[0] + 4e-6, totals[1] + 6e-6});
    m.barriers = makeTimeStats({4e-6, 6e-6});
    return m;
}

} // namespace

TEST_CASE("measured-times JSON: write, read back, and match to its schedule", "[replay][measured]")
{
    const Topology t = Topology::mesh({4, 4});
    const Schedule s = buildSchedule("binomial", t, NodeId{0}, Params{});
    const MeasuredTimes m = sampleMeasured(s);
    const auto doc = toJson(m);
    CHECK(doc["format"] == "topocast-measured");
    CHECK(doc["version"] == 1);
    CHECK(doc["steps"].size() == s.stepCount());
    CHECK(doc["library"]["operation"] == "MPI_Bcast");

    const MeasuredTimes back = measuredFromJson(nlohmann::json::parse(doc.dump()));
    CHECK(back.topology == "mesh:4x4");
    CHECK(back.fingerprint == m.fingerprint);
    CHECK(back.verified);
    CHECK(back.ranks == 16);
    REQUIRE(back.steps.size() == m.steps.size());
    for (std::size_t i = 0; i < back.steps.size(); ++i) {
        CHECK(back.steps[i].time.min == m.steps[i].time.min);
        CHECK(back.steps[i].time.median == m.steps[i].time.median);
        CHECK(back.steps[i].time.samples == m.steps[i].time.samples);
        CHECK(back.steps[i].transfers == m.steps[i].transfers);
    }
    CHECK(back.total.median == Approx(m.total.median));
    REQUIRE(back.transfers.size() == s.size());
    CHECK(back.transfers[3].from == s.transfers()[3].from);
    REQUIRE(back.library);
    CHECK(back.library->time.median == Approx(4.5e-5));
    CHECK(toJson(back).dump() == doc.dump());
    CHECK(back.mode == "stepped");
    REQUIRE(back.endToEnd);
    CHECK(back.endToEnd->median == Approx(m.endToEnd->median));
    REQUIRE(back.barriers);
    CHECK(back.barriers->samples == m.barriers->samples);

    CHECK_FALSE(measuredMismatch(back, s));
    CHECK_THAT(*measuredMismatch(back, buildSchedule("binomial", Topology::mesh({2, 8}), NodeId{0}, Params{})),
               Catch::Contains("measured on mesh:4x4 but the schedule is on mesh:2x8"));
    CHECK_THAT(*measuredMismatch(back, buildSchedule("binomial", t, NodeId{5}, Params{})),
               Catch::Contains("different schedule") || Catch::Contains("steps but the schedule has"));

    // Files: written atomically, read back through the file reader.
    const auto path = std::filesystem::temp_directory_path() / "topocast-test-measured.json";
    writeFileAtomic(path, doc.dump(1));
    CHECK(readMeasuredTimes(path).fingerprint == m.fingerprint);
    std::filesystem::remove(path);
}

TEST_CASE("measured-times JSON: bad documents are refused with the JSON path", "[replay][measured]")
{
    const Schedule s = buildSchedule("binomial", Topology::mesh({4, 4}), NodeId{0}, Params{});
    const nlohmann::json good = nlohmann::json::parse(toJson(sampleMeasured(s)).dump());
    auto refuse = [&](auto edit, const std::string& message) {
        nlohmann::json doc = good;
        edit(doc);
        CHECK_THROWS_WITH(measuredFromJson(doc), Catch::Contains(message));
    };
    refuse([](auto& d) { d["format"] = "topocast-schedule"; },
           "format: \"topocast-schedule\" is not a measured-times file");
    refuse([](auto& d) { d["version"] = 2; }, "version: 2 is not supported");
    refuse([](auto& d) { d["steps"][1]["median_s"] = -1.0; }, "steps[1].median_s: expected a number of seconds ≥ 0");
    refuse([](auto& d) { d["steps"][0]["min_s"] = 1.0; }, "steps[0]: min_s");
    refuse([](auto& d) { d["steps"][1]["step"] = 7; }, "steps[1].step: is 7");
    refuse([](auto& d) { d["steps"].erase(0); }, "steps[0].step: is 2");
    refuse([](auto& d) { d["schedule"]["steps"] = 99; }, "steps: lists 4 steps but schedule.steps says 99");
    refuse([](auto& d) { d["run"].erase("ranks"); }, "run: missing \"ranks\"");
    refuse([](auto& d) { d["transfers"][2]["step"] = 0; }, "transfers[2].step: steps start at 1");
    refuse([](auto& d) { d["library"]["median_s"] = "fast"; }, "library.median_s: expected a number");
    refuse([](auto& d) { d["run"]["mode"] = "eager"; },
           "run.mode: \"eager\" is not a mode (expected \"stepped\" or \"async\")");
    refuse([](auto& d) { d["end_to_end"]["median_s"] = -2.0; },
           "end_to_end.median_s: expected a number of seconds ≥ 0");
    { // files from before the end-to-end figure: stepped, without it
        nlohmann::json old = good;
        old["run"].erase("mode");
        old.erase("end_to_end");
        old.erase("barriers");
        const MeasuredTimes m = measuredFromJson(old);
        CHECK(m.mode == "stepped");
        CHECK_FALSE(m.endToEnd);
    }
    CHECK_THROWS_WITH(readMeasuredTimes("/nonexistent/measured.json"), Catch::Contains("cannot open"));
}

TEST_CASE("topocast-cli measured shows measured steps beside the model and refuses a foreign schedule",
          "[replay][measured][cli]")
{
    const Topology t = Topology::mesh({4, 4});
    const Schedule s = buildSchedule("binomial", t, NodeId{0}, Params{});
    const auto dir = std::filesystem::temp_directory_path();
    const auto measuredPath = dir / "topocast-test-cli-measured.json";
    const auto schedulePath = dir / "topocast-test-cli-schedule.json";
    const auto otherPath = dir / "topocast-test-cli-other.json";
    writeFileAtomic(measuredPath, toJson(sampleMeasured(s)).dump());
    writeFileAtomic(schedulePath, toJson(s, computeMetrics(s)).dump());
    const Schedule other = buildSchedule("binomial", t, NodeId{5}, Params{});
    writeFileAtomic(otherPath, toJson(other, computeMetrics(other)).dump());

    std::ostringstream out, err;
    cli::Io io{out, err};
    REQUIRE(cli::run({"measured", measuredPath.string(), "--schedule", schedulePath.string()}, io) == 0);
    CHECK_THAT(out.str(), Catch::Contains("verified byte for byte; matches"));
    CHECK_THAT(out.str(), Catch::Contains("step  transfers    TCD"));
    // Step 4 of the binomial 4×4 broadcast: 8 transfers, sample times 40 and 80 µs.
    CHECK_THAT(out.str(), Catch::Contains("   4          8"));
    CHECK_THAT(out.str(), Catch::Contains("40.0        60.0"));
    CHECK_THAT(out.str(), Catch::Contains("MPI_Bcast (1024 B per rank): min 30.0 us, median 45.0 us"));

    std::ostringstream out2, err2;
    cli::Io io2{out2, err2};
    CHECK(cli::run({"measured", measuredPath.string(), "--schedule", otherPath.string()}, io2) == 2);
    CHECK_THAT(err2.str(), Catch::Contains("does not belong to"));
    for (const auto& p : {measuredPath, schedulePath, otherPath})
        std::filesystem::remove(p);
}

TEST_CASE("every key the measured-times writer emits is declared in its JSON Schema", "[replay][measured][schema]")
{
    const auto schema =
        readJsonFile(std::filesystem::path(TOPOCAST_SOURCE_DIR) / "resources/schema/topocast-measured.schema.json");
    const auto& props = schema["properties"];
    const Schedule s = buildSchedule("binomial", Topology::mesh({4, 4}), NodeId{0}, Params{});
    const auto doc = toJson(sampleMeasured(s));
    for (const auto& [key, value] : doc.items()) {
        INFO(key);
        CHECK(props.contains(key));
    }
    for (const char* object : {"schedule", "run"})
        for (const auto& [key, value] : doc[object].items()) {
            INFO(object << "." << key);
            CHECK(props[object]["properties"].contains(key));
        }
    for (const char* list : {"steps", "transfers"})
        for (const auto& [key, value] : doc[list][0].items()) {
            INFO(list << "[]." << key);
            CHECK(props[list]["items"]["properties"].contains(key));
        }
    for (const auto& [key, value] : doc["library"].items()) {
        INFO("library." << key);
        CHECK(props["library"]["properties"].contains(key));
    }
    for (const std::string& key : schema["required"].get<std::vector<std::string>>())
        CHECK(doc.contains(key));
    CHECK(std::regex_match(doc["schedule"]["fingerprint"].get<std::string>(), std::regex("^[0-9a-f]{16}$")));
}

TEST_CASE("a partial's check and its combining, apart, do what receive does together", "[replay]")
{
    // A timed run combines unchecked inside the clock and checks after it: the two halves must
    // give receive()'s verdicts and partials, for a right and a corrupted arrival.
    const Schedule s = buildSchedule("ring", Topology::torus({4}), NodeId{0}, Params{{"pattern", "allreduce"}});
    const CombinePlan plan = combinePlan(s);
    const Transfer& t = s.transfers()[4]; // step 2: a partial of two contributions
    REQUIRE(t.step == 2);
    for (const bool corrupt : {false, true}) {
        PartialResults sender(s, plan, t.from, 64), whole(s, plan, t.to, 64), halves(s, plan, t.to, 64);
        for (std::size_t i = 0; i < 4; ++i) { // step 1 into every node, so the sender holds its partial
            const Transfer& first = s.transfers()[i];
            for (PartialResults* p : {&sender, &whole, &halves}) {
                PartialResults from(s, plan, first.from, 64);
                const NodeId to = p == &sender ? t.from : t.to;
                if (first.to == to)
                    CHECK(p->receive(i, 0, from.chunk(plan.arrivals[plan.first[i]].chunk)).empty());
            }
        }
        std::vector<std::uint8_t> got(sender.chunk(plan.arrivals[plan.first[4]].chunk).begin(),
                                      sender.chunk(plan.arrivals[plan.first[4]].chunk).end());
        if (corrupt)
            got[9] ^= 0x11;
        const std::string together = whole.receive(4, 0, got);
        const std::string checked = halves.check(4, 0, got);
        CHECK(halves.combine(4, 0, got).empty());
        CHECK(checked == together);
        CHECK(together.empty() == !corrupt);
        const std::uint64_t c = plan.arrivals[plan.first[4]].chunk;
        CHECK(std::equal(whole.chunk(c).begin(), whole.chunk(c).end(), halves.chunk(c).begin()));
    }
}
