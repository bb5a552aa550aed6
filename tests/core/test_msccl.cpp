// MSCCL XML in and out (io/msccl_xml.h, msccl.h): programs written here the way the MSCCL tools
// write them (a ring all-gather, a ring all-reduce over two channels, an all-pairs all-reduce
// with nop steps and dependencies), checked against counts worked out below; the same programs
// broken (a step removed, a reduce turned into a copy, a peer out of range) and found at the
// right rank; every pattern's schedules written out and read back with the same transfers; and
// bad files refused with a reason.
#include "cli_runner.h"
#include "temp_dir.h"

#include "topocast/algorithms/registry.h"
#include "topocast/analysis/import_findings.h"
#include "topocast/analysis/metrics.h"
#include "topocast/analysis/msccl.h"
#include "topocast/analysis/validate.h"
#include "topocast/io/msccl_xml.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/error.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

using namespace topocast;
using topocast::testing::CliRun;
using topocast::testing::runCli;

namespace {

/// One `<step>` line as the MSCCL tools write it.
std::string stepXml(int s, const char* type, char srcbuf, int srcoff, char dstbuf, int dstoff, int cnt = 1,
                    int depid = -1, int deps = -1, int hasdep = 0)
{
    std::ostringstream o;
    o << "      <step s=\"" << s << "\" type=\"" << type << "\" srcbuf=\"" << srcbuf << "\" srcoff=\"" << srcoff
      << "\" dstbuf=\"" << dstbuf << "\" dstoff=\"" << dstoff << "\" cnt=\"" << cnt << "\" depid=\"" << depid
      << "\" deps=\"" << deps << "\" hasdep=\"" << hasdep << "\"/>\n";
    return o.str();
}

int mod(int a, int n)
{
    return ((a % n) + n) % n;
}

/// Ring all-gather of n ranks, in place (rank r's input is output chunk r): rank r sends its
/// chunk to r+1, forwards n−2 chunks (rcs) and keeps the last (r).
std::string ringAllgather(int n)
{
    std::ostringstream o;
    o << "<algo name=\"ring-allgather\" proto=\"Simple\" nchannels=\"1\" nchunksperloop=\"" << n << "\" ngpus=\"" << n
      << "\" coll=\"allgather\" inplace=\"1\">\n";
    for (int r = 0; r < n; ++r) {
        o << "  <gpu id=\"" << r << "\" i_chunks=\"1\" o_chunks=\"" << n << "\" s_chunks=\"0\">\n";
        o << "    <tb id=\"0\" send=\"" << mod(r + 1, n) << "\" recv=\"" << mod(r - 1, n) << "\" chan=\"0\">\n";
        o << stepXml(0, "s", 'o', r, 'o', r);
        for (int k = 1; k <= n - 2; ++k)
            o << stepXml(k, "rcs", 'o', mod(r - k, n), 'o', mod(r - k, n));
        o << stepXml(n - 1, "r", 'o', mod(r - n + 1, n), 'o', mod(r - n + 1, n));
        o << "    </tb>\n  </gpu>\n";
    }
    o << "</algo>\n";
    return o.str();
}

/// Ring all-reduce of n ranks over `channels` channels, in place, n chunks per channel: chunk j's
/// partial starts at rank j and gathers one contribution per hop (rrs), is completed and stored
/// by rank j−1 (rrcs), and travels once more round the ring (rcs, and r at the last rank).
std::string ringAllreduce(int n, int channels, const char* reduceType = "rrs", int brokenRank = -1)
{
    std::ostringstream o;
    const int c = n * channels;
    o << "<algo name=\"ring-allreduce\" proto=\"Simple\" nchannels=\"" << channels << "\" nchunksperloop=\"" << c
      << "\" ngpus=\"" << n << "\" coll=\"allreduce\" inplace=\"1\">\n";
    for (int r = 0; r < n; ++r) {
        o << "  <gpu id=\"" << r << "\" i_chunks=\"" << c << "\" o_chunks=\"" << c << "\" s_chunks=\"0\">\n";
        for (int ch = 0; ch < channels; ++ch) {
            o << "    <tb id=\"" << ch << "\" send=\"" << mod(r + 1, n) << "\" recv=\"" << mod(r - 1, n) << "\" chan=\""
              << ch << "\">\n";
            const int base = ch * n;
            o << stepXml(0, "s", 'i', base + r, 'i', base + r);
            for (int k = 1; k <= n - 2; ++k) {
                const int j = base + mod(r - k, n);
                o << stepXml(k, r == brokenRank && ch == 0 && k == 1 ? reduceType : "rrs", 'i', j, 'i', j);
            }
            o << stepXml(n - 1, "rrcs", 'i', base + mod(r + 1, n), 'i', base + mod(r + 1, n));
            for (int k = n; k <= 2 * n - 3; ++k)
                o << stepXml(k, "rcs", 'i', base + mod(r - k, n), 'i', base + mod(r - k, n));
            o << stepXml(2 * n - 2, "r", 'i', base + mod(r + 2, n), 'i', base + mod(r + 2, n));
            o << "    </tb>\n";
        }
        o << "  </gpu>\n";
    }
    o << "</algo>\n";
    return o.str();
}

/// All-pairs all-reduce of n ranks, in place, n chunks: rank r sends chunk p to rank p's scratch
/// and receives everyone's chunk r; a local threadblock waits for those receives with nop steps
/// (one dependency each), adds them into chunk r (re), and the peer threadblocks send the sum
/// to everyone (after the last re) and receive theirs. `dropRank`/`dropPeer`: that rank's first
/// step towards that peer is removed (the rest renumbered).
std::string allPairsAllreduce(int n, int dropRank = -1, int dropPeer = -1)
{
    std::ostringstream o;
    o << "<algo name=\"allpairs\" proto=\"Simple\" nchannels=\"1\" nchunksperloop=\"" << n << "\" ngpus=\"" << n
      << "\" coll=\"allreduce\" inplace=\"1\">\n";
    for (int r = 0; r < n; ++r) {
        o << "  <gpu id=\"" << r << "\" i_chunks=\"" << n << "\" o_chunks=\"" << n << "\" s_chunks=\"" << n - 1
          << "\">\n";
        int tb = 0;
        std::map<int, int> tbOf; // peer → tb id
        for (int p = 0; p < n; ++p)
            if (p != r)
                tbOf[p] = tb++;
        const int local = tb;
        for (const auto& [p, id] : tbOf) {
            const int slot = p < r ? p : p - 1; // scratch slot of p's chunk
            o << "    <tb id=\"" << id << "\" send=\"" << p << "\" recv=\"" << p << "\" chan=\"0\">\n";
            std::vector<std::string> steps;
            const bool drop = r == dropRank && p == dropPeer;
            if (!drop)
                steps.push_back("s|i|" + std::to_string(p) + "|s|" + std::to_string(r < p ? r : r - 1) + "|-1|-1");
            steps.push_back("r|i|" + std::to_string(p) + "|s|" + std::to_string(slot) + "|-1|-1");
            steps.push_back("s|i|" + std::to_string(r) + "|i|" + std::to_string(r) + "|" + std::to_string(local) + "|" +
                            std::to_string(2 * (n - 1) - 1));
            steps.push_back("r|i|" + std::to_string(p) + "|i|" + std::to_string(p) + "|-1|-1");
            for (std::size_t s = 0; s < steps.size(); ++s) {
                std::istringstream f(steps[s]);
                std::string type, sb, so, db, dof, di, ds;
                std::getline(f, type, '|');
                std::getline(f, sb, '|');
                std::getline(f, so, '|');
                std::getline(f, db, '|');
                std::getline(f, dof, '|');
                std::getline(f, di, '|');
                std::getline(f, ds, '|');
                const bool received = type == "r" && db == "s";
                o << stepXml(static_cast<int>(s), type.c_str(), sb[0], std::stoi(so), db[0], std::stoi(dof), 1,
                             std::stoi(di), std::stoi(ds), received ? 1 : 0);
            }
            o << "    </tb>\n";
        }
        o << "    <tb id=\"" << local << "\" send=\"-1\" recv=\"-1\" chan=\"0\">\n";
        int s = 0;
        for (const auto& [p, id] : tbOf)
            o << stepXml(s++, "nop", 'i', -1, 'o', -1, 0, id, r == dropRank && p == dropPeer ? 0 : 1);
        for (int k = 0; k < n - 1; ++k)
            o << stepXml(s++, "re", 's', k, 'i', r, 1, -1, -1, k == n - 2 ? 1 : 0);
        o << "    </tb>\n  </gpu>\n";
    }
    o << "</algo>\n";
    return o.str();
}

MscclCheck check(const std::string& xml, const char* topology, std::vector<NodeId> placement = {})
{
    return checkMscclProgram(parseMscclXml(xml, "test.xml"), Topology::parse(topology), placement);
}

bool hasMscclFinding(const MscclCheck& c, int rank, const std::string& words)
{
    for (const MscclFinding& f : c.findings)
        if (f.rank == rank && f.what.find(words) != std::string::npos)
            return true;
    return false;
}

std::string mscclFindings(const MscclCheck& c)
{
    std::string s;
    for (const MscclFinding& f : c.findings)
        s += "rank " + std::to_string(f.rank) + ": " + f.what + "\n";
    return s;
}

/// (step, from, to) → the blocks that move: what "the same transfers" means.
std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::set<Block>> moves(const Schedule& s)
{
    std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::set<Block>> m;
    for (const Transfer& t : s.transfers())
        for (const Block& b : s.payload(t.payload))
            m[{t.step.value(), t.from.value(), t.to.value()}].insert(b);
    return m;
}

} // namespace

