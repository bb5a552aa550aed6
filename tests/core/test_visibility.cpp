// The default camera in core (the app's OrbitCamera framing), visibility of
// nodes from it, explode, and the wrap-around arcs as polylines.
#include "topocast/algorithms/registry.h"
#include "topocast/analysis/grade.h"
#include "topocast/drawing/camera.h"
#include "topocast/drawing/layout.h"
#include "topocast/drawing/view_labels.h"
#include "topocast/drawing/visibility.h"
#include "topocast/io/scenario_json.h"
#include "topocast/model/error.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numbers>

using namespace topocast;
namespace fs = std::filesystem;

namespace {

constexpr float kDeg = std::numbers::pi_v<float> / 180.0f;

Vec3 applyMatrix(const Mat4& m, const Vec3& p)
{
    Vec3 out{};
    float w = m[3] * p[0] + m[7] * p[1] + m[11] * p[2] + m[15];
    for (int r = 0; r < 3; ++r)
        out[static_cast<std::size_t>(r)] =
            (m[static_cast<std::size_t>(r)] * p[0] + m[static_cast<std::size_t>(4 + r)] * p[1] +
             m[static_cast<std::size_t>(8 + r)] * p[2] + m[static_cast<std::size_t>(12 + r)]) /
            w;
    return out;
}

} // namespace

TEST_CASE("camera: the default view of the 8×8×8 mesh frames its box as OrbitCamera::reset did", "[camera]")
{
    const Topology topo = Topology::mesh({8, 8, 8});
    const OrbitView v = defaultView(topo, nodePositions(topo), 16.0f / 9.0f);
    // Bounds ±3.5: half-diagonal 3.5·√3 = 6.0622, + 0.6 → radius 6.6622; distance = r / sin 20° × 1.05.
    const float radius = 3.5f * std::sqrt(3.0f) + 0.6f;
    CHECK(v.distance == Approx(radius / std::sin(20.0f * kDeg) * 1.05f).epsilon(1e-5));
    CHECK(v.distance == Approx(20.452).epsilon(1e-4));
    CHECK(v.yaw == 28.0f);
    CHECK(v.pitch == 22.0f);
    CHECK(v.centre == Vec3{0, 0, 0});
    const Vec3 eye = v.eye();
    CHECK(eye[0] == Approx(v.distance * std::sin(28.0f * kDeg) * std::cos(22.0f * kDeg)));
    CHECK(eye[1] == Approx(v.distance * std::sin(22.0f * kDeg)));
    CHECK(eye[2] == Approx(v.distance * std::cos(28.0f * kDeg) * std::cos(22.0f * kDeg)));
    CHECK(v.nearPlane() == Approx(v.distance * 0.01f));
    CHECK(v.farPlane() == Approx(v.distance * 10.0f + 100.0f));
    // The centre projects to the middle of the viewport, the eye's own up direction stays up.
    const Vec3 c = projectPoint(v.viewProjection(), v.centre);
    CHECK(c[0] == Approx(0.0f).margin(1e-5));
    CHECK(c[1] == Approx(0.0f).margin(1e-5));
    // The view matrix maps the eye to the origin and the centre to (0, 0, −distance).
    const Vec3 e = applyMatrix(v.viewMatrix(), eye);
    CHECK(std::hypot(e[0], e[1], e[2]) == Approx(0.0f).margin(1e-4));
    const Vec3 cc = applyMatrix(v.viewMatrix(), v.centre);
    CHECK(cc[2] == Approx(-v.distance).epsilon(1e-5));
    // Every node of the box is inside the viewport.
    for (const Vec3& p : nodePositions(topo)) {
        const Vec3 ndc = projectPoint(v.viewProjection(), p);
        CHECK(std::abs(ndc[0]) < 1.0f);
        CHECK(std::abs(ndc[1]) < 1.0f);
    }
}

