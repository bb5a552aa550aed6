// File ▸ Export ▸ Web page / topocast-cli html: the page's data is the snapshot's (every node,
// link, transfer and step's narration), its scripts are the ones its Content-Security-Policy
// allows, and no text of the scenario can end the data element. (tests/web/ opens pages in
// Chromium.)
#include "helpers.h"
#include "compare/comparesnapshot.h"
#include "export/webpage.h"
#include "mainwindow.h"
#include "panels/narration.h"
#include "session/snapshot.h"

#include "topocast/io/scenario.h"

#include <catch2/catch.hpp>

#include <QAction>
#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>

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
    const SnapshotPtr snap = buildSnapshot(loadScenario(TOPOCAST_SOURCE_DIR "/resources/scenarios/cang-wu-8x8-corner.json"), false);
    const QJsonObject page = pageDataOf(*snap);
    CHECK(page[QStringLiteral("steps")].toInt() == 6);
    CHECK(page[QStringLiteral("title")].toString() == QStringLiteral("Cang-Wu 8×8 mesh from the corner (0,0)"));
    // Its time says the model and the size it is for.
    CHECK(page[QStringLiteral("facts")].toString().contains(QStringLiteral("for M = 1 KiB (LogGP on the cluster network")));
    CHECK(page[QStringLiteral("colours")].toObject()[QStringLiteral("receiving")].toString() == QStringLiteral("#009e73"));
    REQUIRE(page[QStringLiteral("sides")].toArray().size() == 1);
    const QJsonObject d = page[QStringLiteral("sides")].toArray()[0].toObject();
    CHECK(d[QStringLiteral("steps")].toInt() == 6);
    CHECK(d[QStringLiteral("names")].toArray().size() == 64);
    CHECK(d[QStringLiteral("names")].toArray()[9].toString() == QStringLiteral("(1,1)"));
    CHECK(d[QStringLiteral("pos")].toArray().size() == 3 * 64);
    CHECK(d[QStringLiteral("edges")].toArray().size() == 2 * 8 * 7);  // the 8×8 mesh's 112 links
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
    CHECK(informedAtTwo == 4);  // the source and the receivers of steps 1 and 2
}

TEST_CASE("web page: a compare scenario's page carries both sides on the longer timeline", "[app][webpage]")
{
    const CompareSnapshotPtr cmp =
        buildCompareSnapshot(loadScenario(TOPOCAST_SOURCE_DIR "/resources/scenarios/compare-cang-wu-8x8-paper-vs-optimal.json"));
    QJsonParseError error{};
    const QJsonObject page = QJsonDocument::fromJson(webPageData(*cmp), &error).object();
    REQUIRE(error.error == QJsonParseError::NoError);
    CHECK(page[QStringLiteral("steps")].toInt() == 6);
    const QJsonArray sides = page[QStringLiteral("sides")].toArray();
    REQUIRE(sides.size() == 2);
    CHECK(sides[0].toObject()[QStringLiteral("heading")].toString() == QStringLiteral("A: cang-wu paper from (2,3) — 6 steps, TCD 71"));
    CHECK(sides[1].toObject()[QStringLiteral("heading")].toString() == QStringLiteral("B: cang-wu optimal from (2,3) — 6 steps, TCD 69"));
    for (int i = 0; i < 2; ++i) {
        const QJsonObject side = sides[i].toObject();
        CHECK(side[QStringLiteral("names")].toArray().size() == 64);
        CHECK(side[QStringLiteral("transfers")].toArray().size() == 63);
        CHECK(side[QStringLiteral("narration")].toArray()[3].toString() == narrate(cmp->side(i), 3));
    }
    CHECK(webPage(*cmp).contains("<script>"));
}

TEST_CASE("web page: no text of the scenario can close the data element, and the policy allows exactly the page's scripts", "[app][webpage]")
{
    Scenario s = loadScenario(TOPOCAST_SOURCE_DIR "/resources/scenarios/cang-wu-4x4.json");
    s.title = "</script><script>alert(1)</script>";
    s.description = "<!-- & -->";
    const SnapshotPtr snap = buildSnapshot(s, false);
    const QByteArray data = webPageData(*snap);
    CHECK_FALSE(data.contains('<'));
    CHECK_FALSE(data.contains('>'));
    CHECK_FALSE(data.contains('&'));
    CHECK(pageDataOf(*snap)[QStringLiteral("title")].toString() == QString::fromStdString(s.title));

    const QByteArray page = webPage(*snap);
    CHECK(page.count("<script") == 4);  // the data, three.js, its orbit controls, the player
    const QRegularExpression script(QStringLiteral("<script>(.*?)</script>"), QRegularExpression::DotMatchesEverythingOption);
    const QString text = QString::fromUtf8(page);
    const QString csp = QRegularExpression(QStringLiteral("Content-Security-Policy\" content=\"([^\"]*)\"")).match(text).captured(1);
    CHECK(csp.startsWith(QStringLiteral("default-src 'none'; script-src ")));
    int scripts = 0;
    for (auto it = script.globalMatch(text); it.hasNext(); ++scripts) {
        const QByteArray body = it.next().captured(1).toUtf8();
        const QByteArray hash = QCryptographicHash::hash(body, QCryptographicHash::Sha256).toBase64();
        CHECK(csp.contains(QStringLiteral("'sha256-%1'").arg(QString::fromLatin1(hash))));
    }
    CHECK(scripts == 3);
}

TEST_CASE("web page: File ▸ Export offers it, and a network past the limit is refused with the numbers", "[app][webpage]")
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
    const SnapshotPtr snap = buildSnapshot(big, false);
    CHECK_THROWS_WITH(webPageData(*snap), Catch::Contains("at most 32768 nodes") && Catch::Contains("65536"));
}