TEST_CASE("an MSCCL ring all-gather of 4 ranks: 12 chunk transfers in 3 steps, and valid", "[msccl]")
{
    // n ranks each send n−1 chunks (one per step): n(n−1) chunk transfers in n−1 steps.
    const MscclCheck ring = check(ringAllgather(4), "torus:4");
    INFO(mscclFindings(ring));
    CHECK(ring.valid());
    CHECK(ring.pattern == Pattern::Allgather);
    CHECK(ring.ranks == 4);
    CHECK(ring.chunkTransfers == 12);
    CHECK(ring.steps == 3);
    CHECK(ring.maxHops == 1);
    CHECK(ring.schedule.size() == 12);
    // Ranks 0..3 in a row of a 2-cube: 1 → 2 and 3 → 0 are two hops apart.
    CHECK(check(ringAllgather(4), "hypercube:2").maxHops == 2);
    // Placed along the Gray code 00 01 11 10 every send is one hop.
    const MscclCheck gray = check(ringAllgather(4), "hypercube:2", {NodeId{0}, NodeId{1}, NodeId{3}, NodeId{2}});
    CHECK(gray.valid());
    CHECK(gray.maxHops == 1);
    // topocast's own checker accepts the schedule the program becomes.
    CHECK(validate(ring.schedule, promisedValidateOptions(ring.schedule)).ok());
}