TEST_CASE("camera: a 2-D mesh or torus is framed flat (top-down), one node at radius 1", "[camera]")
{
    const Topology mesh = Topology::mesh({8, 8});
    const OrbitView v = defaultView(mesh, nodePositions(mesh), 1.5f);
    CHECK(v.yaw == 0.0f);
    CHECK(v.pitch == 0.0f);
    CHECK(v.eye()[2] == Approx(v.distance));
    const Topology torus = Topology::torus({8, 8});
    // 2-D tori too (2-D networks open top-down); their arcs stay in the plane.
    CHECK(defaultView(torus, nodePositions(torus), 1.5f).pitch == 0.0f);
    CHECK(defaultView(torus, nodePositions(torus), 1.5f).yaw == 0.0f);
    const Topology tiny = Topology::mesh({1});
    // One node, framed top-down to the window as the app frames flat drawings: its box with the
    // margins, (−1.2, −0.7) to (1.0, 1.3), is 2.2 wide and 2 high; a square view fits the width:
    // distance 1.1 / tan 20° = 3.02 (the minimum 2 is not needed), centre (−0.1, 0.3).
    const OrbitView one = defaultView(tiny, nodePositions(tiny), 1.0f);
    CHECK(one.distance == Approx(1.1f / std::tan(20.0f * kDeg)));
    CHECK(one.centre[0] == Approx(-0.1f));
    CHECK(one.centre[1] == Approx(0.3f));
}

TEST_CASE("visibility: a node directly behind another is hidden, the front one visible", "[camera][visibility]")
{
    OrbitView v;
    v.centre = {0, 0, 0};
    v.distance = 10.0f; // yaw = pitch = 0: the eye at (0, 0, 10) looking down −Z
    const std::vector<Vec3> pos{{0, 0, 0}, {0, 0, -1}, {1, 0, 0}};
    const auto seen = visibleNodes(v, pos, kNodeRadius);
    CHECK(seen == std::vector<bool>{true, false, true});
    // Seen from the side (yaw 90°: the eye on +X), node 2 hides node 0 and node 1 is free.
    v.yaw = 90.0f;
    CHECK(visibleNodes(v, pos, kNodeRadius) == std::vector<bool>{false, true, true});
    // A node outside the viewport is not visible.
    v.yaw = 0.0f;
    const std::vector<Vec3> far{{0, 0, 0}, {50, 0, 0}};
    CHECK(visibleNodes(v, far, kNodeRadius) == std::vector<bool>{true, false});
}

TEST_CASE("visibility: every node of a 2-D mesh seen top-down is visible", "[camera][visibility]")
{
    for (const Topology& topo : {Topology::mesh({8, 8}), Topology::mesh({16, 16}), Topology::mesh({4, 32})}) {
        const auto pos = nodePositions(topo);
        const auto seen = visibleNodes(defaultView(topo, pos, 16.0f / 9.0f), pos, kNodeRadius);
        CHECK(std::count(seen.begin(), seen.end(), true) == static_cast<long>(topo.nodeCount()));
    }
}

TEST_CASE("visibility: active nodes of a step are the source, the senders and the receivers", "[visibility]")
{
    const Scenario sc = defaultScenario();
    const Schedule s = buildScenario(sc);
    const auto first = activeNodes(s, StepNo{1});
    CHECK(std::find(first.begin(), first.end(), s.source()) != first.end());
    for (const Transfer& t : s.stepTransfers(StepNo{1})) {
        CHECK(std::binary_search(first.begin(), first.end(), t.from));
        CHECK(std::binary_search(first.begin(), first.end(), t.to));
    }
    CHECK(std::adjacent_find(first.begin(), first.end()) == first.end());
    const VisibilityReport r = measureVisibility(s, 0.0f, 16.0f / 9.0f);
    REQUIRE(r.steps.size() == s.stepCount());
    CHECK(r.steps.back().active == 512); // the last step of a broadcast reaches everyone: all 512 nodes are active
    CHECK_THROWS_AS(measureVisibility(s, 0.0f, 0.0f), Error);
}

