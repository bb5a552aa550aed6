// The divisible-load Scatter(p) schedule, its registry entry, scenarios and `topocast-cli divisible`
// (Drozdowski & Głazek §2.1–§2.2, and §3 with its time diagram, Fig. 3; the (x, y, z) layout is our
// reconstruction of the paper's lost Figs. 1–2).

#include "topocast/algorithms/divisible_load.h"
#include "topocast/algorithms/figures.h"
#include "topocast/algorithms/registry.h"
#include "topocast/analysis/metrics.h"
#include "topocast/analysis/validate.h"
#include "topocast/io/figures_json.h"
#include "topocast/io/scenario_json.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/error.h"

#include "commands.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

using namespace topocast;
using Catch::Matchers::Contains;

namespace {

Params layersParams(int p, int h)
{
    return Params{{"p", std::to_string(p)}, {"layers", std::to_string(h)}};
}

bool relativelyClose(double a, double b, double tol = 1e-9)
{
    return std::abs(a - b) <= tol * std::max(std::abs(a), std::abs(b));
}

// Checks a divisible-load schedule against the model and the checker.
void checkSchedule(const Schedule& s, int p, int h)
{
    INFO(s.topology().spec() << " p = " << p << " h = " << h << " source " << s.topology().nodeName(s.source()));
    CHECK(s.pattern() == Pattern::Scatter);
    CHECK(s.portModel() == PortModel::MultiPort);
    CHECK(s.maxSendsPerStep == p);
    CHECK(s.sizeUnit == "load");
    CHECK(s.stepCount() == static_cast<std::uint32_t>(h));
    CHECK(s.stepLabels.size() == static_cast<std::size_t>(h));
    DivisibleLoadParams pr;
    pr.ports = p;
    pr.layers = h;
    const auto model = solveDivisibleLoad(pr);
    std::set<NodeId> receivers;
    for (int k = 1; k <= h; ++k) {
        const auto step = s.stepTransfers(StepNo{static_cast<std::uint32_t>(k)});
        CHECK(step.size() == static_cast<std::size_t>(model.layerSize[static_cast<std::size_t>(k)]));
        std::map<NodeId, int> sends;
        bool sizes = true, tags = true;
        for (const Transfer& t : step) {
            sizes = sizes && t.size == model.messageSize[static_cast<std::size_t>(k)];
            tags = tags && t.tag == static_cast<std::uint32_t>(k);
            ++sends[t.from];
            receivers.insert(t.to);
            // Receiver's own block plus its descendants: (p+1)^(h−k) blocks.
            CHECK(s.payload(t.payload).size() == static_cast<std::size_t>(std::pow(p + 1.0, h - k)));
        }
        CHECK(sizes);
        CHECK(tags);
        // Every active processor (layers < k) sends exactly p messages in move k.
        CHECK(sends.size() == static_cast<std::size_t>(std::pow(p + 1.0, k - 1)));
        for (const auto& [node, count] : sends)
            CHECK(count == p);
    }
    CHECK(receivers.size() + 1 == static_cast<std::size_t>(std::pow(p + 1.0, h)));
    CHECK_FALSE(receivers.count(s.source()));
    ValidateOptions vo;
    vo.forbidStepContention = false;
    const Validation v = validate(s, vo);
    INFO((v.violations.empty() ? std::string() : v.violations.front()));
    CHECK(v.ok());
    const Metrics m = computeMetrics(s);
    CHECK(m.maxSendsPerNodeStep == static_cast<std::uint32_t>(h > 0 ? p : 0));
    CHECK(m.maxReceivesPerNodeStep == (h > 0 ? 1u : 0u));
    // The info the app draws from.
    for (const char* key :
         {"alpha", "lambda", "speedup", "limit", "bound", "h_max", "feasible", "timeline", "placement", "routes"})
        CHECK(scheduleInfo(s).contains(key));
    CHECK(relativelyClose(scheduleInfo(s)["speedup"].get<double>(), model.speedup));
    CHECK(scheduleInfo(s)["timeline"]["rows"].size() == static_cast<std::size_t>(h) + 1);
    CHECK(scheduleInfo(s)["routes"]["contention_uses"].get<std::uint64_t>() == m.contentionUses);
}

} // namespace

