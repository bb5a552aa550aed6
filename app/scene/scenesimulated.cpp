// SceneView in simulated time and the link chosen in the Links dock (sceneview.h).
#include "scene/sceneview.h"

#include "scene/linkinstances.h"
#include "scene/markinstances.h"
#include "scene/simulatedframes.h"

namespace topocast::app {

namespace {
constexpr std::size_t kMaxSimulatedHops = 50000;
}

void SceneView::setSimulation(std::shared_ptr<const SimulatedPlayback> playback)
{
    if (playback && m_snap)
        m_simulated = std::make_unique<SimulatedFrames>(std::move(playback), m_snap->topology());
    else
        m_simulated.reset();
    refresh();
    m_layers.messages->setFraction(m_fraction);
}

std::shared_ptr<const SimulatedPlayback> SceneView::simulation() const
{
    return m_simulated ? m_simulated->shared() : nullptr;
}

double SceneView::simulatedTime() const
{
    return m_simulated ? m_simulated->timeAt(m_choice.step, m_fraction) : 0.0;
}

void SceneView::restyleSimulated(bool all)
{
    if (!m_snap || m_style.channelColour.size() != m_drawn.channels.size())
        return;
    m_simulated->setPalette(m_palette, m_snap->topology().nodeCount());
    const bool changed = m_simulated->colour(simulatedTime(), m_style, m_drawn.channels, all);
    if (all) {  // refresh() uploads
        m_simulated->markWindow(m_choice.step, m_style);
        return;
    }
    if (!changed)
        return;
    applySelection();
    if (m_slice.dim >= 0)
        applySlice();
    uploadChannelColours(true);
}

std::vector<MessageInstances::Hop> SceneView::simulatedHops() const
{
    const Schedule& s = m_snap->schedule;
    const bool tags = m_snap->channelLoads.severalTags();
    const auto transfers = s.transfers();
    return m_simulated->hops(
        m_choice.step, m_positions,
        [&](std::uint32_t t) {
            return std::pair{messageColour(m_choice.mode, m_palette, static_cast<int>(transfers[t].tag), tags),
                             messageScale(transfers[t].size)};
        },
        kMaxSimulatedHops);
}

void SceneView::setSelectedChannel(std::optional<ChannelId> channel)
{
    if (channel == m_selected)
        return;
    m_selected = channel;
    std::vector<MarkInstances::Mark> marks;
    if (m_selected && m_snap)
        for (const NodeId v : {m_snap->topology().channelTail(*m_selected), m_snap->topology().channelHead(*m_selected)})
            marks.push_back({v, m_positions[v.value()], kHighlightColour, MarkShape::Right, 1.15f});
    m_layers.marks->setMarks(std::move(marks));
    refresh();
}

void SceneView::applySelection()
{
    if (!m_selected)
        return;
    for (std::size_t i = 0; i < m_drawn.channels.size() && i < m_style.channelColour.size(); ++i)
        if (m_drawn.channels[i].channel == *m_selected) {
            m_style.channelColour[i] = kHighlightColour;
            if (i < m_style.channelInUse.size())
                m_style.channelInUse[i] = 1;  // an arc is drawn while chosen
        }
}

} // namespace topocast::app
