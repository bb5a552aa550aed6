// File ▸ Export ▸ Web page / topocast-cli html: the page's data is the snapshot's (every node,
// link, transfer and step's narration), its scripts are the ones its Content-Security-Policy
// allows, and no text of the scenario can end the data element. (tests/web/ opens pages in
// Chromium.)
#include "compare/comparesnapshot.h"
#include "export/webpage.h"
#include "helpers.h"
#include "mainwindow.h"
#include "session/snapshot.h"
#include "style/scenestyle.h"
#include "words/narration.h"

#include "topocast/drawing/drawing.h"
#include "topocast/drawing/label_layout.h"
#include "topocast/io/scenario_json.h"

#include <catch2/catch.hpp>

#include <QAction>
#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>

#include <algorithm>
#include <set>
#include <utility>

using namespace topocast;
using namespace topocast::app;

namespace {

QJsonObject pageDataOf(const Snapshot& snap)
{
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(webPageData(snap), &error);
    INFO(error.errorString().toStdString());
    REQUIRE(error.error == QJsonParseError::NoError);
    return doc.object();
}

} // namespace

TEST_CASE("web page: the data holds every node, link, transfer and narration of the snapshot", "[app][webpage]")
{
    const SnapshotPtr snap =
        buildSnapshot(loadScenario(TOPOCAST_SOURCE_DIR "/resources/scenarios/cang-wu-8x8-corner.json"));
    const QJsonObject page = pageDataOf(*snap);
    CHECK(page[QStringLiteral("steps")].toInt() == 6);
    CHECK(page[QStringLiteral("title")].toString() == QStringLiteral("Cang-Wu 8×8 mesh from the corner (0,0)"));
    // Its time says the model and the size it is for.
    CHECK(page[QStringLiteral("facts")].toString().contains(
        QStringLiteral("for M = 1 KiB (LogGP on the cluster network")));
    CHECK(page[QStringLiteral("colours")].toObject()[QStringLiteral("receiving")].toString() ==
          QStringLiteral("#009e73"));
    REQUIRE(page[QStringLiteral("sides")].toArray().size() == 1);
    const QJsonObject d = page[QStringLiteral("sides")].toArray()[0].toObject();
    CHECK(d[QStringLiteral("steps")].toInt() == 6);
    CHECK(d[QStringLiteral("names")].toArray().size() == 64);
    CHECK(d[QStringLiteral("names")].toArray()[9].toString() == QStringLiteral("(1,1)"));
    CHECK(d[QStringLiteral("pos")].toArray().size() == 3 * 64);
    CHECK(d[QStringLiteral("edges")].toArray().size() == 2 * 8 * 7); // the 8×8 mesh's 112 links
    CHECK(d[QStringLiteral("edgeNodes")].toArray().size() == 2 * 112);
    CHECK(d[QStringLiteral("source")].toInt() == 0);
    const QJsonArray transfers = d[QStringLiteral("transfers")].toArray();
    REQUIRE(transfers.size() == static_cast<qsizetype>(snap->schedule.size()));
    // Step 1: (0,0) → (5,2), 7 hops along the XY route (8 nodes).
    const QJsonArray first = transfers[0].toArray();
    CHECK(first[0].toInt() == 1);
    CHECK(first[1].toInt() == 0);
    CHECK(first[2].toInt() == 2 * 8 + 5);
    CHECK(first[3].toArray().size() == 8);
    const QJsonArray narration = d[QStringLiteral("narration")].toArray();
    REQUIRE(narration.size() == 7);
    for (int k = 0; k <= 6; ++k)
        CHECK(narration[k].toString() == narrate(*snap, k));
    int informedAtTwo = 0;
    for (const QJsonValue v : d[QStringLiteral("informed")].toArray())
        informedAtTwo += v.toInt() >= 0 && v.toInt() <= 2;
    CHECK(informedAtTwo == 4); // the source and the receivers of steps 1 and 2
}