TEST_CASE("an MSCCL ring all-reduce of 8 ranks on two channels: counts, steps and a valid schedule", "[msccl]")
{
    // Per channel every rank sends 2(n−1) chunks: n·2(n−1)·channels = 8·14·2 = 224, in 2(n−1) = 14
    // steps; the two channels of one step between two ranks are one topocast transfer.
    const int n = 8, channels = 2;
    const MscclCheck c = check(ringAllreduce(n, channels), "torus:8");
    INFO(mscclFindings(c));
    CHECK(c.valid());
    CHECK(c.pattern == Pattern::Allreduce);
    CHECK(c.chunkTransfers == static_cast<std::uint64_t>(n * 2 * (n - 1) * channels));
    CHECK(c.steps == 2 * (n - 1));
    CHECK(c.schedule.size() == static_cast<std::size_t>(n * 2 * (n - 1)));
    CHECK(c.schedule.parts == static_cast<std::uint32_t>(n * channels));
    CHECK(validate(c.schedule, promisedValidateOptions(c.schedule)).ok());
}

TEST_CASE("an MSCCL all-pairs all-reduce with nop steps and dependencies, routed on a ring", "[msccl]")
{
    // Each rank sends its n−1 foreign chunks, then its reduced chunk to n−1 ranks: 2n(n−1) = 24.
    // The sums wait (nop, re) for every receive: 2 steps. On a 4-ring, ranks 0 and 2 are 2 hops apart.
    const MscclCheck c = check(allPairsAllreduce(4), "torus:4");
    INFO(mscclFindings(c));
    CHECK(c.valid());
    CHECK(c.chunkTransfers == 24);
    CHECK(c.steps == 2);
    CHECK(c.maxHops == 2);
    CHECK(validate(c.schedule, promisedValidateOptions(c.schedule)).ok());
}

namespace {

/// topocast's ring all-reduce on torus:4 as MSCCL XML (rank r's threadblock 1 sends to r + 1).
std::string exportedRing4()
{
    topocast::testing::TempDir dir;
    const std::string xml = (dir.path / "ring4.xml").string();
    REQUIRE(runCli({"export", "-t", "torus:4", "-a", "ring", "--pattern", "allreduce", "--format", "msccl-xml", "--out",
                    xml})
                .status == 0);
    std::ifstream in(xml);
    return {std::istreambuf_iterator<char>(in), {}};
}

} // namespace