TEST_CASE("divisible-load schedules for p = 1..6 on meshes that fit exactly pass the checker (spec §1.5)",
          "[divisible]")
{
    const std::vector<std::pair<int, int>> cases = {{1, 0}, {1, 3}, {1, 6}, {1, 7}, {2, 3}, {2, 5}, {3, 3},
                                                    {3, 4}, {3, 6}, {4, 3}, {4, 4}, {5, 3}, {6, 3}};
    for (const auto& [p, h] : cases) {
        // The mesh is the pattern's bounding box; the source sits where the originator does.
        const auto box = scatterBox(p, h);
        std::vector<int> sides;
        Coord source;
        for (std::size_t a = 0; a < 3; ++a) {
            sides.push_back(box[1][a] - box[0][a] + 1);
            source.push_back(box[2][a] - box[0][a]);
        }
        const Topology topo = Topology::mesh(sides);
        const Schedule s = buildSchedule("divisible-load", topo, topo.id(source), layersParams(p, h));
        checkSchedule(s, p, h);
    }
    const Topology torus = Topology::parse("torus:7x7x7");
    checkSchedule(buildSchedule("divisible-load", torus, NodeId{0}, layersParams(6, 3)), 6, 3);
    // Spot sizes: p = 4, h = 4 spans 21×21×25 (spec §1.5).
    const auto box = scatterBox(4, 4);
    CHECK(box[1][0] - box[0][0] + 1 == 21);
    CHECK(box[1][2] - box[0][2] + 1 == 25);
}

TEST_CASE("p = 1, 2 use the spec's contention-free routes, p = 3 contends only in move 2 of each step "
          "(spec §1.5 Routes)",
          "[divisible]")
{
    for (const auto& [p, h, spec] : {std::tuple{1, 9, "mesh:8x8x8"}, std::tuple{2, 6, "mesh:9x9x9"}}) {
        const Topology topo = Topology::parse(spec);
        const Schedule s =
            buildSchedule("divisible-load", topo, NodeId{0 + (p == 2 ? topo.id({4, 4, 4}) : 0)}, layersParams(p, h));
        const Validation v = validate(s); // step contention forbidden
        INFO("p = " << p << ": " << (v.violations.empty() ? std::string() : v.violations.front()));
        CHECK(v.ok());
        CHECK(computeMetrics(s).contentionUses == 0);
    }
    const Topology topo = Topology::parse("mesh:16x16x16");
    const Schedule s = buildSchedule("divisible-load", topo, topo.id({0, 0, 5}), layersParams(3, 6));
    const Metrics m = computeMetrics(s);
    CHECK(m.contentionUses > 0);
    for (const Contention& c : m.contentions)
        CHECK((c.step == 2 || c.step == 5));
    const auto perMove = scheduleInfo(s)["routes"]["contention_uses_per_move"];
    REQUIRE(perMove.size() == 6);
    CHECK(perMove[0] == 0);
    CHECK(perMove[2] == 0);
    CHECK(perMove[3] == 0);
    CHECK(perMove[5] == 0);
    // Move 2 goes straight along x: each sender sends 3 messages of 1, 2 and 3 strides σ, so its
    // first σ x channels carry 3 messages and the next σ carry 2: 5σ contended uses on 2σ
    // channels per sender. Step 2 (move 2 of the first step): 4 senders, σ = 4 (80 uses on 32
    // channels); step 5: 256 senders, σ = 1 (1280 uses on 512 channels).
    auto senders = [&](std::uint32_t step) {
        std::set<NodeId> from;
        for (const Transfer& t : s.stepTransfers(StepNo{step}))
            from.insert(t.from);
        return from.size();
    };
    REQUIRE(senders(2) == 4);
    REQUIRE(senders(5) == 256);
    CHECK(perMove[1].get<std::uint64_t>() == 4 * 5 * 4);
    CHECK(perMove[4].get<std::uint64_t>() == 256 * 5 * 1);
    const auto perMoveChannels = scheduleInfo(s)["routes"]["contended_channels_per_move"];
    CHECK(perMoveChannels[1].get<std::uint64_t>() == 4 * 2 * 4);
    CHECK(perMoveChannels[4].get<std::uint64_t>() == 256 * 2 * 1);
    CHECK(m.contentionUses == 80 + 1280);
}

