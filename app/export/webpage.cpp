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
#include "topocast/scenario/data_glyphs.h"
#include "topocast/scenario/frame.h"
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
#include <map>
#include <unordered_map>
#include <utility>

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
    return Rgba::from(c).to<QColor>().name();
}

void appendPoint(QJsonArray& out, const Vec3& p)
{
    out << rounded(p[0]) << rounded(p[1]) << rounded(p[2]);
}

/// Every link once, as a polyline (a torus's wrap links as the app's arcs), and its two nodes.
/// Returns the links' two nodes, the edges' then the jumps', in the page's order.
std::vector<std::pair<NodeId, NodeId>> addEdges(const Topology& topo, const std::vector<Vec3>& pos, bool planes,
                                                QJsonObject& doc)
{
    std::vector<std::pair<NodeId, NodeId>> pairs;
    QJsonArray edges, ends;
    for (const DrawnLink& link : drawnLinks(topo, pos, planes)) {
        pairs.emplace_back(link.from, link.to);
        QJsonArray points;
        for (const Vec3& q : link.points)
            appendPoint(points, q);
        edges << points;
        ends << static_cast<qint64>(link.from) << static_cast<qint64>(link.to);
    }
    doc[QStringLiteral("edges")] = edges;
    doc[QStringLiteral("edgeNodes")] = ends;
    if (!planes)
        return pairs;
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
        pairs.emplace_back(v, next);
    }
    doc[QStringLiteral("jumps")] = jumps;
    return pairs;
}