TEST_CASE("broken MSCCL programs are found at the right rank", "[msccl]")
{
    SECTION("a step removed: the receive that waits for it deadlocks")
    {
        const MscclCheck c = check(allPairsAllreduce(4, 1, 2), "torus:4");
        INFO(mscclFindings(c));
        CHECK_FALSE(c.valid());
        CHECK(hasMscclFinding(c, 2, "never sent"));
        // The stream that waits stops there: rank 2 never receives rank 1's sum into chunk 1.
        CHECK(hasMscclFinding(c, 2, "rank 2 ends with output chunk 1 lacking"));
    }
    SECTION("a reduce turned into a copy loses that rank's contribution")
    {
        const MscclCheck c = check(ringAllreduce(8, 2, "rcs", 3), "torus:8");
        INFO(mscclFindings(c));
        CHECK_FALSE(c.valid());
        // Rank 3's first rrs adds its contribution to chunk 2 as it arrives in step 1; the copy overwrites it.
        bool found = false;
        for (const MscclFinding& f : c.findings)
            if (f.rank == 3 && f.chunk == 2 && f.step == 1u &&
                f.what.find("losing rank 3's contribution") != std::string::npos)
                found = true;
        CHECK(found);
        CHECK(hasMscclFinding(c, 0, "lacking rank 3's contribution to input chunk 2"));
        // The schedule says which chunks move where; whether a receiver adds or copies is in the
        // XML only. topocast's checker, which assumes every receiver adds, passes the same moves:
        // the XML check is the one that judges an imported program.
        CHECK(validate(c.schedule, promisedValidateOptions(c.schedule)).ok());
    }
    SECTION("a send of the wrong chunk: the first finding is that send, then what followed from it")
    {
        // Rank 0's first send carries input chunk 1 where the ring sends chunk 3: rank 1 adds
        // it into its chunk 3.
        std::string xml = exportedRing4();
        const auto tb1 = xml.find("<tb id=\"1\"", xml.find("<gpu id=\"0\""));
        const auto at = xml.find("type=\"s\" srcbuf=\"i\" srcoff=\"3\"", tb1);
        REQUIRE(at != std::string::npos);
        xml.replace(at, 30, "type=\"s\" srcbuf=\"i\" srcoff=\"1\"");
        const MscclCheck c = check(xml, "torus:4");
        INFO(mscclFindings(c));
        CHECK_FALSE(c.valid());
        REQUIRE_FALSE(c.findings.empty());
        const MscclFinding& first = c.findings.front();
        CHECK(first.rank == 0);
        CHECK(first.tb == 1);
        CHECK(first.s == 0);
        CHECK(first.step == 1u);
        CHECK(first.what.find("sends input chunk 1 to rank 1, whose tb 0 step 0 takes it into input chunk 3: rank 0's "
                              "contribution to input chunk 1 mixed into chunk 3") != std::string::npos);
        CHECK(hasMscclFinding(c, 2, "holding rank 0's contribution to input chunk 1, which does not belong there"));
    }
    SECTION("a peer out of range")
    {
        std::string xml = ringAllreduce(8, 1);
        const std::string tb5 = "<gpu id=\"5\"";
        const auto at = xml.find("send=\"6\"", xml.find(tb5));
        xml.replace(at, 8, "send=\"9\"");
        const MscclCheck c = check(xml, "torus:8");
        CHECK_FALSE(c.valid());
        CHECK(hasMscclFinding(c, 5, "send=\"9\" is not a peer"));
        CHECK(c.schedule.size() == 0);
    }
    SECTION("cnt 0, an offset past i_chunks, a send with no receive, a dependency cycle")
    {
        std::string xml = ringAllgather(4);
        std::string zero = xml, offset = xml, lonely = xml, cycle = xml;
        zero.replace(zero.find("cnt=\"1\""), 7, "cnt=\"0\"");
        CHECK(hasMscclFinding(check(zero, "torus:4"), 0, "cnt=\"0\""));
        offset.replace(offset.find("srcoff=\"0\""), 10, "srcoff=\"7\"");
        CHECK(hasMscclFinding(check(offset, "torus:4"), 0, "outside the output buffer of 4 chunks"));
        // Rank 2 gets a second threadblock that sends to rank 3 on channel 1: nobody receives it.
        const std::string extra =
            "    <tb id=\"1\" send=\"3\" recv=\"-1\" chan=\"1\">\n" + stepXml(0, "s", 'o', 2, 'o', 2) + "    </tb>\n";
        lonely.insert(lonely.find("  </gpu>", lonely.find("<gpu id=\"2\"")), extra);
        CHECK(hasMscclFinding(check(lonely, "torus:4"), 2, "a send with no receive"));
        // Rank 1's first send waits for its own last step.
        const std::string none = "depid=\"-1\" deps=\"-1\"";
        cycle.replace(cycle.find(none, cycle.find("<gpu id=\"1\"")), none.size(), "depid=\"0\" deps=\"3\"");
        const MscclCheck c = check(cycle, "torus:4");
        INFO(mscclFindings(c));
        CHECK(hasMscclFinding(c, 1, "dependency cycle"));
    }
}