TEST_CASE("p ≥ 4 routes are display only: contention is reported, not hidden (spec §1.5)", "[divisible]")
{
    const Topology topo = Topology::parse("mesh:7x7x7");
    const Schedule s = buildSchedule("divisible-load", topo, topo.id({3, 3, 3}), layersParams(6, 3));
    const Metrics m = computeMetrics(s);
    CHECK(scheduleInfo(s)["routes"]["contention_uses"].get<std::uint64_t>() == m.contentionUses);
    CHECK(scheduleInfo(s)["routes"]["kind"].get<std::string>().find("display only") != std::string::npos);
    CHECK(scheduleInfo(s)["warnings"].size() >= 1); // p = 6 on a mesh is the paper's torus scheme
    if (m.contentionUses > 0)
        CHECK_FALSE(validate(s).ok()); // the checker sees the same contention
}

TEST_CASE("placement: the originator is the source, axes are reflected when the pattern would leave the mesh",
          "[divisible]")
{
    const Topology topo = Topology::parse("mesh:4x4x4");
    // p = 1 grows towards +x, +y, +z from its originator; from the far corner it is reflected.
    for (const char* src : {"0,0,0", "3,3,3", "0,3,0", "3,0,3"}) {
        const Schedule s = buildSchedule("divisible-load", topo, topo.parseNode(src), layersParams(1, 6));
        checkSchedule(s, 1, 6);
        CHECK(computeMetrics(s).contentionUses == 0);
    }
    // p = 3: y and z are reflected together.
    for (const char* src : {"0,0,1", "3,0,1", "0,3,2", "3,3,2"}) {
        const Schedule s = buildSchedule("divisible-load", topo, topo.parseNode(src), layersParams(3, 3));
        checkSchedule(s, 3, 3);
        CHECK(scheduleInfo(s)["placement"]["originator"] == nlohmann::ordered_json(topo.coords(s.source())));
    }
    // Larger meshes leave nodes idle: the schedule names its participants.
    const Topology big = Topology::parse("mesh:10x9x8");
    const Schedule s = buildSchedule("divisible-load", big, big.parseNode("5,5,5"), layersParams(2, 3));
    checkSchedule(s, 2, 3);
    CHECK(s.participants.size() == 27);
    CHECK(scheduleInfo(s)["placement"]["unused_nodes"] == 720 - 27);
}

TEST_CASE("the layers default to the largest feasible h that fits the mesh at the source", "[divisible]")
{
    const Topology t16 = Topology::parse("mesh:16x16x16");
    const Schedule s3 = buildSchedule("divisible-load", t16, t16.parseNode("0,0,5"), Params{{"p", "3"}});
    CHECK(s3.stepCount() == 6);
    CHECK(scheduleInfo(s3)["layers_chosen"].get<std::string>().rfind("auto", 0) == 0);
    const Schedule s1 = buildSchedule("divisible-load", t16, NodeId{0}, Params{{"p", "1"}});
    CHECK(s1.stepCount() == 12);
    // Feasibility caps it: p = 6 stops at h_max = 6 even on a torus big enough for more.
    const Topology t49 = Topology::parse("torus:7x7x7");
    const Schedule s6 = buildSchedule("divisible-load", t49, NodeId{0}, Params{{"p", "6"}});
    CHECK(s6.stepCount() == 3);
}

TEST_CASE("JSON round trip keeps participants, sizes and info, the reloaded schedule still validates", "[divisible]")
{
    const Topology topo = Topology::parse("mesh:6x5x5");
    const Schedule s = buildSchedule("divisible-load", topo, topo.parseNode("1,1,1"), layersParams(2, 3));
    const auto doc = toJson(s, computeMetrics(s));
    CHECK(doc["speedup"].is_number());
    CHECK(doc["timeline"]["rows"].size() == 4);
    const Schedule back = scheduleFromJson(nlohmann::json::parse(doc.dump()));
    CHECK(back.participants.size() == 27);
    CHECK(back.size() == s.size());
    ValidateOptions vo;
    vo.forbidStepContention = false;
    CHECK(validate(back, vo).ok());
}