TEST_CASE("web page: a compare scenario's page carries both sides on the longer timeline", "[app][webpage]")
{
    const CompareSnapshotPtr cmp = buildCompareSnapshot(
        loadScenario(TOPOCAST_SOURCE_DIR "/resources/scenarios/compare-cang-wu-8x8-paper-vs-optimal.json"));
    QJsonParseError error{};
    const QJsonObject page = QJsonDocument::fromJson(webPageData(*cmp), &error).object();
    REQUIRE(error.error == QJsonParseError::NoError);
    CHECK(page[QStringLiteral("steps")].toInt() == 6);
    const QJsonArray sides = page[QStringLiteral("sides")].toArray();
    REQUIRE(sides.size() == 2);
    CHECK(sides[0].toObject()[QStringLiteral("heading")].toString() ==
          QStringLiteral("A: cang-wu paper from (2,3) — 6 steps, TCD 71"));
    CHECK(sides[1].toObject()[QStringLiteral("heading")].toString() ==
          QStringLiteral("B: cang-wu optimal from (2,3) — 6 steps, TCD 69"));
    for (int i = 0; i < 2; ++i) {
        const QJsonObject side = sides[i].toObject();
        CHECK(side[QStringLiteral("names")].toArray().size() == 64);
        CHECK(side[QStringLiteral("transfers")].toArray().size() == 63);
        CHECK(side[QStringLiteral("narration")].toArray()[3].toString() == narrate(cmp->side(i), 3));
    }
    CHECK(webPage(*cmp).contains("<script>"));
}

TEST_CASE(
    "web page: no text of the scenario can close the data element, and the policy allows exactly the page's scripts",
    "[app][webpage]")
{
    Scenario s = loadScenario(TOPOCAST_SOURCE_DIR "/resources/scenarios/cang-wu-4x4.json");
    s.title = "</script><script>alert(1)</script>";
    s.description = "<!-- & -->";
    const SnapshotPtr snap = buildSnapshot(s);
    const QByteArray data = webPageData(*snap);
    CHECK_FALSE(data.contains('<'));
    CHECK_FALSE(data.contains('>'));
    CHECK_FALSE(data.contains('&'));
    CHECK(pageDataOf(*snap)[QStringLiteral("title")].toString() == QString::fromStdString(s.title));

    const QByteArray page = webPage(*snap);
    CHECK(page.count("<script") == 5); // the data, three.js, its orbit controls, its wide lines, the player
    const QRegularExpression script(QStringLiteral("<script>(.*?)</script>"),
                                    QRegularExpression::DotMatchesEverythingOption);
    const QString text = QString::fromUtf8(page);
    const QString csp =
        QRegularExpression(QStringLiteral("Content-Security-Policy\" content=\"([^\"]*)\"")).match(text).captured(1);
    CHECK(csp.startsWith(QStringLiteral("default-src 'none'; script-src ")));
    int scripts = 0;
    for (auto it = script.globalMatch(text); it.hasNext(); ++scripts) {
        const QByteArray body = it.next().captured(1).toUtf8();
        const QByteArray hash = QCryptographicHash::hash(body, QCryptographicHash::Sha256).toBase64();
        CHECK(csp.contains(QStringLiteral("'sha256-%1'").arg(QString::fromLatin1(hash))));
    }
    CHECK(scripts == 4);
}

TEST_CASE("web page: File ▸ Export offers it, and a network past the limit is refused with the numbers",
          "[app][webpage]")
{
    MainWindow w(false);
    bool offered = false;
    for (QAction* a : w.findChildren<QAction*>())
        offered |= a->text() == QStringLiteral("&Web page (HTML)…");
    CHECK(offered);

    Scenario big = loadScenario(TOPOCAST_SOURCE_DIR "/resources/scenarios/default.json");
    big.topology = Topology::mesh({64, 32, 32});
    big.algorithm = "bfs";
    big.params = {};
    big.source = NodeId{0};
    big.view = {};
    const SnapshotPtr snap = buildSnapshot(big);
    CHECK_THROWS_WITH(webPageData(*snap), Catch::Contains("at most 32768 nodes") && Catch::Contains("65536"));
}