TEST_CASE("bad MSCCL XML is refused with a reason, never expanded or crashed on", "[msccl]")
{
    CHECK_THROWS_WITH(parseMscclXml("<algo ngpus=\"2\" coll=\"allgather\">\n  <gpu id=\"0\"", "a.xml"),
                      Catch::Contains("a.xml:2: not well-formed XML"));
    CHECK_THROWS_WITH(parseMscclXml("<algo ngpus=\"two\" coll=\"allgather\"/>", "a.xml"),
                      Catch::Contains("ngpus=\"two\" is not a whole number"));
    CHECK_THROWS_WITH(parseMscclXml("<algo ngpus=\"2\" coll=\"allgather\"><gpu id=\"0\" i_chunks=\"1\" "
                                    "o_chunks=\"2\"><tb id=\"0\"><step s=\"0\" type=\"x\"/></tb></gpu></algo>",
                                    "a.xml"),
                      Catch::Contains("type=\"x\" is not an MSCCL op"));
    CHECK_THROWS_WITH(parseMscclXml("<html/>", "a.xml"), Catch::Contains("<html> is not allowed here"));
    CHECK_THROWS_WITH(parseMscclXml("", "a.xml"), Catch::Contains("a.xml"));
    // Billion laughs: ten levels of ten references; refused at its DOCTYPE, before any of it.
    std::string bomb = "<?xml version=\"1.0\"?>\n<!DOCTYPE algo [\n <!ENTITY lol0 \"lol\">\n";
    for (int i = 1; i < 10; ++i) {
        bomb += " <!ENTITY lol" + std::to_string(i) + " \"";
        for (int k = 0; k < 10; ++k)
            bomb += "&lol" + std::to_string(i - 1) + ";";
        bomb += "\">\n";
    }
    bomb += "]>\n<algo name=\"&lol9;\" ngpus=\"1\" coll=\"allgather\"/>\n";
    const auto t0 = std::chrono::steady_clock::now();
    CHECK_THROWS_WITH(parseMscclXml(bomb, "bomb.xml"), Catch::Contains("bomb.xml:2: a DOCTYPE is refused"));
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5)); // a guard against a hang, not a timing
    // A file past the limit is refused before it is read (a sparse file: no disk used).
    topocast::testing::TempDir dir;
    const auto big = dir.path / "big.xml";
    {
        std::ofstream(big) << "<algo/>";
    }
    std::filesystem::resize_file(big, kMaxMscclXmlBytes + 1);
    CHECK_THROWS_WITH(readMscclXml(big), Catch::Contains("is past the 64 MiB"));
    // An unknown collective, a rank count that is not the network's, a bad placement.
    CHECK_THROWS_WITH(check("<algo ngpus=\"4\" coll=\"allfoo\"/>", "torus:4"),
                      Catch::Contains("coll=\"allfoo\" is not a collective"));
    CHECK_THROWS_WITH(check(ringAllgather(4), "torus:5"),
                      Catch::Contains("the program has 4 ranks and the 5-node ring has 5 nodes"));
    CHECK_THROWS_WITH(parseRankPlacement("0\n1\n1\n2\n", Topology::parse("torus:4"), 4, "p.txt"),
                      Catch::Contains("p.txt:3: node (1) is already rank 1's (line 2)"));
    CHECK_THROWS_WITH(parseRankPlacement("0\n9\n", Topology::parse("torus:4"), 2, "p.txt"),
                      Catch::Contains("p.txt:2:"));
    CHECK(parseRankPlacement("# gray\n0\n1\n\n3\n2\n", Topology::parse("hypercube:2"), 4) ==
          std::vector<NodeId>{NodeId{0}, NodeId{1}, NodeId{3}, NodeId{2}});
}

/// The block sets each sender sends each receiver, in order (steps left out).
std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::set<Block>>> sequences(const Schedule& s)
{
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::set<Block>>> m;
    for (const auto& [key, blocks] : moves(s))
        m[{std::get<1>(key), std::get<2>(key)}].push_back(blocks);
    return m;
}

TEST_CASE("every pattern written as MSCCL XML and read back: the same transfers", "[msccl]")
{
    int programs = 0, exact = 0;
    for (const char* topology : {"torus:4x4", "hypercube:3"}) {
        const Topology topo = Topology::parse(topology);
        for (const AlgorithmInfo& a : algorithms()) {
            if (a.whyNot && a.whyNot(topo))
                continue;
            std::vector<std::string> patterns = a.patterns;
            if (patterns.empty())
                patterns.push_back("broadcast");
            for (const std::string& pattern : patterns) {
                Params p;
                if (!a.patterns.empty())
                    p.set("pattern", pattern);
                const bool rooted = hasRoot(parsePattern(pattern));
                Schedule s;
                try {
                    s = buildSchedule(a.name, topo, NodeId{rooted ? 5u : 0u}, p);
                } catch (const Error&) {
                    continue; // a pattern this algorithm has for other port models only
                }
                INFO(a.name << " " << pattern << " on " << topology);
                const MscclProgram program = mscclFromSchedule(s);
                std::ostringstream xml;
                writeMscclXml(xml, program);
                const MscclCheck back = checkMscclProgram(parseMscclXml(xml.str()), topo);
                INFO(mscclFindings(back));
                const bool valid = validate(s, promisedValidateOptions(s)).ok();
                CHECK(back.valid() == valid);
                if (mscclWaitingSends(s) == 0) {
                    CHECK(moves(back.schedule) == moves(s));
                    ++exact;
                } else {
                    // Sends after a wait run sooner; the same blocks go the same way in the same order.
                    CHECK(sequences(back.schedule) == sequences(s));
                    CHECK(back.steps < s.stepCount());
                }
                ++programs;
            }
        }
    }
    CHECK(programs >= 60);
    CHECK(exact >= 50);
}

TEST_CASE("scatter and all-to-all on a torus (no topocast algorithm builds them there) read back the same", "[msccl]")
{
    // Direct, routed: the source sends node d its block in step d; in step k every node v sends
    // node v+k its block. Neither waits, so the transfers come back in the same steps.
    const Topology torus = Topology::parse("torus:3x3");
    const std::uint32_t n = torus.nodeCount();
    Schedule scatter(torus, NodeId{4}, Pattern::Scatter, PortModel::OnePort);
    for (std::uint32_t d = 0, step = 1; d < n; ++d)
        if (d != 4) {
            const Block b{4, d, 0};
            scatter.add(NodeId{4}, NodeId{d}, StepNo{step++}, RouteSpec::dimensionOrder(), scatter.addPayload({&b, 1}));
        }
    Schedule alltoall(torus, NodeId{0}, Pattern::Alltoall, PortModel::OnePort);
    for (std::uint32_t k = 1; k < n; ++k)
        for (std::uint32_t v = 0; v < n; ++v) {
            const Block b{v, (v + k) % n, 0};
            alltoall.add(NodeId{v}, NodeId{(v + k) % n}, StepNo{k}, RouteSpec::dimensionOrder(),
                         alltoall.addPayload({&b, 1}));
        }
    for (Schedule* s : {&scatter, &alltoall}) {
        s->contentionFree = false;
        s->finalize();
        INFO(toString(s->pattern()));
        REQUIRE(validate(*s, promisedValidateOptions(*s)).ok());
        REQUIRE(mscclWaitingSends(*s) == 0);
        std::ostringstream xml;
        writeMscclXml(xml, mscclFromSchedule(*s));
        const MscclCheck back = checkMscclProgram(parseMscclXml(xml.str()), torus);
        INFO(mscclFindings(back));
        CHECK(back.valid());
        CHECK(back.maxHops == 2);
        CHECK(moves(back.schedule) == moves(*s));
    }
}

