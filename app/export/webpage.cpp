#include "export/webpage.h"

#include "compare/comparesnapshot.h"
#include "session/output.h"
#include "style/scenestyle.h"
#include "words/narration.h"

#include "topocast/drawing/camera.h"
#include "topocast/drawing/colour.h"
#include "topocast/drawing/layout.h"
#include "topocast/drawing/layout_edges.h"
#include "topocast/drawing/view_labels.h"
#include "topocast/model/error.h"
#include "topocast/model/routing.h"
#include "topocast/model/units.h"
#include "topocast/scenario/scenario.h"
#include "topocast/version.h"

#include <QAction>
#include <QCryptographicHash>
#include <QFile>
#include <QFileDialog>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>

#include <cmath>

namespace topocast::app {

using colour::Srgb;

namespace {

QByteArray resource(const QString& name)
{
    QFile file(name);
    if (!file.open(QIODevice::ReadOnly))
        throw Error("the web page's " + name.toStdString() + " is missing from the program");
    return file.readAll();
}

/// A coordinate to the millimetre of a unit: small, and exact enough for any screen.
double rounded(float x)
{
    return std::round(static_cast<double>(x) * 1000.0) / 1000.0;
}

QString hexOf(const Srgb& c)
{
    return Rgba::from(c).toColor().name();
}

void appendPoint(QJsonArray& out, const Vec3& p)
{
    out << rounded(p[0]) << rounded(p[1]) << rounded(p[2]);
}

/// Every link once, as a polyline (a torus's wrap links as the app's arcs), and its two nodes.
void addEdges(const Topology& topo, const std::vector<Vec3>& pos, bool planes, QJsonObject& doc)
{
    QJsonArray edges, ends;
    for (const DrawnLink& link : drawnLinks(topo, pos, planes)) {
        QJsonArray points;
        for (const Vec3& q : link.points)
            appendPoint(points, q);
        edges << points;
        ends << static_cast<qint64>(link.from) << static_cast<qint64>(link.to);
    }
    doc[QStringLiteral("edges")] = edges;
    doc[QStringLiteral("edgeNodes")] = ends;
    if (!planes)
        return;
    // Planes side by side: the links between planes, drawn (as arcs) only while a step uses them.
    QJsonArray jumps;
    for (NodeId v{}; v < topo.nodeCount(); ++v) {
        NodeId next{};
        if (!topo.step(v, kPlanesDimension, +1, next))
            continue;
        QJsonArray points;
        for (const Vec3& q : arcPolyline(pos[v], pos[next], planeJumpBulge(pos[v], pos[next])))
            appendPoint(points, q);
        jumps << QJsonArray{static_cast<qint64>(v), static_cast<qint64>(next), points};
    }
    doc[QStringLiteral("jumps")] = jumps;
}

QJsonObject coloursOf(const colour::Palette& p)
{
    return {{QStringLiteral("background"), hexOf(p.background)}, {QStringLiteral("source"), hexOf(p.source)},
            {QStringLiteral("informed"), hexOf(p.informed)},     {QStringLiteral("receiving"), hexOf(p.receiving)},
            {QStringLiteral("uninformed"), hexOf(p.uninformed)}, {QStringLiteral("link"), hexOf(p.link)},
            {QStringLiteral("linkUsed"), hexOf(p.linkUsed)},     {QStringLiteral("inFlight"), hexOf(p.inFlight)},
            {QStringLiteral("message"), hexOf(p.message)}};
}

QJsonArray legendOf(const colour::Palette& p)
{
    QJsonArray legend;
    const std::pair<Srgb, const char*> entries[] = {{p.source, "source"},
                                                    {p.informed, "holds the data"},
                                                    {p.receiving, "receives in this step"},
                                                    {p.uninformed, "not yet"},
                                                    {p.inFlight, "link in use this step"},
                                                    {p.linkUsed, "link used earlier"},
                                                    {p.link, "link not used yet"},
                                                    {p.message, "message on its way (while playing)"}};
    for (const auto& [c, label] : entries)
        legend << QJsonArray{hexOf(c), QString::fromLatin1(label)};
    return legend;
}

/// JSON that can sit inside <script type="application/json">: no '<', '>' or '&' as such, so no
/// text of the scenario can close the element or open another.
QByteArray scriptSafe(QByteArray json)
{
    return json.replace('<', "\\u003c").replace('>', "\\u003e").replace('&', "\\u0026");
}

QByteArray cspHash(const QByteArray& script)
{
    return "'sha256-" + QCryptographicHash::hash(script, QCryptographicHash::Sha256).toBase64() + "'";
}

/// The axes of a mesh or torus from its low corner, as the app draws them (x right, y down, z
/// toward the viewer; no z on a flat drawing); none on a hypercube or planes side by side.
void addAxes(const Topology& topo, const std::vector<Vec3>& pos, bool planes, QJsonObject& side)
{
    if (topo.isHypercube() || planes || pos.empty())
        return;
    const AxisGizmo g = axisGizmo(pos);
    const Vec3& o = g.origin;
    QJsonArray origin, x, y, z;
    appendPoint(origin, o);
    appendPoint(x, {o[0] + g.length, o[1], o[2]});
    appendPoint(y, {o[0], o[1] - g.length, o[2]});
    QJsonObject axes{{QStringLiteral("origin"), origin}, {QStringLiteral("x"), x}, {QStringLiteral("y"), y}};
    if (!g.flat) {
        appendPoint(z, {o[0], o[1], o[2] + g.length});
        axes[QStringLiteral("z")] = z;
    }
    side[QStringLiteral("axes")] = axes;
}

/// The node labels of each step as the app places them for the page's first view (core
/// nodeSceneLabels and placeSceneLabels, at 1280×720 with 16-px type): every node up to 64 nodes
/// ("labels", one list), else the source and each step's receivers ("stepLabels", one list a step).
/// Each label is [node, side] (LabelSide's number; a label without room is left out).
void addLabels(const Snapshot& snap, const std::vector<Vec3>& pos, float radius, QJsonObject& side)
{
    const Topology& topo = snap.topology();
    const OrbitView view = defaultView(topo, pos, 16.0f / 9.0f);
    const Mat4 vp = view.viewProjection(), m = view.viewMatrix();
    const Vec3 right{m[0], m[4], m[8]};
    constexpr int kWidth = 1280, kHeight = 720, kPixels = 16;
    auto placed = [&](std::uint32_t step) {
        QJsonArray out;
        const std::vector<SceneLabel> labels = nodeSceneLabels(snap.schedule, pos, step);
        const PlacedLabels p = placeSceneLabels(labels, vp, right, pos, radius, kWidth, kHeight, kPixels);
        for (std::size_t i = 0; i < labels.size(); ++i)
            if (p.boxes[i].side != LabelSide::Hidden)
                out << QJsonArray{labels[i].node, static_cast<int>(p.boxes[i].side)};
        return out;
    };
    if (topo.nodeCount() <= kLabelAllNodes) {
        side[QStringLiteral("labels")] = placed(0);
    } else {
        QJsonArray steps;
        for (std::uint32_t k = 0; k <= snap.stepCount(); ++k)
            steps << placed(k);
        side[QStringLiteral("stepLabels")] = steps;
    }
}

} // namespace

namespace {

/// One side of the page: its network, layout, schedule, narration and camera.
QJsonObject sideData(const Snapshot& snap, const QString& heading)
{
    const Topology& topo = snap.topology();
    if (topo.nodeCount() > kWebPageMaxNodes)
        throw Error("a web page draws at most " + std::to_string(kWebPageMaxNodes) + " nodes; the " +
                    topo.displayName() + " has " + std::to_string(topo.nodeCount()));
    const Schedule& s = snap.schedule;
    const std::vector<Vec3> pos = drawingPositions(topo, snap.drawing, 16.0f / 9.0f);

    QJsonObject side;
    side[QStringLiteral("heading")] = heading;
    side[QStringLiteral("steps")] = static_cast<qint64>(snap.stepCount());
    side[QStringLiteral("source")] = hasRoot(s.pattern()) ? static_cast<qint64>(s.source()) : qint64{-1};
    QJsonArray names, points, informed;
    for (NodeId v{}; v < topo.nodeCount(); ++v) {
        names << QString::fromStdString(nodeLabel(topo, v));
        appendPoint(points, pos[v]);
        const std::uint32_t at = snap.informedStep[v];
        informed << (at == kNeverInformed ? qint64{-1} : static_cast<qint64>(at));
    }
    side[QStringLiteral("names")] = names;
    side[QStringLiteral("pos")] = points;
    side[QStringLiteral("informed")] = informed;
    addEdges(topo, pos, drawsPlanes(topo, snap.drawing), side);
    if (drawsPlanes(topo, snap.drawing)) { // each plane's title above its top-left node
        QJsonArray titles;
        for (const PlaneTitle& t : planeTitles(topo, pos)) {
            QJsonArray at;
            appendPoint(at, t.position);
            titles << QJsonArray{QString::fromStdString(t.text), at};
        }
        side[QStringLiteral("titles")] = titles;
    }
    QJsonArray transfers;
    for (const Transfer& t : s.transfers()) {
        QJsonArray path;
        for (NodeId v : routeNodes(topo, t.from, t.to, t.route, s.dimensionOrder))
            path << static_cast<qint64>(v);
        transfers << QJsonArray{static_cast<qint64>(t.step), static_cast<qint64>(t.from), static_cast<qint64>(t.to),
                                path};
    }
    side[QStringLiteral("transfers")] = transfers;
    QJsonArray narration;
    for (int k = 0; k <= static_cast<int>(snap.stepCount()); ++k)
        narration << narrate(snap, k);
    side[QStringLiteral("narration")] = narration;
    const OrbitView view = defaultView(topo, pos, 16.0f / 9.0f);
    QJsonArray eye, centre;
    appendPoint(eye, view.eye());
    appendPoint(centre, view.centre);
    side[QStringLiteral("camera")] = QJsonObject{
        {QStringLiteral("eye"), eye}, {QStringLiteral("centre"), centre}, {QStringLiteral("fov"), view.fovDegrees}};
    // Half as large again as the app draws them: a page is often seen small (a phone, a projected
    // browser window), and neighbours stay 1 apart.
    const float radius = 1.5f * drawingNodeRadius(topo, snap.drawing);
    side[QStringLiteral("radius")] = rounded(radius);
    addAxes(topo, pos, drawsPlanes(topo, snap.drawing), side);
    addLabels(snap, pos, radius, side);
    return side;
}

/// The page's document: the scenario's texts, the sides, the colours and legend.
QByteArray pageDocument(const Scenario& scenario, const QString& facts, std::uint32_t steps, QJsonArray sides)
{
    QJsonObject doc;
    const QString title = QString::fromStdString(scenario.title);
    doc[QStringLiteral("title")] = title.isEmpty() ? windowTitleFor(scenario) : title;
    doc[QStringLiteral("description")] = QString::fromStdString(scenario.description);
    doc[QStringLiteral("facts")] = facts;
    doc[QStringLiteral("steps")] = static_cast<qint64>(steps);
    doc[QStringLiteral("sides")] = sides;
    const colour::Palette palette = colour::normalPalette();
    doc[QStringLiteral("colours")] = coloursOf(palette);
    doc[QStringLiteral("legend")] = legendOf(palette);
    return scriptSafe(QJsonDocument(doc).toJson(QJsonDocument::Compact));
}

/// The page around `data`: the template, three.js, its orbit controls and wide lines and the
/// player inlined, and the policy that lets exactly those four scripts run.
QByteArray pageAround(const QByteArray& data)
{
    const QByteArray three = resource(QStringLiteral(":/web/three.min.js"));
    const QByteArray controls = resource(QStringLiteral(":/web/examples/js/controls/OrbitControls.js"));
    // Lines wider than WebGL's 1 px: three.js's LineSegments2 (geometry, material, object).
    const QByteArray lines = resource(QStringLiteral(":/web/examples/js/lines/LineSegmentsGeometry.js")) + "\n" +
                             resource(QStringLiteral(":/web/examples/js/lines/LineMaterial.js")) + "\n" +
                             resource(QStringLiteral(":/web/examples/js/lines/LineSegments2.js"));
    const QByteArray player = resource(QStringLiteral(":/web/player.js"));
    const QByteArray csp = "default-src 'none'; script-src " + cspHash(three) + ' ' + cspHash(controls) + ' ' +
                           cspHash(lines) + ' ' + cspHash(player) +
                           "; style-src 'unsafe-inline'; img-src data: blob:; base-uri 'none'; form-action 'none'";
    const QByteArray revision = [&three] {
        const int at = three.indexOf("REVISION=\"");
        return at < 0 ? QByteArray("?") : three.mid(at + 10, three.indexOf('"', at + 10) - at - 10);
    }();
    QByteArray page = resource(QStringLiteral(":/web/page.html"));
    // Placeholders are filled in one pass each, the data last: nothing inserted is read again.
    page.replace("@CSP@", csp)
        .replace("@VERSION@", kVersion)
        .replace("@THREE_REVISION@", revision)
        .replace("@THREE@", three)
        .replace("@CONTROLS@", controls)
        .replace("@LINES@", lines)
        .replace("@PLAYER@", player);
    const auto at = page.indexOf("@DATA@");
    return page.replace(at, 6, data);
}

} // namespace

QByteArray webPageData(const Snapshot& snap)
{
    const Topology& topo = snap.topology();
    QString facts =
        QStringLiteral("%1, %2: %3 steps, TCD %4, %5 nodes")
            .arg(QString::fromStdString(topo.displayName()), QString::fromStdString(snap.schedule.algorithm))
            .arg(snap.stepCount())
            .arg(snap.metrics.tcd)
            .arg(topo.nodeCount());
    // A time says its model and its size.
    if (snap.networkTime) {
        const NetworkModel net = snap.scenario.network.value_or(NetworkModel{});
        facts += QStringLiteral(", %1 for M = %2 (LogGP on the %3 network, contention not charged)")
                     .arg(QString::fromStdString(formatSeconds(*snap.networkTime * 1e-9)),
                          QString::fromStdString(formatSize(net.message)), QString::fromStdString(net.preset));
    }
    return pageDocument(snap.scenario, facts, snap.stepCount(), QJsonArray{sideData(snap, QString())});
}

QByteArray webPageData(const CompareSnapshot& cmp)
{
    const QString facts =
        QStringLiteral("%1: %2 against %3")
            .arg(QString::fromStdString(cmp.a->topology().displayName()), sideFigures(cmp, 0), sideFigures(cmp, 1));
    QJsonArray sides;
    for (int i = 0; i < 2; ++i)
        sides << sideData(cmp.side(i), sideTitle(i, cmp.side(i)) + QStringLiteral(" — ") + sideFigures(cmp, i));
    return pageDocument(cmp.a->scenario, facts, cmp.comparison.steps, sides);
}

QByteArray webPage(const Snapshot& snap)
{
    return pageAround(webPageData(snap));
}

QByteArray webPage(const CompareSnapshot& cmp)
{
    return pageAround(webPageData(cmp));
}

void writeWebPage(const Snapshot& snap, const QString& path)
{
    saveBytes(webPage(snap), path);
}

void writeWebPage(const CompareSnapshot& cmp, const QString& path)
{
    saveBytes(webPage(cmp), path);
}

QAction* addWebPageAction(QMenu* exportMenu, QWidget* window, std::function<QByteArray()> page,
                          std::function<void(const QString&)> report)
{
    QAction* action = exportMenu->addAction(QStringLiteral("&Web page (HTML)…"));
    QObject::connect(action, &QAction::triggered, window, [=] {
        const QString path =
            QFileDialog::getSaveFileName(window, QStringLiteral("Save web page"), QStringLiteral("topocast.html"),
                                         QStringLiteral("Web page (*.html)"));
        if (path.isEmpty())
            return;
        try {
            saveBytes(page(), path);
            report(QStringLiteral("wrote %1: it plays in any browser, offline").arg(path));
        } catch (const Error& e) {
            report(QStringLiteral("web page not written: %1").arg(QString::fromStdString(e.what())));
        }
    });
    return action;
}

} // namespace topocast::app