TEST_CASE("bad divisible-load requests give clear errors", "[divisible]")
{
    const Topology t8 = Topology::parse("mesh:8x8x8");
    CHECK_THROWS_WITH(buildSchedule("divisible-load", Topology::parse("mesh:8x8"), NodeId{0}, layersParams(1, 2)),
                      Contains("3-D mesh"));
    CHECK_THROWS_WITH(buildSchedule("divisible-load", Topology::parse("hypercube:6"), NodeId{0}, layersParams(1, 2)),
                      Contains("3-D mesh"));
    CHECK_THROWS_WITH(buildSchedule("divisible-load", t8, NodeId{0}, layersParams(7, 2)),
                      Contains("p = 7") && Contains("1..6"));
    CHECK_THROWS_WITH(buildSchedule("divisible-load", t8, NodeId{0}, layersParams(0, 2)), Contains("1..6"));
    CHECK_THROWS_WITH(buildSchedule("divisible-load", t8, NodeId{0}, Params{{"p", "2"}, {"layers", "2"}, {"A", "0"}}),
                      Contains("A = 0"));
    CHECK_THROWS_WITH(buildSchedule("divisible-load", t8, NodeId{0}, Params{{"p", "2"}, {"layers", "2"}, {"V", "-5"}}),
                      Contains("V = -5"));
    CHECK_THROWS_WITH(buildSchedule("divisible-load", t8, NodeId{0}, Params{{"p", "2"}, {"layers", "2"}, {"C", "-1"}}),
                      Contains("C = -1"));
    // h beyond feasibility names h_max.
    CHECK_THROWS_WITH(buildSchedule("divisible-load", Topology::parse("torus:49x49x49"), NodeId{0}, layersParams(6, 7)),
                      Contains("infeasible") && Contains("largest feasible number of layers is 6"));
    // Mesh too small for the layers.
    CHECK_THROWS_WITH(buildSchedule("divisible-load", t8, NodeId{0}, layersParams(3, 6)), Contains("too small"));
    CHECK_THROWS_WITH(buildSchedule("divisible-load", t8, NodeId{0}, layersParams(1, 10)), Contains("too small"));
    // The pattern fits the mesh, but not around this source.
    const Topology t16 = Topology::parse("mesh:16x16x16");
    CHECK_THROWS_WITH(buildSchedule("divisible-load", t16, t16.parseNode("3,3,3"), layersParams(3, 6)),
                      Contains("sources that fit"));
    // Auto layers: not even one layer of Scatter(2) (originator in the centre) fits at a corner.
    CHECK_THROWS_WITH(buildSchedule("divisible-load", t8, NodeId{0}, Params{{"p", "2"}}),
                      Contains("not even one layer"));
    // "ports" (the common CLI option) is accepted as p when it is a number.
    CHECK(buildSchedule("divisible-load", t8, NodeId{0}, Params{{"ports", "1"}, {"layers", "3"}}).maxSendsPerStep == 1);
    CHECK_THROWS_WITH(buildSchedule("divisible-load", t8, NodeId{0}, Params{{"ports", "one"}}), Contains("1..6"));
    CHECK_THROWS_WITH(buildSchedule("divisible-load", t8, NodeId{0}, Params{{"p", "1"}, {"pattern", "broadcast"}}),
                      Contains("divisible-load does not take pattern 'broadcast'; allowed: scatter"));
    const auto& info = findAlgorithm("divisible-load");
    CHECK(info.whyNot(t8) == std::nullopt);
    CHECK(info.whyNot(Topology::parse("mesh:8x8")).value_or("").find("(p+1)") != std::string::npos);
}

TEST_CASE("scenario presets Scatter(1), Scatter(3), Scatter(6) load, build and validate", "[divisible]")
{
    const std::filesystem::path dir = std::filesystem::path(TOPOCAST_SOURCE_DIR) / "resources" / "scenarios";
    for (const char* name : {"divisible-scatter1.json", "divisible-scatter3.json", "divisible-scatter6.json"}) {
        INFO(name);
        const Scenario sc = loadScenario(dir / name);
        CHECK(sc.algorithm == "divisible-load");
        const Schedule s = buildScenario(sc);
        ValidateOptions vo;
        vo.forbidStepContention = false;
        CHECK(validate(s, vo).ok());
        CHECK(s.stepCount() > 0);
    }
}

