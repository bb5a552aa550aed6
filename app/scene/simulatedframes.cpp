#include "scene/simulatedframes.h"

#include <algorithm>
#include <limits>

namespace topocast::app {

SimulatedFrames::SimulatedFrames(std::shared_ptr<const SimulatedPlayback> playback, const Topology& topology)
    : m_playback(std::move(playback)), m_topology(&topology),
      m_occupancy(m_playback->simulation(), topology.channelCount()),
      m_firstUse(topology.channelCount(), std::numeric_limits<double>::infinity()), m_nodes(topology.nodeCount())
{
    const Simulation& s = m_playback->simulation();
    for (std::size_t k = 0; k < s.hopTimes.size() && k < s.routeLinks.size(); ++k) {
        const std::uint64_t c = s.routeLinks[k].value();
        if (c < m_firstUse.size() && s.hopTimes[k].end > s.hopTimes[k].start)
            m_firstUse[c] = std::min(m_firstUse[c], s.hopTimes[k].start);
    }
}

double SimulatedFrames::timeAt(int step, float fraction) const
{
    return m_playback->timeAt(static_cast<std::uint32_t>(std::max(step, 0)), fraction);
}

std::vector<MessageInstances::Hop>
SimulatedFrames::hops(int step, const std::vector<Vec3>& positions,
                      const std::function<std::pair<Rgba, float>(std::uint32_t)>& look, std::size_t limit) const
{
    std::vector<MessageInstances::Hop> out;
    if (step < 1 || static_cast<std::uint32_t>(step) > m_playback->stepCount())
        return out;
    const double from = m_playback->stepEnd(static_cast<std::uint32_t>(step - 1));
    const double to = m_playback->stepEnd(static_cast<std::uint32_t>(step));
    if (to <= from)
        return out;
    const Simulation& s = m_playback->simulation();
    const double span = to - from;
    for (const PlaybackHop& h : m_playback->hopsBetween(from, to)) {
        if (out.size() >= limit)
            break;
        const ChannelId ch = s.routeLinks[s.routeFirst[h.transfer] + h.hop];
        const NodeId a = m_topology->channelTail(ch), b = m_topology->channelHead(ch);
        const auto [colour, scale] = look(h.transfer);
        out.push_back({positions[a.value()], positions[b.value()], colour, static_cast<float>((h.begin - from) / span),
                       static_cast<float>((h.end - from) / span), scale});
    }
    return out;
}

void SimulatedFrames::setPalette(const Palette& palette, std::size_t nodes)
{
    m_palette = palette;
    m_nodes = nodes;
    m_idle = channelColours(ViewMode::Plain, palette, nodes).idle; // once, not per link and frame
}

bool SimulatedFrames::colour(double ns, FrameStyle& style, const std::vector<DrawnChannel>& channels, bool all)
{
    if (m_drawnCount != channels.size() || m_drawnAt.size() != m_firstUse.size()) {
        m_drawnAt.assign(m_firstUse.size(), std::numeric_limits<std::uint32_t>::max());
        for (std::size_t i = 0; i < channels.size(); ++i)
            if (channels[i].channel.value() < m_drawnAt.size())
                m_drawnAt[channels[i].channel.value()] = static_cast<std::uint32_t>(i);
        m_drawnCount = channels.size();
        all = true;
    }
    const std::vector<ChannelId>& changed = m_occupancy.moveTo(ns);
    auto paint = [&](std::size_t i, ChannelId ch) {
        const std::uint32_t n = m_occupancy.count(ch);
        style.channelColour[i] =
            n == 0 && m_firstUse[ch.value()] >= ns ? m_idle : simulatedLinkColour(m_palette, m_nodes, n, true);
        style.channelRole[i] = n == 0 ? ChannelRole::Idle : n == 1 ? ChannelRole::InUse : ChannelRole::Contended;
    };
    if (all) {
        for (std::size_t i = 0; i < channels.size(); ++i)
            paint(i, channels[i].channel);
        return true;
    }
    // A link that had carried nothing turns "used earlier" when its first message leaves it,
    // which the cursor reports as a change of its count.
    for (const ChannelId ch : changed)
        if (m_drawnAt[ch.value()] != std::numeric_limits<std::uint32_t>::max())
            paint(m_drawnAt[ch.value()], ch);
    return !changed.empty();
}

void SimulatedFrames::markWindow(int step, FrameStyle& style) const
{
    if (step < 1 || static_cast<std::uint32_t>(step) > m_playback->stepCount() || m_drawnAt.empty())
        return;
    const double from = m_playback->stepEnd(static_cast<std::uint32_t>(step - 1));
    const double to = m_playback->stepEnd(static_cast<std::uint32_t>(step));
    for (const ChannelId ch : m_playback->channelsBetween(from, to)) {
        const std::uint32_t i = m_drawnAt[ch.value()];
        if (i < style.channelInUse.size())
            style.channelInUse[i] = 1;
    }
}

} // namespace topocast::app
