// The Data held colour mode: each node in the colour of the share of its final
// data it holds after the step (core Holdings, checked here against a replay of the blocks), the
// legend's ends and colour bar in the same ramp, block counts in the narration, presets that open
// in it.
#include "helpers.h"
#include "mainwindow.h"
#include "scene/sceneview.h"
#include "session/session.h"
#include "session/snapshot.h"
#include "words/narration.h"

#include "topocast/analysis/replay.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <set>
#include <string>
#include <vector>

using namespace topocast;
using namespace topocast::app;

namespace {

bool sameRgba(const Rgba& a, const Rgba& b)
{
    return std::abs(a.r - b.r) < 1e-3f && std::abs(a.g - b.g) < 1e-3f && std::abs(a.b - b.b) < 1e-3f;
}

std::string dataPreset(const char* name)
{
    return std::string(TOPOCAST_SOURCE_DIR) + "/resources/scenarios/" + name;
}

/// A divisible-load scatter over part of a 9×9×9 mesh (two layers around the centre): the other
/// nodes need no data.
Scenario partialScatter()
{
    Scenario sc = test::scenario("mesh:9x9x9", "divisible-load", NodeId{364});
    sc.params.set("layers", "2");
    sc.params.set("p", "2");
    return sc;
}

/// Share of its required blocks each node holds after every step, by replaying the blocks.
std::vector<std::vector<double>> replayedShares(const Schedule& s)
{
    const std::uint32_t n = s.topology().nodeCount();
    std::vector<std::set<Block>> held(n), required(n);
    for (NodeId v{}; v < n; ++v) {
        const auto r = requiredBlocks(s, v);
        required[v].insert(r.begin(), r.end());
    }
    std::vector<std::vector<double>> shares;
    for (StepNo k{}; k <= s.stepCount(); ++k) {
        if (k > 0)
            for (const Transfer& t : s.stepTransfers(k))
                for (const Block& b : s.payload(t.payload))
                    held[t.to].insert(b);
        std::vector<double> now(n, 1.0);
        for (NodeId v{}; v < n; ++v) {
            std::size_t got = 0;
            for (const Block& b : held[v])
                got += required[v].count(b);
            if (!required[v].empty())
                now[v] = static_cast<double>(got) / static_cast<double>(required[v].size());
        }
        shares.push_back(std::move(now));
    }
    return shares;
}

} // namespace

TEST_CASE("data held: every node at every step has the colour of the share of its data it holds", "[app][data-held]")
{
    const Palette pal = Palette::normal();
    for (const char* name : {"hypercube-sbnt-scatter-4cube.json", "hypercube-sbnt-allgather-3cube.json",
                             "baseline-binomial-4x4.json", "(partial scatter)"}) {
        INFO(name);
        const SnapshotPtr snap = buildSnapshot(name[0] == '(' ? partialScatter() : loadScenario(dataPreset(name)));
        REQUIRE(snap->holdings);
        const auto shares = replayedShares(snap->schedule);
        const std::vector<DrawnChannel> channels = drawnChannels(snap->topology());
        const std::size_t n = snap->topology().nodeCount();
        int wrong = 0, partial = 0;
        for (std::uint32_t k = 0; k <= snap->stepCount(); ++k) {
            const FrameStyle f = frameStyle(*snap, channels, static_cast<int>(k), ViewMode::DataHeld, true, pal);
            for (NodeId v{}; v < n; ++v) {
                const bool source = v == snap->schedule.source() && hasRoot(snap->schedule.pattern());
                const Rgba want = source                                  ? pal.source
                                  : snap->holdings->requiredCount(v) == 0 ? dataNotNeededColour(pal)
                                                                          : dataShareColour(pal, n, shares[k][v]);
                wrong += !sameRgba(f.nodeColour[v], want);
                partial += shares[k][v] > 0.0 && shares[k][v] < 1.0 ? 1 : 0;
            }
        }
        CHECK(wrong == 0);
        // The last step: every node that needs data holds all of it.
        for (NodeId v{}; v < n; ++v)
            CHECK(shares.back()[v] == 1.0);
        if (snap->schedule.pattern() == Pattern::Allgather)
            CHECK(partial > 0); // an all-gather's data arrives block by block: the ramp's middle is used
    }
}

TEST_CASE("data held: the legend names the ramp's ends, the colour bar runs 0–100 % in the same colours",
          "[app][data-held]")
{
    const Palette pal = Palette::highContrast();
    const SnapshotPtr snap = buildSnapshot(partialScatter());
    const std::size_t n = snap->topology().nodeCount();
    const auto legend = legendEntries(snap.get(), ViewMode::DataHeld, pal);
    auto has = [&](const Rgba& c, const QString& text) {
        for (const auto& [colour, words] : legend)
            if (words == text)
                return std::abs(colour.redF() - c.r) < 2e-3 && std::abs(colour.greenF() - c.g) < 2e-3 &&
                       std::abs(colour.blueF() - c.b) < 2e-3;
        return false;
    };
    CHECK(has(pal.source, QStringLiteral("source")));
    CHECK(has(dataShareColour(pal, n, 1.0), QStringLiteral("holds all the data it must end with")));
    CHECK(has(dataShareColour(pal, n, 0.0), QStringLiteral("holds none of it yet")));
    // The divisible-load scatter serves part of the mesh: the others need nothing, and say so.
    CHECK(has(dataNotNeededColour(pal), QStringLiteral("needs no data")));
    const auto bar = legendBar(snap.get(), ViewMode::DataHeld, true, pal);
    REQUIRE(bar);
    CHECK(bar->min == 0);
    CHECK(bar->max == 100);
    REQUIRE(bar->stops.size() == 17);
    CHECK(bar->stops.front() == dataShareColour(pal, n, 0.0).to<QColor>());
    CHECK(bar->stops.back() == dataShareColour(pal, n, 1.0).to<QColor>());
    CHECK(bar->labels.back().second == QStringLiteral("100%"));
    CHECK(parseViewMode(QStringLiteral("data")) == ViewMode::DataHeld);
    CHECK(viewModeName(ViewMode::DataHeld) == QStringLiteral("data"));
}

