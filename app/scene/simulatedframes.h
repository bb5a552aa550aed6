#pragma once

#include "scene/messageinstances.h"
#include "style/scenestyle.h"

#include "topocast/analysis/simulated_playback.h"

#include <QString>

#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace topocast::app {

/// The 3-D view in simulated time (View ▸ Simulated time): step s of the timeline is the
/// simulated window from the end of step s − 1 to the end of step s (SimulatedPlayback), the
/// messages move through it as the simulation moved them (every message on the wire in the
/// window, whatever its step; one slowed by a shared link visibly slower), and each link is
/// coloured by how many messages share its bandwidth at the moment shown.
class SimulatedFrames {
public:
    SimulatedFrames(std::shared_ptr<const SimulatedPlayback> playback, const Topology& topology);

    const SimulatedPlayback& playback() const { return *m_playback; }
    std::shared_ptr<const SimulatedPlayback> shared() const { return m_playback; }
    /// ns at timeline position (step, fraction). O(1).
    double timeAt(int step, float fraction) const;

    /// The messages on their way in step `step`'s window: one hop each from its channel's tail
    /// to its head, its times as fractions of the window; `colour` and `scale` of the transfer
    /// (by index). At most `limit` hops. O(transfers + hops drawn).
    std::vector<MessageInstances::Hop> hops(int step, const std::vector<Vec3>& positions,
                                            const std::function<std::pair<Rgba, float>(std::uint32_t)>& look,
                                            std::size_t limit) const;
    /// Colours `channels` (drawnChannels order) in `style` by their messages at `ns`: all of them
    /// (`all`) or the ones whose count changed since the last call. True when some colour
    /// changed. O(changed) (all: O(channels)).
    bool colour(double ns, FrameStyle& style, const std::vector<DrawnChannel>& channels, bool all);
    /// Marks in `style.channelInUse` every channel some message of step `step`'s window crosses
    /// (the wrap-around arcs drawn while in use). After a colour(…, all). O(transfers).
    void markWindow(int step, FrameStyle& style) const;
    void setPalette(const Palette& palette, std::size_t nodes);

private:
    std::shared_ptr<const SimulatedPlayback> m_playback;
    const Topology* m_topology;
    LinkOccupancy m_occupancy;
    std::vector<double> m_firstUse;       ///< per channel: its first message's beginning (ns)
    std::vector<std::uint32_t> m_drawnAt; ///< per channel: its index in the drawn channels (cached)
    std::size_t m_drawnCount = 0;
    Palette m_palette = Palette::normal();
    std::size_t m_nodes = 0;
    Rgba m_idle = channelColours(ViewMode::Plain, Palette::normal(), 0).idle; ///< setPalette's idle link colour
};

} // namespace topocast::app