TEST_CASE("explode: the y-planes of a 3-D mesh move 1 + explode apart, other networks keep their layout",
          "[layout][explode]")
{
    const Topology topo = Topology::mesh({4, 4, 4});
    const auto plain = nodePositions(topo);
    CHECK(nodePositions(topo, 0.0f) == plain);
    const auto exploded = nodePositions(topo, 1.5f);
    const NodeId a = topo.id({1, 1, 2}), b = topo.id({1, 2, 2}), c = topo.id({2, 1, 2}), d = topo.id({1, 1, 3});
    CHECK(exploded[a][1] - exploded[b][1] == Approx(2.5f)); // y grows downward: one y-step is 2.5 apart
    CHECK(exploded[c][0] - exploded[a][0] == Approx(1.0f)); // x and z keep unit spacing
    CHECK(exploded[d][2] - exploded[a][2] == Approx(1.0f));
    const auto [lo, hi] = layoutBounds(exploded);
    CHECK(lo[1] == Approx(-hi[1])); // still centred
    CHECK(hi[1] == Approx(1.5f * 2.5f));
    CHECK(explodeDimension(topo) == 1);
    CHECK(explodeDimension(Topology::torus({5, 5, 5})) == 1);
    for (const Topology& other : {Topology::mesh({8, 8}), Topology::hypercube(3), Topology::mesh({2, 2, 2, 2})}) {
        CHECK(explodeDimension(other) == -1);
        CHECK_FALSE(canExplode(other));
        CHECK(defaultExplode(other) == 0.0f);
        CHECK(nodePositions(other, 2.0f) == nodePositions(other));
    }
    // A hypercube of 4+ dimensions: the copies of the 3-cube move apart, the 3-cube stays.
    const Topology cube = Topology::hypercube(6);
    CHECK(canExplode(cube));
    CHECK(explodeDimension(cube) == -1);
    const auto c0 = nodePositions(cube), c1 = nodePositions(cube, 1.0f);
    auto dist = [](const Vec3& p, const Vec3& q) { return std::hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]); };
    CHECK(dist(c1[0], c1[1]) == Approx(dist(c0[0], c0[1])));
    CHECK(dist(c1[0], c1[5]) == Approx(dist(c0[0], c0[5])));
    CHECK(dist(c1[0], c1[8]) == Approx(2.0f * dist(c0[0], c0[8])));
    CHECK(dist(c1[0], c1[32]) == Approx(2.0f * dist(c0[0], c0[32])));
    CHECK_THROWS_WITH(nodePositions(topo, -1.0f), Catch::Contains("between 0 and 10"));
    CHECK_THROWS_AS(nodePositions(topo, std::nanf("")), Error);
}

TEST_CASE("explode: exploding the 8×8×8 mesh uncovers the nodes the default view hides", "[explode][visibility]")
{
    const Topology topo = Topology::mesh({8, 8, 8});
    auto count = [&](float explode) {
        const auto pos = nodePositions(topo, explode);
        const auto seen = visibleNodes(defaultView(topo, pos, 16.0f / 9.0f), pos, kNodeRadius);
        return std::count(seen.begin(), seen.end(), true);
    };
    const long before = count(0.0f), after = count(defaultExplode(topo));
    CHECK(before < 0.85 * 512); // today's view: 407 of 512
    CHECK(after > before);
    CHECK(after >= 0.95 * 512);
}

