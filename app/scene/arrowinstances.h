#pragma once

#include "scene/instancebuffer.h"
#include "style/scenestyle.h"

#include <Qt3DCore/QEntity>

#include <memory>
#include <vector>

namespace Qt3DRender {
class QGeometryRenderer;
class QParameter;
} // namespace Qt3DRender

namespace topocast::app {

/// Arrowheads as one instanced entity: one flat notched triangle per transfer, facing the camera,
/// its tip on the surface of the receiving node's sphere and pointing along the last hop of the
/// transfer's route (shaders/*/arrows.vert turns it in view space, so it keeps its shape from any
/// angle and in either projection). Per instance: tip (the receiver's position, 3), from (the
/// node before it on the route, 3), colour (4), scale (1).
class ArrowInstances : public Qt3DCore::QEntity {
    Q_OBJECT
public:
    struct Arrow {
        Vec3 tip{};  ///< the receiving node's position
        Vec3 from{}; ///< the previous node of the route: the arrow points from it to `tip`
        Rgba colour{};
        float scale = 1.0f; ///< length and width relative to setSize's (by the message's size)
    };

    explicit ArrowInstances(Qt3DCore::QNode* parent = nullptr);
    ~ArrowInstances() override;

    /// Replaces every arrow (an empty list hides the entity).
    void setArrows(std::vector<Arrow> arrows);
    const std::vector<Arrow>& arrows() const { return m_arrows; }
    /// Arrow length in scene units and the gap left before the tip (the node radius).
    void setSize(float length, float tipGap);
    float length() const { return m_lengthValue; }
    /// Shown or hidden without touching the instances (hidden while messages move).
    void setShown(bool shown);
    bool shown() const { return m_shown; }
    /// How far an arrowhead sharing its link with one the other way is moved across the link, in
    /// lengths: beyond its half width (0.55), so the two never overlap.
    static constexpr float kLane = 0.6f;
    /// The arrowhead in arrow units (tip at the origin pointing +x, length 1): triangles as
    /// (x, y) pairs, three per triangle.
    static std::vector<float> shapeTriangles();

private:
    void updateEnabled();

    Qt3DRender::QGeometryRenderer* m_renderer = nullptr;
    Qt3DRender::QParameter* m_length = nullptr;
    Qt3DRender::QParameter* m_gap = nullptr;
    std::unique_ptr<InstanceBuffer> m_instances;
    std::vector<Arrow> m_arrows;
    float m_lengthValue = 0.3f;
    bool m_shown = true;
};

} // namespace topocast::app