TEST_CASE("web page: node labels as the app places them, axes on a mesh, the step's receivers named on a large network",
          "[app][webpage]")
{
    // Issue: the page had no node labels, no axes, no arrowheads and 1-px links, so "(0,0) sends to
    // (2,1)" could not be located.
    const SnapshotPtr corner =
        buildSnapshot(loadScenario(TOPOCAST_SOURCE_DIR "/resources/scenarios/cang-wu-8x8-corner.json"));
    const QJsonObject side = pageDataOf(*corner)[QStringLiteral("sides")].toArray()[0].toObject();
    const QJsonArray labels = side[QStringLiteral("labels")].toArray();
    CHECK(labels.size() >= 60); // 64 nodes: nearly every one has room in the page's first view
    std::set<int> named;
    for (const QJsonValue& l : labels) {
        const QJsonArray a = l.toArray();
        REQUIRE(a.size() == 2);
        named.insert(a[0].toInt());
        CHECK(a[1].toInt() >= 0);
        CHECK(a[1].toInt() < static_cast<int>(LabelSide::Hidden));
    }
    CHECK(named.count(0) == 1); // the source (0,0)
    CHECK(labels.first().toArray()[0].toInt() == 0);
    const QJsonObject axes = side[QStringLiteral("axes")].toObject();
    CHECK(axes.contains(QStringLiteral("x")));
    CHECK(axes.contains(QStringLiteral("y")));
    CHECK_FALSE(axes.contains(QStringLiteral("z"))); // a flat drawing

    // 512 nodes: the source and each step's receivers where they have room, step by step.
    const SnapshotPtr big =
        buildSnapshot(loadScenario(TOPOCAST_SOURCE_DIR "/resources/scenarios/cang-wu-4x4x4-eye.json"));
    CHECK(pageDataOf(*big)[QStringLiteral("sides")].toArray()[0].toObject().contains(QStringLiteral("labels")));
    const SnapshotPtr huge = buildSnapshot(loadScenario(TOPOCAST_SOURCE_DIR "/resources/scenarios/default.json"));
    const QJsonObject h = pageDataOf(*huge)[QStringLiteral("sides")].toArray()[0].toObject();
    CHECK_FALSE(h.contains(QStringLiteral("labels")));
    REQUIRE(h[QStringLiteral("stepLabels")].toArray().size() == static_cast<int>(huge->stepCount()) + 1);
    CHECK_FALSE(h.contains(QStringLiteral("axes"))); // planes side by side: their titles say z

    // A hypercube: its addresses, no axes.
    const SnapshotPtr cube =
        buildSnapshot(loadScenario(TOPOCAST_SOURCE_DIR "/resources/scenarios/hypercube-nesbt-broadcast-4cube.json"));
    const QJsonObject c = pageDataOf(*cube)[QStringLiteral("sides")].toArray()[0].toObject();
    CHECK_FALSE(c.contains(QStringLiteral("axes")));
    CHECK(c[QStringLiteral("labels")].toArray().size() >= 12);
}

namespace {

/// The page's colour index of item `i` at step `k` (step 0 whole, later steps as changes).
int frameIndexAt(const QJsonArray& steps, int k, int i)
{
    int index = steps[0].toArray()[i].toInt();
    for (int s = 1; s <= k; ++s) {
        const QJsonArray changes = steps[s].toArray();
        for (qsizetype c = 0; c + 1 < changes.size(); c += 2)
            if (changes[c].toInt() == i)
                index = changes[c + 1].toInt();
    }
    return index;
}

} // namespace