TEST_CASE("topocast-cli validate, import and export speak MSCCL XML", "[msccl][cli]")
{
    topocast::testing::TempDir dir;
    const std::string xml = (dir.path / "ring.xml").string(), json = (dir.path / "ring.json").string();
    REQUIRE(runCli({"export", "-t", "torus:4x4", "-a", "ring", "--pattern", "allreduce", "--format", "msccl-xml",
                    "--out", xml})
                .status == 0);

    // 16 ranks send 2·15 chunks each: 480 chunk transfers in 30 steps, every send one hop.
    const auto v = runCli({"validate", xml, "--topology", "torus:4x4", "--json"});
    REQUIRE(v.status == 0);
    const auto doc = nlohmann::json::parse(v.out);
    CHECK(doc["format"] == "topocast-msccl-validation");
    CHECK(doc["valid"] == true);
    CHECK(doc["collective"] == "allreduce");
    CHECK(doc["ranks"] == 16);
    CHECK(doc["chunk_transfers"] == 480);
    CHECK(doc["steps"] == 30);
    CHECK(doc["max_hops"] == 1);
    CHECK(doc["findings"].empty());

    // Import writes a schedule that validate accepts, with the ring's transfers.
    const auto imp = runCli({"import", xml, "--topology", "torus:4x4", "--out", json});
    INFO(imp.err);
    REQUIRE(imp.status == 0);
    CHECK(imp.out.find("480 transfers in 30 steps") != std::string::npos);
    const Schedule imported = scheduleFromJson(readJsonFile(json));
    CHECK(imported.pattern() == Pattern::Allreduce);
    CHECK(imported.size() == 480);
    CHECK(runCli({"validate", json}).status == 0);

    // Placed in another order, the ring's neighbours are no longer the network's.
    const std::string ranks = (dir.path / "ranks.txt").string();
    {
        std::ofstream f(ranks);
        for (int r = 15; r >= 0; --r)
            f << (r % 4) << "," << (r / 4) << "\n"; // (x,y) transposed and reversed
    }
    const auto placed =
        nlohmann::json::parse(runCli({"validate", xml, "--topology", "torus:4x4", "--ranks", ranks, "--json"}).out);
    CHECK(placed["valid"] == true);
    CHECK(placed["max_hops"] == 1); // a transposed ring still moves along a torus line

    // Broken: a send turned into a nop leaves its receive waiting.
    {
        std::ifstream in(xml);
        std::string text((std::istreambuf_iterator<char>(in)), {});
        text.replace(text.find("type=\"s\""), 8, "type=\"nop\"");
        std::ofstream(xml) << text;
    }
    const auto broken = runCli({"validate", xml, "--topology", "torus:4x4"});
    CHECK(broken.status == 1);
    CHECK(broken.out.find("INVALID") != std::string::npos);
    CHECK(broken.out.find("never sent") != std::string::npos);

    // A program that sends nothing has no schedule to write.
    const std::string quiet = (dir.path / "quiet.xml").string();
    std::ofstream(quiet) << "<algo name=\"quiet\" ngpus=\"2\" coll=\"allreduce\" inplace=\"1\">\n"
                            "  <gpu id=\"0\" i_chunks=\"1\" o_chunks=\"1\"/>\n  <gpu id=\"1\" i_chunks=\"1\" "
                            "o_chunks=\"1\"/>\n</algo>\n";
    const auto q = runCli({"import", quiet, "-t", "mesh:2", "--out", json});
    CHECK(q.status == 2);
    CHECK(q.err.find("sends nothing") != std::string::npos);
    CHECK(runCli({"validate", quiet, "-t", "mesh:2"}).status == 1); // every rank lacks the other's contribution

    // Without a network: a clear error, exit 2.
    const auto none = runCli({"validate", xml});
    CHECK(none.status == 2);
    CHECK(none.err.find("give --topology") != std::string::npos);
    // A schedule JSON takes no --ranks.
    CHECK(runCli({"validate", json, "--ranks", ranks}).status == 2);
    // Export names the waits that close up (the one-port hp scatter waits every other step).
    const auto hp =
        runCli({"export", "-t", "hypercube:3", "-a", "hp", "--pattern", "scatter", "--format", "msccl-xml"});
    CHECK(hp.status == 0);
    CHECK(hp.err.find("sends follow a step in which their node waits") != std::string::npos);
    CHECK(runCli({"export", "-t", "torus:4x4", "-a", "ring", "--format", "msccl-xmll"}).err.find("or msccl-xml") !=
          std::string::npos);
}