TEST_CASE("arcs: a 3-D torus's wrap links bulge out of their face, the polyline has 13 points", "[layout][arcs]")
{
    const Topology topo = Topology::torus({5, 5, 5});
    const auto pos = nodePositions(topo);
    const auto bounds = layoutBounds(pos);
    // The x-ring of (·, 0, 0): from x = 4 to x = 0, arching over the top (+Y).
    const NodeId a = topo.id({4, 0, 0}), b = topo.id({0, 0, 0});
    const Vec3 bulge = wrapArcBulge(topo, bounds, pos[a], pos[b], 0);
    CHECK(bulge[0] == 0.0f);
    CHECK(bulge[2] == 0.0f);
    CHECK(bulge[1] == Approx(0.7f)); // y = 0 is the top row: depth 0, just outside the face
    const auto line = arcPolyline(pos[a], pos[b], bulge);
    REQUIRE(line.size() == static_cast<std::size_t>(kArcSegments) + 1);
    CHECK(line.front() == pos[a]);
    CHECK(line.back() == pos[b]);
    CHECK(line[6][1] == Approx(pos[a][1] + 0.7f)); // the peak at t = ½: bulge × 4·½·½
    // A 2-D torus, seen top-down, keeps its arcs in the plane, 0.42 beside the ring, away from the
    // centre: row 1 of a 4×4 torus (above the centre) bends up, column 2 (right of it) right, and
    // the middle row of a 5×5 torus down; both directions of a link bend the same way.
    const Topology flat = Topology::torus({4, 4});
    const auto fp = nodePositions(flat);
    const auto fbounds = layoutBounds(fp);
    const Vec3 fb = wrapArcBulge(flat, fbounds, fp[flat.id({3, 1})], fp[flat.id({0, 1})], 0);
    CHECK(fb[0] == Approx(0.0f).margin(1e-6));
    CHECK(fb[1] == Approx(0.42f));
    CHECK(fb[2] == Approx(0.0f).margin(1e-6));
    CHECK(wrapArcBulge(flat, fbounds, fp[flat.id({0, 1})], fp[flat.id({3, 1})], 0) == fb);
    const Vec3 fc = wrapArcBulge(flat, fbounds, fp[flat.id({2, 3})], fp[flat.id({2, 0})], 1);
    CHECK(fc[0] == Approx(0.42f));
    CHECK(fc[1] == Approx(0.0f).margin(1e-6));
    const Topology odd = Topology::torus({5, 5});
    const auto op = nodePositions(odd);
    const auto ob = layoutBounds(op);
    for (const auto& [u, v] : {std::pair{odd.id({4, 2}), odd.id({0, 2})}, std::pair{odd.id({0, 2}), odd.id({4, 2})}}) {
        const Vec3 mb = wrapArcBulge(odd, ob, op[u], op[v], 0);
        CHECK(mb[1] == Approx(-0.42f)); // y grows downward: −0.42 is below the row on screen
        CHECK(mb[0] == Approx(0.0f).margin(1e-6));
    }
    // The arc stays clear of the row's other nodes on the presets' sizes (up to 8 a side).
    const Topology eight = Topology::torus({8, 8});
    const auto ep = nodePositions(eight);
    const NodeId e0 = eight.id({7, 3}), e1 = eight.id({0, 3});
    const auto wrap = arcPolyline(ep[e0], ep[e1], wrapArcBulge(eight, layoutBounds(ep), ep[e0], ep[e1], 0));
    for (int x = 1; x < 7; ++x) {
        const Vec3& p = ep[eight.id({x, 3})];
        for (std::size_t i = 0; i + 1 < wrap.size(); ++i) {
            const Vec3& s0 = wrap[i];
            const Vec3& s1 = wrap[i + 1];
            const float dx = s1[0] - s0[0], dy = s1[1] - s0[1];
            const float t = std::clamp(((p[0] - s0[0]) * dx + (p[1] - s0[1]) * dy) / (dx * dx + dy * dy), 0.0f, 1.0f);
            CHECK(std::hypot(s0[0] + t * dx - p[0], s0[1] + t * dy - p[1]) > kNodeRadius + 0.03f);
        }
    }
}

TEST_CASE("visibility: every preset's default view shows ≥ 95 % of each step's active nodes", "[visibility][scenario]")
{
    const fs::path dir = fs::path(TOPOCAST_SOURCE_DIR) / "resources/scenarios";
    std::size_t count = 0;
    for (const auto& entry : fs::directory_iterator(dir)) {
        if (entry.path().extension() != ".json")
            continue;
        ++count;
        const Scenario sc = loadScenario(entry.path());
        // Compare presets: the split view draws both sides on one network with one explode.
        std::vector<Scenario> sides{sc};
        if (sc.compare)
            sides.push_back(compareSide(sc));
        for (const Scenario& side : sides) {
            INFO(entry.path().filename().string() << " side " << side.algorithm);
            const Schedule schedule = buildScenario(side);
            const VisibilityReport r = measureVisibility(schedule, scenarioExplode(sc), 16.0f / 9.0f);
            CHECK(r.minFraction >= 0.95);
            if (sc.topology.nodeCount() > 100) // 3-D networks: exploding uncovers what the plain view hides
                CHECK(r.minFraction > measureVisibility(schedule, 0.0f, 16.0f / 9.0f).minFraction);
        }
    }
    CHECK(count >= 20);
}