TEST_CASE("web page: in every mode a page can draw it colours nodes and links as the 3-D view does at every step",
          "[app][webpage]")
{
    const std::pair<const char*, ViewMode> cases[] = {
        {"baseline-binomial-torus-contention", ViewMode::Contention},
        {"cang-wu-8x8", ViewMode::SourceMap},
        {"default", ViewMode::Heatmap}, // 8x8x8 as planes: the jumps between planes too
        {"cang-wu-8x8-corner", ViewMode::Plain},
        {"tsay-wang-torus-5x5", ViewMode::Layers},
    };
    for (const auto& [preset, mode] : cases) {
        INFO(preset << " in " << viewModeName(mode).toStdString());
        const SnapshotPtr snap =
            buildSnapshot(loadScenario(std::string(TOPOCAST_SOURCE_DIR "/resources/scenarios/") + preset + ".json"));
        QJsonParseError error{};
        const QJsonObject page = QJsonDocument::fromJson(webPageData(*snap, mode), &error).object();
        REQUIRE(error.error == QJsonParseError::NoError);
        CHECK(page[QStringLiteral("mode")].toString().toStdString() ==
              colour::kColourModes[static_cast<std::size_t>(mode)].label);
        { // the window's legend, entry for entry, plain included (its words and swatches)
            const auto entries = legendEntries(snap.get(), mode, Palette::normal());
            const QJsonArray legend = page[QStringLiteral("legend")].toArray();
            REQUIRE(legend.size() == static_cast<qsizetype>(entries.size()));
            for (std::size_t i = 0; i < entries.size(); ++i) {
                CHECK(legend[static_cast<qsizetype>(i)].toArray()[1].toString() == entries[i].second);
                CHECK(legend[static_cast<qsizetype>(i)].toArray()[0].toString() == entries[i].first.name());
            }
        }
        const QJsonObject side = page[QStringLiteral("sides")].toArray()[0].toObject();
        const QJsonObject frames = side[QStringLiteral("frames")].toObject();
        const QJsonArray table = frames[QStringLiteral("colours")].toArray();
        const QJsonArray nodes = frames[QStringLiteral("nodes")].toArray();
        const QJsonArray links = frames[QStringLiteral("links")].toArray();
        REQUIRE(nodes.size() == static_cast<qsizetype>(snap->stepCount() + 1));
        const Topology& topo = snap->topology();
        const bool planes = drawsPlanes(topo, snap->drawing);
        const std::vector<DrawnChannel> channels = drawnChannels(topo, planes);
        const QJsonArray edgeNodes = side[QStringLiteral("edgeNodes")].toArray();
        const QJsonArray jumps = side[QStringLiteral("jumps")].toArray();
        const qsizetype edges = edgeNodes.size() / 2;
        REQUIRE(links[0].toArray().size() == edges + jumps.size());
        auto channelOf = [&](qint64 tail, qint64 head) {
            return std::find_if(channels.begin(), channels.end(),
                                [&](const DrawnChannel& c) {
                                    return static_cast<qint64>(c.tail) == tail && static_cast<qint64>(c.head) == head;
                                }) -
                   channels.begin();
        };
        for (int k = 0; k <= static_cast<int>(snap->stepCount()); ++k) {
            const FrameStyle style = frameStyle(*snap, channels, k, mode, true, Palette::normal());
            for (NodeId v{}; v < topo.nodeCount(); ++v)
                CHECK(table[frameIndexAt(nodes, k, static_cast<int>(v))].toString() ==
                      style.nodeColour[v].to<QColor>().name());
            for (qsizetype e = 0; e < edges + jumps.size(); ++e) {
                const qint64 a = e < edges ? edgeNodes[2 * e].toInteger() : jumps[e - edges].toArray()[0].toInteger();
                const qint64 b =
                    e < edges ? edgeNodes[2 * e + 1].toInteger() : jumps[e - edges].toArray()[1].toInteger();
                const auto ab = static_cast<std::size_t>(channelOf(a, b)),
                           ba = static_cast<std::size_t>(channelOf(b, a));
                REQUIRE(ab < channels.size());
                REQUIRE(ba < channels.size());
                // The link shows the busier of its two channels: in use or contended wins.
                const ChannelRole role = std::max(style.channelRole[ab], style.channelRole[ba]);
                const std::size_t shown = style.channelRole[ab] == role ? ab : ba;
                const QString drawn = table[frameIndexAt(links, k, static_cast<int>(e))].toString();
                CHECK((drawn == style.channelColour[ab].to<QColor>().name() ||
                       drawn == style.channelColour[ba].to<QColor>().name()));
                if (style.channelRole[ab] != style.channelRole[ba])
                    CHECK(drawn == style.channelColour[shown].to<QColor>().name());
            }
        }
    }
}

