#pragma once

#include "scene/arrowinstances.h"
#include "scene/messageinstances.h"
#include "scene/scenestate.h"

#include "topocast/analysis/simulated_playback.h"

#include <memory>
#include <optional>
#include <vector>

namespace topocast::app {

class SimulatedFrames;

/// What a SceneView's messages do: the step's (one hop per link of each route, an arrowhead at
/// each receiving end, lanes where routes share a link), those of simulated time with the links
/// coloured by how many messages share them, and the link chosen in the Links dock.
class SceneMessages {
public:
    explicit SceneMessages(SceneContext& scene);
    ~SceneMessages();

    /// The step's messages: one hop per link of each route, an arrowhead at each receiving end;
    /// a link used both ways in the step carries them in two lanes (core laneOffset).
    void stepMessages(std::vector<MessageInstances::Hop>& hops, std::vector<ArrowInstances::Arrow>& arrows) const;

    /// Simulated time (null: steps): the schedule shown as simulated on its network
    /// (simulatedframes.h) — step s is the window from the end of step s − 1 to the end of step s
    /// as simulated, every message on the wire in it moves as the simulation moved it, and each
    /// link is coloured by how many messages share it at the moment shown.
    void simulate(std::shared_ptr<const SimulatedPlayback> playback);
    std::shared_ptr<const SimulatedPlayback> simulation() const;
    bool simulating() const { return m_simulated != nullptr; }
    /// The moment shown in simulated time (ns; 0 in steps).
    double simulatedTime() const;
    /// Simulated time: colours the links for the moment shown (`all`: every link, else those whose
    /// messages changed, uploading them).
    void restyleSimulated(bool all);
    /// Simulated time: the messages on the wire in the step's window.
    std::vector<MessageInstances::Hop> simulatedHops() const;

    /// The link chosen in the Links dock, its two nodes ringed; false where it was chosen already.
    bool select(std::optional<ChannelId> channel);
    std::optional<ChannelId> selected() const { return m_selected; }
    /// Draws the chosen link in kHighlightColour in the shown frame's style.
    void applySelection();
    /// A new schedule: its simulation and chosen link are dropped.
    void reset();

private:
    SceneContext& m_scene;
    std::unique_ptr<SimulatedFrames> m_simulated; ///< simulated time; null: steps
    std::optional<ChannelId> m_selected;          ///< the link chosen in the Links dock
};

} // namespace topocast::app
