#pragma once

#include "scene/instancebuffer.h"
#include "scene/scenestyle.h"

#include <Qt3DCore/QEntity>

#include <memory>

namespace Qt3DRender { class QGeometryRenderer; class QParameter; }

namespace topocast::app {

/// The messages of the current step as one instanced entity: one instance per hop of each
/// route; the shader shows the hop that holds the message's head for the uniform
/// stepFraction, so animation needs no buffer upload.
class MessageInstances : public Qt3DCore::QEntity {
    Q_OBJECT
public:
    struct Hop {
        Vec3 a{}, b{};
        Rgba colour;
        float index = 0;
        float count = 1;
    };
    explicit MessageInstances(Qt3DCore::QNode* parent = nullptr);
    ~MessageInstances() override;

    void setHops(const std::vector<Hop>& hops);
    void setFraction(float fraction);
    void setRadius(float radius);
    int instanceCount() const { return m_count; }

private:
    Qt3DRender::QGeometryRenderer* m_renderer = nullptr;
    Qt3DRender::QParameter* m_fraction = nullptr;
    Qt3DRender::QParameter* m_radius = nullptr;
    std::unique_ptr<InstanceBuffer> m_instances;
    int m_count = 0;
};

} // namespace topocast::app