QJsonObject coloursOf(const colour::Palette& p)
{
    return {{QStringLiteral("background"), hexOf(p.background)}, {QStringLiteral("source"), hexOf(p.source)},
            {QStringLiteral("informed"), hexOf(p.informed)},     {QStringLiteral("receiving"), hexOf(p.receiving)},
            {QStringLiteral("uninformed"), hexOf(p.uninformed)}, {QStringLiteral("link"), hexOf(p.link)},
            {QStringLiteral("linkUsed"), hexOf(p.linkUsed)},     {QStringLiteral("inFlight"), hexOf(p.inFlight)},
            {QStringLiteral("message"), hexOf(p.message)}};
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
        const PlacedLabels p = placeSceneLabels(labels, vp, right, pos, radius, kWidth, kHeight, kPixels, {},
                                                idleNodes(snap.schedule, snap.informedStep, step));
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

/// The rank of a channel's colour for the link it shares with its reverse: the busier role, and
/// between equal roles the lighter colour (the heat map's and source map's ramps rise in
/// lightness with the value).
std::pair<int, float> colourRank(ChannelRole role, const Rgba& c)
{
    return {static_cast<int>(role), 0.2126f * c.r + 0.7152f * c.g + 0.0722f * c.b};
}

/// The colours of `mode` at every step as the 3-D view draws them (core makeFrame): a table of
/// colours, then for each node and each drawn link (the edges' order, then the jumps between
/// planes in addEdges' order) an index into it — step 0 whole, each later step as the
/// [index, colour] pairs that changed since the step before.
QJsonObject framesOf(const Snapshot& snap, bool planes, ViewMode mode,
                     const std::vector<std::pair<NodeId, NodeId>>& links)
{
    const Topology& topo = snap.topology();
    const std::vector<DrawnChannel> channels = drawnChannels(topo, planes);
    // Channel ids count every port of every node (a mesh's border ports too).
    std::vector<std::size_t> drawnIndex(std::size_t{topo.nodeCount()} * static_cast<std::size_t>(topo.portsPerNode()));
    for (std::size_t i = 0; i < channels.size(); ++i)
        drawnIndex[channels[i].channel] = i;
    auto channelFrom = [&](NodeId u, NodeId v) { // the drawn channel u → v (a neighbour)
        for (int p = 0; p < topo.portsPerNode(); ++p) {
            const Port port = topo.portAt(p);
            if (NodeId next{}; topo.step(u, port.dim, port.sign, next) && next == v)
                return drawnIndex[topo.channel(u, port.dim, port.sign)];
        }
        throw Error("the web page's link " + topo.nodeName(u) + "–" + topo.nodeName(v) + " is not a link");
    };
    std::vector<std::pair<std::size_t, std::size_t>> linkChannels;
    linkChannels.reserve(links.size());
    for (const auto& [u, v] : links)
        linkChannels.emplace_back(channelFrom(u, v), channelFrom(v, u));
    QJsonArray table;
    std::unordered_map<QRgb, int> indexOf; // the colour as the page writes it (8 bits a channel)
    Rgba last{-1.0f, -1.0f, -1.0f, -1.0f};
    int lastIndex = 0;
    auto index = [&](const Rgba& c) {
        if (c == last) // neighbours mostly share a colour
            return lastIndex;
        last = c;
        const QColor colour = c.to<QColor>();
        const auto [at, added] = indexOf.emplace(colour.rgb(), static_cast<int>(indexOf.size()));
        if (added)
            table << colour.name();
        return lastIndex = at->second;
    };
    const Palette palette = Palette::normal();
    QJsonArray nodeSteps, linkSteps, treeSteps;
    std::vector<int> nodesBefore, linksBefore, treesBefore;
    for (int k = 0; k <= static_cast<int>(snap.stepCount()); ++k) {
        // The frame's colours (makeFrame's style; its arrows, labels and legend are written apart).
        const FrameStyle style = frameStyle(snap, channels, k, mode, true, palette);
        std::vector<int> nodes(topo.nodeCount()), linkColours(links.size());
        for (NodeId v{}; v < topo.nodeCount(); ++v)
            nodes[v] = index(style.nodeColour[v]);
        for (std::size_t e = 0; e < links.size(); ++e) {
            const auto [a, b] = linkChannels[e];
            const bool first = colourRank(style.channelRole[a], style.channelColour[a]) >=
                               colourRank(style.channelRole[b], style.channelColour[b]);
            linkColours[e] = index(style.channelColour[first ? a : b]);
        }
        auto encode = [k](const std::vector<int>& now, const std::vector<int>& before) {
            QJsonArray out;
            for (std::size_t i = 0; i < now.size(); ++i)
                if (k == 0)
                    out << now[i];
                else if (now[i] != before[i])
                    out << static_cast<qint64>(i) << now[i];
            return out;
        };
        nodeSteps << encode(nodes, nodesBefore);
        linkSteps << encode(linkColours, linksBefore);
        nodesBefore = std::move(nodes);
        linksBefore = std::move(linkColours);
        if (mode == ViewMode::Trees) { // each member tree's edge, in addTrees' order
            std::vector<int> trees(style.treeEdgeColour.size());
            for (std::size_t e = 0; e < trees.size(); ++e)
                trees[e] = index(style.treeEdgeColour[e]);
            treeSteps << encode(trees, treesBefore);
            treesBefore = std::move(trees);
        }
    }
    QJsonObject frames{
        {QStringLiteral("colours"), table}, {QStringLiteral("nodes"), nodeSteps}, {QStringLiteral("links"), linkSteps}};
    if (mode == ViewMode::Trees)
        frames[QStringLiteral("trees")] = treeSteps;
    return frames;
}

/// The Trees mode's member trees: each tree's edges as parent, child pairs in one list (the
/// snapshot's order, which the frames' "trees" colours follow), drawn over the links.
void addTrees(const Snapshot& snap, QJsonObject& side)
{
    QJsonArray trees;
    for (const auto& tree : snap.trees) {
        QJsonArray edges;
        for (const hypercube::TreeEdge& e : tree)
            edges << static_cast<qint64>(e.parent) << static_cast<qint64>(e.child);
        trees << edges;
    }
    side[QStringLiteral("trees")] = trees;
}

/// The Data held mode's glyphs as the 3-D view draws them (core dataGlyphCells at the page's
/// positions): a table of colours, the glyph's width, and for each step the cells of the nodes
/// whose glyph changed since the step before (step 0: every node), each node as [node, cells…]
/// with a cell as x, y, width, height (scene units from the node's centre, x right, y up as on
/// screen), colour index and layer.
void addGlyphs(const Snapshot& snap, const std::vector<Vec3>& pos, bool halfView, QJsonObject& side)
{
    if (!drawsDataGlyphs(snap))
        return;
    const float width = glyphWidth(pos, halfView ? kGlyphShareHalfView : kGlyphShare);
    const Palette palette = Palette::normal();
    QJsonArray table, steps;
    std::map<QString, int> indexOf;
    std::vector<QJsonArray> before(snap.topology().nodeCount());
    for (std::uint32_t k = 0; k <= snap.stepCount(); ++k) {
        std::vector<QJsonArray> now(before.size());
        for (const GlyphCell& c : dataGlyphCells(snap, StepNo{k}, palette, width)) {
            const QString name = c.colour.to<QColor>().name();
            const auto [at, added] = indexOf.emplace(name, static_cast<int>(indexOf.size()));
            if (added)
                table << name;
            now[c.node] << rounded(c.x) << rounded(c.y) << rounded(c.width) << rounded(c.height) << at->second
                        << c.layer;
        }
        QJsonArray changed;
        for (NodeId v{}; v < now.size(); ++v)
            if (k == 0 || now[v] != before[v])
                changed << QJsonArray{static_cast<qint64>(v), now[v]};
        steps << changed;
        before = std::move(now);
    }
    side[QStringLiteral("glyphs")] = QJsonObject{{QStringLiteral("colours"), table},
                                                 {QStringLiteral("width"), rounded(width)},
                                                 {QStringLiteral("steps"), steps}};
}

} // namespace

