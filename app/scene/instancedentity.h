#pragma once

#include "scene/instancebuffer.h"

#include <Qt3DCore/QEntity>

#include <memory>

namespace Qt3DRender {
class QGeometryRenderer;
}

namespace topocast::app {

/// What every instanced layer of the scene is: one entity that draws one geometry many times, from
/// one buffer of per-instance records (InstanceBuffer), with one renderer.
class InstancedEntity : public Qt3DCore::QEntity {
public:
    using Qt3DCore::QEntity::QEntity;

    /// Instances drawn now.
    int instanceCount() const { return m_count; }
    /// The per-instance records, as uploaded.
    const InstanceBuffer& buffer() const { return *m_instances; }

protected:
    Qt3DRender::QGeometryRenderer* m_renderer = nullptr;
    std::unique_ptr<InstanceBuffer> m_instances; ///< made by the layer's constructor
    int m_count = 0;
};

} // namespace topocast::app
