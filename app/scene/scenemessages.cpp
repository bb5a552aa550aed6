#include "scene/scenemessages.h"

#include "scene/arrowinstances.h"
#include "scene/linkinstances.h"
#include "scene/markinstances.h"
#include "scene/sceneshape.h"
#include "scene/simulatedframes.h"

#include "topocast/drawing/layout.h"
#include "topocast/model/routing.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <utility>

namespace topocast::app {

namespace {
constexpr std::size_t kMaxSimulatedHops = 50000;
constexpr std::size_t kMaxMessageHops = 50000;

Vec3 shifted(const Vec3& p, const Vec3& by)
{
    return {p[0] + by[0], p[1] + by[1], p[2] + by[2]};
}

/// The bulge of the arc `from` → `to` is drawn with, where that hop is an arc.
std::optional<Vec3> arcBulge(NodeId from, NodeId to, const std::map<std::pair<NodeId, NodeId>, Vec3>& bulges)
{
    const auto it = bulges.find({from, to});
    return it == bulges.end() ? std::nullopt : std::optional<Vec3>(it->second);
}
} // namespace

void SceneMessages::stepMessages(std::vector<MessageInstances::Hop>& hops,
                                 std::vector<ArrowInstances::Arrow>& arrows) const
{
    // The frame's arrows (one per transfer of the step, core makeFrame) and, while the step is
    // under way, each transfer's message along every hop of its route (up to kMaxMessageHops).
    const Schedule& s = m_scene.snap->schedule;
    const auto transfers = s.transfers();
    std::vector<std::vector<NodeId>> routes;
    std::set<std::pair<NodeId, NodeId>> used; // every directed hop drawn
    std::size_t total = 0;
    for (const FrameArrow& a : m_scene.shown.arrows) {
        if (total >= kMaxMessageHops)
            break;
        const Transfer& t = transfers[a.transfer];
        routes.push_back(routeNodes(s.topology(), t.from, t.to, t.route, s.dimensionOrder));
        for (std::size_t k = 0; k + 1 < routes.back().size(); ++k)
            used.insert({routes.back()[k], routes.back()[k + 1]});
        total += routes.back().size() - 1;
    }
    const auto& pos = m_scene.positions;
    const float lane = 0.5f * m_scene.sizes.nodeRadius;
    // Wrap-around channels (and jumps between planes) are drawn as arcs: a message on one runs
    // along its arc, and an arrowhead at its end points along the arc's last stretch, not across
    // the grid along the straight line between the two nodes.
    std::map<std::pair<NodeId, NodeId>, Vec3> bulges;
    for (std::size_t i = m_scene.drawn.straightCount; i < m_scene.drawn.channels.size(); ++i)
        if (used.count({m_scene.drawn.channels[i].tail, m_scene.drawn.channels[i].head}) > 0)
            bulges[{m_scene.drawn.channels[i].tail, m_scene.drawn.channels[i].head}] =
                m_scene.drawn.arcShapes[i - m_scene.drawn.straightCount].bulge;
    // Routes sharing a hop in one direction each run in a lane of their own (core routeLanes),
    // beside the lane of the other direction where the step sends both ways over a link.
    const std::vector<int> routeLane = routeLanes(routes);
    for (std::size_t i = 0; i < routes.size(); ++i) {
        const std::vector<NodeId>& r = routes[i];
        const FrameArrow& arrow = m_scene.shown.arrows[i];
        auto lanes = [&](std::size_t k) { // hop k's ends in its lane
            const int across = routeLane[i] + (used.count({r[k + 1], r[k]}) > 0 ? 1 : 0);
            const Vec3 by =
                across > 0 ? laneOffset(pos[r[k]], pos[r[k + 1]], lane * static_cast<float>(across)) : Vec3{0, 0, 0};
            return std::pair{shifted(pos[r[k]], by), shifted(pos[r[k + 1]], by)};
        };
        const auto count = static_cast<float>(r.size() - 1);
        for (std::size_t k = 0; k + 1 < r.size(); ++k) {
            const auto [a, b] = lanes(k);
            const auto arc = bulges.find({r[k], r[k + 1]});
            if (arc == bulges.end()) {
                hops.push_back({a, b, arrow.colour, static_cast<float>(k) / count, static_cast<float>(k + 1) / count,
                                arrow.scale});
                continue;
            }
            const std::vector<Vec3> points = arcPolyline(a, b, arc->second);
            const auto pieces = static_cast<float>(points.size() - 1);
            for (std::size_t j = 0; j + 1 < points.size(); ++j)
                hops.push_back({points[j], points[j + 1], arrow.colour,
                                (static_cast<float>(k) + static_cast<float>(j) / pieces) / count,
                                (static_cast<float>(k) + static_cast<float>(j + 1) / pieces) / count, arrow.scale});
        }
    }
    for (const FrameArrow& a : m_scene.shown.arrows) {
        // Two arrowheads on one link in opposite directions lie side by side, each its half
        // width (0.55 of its length) and a little from the link: never one shape over the other.
        const float apart = std::max(lane, ArrowInstances::kLane * m_scene.layers.arrows->length() * a.scale);
        const Vec3 by = a.twoWay ? laneOffset(pos[a.from], pos[a.to], apart) : Vec3{0, 0, 0};
        const Vec3 tip = shifted(pos[a.to], by);
        Vec3 from = shifted(pos[a.from], by);
        if (const auto arc = arcBulge(a.from, a.to, bulges); arc) {
            // The arc's direction at its end, (b − a) − 4·bulge; `from` as far back along it as
            // a neighbour's hop would be, so hovering the arrowhead picks it as on any hop.
            const Vec3 d{(tip[0] - from[0]) - 4 * (*arc)[0], (tip[1] - from[1]) - 4 * (*arc)[1],
                         (tip[2] - from[2]) - 4 * (*arc)[2]};
            const float norm = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            const float back = 4 * m_scene.layers.arrows->length() * a.scale / std::max(norm, 1e-6f);
            from = {tip[0] - d[0] * back, tip[1] - d[1] * back, tip[2] - d[2] * back};
        }
        arrows.push_back({tip, from, a.colour, a.scale});
    }
}

SceneMessages::SceneMessages(SceneContext& scene) : m_scene(scene)
{
}

SceneMessages::~SceneMessages() = default;

void SceneMessages::simulate(std::shared_ptr<const SimulatedPlayback> playback)
{
    if (playback && m_scene.snap)
        m_simulated = std::make_unique<SimulatedFrames>(std::move(playback), m_scene.snap->topology());
    else
        m_simulated.reset();
}

void SceneMessages::reset()
{
    m_simulated.reset();
    m_selected.reset();
}

std::shared_ptr<const SimulatedPlayback> SceneMessages::simulation() const
{
    return m_simulated ? m_simulated->shared() : nullptr;
}

double SceneMessages::simulatedTime() const
{
    return m_simulated ? m_simulated->timeAt(m_scene.choice.step, m_scene.fraction) : 0.0;
}

void SceneMessages::restyleSimulated(bool all)
{
    if (!m_scene.snap || m_scene.shown.style.channelColour.size() != m_scene.drawn.channels.size())
        return;
    m_simulated->setPalette(m_scene.palette, m_scene.snap->topology().nodeCount());
    const bool changed = m_simulated->colour(simulatedTime(), m_scene.shown.style, m_scene.drawn.channels, all);
    if (all) { // refresh() uploads
        m_simulated->markWindow(m_scene.choice.step, m_scene.shown.style);
        return;
    }
    if (!changed)
        return;
    applySelection();
    m_scene.shape->applySlice();
    m_scene.shape->uploadChannelColours(true);
}

std::vector<MessageInstances::Hop> SceneMessages::simulatedHops() const
{
    const Schedule& s = m_scene.snap->schedule;
    const bool tags = m_scene.snap->channelLoads.severalTags();
    const auto transfers = s.transfers();
    return m_simulated->hops(
        m_scene.choice.step, m_scene.positions,
        [&](std::uint32_t t) {
            return std::pair{
                messageColour(m_scene.choice.mode, m_scene.palette, static_cast<int>(transfers[t].tag), tags),
                topocast::messageScale(m_scene.transfers.sizes, transfers[t].size)};
        },
        kMaxSimulatedHops);
}

bool SceneMessages::select(std::optional<ChannelId> channel)
{
    if (channel == m_selected)
        return false;
    m_selected = channel;
    std::vector<MarkInstances::Mark> marks;
    if (m_selected && m_scene.snap)
        for (const NodeId v :
             {m_scene.snap->topology().channelTail(*m_selected), m_scene.snap->topology().channelHead(*m_selected)})
            marks.push_back({v, m_scene.positions[v.value()], kHighlightColour, MarkShape::Right, 1.15f});
    m_scene.layers.marks->setMarks(std::move(marks));
    return true;
}

void SceneMessages::applySelection()
{
    if (!m_selected)
        return;
    for (std::size_t i = 0; i < m_scene.drawn.channels.size() && i < m_scene.shown.style.channelColour.size(); ++i)
        if (m_scene.drawn.channels[i].channel == *m_selected) {
            m_scene.shown.style.channelColour[i] = kHighlightColour;
            if (i < m_scene.shown.style.channelInUse.size())
                m_scene.shown.style.channelInUse[i] = 1; // an arc is drawn while chosen
        }
}

} // namespace topocast::app