namespace {

/// One side of the page: its network, layout, schedule, narration, camera and colours in `mode`
/// (`halfView`: one of a comparison's two, with the app's half views' wider glyphs).
QJsonObject sideData(const Snapshot& snap, const QString& heading, ViewMode mode, bool halfView)
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
    const auto links = addEdges(topo, pos, drawsPlanes(topo, snap.drawing), side);
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
    side[QStringLiteral("frames")] = framesOf(snap, drawsPlanes(topo, snap.drawing), mode, links);
    if (mode == ViewMode::Trees)
        addTrees(snap, side);
    if (mode == ViewMode::DataHeld)
        addGlyphs(snap, pos, halfView, side);
    return side;
}

/// The legend of `mode` as the window lists it: the frame's (core modeLegend), entry for entry.
QJsonArray legendFor(const Snapshot& snap, ViewMode mode)
{
    QJsonArray legend;
    for (const LegendEntry& e : modeLegend(&snap, mode, Palette::normal()))
        legend << QJsonArray{e.colour.to<QColor>().name(), QString::fromStdString(e.text)};
    return legend;
}

/// The page's document: the scenario's texts, the sides, the colours and the legend of `mode`
/// (side A's).
QByteArray pageDocument(const Snapshot& a, ViewMode mode, const QString& facts, std::uint32_t steps, QJsonArray sides)
{
    const Scenario& scenario = a.scenario;
    QJsonObject doc;
    const QString title = QString::fromStdString(scenario.title);
    doc[QStringLiteral("title")] = title.isEmpty() ? windowTitleFor(scenario) : title;
    doc[QStringLiteral("description")] = QString::fromStdString(scenario.description);
    doc[QStringLiteral("facts")] = facts;
    doc[QStringLiteral("steps")] = static_cast<qint64>(steps);
    doc[QStringLiteral("sides")] = sides;
    const colour::Palette palette = colour::normalPalette();
    doc[QStringLiteral("colours")] = coloursOf(palette);
    doc[QStringLiteral("mode")] = QString::fromUtf8(colour::kColourModes[static_cast<std::size_t>(mode)].label);
    doc[QStringLiteral("legend")] = legendFor(a, mode);
    // A mode that maps numbers to colours shows its scale as the window's legend does.
    if (const auto bar = mode == ViewMode::Plain ? std::nullopt : legendBar(&a, mode, true, Palette::normal())) {
        QJsonArray stops, labels;
        for (const QColor& c : bar->stops)
            stops << c.name();
        for (const auto& [value, text] : bar->labels)
            labels << QJsonArray{bar->max > bar->min ? (value - bar->min) / (bar->max - bar->min) : 0.0, text};
        doc[QStringLiteral("bar")] = QJsonObject{{QStringLiteral("caption"), bar->caption},
                                                 {QStringLiteral("stops"), stops},
                                                 {QStringLiteral("labels"), labels}};
    }
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

QByteArray webPageData(const Snapshot& snap, ViewMode mode)
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
    return pageDocument(snap, mode, facts, snap.stepCount(), QJsonArray{sideData(snap, QString(), mode, false)});
}

QByteArray webPageData(const CompareSnapshot& cmp, ViewMode mode)
{
    const QString facts =
        QStringLiteral("%1: %2 against %3")
            .arg(QString::fromStdString(cmp.a->topology().displayName()), sideFigures(cmp, 0), sideFigures(cmp, 1));
    QJsonArray sides;
    for (int i = 0; i < 2; ++i)
        sides << sideData(cmp.side(i), sideTitle(i, cmp.side(i)) + QStringLiteral(" — ") + sideFigures(cmp, i), mode,
                          true);
    return pageDocument(*cmp.a, mode, facts, cmp.comparison.steps, sides);
}

QByteArray webPage(const Snapshot& snap, ViewMode mode)
{
    return pageAround(webPageData(snap, mode));
}

QByteArray webPage(const CompareSnapshot& cmp, ViewMode mode)
{
    return pageAround(webPageData(cmp, mode));
}

void writeWebPage(const Snapshot& snap, const QString& path, ViewMode mode)
{
    saveBytes(webPage(snap, mode), path);
}

void writeWebPage(const CompareSnapshot& cmp, const QString& path, ViewMode mode)
{
    saveBytes(webPage(cmp, mode), path);
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