TEST_CASE(
    "a program found wrong stays wrong: import writes nothing without --force, and with it the file keeps the findings",
    "[msccl][cli]")
{
    topocast::testing::TempDir dir;
    const std::string xml = (dir.path / "ring.xml").string(), json = (dir.path / "ring.json").string();
    REQUIRE(runCli({"export", "-t", "torus:8", "-a", "ring", "--pattern", "allreduce", "--format", "msccl-xml", "--out",
                    xml})
                .status == 0);
    const std::string right = (dir.path / "right.json").string();
    REQUIRE(runCli({"import", xml, "-t", "torus:8", "--out", right}).status == 0);
    // Rank 3's first receive-reduce turned into a plain receive: its contribution is lost.
    {
        std::ifstream in(xml);
        std::string text((std::istreambuf_iterator<char>(in)), {});
        const auto at = text.find("type=\"rrc\"", text.find("<gpu id=\"3\""));
        text.replace(at, 10, "type=\"r\"");
        std::ofstream(xml) << text;
    }
    const auto checked = runCli({"validate", xml, "-t", "torus:8"});
    REQUIRE(checked.status == 1);

    const auto refused = runCli({"import", xml, "-t", "torus:8", "--out", json});
    CHECK(refused.status == 1);
    CHECK_THAT(refused.out, Catch::Contains("nothing written (--force writes it with its findings recorded"));
    CHECK_FALSE(std::filesystem::exists(json));

    const auto forced = runCli({"import", xml, "-t", "torus:8", "--out", json, "--force"});
    CHECK(forced.status == 1);
    REQUIRE(std::filesystem::exists(json));
    // The moves are the right program's; the file says what the program did wrong.
    const Schedule wrong = scheduleFromJson(readJsonFile(json));
    const Schedule good = scheduleFromJson(readJsonFile(right));
    CHECK(wrong.size() == good.size());
    const std::optional<ImportFindings> recorded = importFindings(wrong);
    REQUIRE(recorded);
    CHECK_FALSE(importFindings(good));

    // validate judges the file as the XML check did: exit 1, the same findings in the same order.
    const auto v = runCli({"validate", json});
    CHECK(v.status == 1);
    std::vector<std::string> xmlLines, jsonLines;
    for (std::istringstream in(checked.out); std::getline(in, xmlLines.emplace_back());)
        ;
    for (std::istringstream in(v.out); std::getline(in, jsonLines.emplace_back());)
        ;
    std::size_t listed = 0;
    for (const std::string& line : xmlLines)
        if (line.rfind("  - ", 0) == 0) {
            const std::string want =
                "  - imported from " + xml + ", which the allreduce check found wrong: " + line.substr(4);
            CHECK(std::find(jsonLines.begin(), jsonLines.end(), want) != jsonLines.end());
            ++listed;
        }
    CHECK(listed == recorded->count);
    CHECK(listed >= 2);
    const auto vj = nlohmann::json::parse(runCli({"validate", json, "--json"}).out);
    CHECK(vj["valid"] == false);
    CHECK(vj["violation_count"] == recorded->count);
    CHECK(vj["findings"][0]["rule"] == "found wrong at import");
    // Written back unchanged (schedule → file → schedule keeps the findings).
    const std::string again = (dir.path / "again.json").string();
    {
        std::ofstream out(again);
        writeScheduleJson(out, wrong, computeMetrics(wrong));
    }
    CHECK(importFindings(scheduleFromJson(readJsonFile(again)))->texts == recorded->texts);
    // Exported as a program or a table it would read as a correct one: refused, the reason named.
    for (const char* format : {"msccl-xml", "goal", "csv"}) {
        const auto e = runCli({"export", json, "--format", format});
        CHECK(e.status == 2);
        CHECK_THAT(e.err, Catch::Contains("which the allreduce check found wrong"));
    }
    CHECK(runCli({"export", json, "--format", "json"}).out.find("\"import_findings\"") != std::string::npos);
}

TEST_CASE("an unknown collective is named with the file and line of its <algo>", "[msccl][cli]")
{
    topocast::testing::TempDir dir;
    const std::string xml = (dir.path / "coll.xml").string();
    std::ofstream(xml) << "<?xml version=\"1.0\"?>\n<algo name=\"x\" ngpus=\"2\" coll=\"allredux\" inplace=\"1\">\n"
                          "  <gpu id=\"0\" i_chunks=\"1\" o_chunks=\"1\"/>\n  <gpu id=\"1\" i_chunks=\"1\" "
                          "o_chunks=\"1\"/>\n</algo>\n";
    const auto r = runCli({"validate", xml, "-t", "mesh:2"});
    CHECK(r.status == 2);
    CHECK_THAT(r.err,
               Catch::Contains(xml + ":2: coll=\"allredux\" is not a collective topocast checks; use allgather"));
}