TEST_CASE("web page: the trees mode carries each member tree's edges and the data mode every node's glyph",
          "[app][webpage]")
{
    // Trees: the nESBT's member trees, every edge once, in the frame's colour at each step.
    const SnapshotPtr trees =
        buildSnapshot(loadScenario(TOPOCAST_SOURCE_DIR "/resources/scenarios/hypercube-nesbt-broadcast-4cube.json"));
    REQUIRE(!trees->trees.empty());
    const QJsonObject t = QJsonDocument::fromJson(webPageData(*trees, ViewMode::Trees)).object();
    const QJsonObject side = t[QStringLiteral("sides")].toArray()[0].toObject();
    const QJsonArray members = side[QStringLiteral("trees")].toArray();
    REQUIRE(members.size() == static_cast<qsizetype>(trees->trees.size()));
    for (std::size_t m = 0; m < trees->trees.size(); ++m) {
        const QJsonArray edges = members[static_cast<qsizetype>(m)].toArray();
        REQUIRE(edges.size() == static_cast<qsizetype>(2 * trees->trees[m].size()));
        for (std::size_t e = 0; e < trees->trees[m].size(); ++e) {
            CHECK(edges[static_cast<qsizetype>(2 * e)].toInteger() == trees->trees[m][e].parent.value());
            CHECK(edges[static_cast<qsizetype>(2 * e + 1)].toInteger() == trees->trees[m][e].child.value());
        }
    }
    const QJsonObject frames = side[QStringLiteral("frames")].toObject();
    REQUIRE(frames[QStringLiteral("trees")].toArray().size() == static_cast<qsizetype>(trees->stepCount() + 1));
    CHECK(!side.contains(QStringLiteral("glyphs")));
    // Before step 1 no tree edge has carried anything: each in its tree's pale colour.
    const QJsonArray table = frames[QStringLiteral("colours")].toArray();
    const QJsonArray first = frames[QStringLiteral("trees")].toArray()[0].toArray();
    std::size_t e = 0;
    for (std::size_t m = 0; m < trees->trees.size(); ++m)
        for (std::size_t i = 0; i < trees->trees[m].size(); ++i, ++e)
            CHECK(table[first[static_cast<qsizetype>(e)].toInt()].toString() ==
                  treeColour(static_cast<int>(m), false, Palette::normal()).to<QColor>().name());

    // Data held: the ring all-reduce's 16 nodes, each with its plate and 16 cells at step 0, and
    // at the last step every chunk complete on every node.
    const SnapshotPtr ring =
        buildSnapshot(loadScenario(TOPOCAST_SOURCE_DIR "/resources/scenarios/ring-allreduce-torus-4x4.json"));
    const QJsonObject d = QJsonDocument::fromJson(webPageData(*ring, ViewMode::DataHeld)).object();
    const QJsonObject glyphs = d[QStringLiteral("sides")].toArray()[0].toObject()[QStringLiteral("glyphs")].toObject();
    const QJsonArray steps = glyphs[QStringLiteral("steps")].toArray();
    REQUIRE(steps.size() == static_cast<qsizetype>(ring->stepCount() + 1));
    REQUIRE(steps[0].toArray().size() == 16);
    for (const auto& node : steps[0].toArray()) {
        const QJsonArray cells = node.toArray()[1].toArray();
        CHECK(cells.size() % 6 == 0);
        CHECK(cells.size() / 6 >= 17); // the plate and a backing for each of the 16 chunks
    }
    CHECK(glyphs[QStringLiteral("width")].toDouble() > 0.3);
    CHECK(!d[QStringLiteral("sides")].toArray()[0].toObject().contains(QStringLiteral("trees")));
}