TEST_CASE("topocast-cli divisible prints shares, speedup, bound and timeline", "[divisible][cli]")
{
    auto run = [](std::vector<std::string> args, std::string& out, std::string& err) {
        std::ostringstream o, e;
        cli::Io io{o, e};
        const int rc = cli::run(args, io);
        out = o.str();
        err = e.str();
        return rc;
    };
    std::string out, err;
    // Gantt example 1 (spec §4): p = 3, h = 4.
    REQUIRE(run({"divisible", "--ports", "3", "--layers", "4", "--A", "1e-6", "--C", "3.3e-9", "--S", "8.57e-6", "--V",
                 "1e6", "--json"},
                out, err) == 0);
    const auto j = nlohmann::json::parse(out);
    CHECK(relativelyClose(j["alpha"][0].get<double>(), 5019.302267713219));
    CHECK(relativelyClose(j["alpha"][4].get<double>(), 3890.543500207703));
    CHECK(j["lambda"].size() == 5);
    CHECK(relativelyClose(j["speedup"].get<double>(), 199.2308784494857));
    CHECK(relativelyClose(j["limit"].get<double>(), 910.0909090909091));
    CHECK(j["bound"].get<double>() == 256);
    CHECK(j["h_max"] == 9);
    CHECK(j["feasible"] == true);
    CHECK(relativelyClose(j["timeline"]["finish_time"].get<double>(), 5.019302267713219e-3));
    for (const auto& row : j["timeline"]["rows"])
        CHECK(relativelyClose(row["compute_end"].get<double>(), 5.019302267713219e-3));

    REQUIRE(run({"divisible", "--ports", "6", "--layers", "3", "--csv"}, out, err) == 0);
    CHECK(out.rfind("layer,processors,alpha,lambda", 0) == 0);
    CHECK(out.find("3,294,2909.90910557688") != std::string::npos);

    REQUIRE(run({"divisible", "--ports", "1"}, out, err) == 0); // h defaults to h_max = 16
    CHECK(out.find("h = 16 layers") != std::string::npos);
    CHECK(out.find("speedup: 291.36562245636") != std::string::npos);

    // Fig 4 series (T1): p = 6 at h = 6 and the infeasible h = 7.
    REQUIRE(run({"divisible", "--sweep", "layers", "--ports", "1,3,6"}, out, err) == 0);
    CHECK(out.rfind("p,C,rho,sigma,h,n,speedup,speedup_no_setup,limit,bound,feasible\n", 0) == 0);
    CHECK(out.find("\n6,3.3e-09,0.0033,8.57,6,117649,1644.37484376378,1791.5725229953,1819.18181818182,1819."
                   "18181818182,1\n") != std::string::npos);
    CHECK(out.find("\n6,3.3e-09,0.0033,8.57,7,823543,1640.85726974275,") != std::string::npos);
    CHECK(out.find("\n1,3.3e-09,0.0033,8.57,17,131072,291.270299639352,") != std::string::npos);

    // Fig 5 series (T3).
    REQUIRE(run({"divisible", "--sweep", "rho", "--layers", "6"}, out, err) == 0);
    CHECK(out.find(",6,117649,8811.894727895") != std::string::npos);
    CHECK(out.find(",6,117649,180.901844372462") != std::string::npos);

    // Figs 6–7 series (T4/T6).
    REQUIRE(run({"divisible", "--sweep", "shares", "--ports", "6", "--rho-factors", "0.1,1,10", "--layers", "6"}, out,
                err) == 0);
    CHECK(out.find(",6,6,100842,7.06921326013213,0.712873603578244,1\n") != std::string::npos);
    CHECK(out.find(",6,0,1,5527.85961618547,") != std::string::npos);

    // With --topology: the mapping is placed and checked.
    REQUIRE(run({"divisible", "--ports", "3", "--layers", "6", "--topology", "mesh:16x16x16", "--source", "0,0,5",
                 "--json"},
                out, err) == 0);
    CHECK(nlohmann::json::parse(out)["mapping"]["placement"]["processors"] == 4096);

    // Bad input: exit 2 with one line.
    CHECK(run({"divisible", "--ports", "7"}, out, err) == 2);
    CHECK(err.find("1..6") != std::string::npos);
    CHECK(run({"divisible", "--ports", "6", "--layers", "7"}, out, err) == 2);
    CHECK(err.find("largest feasible number of layers is 6") != std::string::npos);
    CHECK(run({"divisible", "--ports", "2", "--C", "-1"}, out, err) == 2);
    CHECK(err.find("C = -1") != std::string::npos);
    CHECK(run({"divisible", "--ports", "2", "--A", "0"}, out, err) == 2);
    CHECK(run({"divisible", "--ports", "3", "--layers", "6", "--topology", "mesh:8x8x8"}, out, err) == 2);
    CHECK(err.find("too small") != std::string::npos);
    CHECK(run({"divisible", "--sweep", "banana"}, out, err) == 2);
    CHECK(run({"divisible"}, out, err) == 2);
    CHECK(run({"divisible", "--ports", "2", "--layers", "-3"}, out, err) == 2);
}