TEST_CASE("scenario: view.explode is read, checked and defaults by network size", "[scenario][explode]")
{
    nlohmann::json doc = {{"format", "topocast-scenario"},
                          {"version", 1},
                          {"topology", "mesh:8x8x8"},
                          {"algorithm", "cang-wu"},
                          {"view", {{"explode", 0.5}}}};
    CHECK(scenarioExplode(scenarioFromJson(doc)) == 0.5f);
    doc["view"].erase("explode");
    CHECK(scenarioExplode(scenarioFromJson(doc)) == defaultExplode(Topology::mesh({8, 8, 8})));
    doc["view"]["explode"] = -2;
    CHECK_THROWS_WITH(scenarioFromJson(doc), Catch::Contains("view.explode") && Catch::Contains("0 to 10"));
    doc["view"]["explode"] = "wide";
    CHECK_THROWS_WITH(scenarioFromJson(doc), Catch::Contains("view.explode"));
}

TEST_CASE("slice: follow the step moves to the plane with most of the step's receivers", "[visibility][slice]")
{
    // Binomial on a 4×4 mesh from (0,0): step 1 sends (0,0) → (2,0); step 2 from both to y = 2.
    const Schedule s = buildSchedule("binomial", Topology::mesh({4, 4}), NodeId{0}, Params{});
    for (StepNo k : steps(s)) {
        for (int dim = 0; dim < 2; ++dim) {
            const int plane = busiestPlane(s, k, dim);
            REQUIRE(plane >= 0);
            // Brute force: no plane holds more receivers.
            std::vector<int> count(4, 0);
            std::vector<NodeId> seen;
            for (const Transfer& t : s.stepTransfers(k))
                if (std::find(seen.begin(), seen.end(), t.to) == seen.end()) {
                    seen.push_back(t.to);
                    ++count[static_cast<std::size_t>(s.topology().coord(t.to, dim))];
                }
            CHECK(count[static_cast<std::size_t>(plane)] == *std::max_element(count.begin(), count.end()));
            CHECK(std::find(count.begin(), count.begin() + plane, count[static_cast<std::size_t>(plane)]) ==
                  count.begin() + plane); // the lowest of equals
        }
    }
    CHECK(busiestPlane(s, StepNo{0}, 0) == -1);
    CHECK(busiestPlane(s, StepNo{s.stepCount() + 1}, 0) == -1);
    CHECK(busiestPlane(s, StepNo{1}, 2) == -1);
}

TEST_CASE("node labels: every node up to 64 nodes, above that the source and the step's receivers",
          "[visibility][labels]")
{
    // Issue: on the 8×8×8 handout no node had a label; the narration's receivers could not be found.
    const Topology topo = Topology::mesh({8, 8, 8});
    const NodeId source = topo.id({2, 2, 2});
    const Schedule s = buildSchedule("binomial", topo, source, Params{});
    const auto pos = nodePositions(topo);
    const auto before = nodeSceneLabels(s, pos, 0);
    REQUIRE(before.size() == 1);
    CHECK(before.front().text == "(2,2,2)");
    for (std::uint32_t step = 1; step <= s.stepCount(); ++step) {
        INFO("step " << step);
        const auto labels = nodeSceneLabels(s, pos, step);
        const auto receivers = stepReceivers(s, StepNo{step});
        REQUIRE(labels.size() == 1 + std::min(receivers.size(), kLabelReceivers));
        CHECK(labels.front().node == static_cast<long long>(source));
        for (std::size_t i = 1; i < labels.size(); ++i) {
            CHECK(labels[i].node == static_cast<long long>(receivers[i - 1]));
            CHECK(labels[i].text == nodeLabel(topo, receivers[i - 1]));
        }
    }
    CHECK(stepReceivers(s, StepNo{s.stepCount()}).size() > kLabelReceivers); // the cap is met
    CHECK(nodeSceneLabels(s, pos, s.stepCount() + 1).size() == 1);           // past the end: the source
    // 64 nodes or fewer: every node, whatever the step.
    const Topology small = Topology::mesh({8, 8});
    const Schedule t = buildSchedule("binomial", small, NodeId{0}, Params{});
    for (std::uint32_t step : {0u, 1u, 3u})
        CHECK(nodeSceneLabels(t, nodePositions(small), step).size() == 64);
}
