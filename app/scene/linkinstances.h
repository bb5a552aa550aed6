#pragma once

#include "scene/instancebuffer.h"
#include "style/scenestyle.h"

#include "topocast/drawing/line_chains.h"

#include <Qt3DCore/QEntity>

#include <memory>

namespace Qt3DRender {
class QGeometryRenderer;
class QParameter;
} // namespace Qt3DRender

namespace topocast::app {

/// Directed channels as one instanced entity: a thin prism (or, for very large networks, a
/// line) per instance from A to B with an optional bulge (torus wrap-around arcs, drawn with
/// `segments` pieces), shifted sideways so both directions of a link show. As lines, straight
/// channels of one colour that continue one another (a mesh row of unused links) are drawn as
/// one instance: Mesa's software OpenGL runs its vertex pipeline and line setup once per
/// instance (a 32×32×32 mesh's 95,232 link lines become 3,000-odd).
class LinkInstances : public Qt3DCore::QEntity {
    Q_OBJECT
public:
    struct Instance {
        Vec3 a{}, b{}, bulge{};
        Rgba colour;
    };
    LinkInstances(int segments, Qt3DCore::QNode* parent = nullptr);
    ~LinkInstances() override;

    void setInstances(const std::vector<Instance>& instances);
    /// Colours only (same instances, same order); the rest of each instance is kept. Uploads
    /// only the instances whose colour changed (InstanceBuffer::update). `deferPrisms` (a
    /// recolouring every frame): while lines are drawn, the prisms' buffer is brought up to date
    /// only when buffer() is asked for or a later setColours does not defer.
    void setColours(const std::vector<Rgba>& colours, bool deferPrisms = false);
    void setRadius(float radius, float sideOffset);
    /// Lines instead of prisms (cheaper for 100 000+ channels).
    void setUseLines(bool lines);
    bool usesLines() const { return m_useLines; }
    int instanceCount() const { return m_count; }
    /// Every channel, 13 floats each, a(3) b(3) bulge(3) colour(4): the prisms' instances, kept
    /// current as lines too (their instances are its chains, lineBuffer()).
    const InstanceBuffer& buffer() const;
    /// The line instances: buffer()'s channels with each run of straight channels of one colour that
    /// continue one another as one (core chainCollinear's chains, by splitLinked).
    const InstanceBuffer& lineBuffer() const { return *m_lineInstances; }
    static constexpr int kFloatsPerInstance = 13;

private:
    void upload(bool whole, bool deferPrisms = false);

    Qt3DRender::QGeometryRenderer* m_prisms = nullptr;
    Qt3DRender::QGeometryRenderer* m_lines = nullptr;
    Qt3DRender::QParameter* m_radius = nullptr;
    Qt3DRender::QParameter* m_offset = nullptr;
    std::unique_ptr<InstanceBuffer> m_prismInstances;
    std::unique_ptr<InstanceBuffer> m_lineInstances;
    std::vector<float> m_data;
    std::vector<float> m_lineData;
    ChainLinks m_chainLinks; ///< the channels' chains by place (linkCollinear), made per geometry
    int m_segments = 1;
    int m_count = 0;
    bool m_useLines = false;
    mutable bool m_prismsStale = false; ///< lines drawn: m_data changed since the prisms' last upload
};

} // namespace topocast::app