TEST_CASE("MSCCL XML → import → export → validate: every program of the suite comes back the same", "[msccl][cli]")
{
    // The programs of the suite's MSCCL corpus that are right (the others are refused, below), and
    // topocast's own exports of a reduction: each imported, the schedule file exported as MSCCL XML
    // again, that program checked valid, and imported again to the same transfers.
    topocast::testing::TempDir dir;
    const std::string corpus = std::string(TOPOCAST_SOURCE_DIR) + "/tests/fuzz/corpus/fuzz_msccl_xml/";
    const std::string own = (dir.path / "bucket.xml").string();
    REQUIRE(runCli({"export", "-t", "torus:3x3", "-a", "bucket", "--pattern", "allreduce", "--format", "msccl-xml",
                    "--out", own})
                .status == 0);
    const std::vector<std::pair<std::string, std::string>> programs{
        {corpus + "binomial-gather-2cube.xml", "hypercube:2"}, {corpus + "hp-alltoall-2cube.xml", "hypercube:2"},
        {corpus + "rabenseifner-rs-2x2.xml", "mesh:2x2"},      {corpus + "ring-allreduce-2cube.xml", "hypercube:2"},
        {corpus + "sbnt-scatter-2cube.xml", "hypercube:2"},    {own, "torus:3x3"},
    };
    const std::string first = (dir.path / "first.json").string(), back = (dir.path / "back.xml").string(),
                      second = (dir.path / "second.json").string();
    for (const auto& [xml, topology] : programs) {
        INFO(xml << " on " << topology);
        REQUIRE(runCli({"validate", xml, "-t", topology}).status == 0);
        REQUIRE(runCli({"import", xml, "-t", topology, "--out", first}).status == 0);
        const CliRun exported = runCli({"export", first, "--format", "msccl-xml", "--out", back});
        INFO(exported.err);
        REQUIRE(exported.status == 0);
        const CliRun checked = runCli({"validate", back, "-t", topology, "--json"});
        REQUIRE(checked.status == 0);
        CHECK(nlohmann::json::parse(checked.out)["valid"] == true);
        REQUIRE(runCli({"import", back, "-t", topology, "--out", second}).status == 0);
        const auto a = readJsonFile(first), b = readJsonFile(second);
        CHECK(a["transfers"] == b["transfers"]);
        CHECK(a["pattern"] == b["pattern"]);
        CHECK(runCli({"validate", second}).status == 0);
    }
    for (const char* refused : {"cycle.xml", "inplace-alias-past-output.xml"})
        CHECK(runCli({"import", corpus + refused, "-t", "hypercube:2", "--out", first}).status == 2);
}

TEST_CASE("MSCCL copy of the wrong chunk: the first finding is the send that put it where it does not belong",
          "[msccl][cli]")
{
    // The ring all-gather with rank 0 passing on its own chunk where it should pass rank 3's: rank 1
    // takes it into output chunk 3, and rank 2 gets it from rank 1 — one cause, two wrong ends.
    topocast::testing::TempDir dir;
    const std::string xml = (dir.path / "ag.xml").string();
    REQUIRE(runCli({"export", "-t", "torus:4", "-a", "ring", "--pattern", "allgather", "--format", "msccl-xml", "--out",
                    xml})
                .status == 0);
    std::string text;
    {
        std::ifstream in(xml);
        text.assign(std::istreambuf_iterator<char>(in), {});
    }
    const std::string send = R"(<step s="1" type="s" srcbuf="o" srcoff="3" dstbuf="o" dstoff="3")";
    const auto at = text.find(send); // the first: rank 0's
    REQUIRE(at != std::string::npos);
    REQUIRE(text.rfind("<gpu id=\"0\"", at) != std::string::npos);
    REQUIRE(text.rfind("<gpu id=\"1\"", at) == std::string::npos);
    text.replace(at, send.size(), R"(<step s="1" type="s" srcbuf="o" srcoff="0" dstbuf="o" dstoff="3")");
    std::ofstream(xml) << text;
    const auto v = runCli({"validate", xml, "-t", "torus:4", "--json"});
    CHECK(v.status == 1);
    const auto findings = nlohmann::json::parse(v.out)["findings"];
    REQUIRE(findings.size() == 3);
    CHECK(findings[0]["step"] == 2);
    CHECK(findings[0]["rank"] == 0);
    CHECK(findings[0]["kind"] == "data");
    CHECK(findings[0]["what"] ==
          "tb 1 step 1 sends output chunk 0 to rank 1, whose tb 0 step 1 takes it into output "
          "chunk 3: rank 0's input chunk 0 placed in output chunk 3, where rank 3's input chunk 0 "
          "belongs (the wrong chunk sent, or received into the wrong place?)");
    CHECK(findings[1]["what"].get<std::string>().find("rank 1 ends with output chunk 3") != std::string::npos);
    CHECK(findings[2]["what"].get<std::string>().find("rank 2 ends with output chunk 3") != std::string::npos);
}
