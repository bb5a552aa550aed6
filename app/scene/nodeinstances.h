#pragma once

#include "scene/instancedentity.h"
#include "style/scenestyle.h"

#include <memory>

namespace Qt3DRender {
class QGeometryRenderer;
class QParameter;
} // namespace Qt3DRender

namespace topocast::app {

/// Every node of the network as one instanced entity: a low-poly sphere per instance with
/// per-instance position, colour and scale (one interleaved buffer, divisor 1). Small spheres
/// (levelofdetail.h's nodeImpostors()) are drawn instead as sphere impostors: one point sprite
/// per node from the same buffer, shaded as a sphere in the fragment shader (Mesa's
/// software OpenGL runs its whole vertex pipeline once per instance, so 32,768 instances of even
/// a 4-vertex quad cost far more than one draw of 32,768 points).
class NodeInstances : public InstancedEntity {
    Q_OBJECT
public:
    explicit NodeInstances(Qt3DCore::QNode* parent = nullptr);
    ~NodeInstances() override;

    /// Replaces all instances. `colours`/`scales` are parallel to `positions`. With the same
    /// node count only the changed instances are uploaded.
    void setNodes(const std::vector<Vec3>& positions, const std::vector<Rgba>& colours,
                  const std::vector<float>& scales);
    void setRadius(float radius);
    /// Sphere detail 0 (16 triangles), 1 (~100) or 2 (~300): levelofdetail.h's sphereDetail().
    void setDetail(int detail);
    int detail() const { return m_detail; }
    /// Draws the nodes as point-sprite sphere impostors rather than instanced spheres.
    void setImpostors(bool on);
    bool impostors() const { return m_impostors; }
    /// The viewport's height in device pixels: the impostors' size on screen depends on it.
    void setViewportHeight(float pixels);

private:
    void enableRenderers();

    Qt3DRender::QGeometryRenderer* m_sprites = nullptr;
    Qt3DRender::QParameter* m_radius = nullptr;
    Qt3DRender::QParameter* m_viewportHeight = nullptr;
    Qt3DRender::QParameter* m_spriteRadius = nullptr;
    int m_detail = -1;
    bool m_impostors = false;
};

} // namespace topocast::app
