#pragma once

#include "scene/instancedentity.h"
#include "style/scenestyle.h"

#include <memory>

namespace Qt3DRender {
class QGeometryRenderer;
class QParameter;
} // namespace Qt3DRender

namespace topocast::app {

/// The messages of the current step as sphere impostors in one entity: one point per hop of each
/// route; the shader shows the hop that holds the message's head at the uniform stepFraction,
/// so animation needs no buffer upload.
class MessageInstances : public InstancedEntity {
    Q_OBJECT
public:
    struct Hop {
        Vec3 a{}, b{};
        Rgba colour;
        /// When the message's head enters and leaves the hop, as fractions of the step's window
        /// (steps: hop k of n is k/n … (k+1)/n; simulated time: the simulated interval, which may
        /// begin before 0 or end after 1).
        float begin = 0;
        float end = 1;
        float scale = 1; ///< the message's thickness relative to the radius (by its size)
    };
    explicit MessageInstances(Qt3DCore::QNode* parent = nullptr);
    ~MessageInstances() override;

    void setHops(const std::vector<Hop>& hops);
    /// How far the step has gone (0..1). At 1 the step is at rest: every message sits inside its
    /// receiver's sphere (radius 0.11 within 0.16) and the arrowheads show the transfers, so the
    /// messages are not drawn at all — on software OpenGL each instance costs (32×32×32's last
    /// step: 16,384 messages, 73 of its 136 ms per frame).
    void setFraction(float fraction);
    void setRadius(float radius);
    /// The viewport's height in device pixels (the points are sized from it).
    void setViewportHeight(float pixels);
    /// Whether the messages are drawn now: some hops, and the step not at rest.
    bool drawn() const;

private:
    Qt3DRender::QParameter* m_fraction = nullptr;
    Qt3DRender::QParameter* m_radius = nullptr;
    Qt3DRender::QParameter* m_viewportHeight = nullptr;
    bool m_atRest = true; // stepFraction starts at 1: a step at rest draws no messages
};

} // namespace topocast::app