TEST_CASE("data held: the narration says how many blocks a message carries", "[app][data-held]")
{
    // SBnT scatter on the 4-cube with M = B = 1: the source's first message carries the blocks
    // of a whole subtree (5 of them).
    Scenario sc = test::scenario("hypercube:4", "sbnt");
    sc.params.set("pattern", "scatter");
    const SnapshotPtr snap = buildSnapshot(sc);
    const Schedule& s = snap->schedule;
    const Topology& topo = s.topology();
    const QString text = narrate(*snap, 1, 1000);
    int multi = 0;
    for (const Transfer& t : s.stepTransfers(StepNo{1})) {
        const std::size_t blocks = s.payload(t.payload).size();
        const QString from = QString::fromStdString(topo.nodeName(t.from)),
                      to = QString::fromStdString(topo.nodeName(t.to));
        if (blocks > 1) {
            ++multi;
            CHECK(text.contains(QStringLiteral("%1 sends %2 blocks to %3").arg(from).arg(blocks).arg(to)));
        } else {
            CHECK(text.contains(QStringLiteral("%1 sends to %2").arg(from, to)));
        }
    }
    CHECK(multi > 0);
    CHECK(text.contains(QStringLiteral("0000 sends 5 blocks to")));
    // A broadcast's one block stays unsaid.
    const SnapshotPtr b = buildSnapshot(loadScenario(dataPreset("baseline-binomial-4x4.json")));
    CHECK_FALSE(narrate(*b, 1, 1000).contains(QStringLiteral("blocks")));
}

TEST_CASE("data held: the SBnT presets open in it, and the mode box offers it", "[app][data-held][window]")
{
    MainWindow w(false);
    REQUIRE(w.openScenario(QString::fromStdString(dataPreset("hypercube-sbnt-allgather-3cube.json"))));
    REQUIRE(test::waitFor([&] { return !w.session()->busy() && w.session()->snapshot(); }, 30000));
    CHECK(w.sceneView()->choice().mode == ViewMode::DataHeld);
    REQUIRE(w.openScenario(QString::fromStdString(dataPreset("hypercube-sbnt-scatter-4cube.json"))));
    REQUIRE(test::waitFor(
        [&] {
            return !w.session()->busy() && w.session()->snapshot() &&
                   w.session()->snapshot()->topology().nodeCount() == 16;
        },
        30000));
    CHECK(w.sceneView()->choice().mode == ViewMode::DataHeld);
}

TEST_CASE("data held: a reduction's narration says which chunk moves and how many contributions it sums, and names no "
          "source",
          "[app][data-held]")
{
    // The ring all-reduce on the 4×4 torus: step k of the reduce-scatter sends partials of k contributions; the
    // all-gather sends complete chunks.
    const SnapshotPtr snap = buildSnapshot(loadScenario(dataPreset("ring-allreduce-torus-4x4.json")));
    CHECK(narrate(*snap, 1).contains(QStringLiteral("(its own contribution)")));
    CHECK(narrate(*snap, 2).contains(QStringLiteral("the sum of 2 of 16 contributions, to")));
    CHECK(narrate(*snap, 15).contains(QStringLiteral("the sum of 15 of 16 contributions")));
    CHECK(narrate(*snap, 16).contains(QStringLiteral("complete (16 contributions)")));
    CHECK(narrate(*snap, 0).startsWith(QStringLiteral("Start: ring on the 4×4 torus —")));
    // The binomial reduce flows to its root: "to (1,1)", and the last step brings it 8 contributions.
    const SnapshotPtr reduce = buildSnapshot(loadScenario(dataPreset("binomial-reduce-mesh-4x4.json")));
    CHECK(narrate(*reduce, 0).contains(QStringLiteral("to (1,1)")));
    CHECK(narrate(*reduce, 4).contains(QStringLiteral("the sum of 8 of 16 contributions, to (1,1)")));
    CHECK(nodeStates(*snap, 3)[0] != NodeState::Source);
    CHECK(nodeStates(*reduce, 3)[5] == NodeState::Source);
}

TEST_CASE("data held: the ring of 8 opens as a 1-D torus in the panel and reads back as itself",
          "[app][data-held][window]")
{
    MainWindow w(false);
    REQUIRE(w.openScenario(QString::fromStdString(dataPreset("ring-allgather-8.json"))));
    REQUIRE(test::waitFor(
        [&] {
            return !w.session()->busy() && w.session()->snapshot() &&
                   w.session()->snapshot()->topology().nodeCount() == 8;
        },
        30000));
    const Scenario sc = w.scenarioPanel()->scenario(w.session()->requestedScenario());
    CHECK(sc.topology == Topology::parse("torus:8"));
    CHECK(sc.algorithm == "ring");
    CHECK_FALSE(w.scenarioPanel()->sourceField()->isEnabled()); // an all-gather has no source
}
