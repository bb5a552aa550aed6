#include "scene/nodeinstances.h"

#include "scene/instancedmaterial.h"

#include <Qt3DExtras/QSphereGeometry>
#include <Qt3DLogic/QFrameAction>
#include <Qt3DRender/QGeometryRenderer>
#include <Qt3DRender/QMaterial>
#include <Qt3DRender/QParameter>

namespace topocast::app {

NodeInstances::NodeInstances(Qt3DCore::QNode* parent) : Qt3DCore::QEntity(parent)
{
    auto* geometry = new Qt3DExtras::QSphereGeometry(this);
    geometry->setRadius(1.0f);
    geometry->setRings(8);
    geometry->setSlices(12);
    m_instances = std::make_unique<InstanceBuffer>(
        geometry, std::vector<InstanceBuffer::Field>{{QStringLiteral("instancePosition"), 3},
                                                     {QStringLiteral("instanceColor"), 4},
                                                     {QStringLiteral("instanceScale"), 1}});
    geometry->setBoundingVolumePositionAttribute(m_instances->attribute(QStringLiteral("instancePosition")));

    m_renderer = new Qt3DRender::QGeometryRenderer(this);
    m_renderer->setGeometry(geometry);
    m_renderer->setPrimitiveType(Qt3DRender::QGeometryRenderer::Triangles);
    m_renderer->setInstanceCount(0);
    m_renderer->setEnabled(false);

    auto* material = makeInstancedMaterial(QStringLiteral("nodes"), this);
    m_radius = new Qt3DRender::QParameter(QStringLiteral("nodeRadius"), 0.16f, material);
    material->addParameter(m_radius);
    addComponent(m_renderer);
    addComponent(material);
    // A processed frame means the uploads so far reached the backend: partial updates are safe.
    auto* frames = new Qt3DLogic::QFrameAction(this);
    connect(frames, &Qt3DLogic::QFrameAction::triggered, this, [this] { m_instances->markSynced(); });
    addComponent(frames);
}

NodeInstances::~NodeInstances() = default;

void NodeInstances::setRadius(float radius) { m_radius->setValue(radius); }

void NodeInstances::setDetail(int detail)
{
    if (detail == m_detail)
        return;
    auto* geometry = static_cast<Qt3DExtras::QSphereGeometry*>(m_renderer->geometry());
    static const int rings[] = {3, 6, 10};
    static const int slices[] = {4, 8, 16};
    geometry->setRings(rings[detail]);
    geometry->setSlices(slices[detail]);
    m_detail = detail;
}

void NodeInstances::setNodes(const std::vector<Vec3>& positions, const std::vector<Rgba>& colours,
                             const std::vector<float>& scales)
{
    std::vector<float> data;
    data.reserve(positions.size() * 8);
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const Vec3& p = positions[i];
        const Rgba c = i < colours.size() ? colours[i] : Rgba{};
        data.insert(data.end(), {p[0], p[1], p[2], c.r, c.g, c.b, c.a, i < scales.size() ? scales[i] : 1.0f});
    }
    m_instances->update(data);  // a step changes few nodes: upload only those
    m_count = static_cast<int>(positions.size());
    m_renderer->setInstanceCount(m_count);
    m_renderer->setEnabled(m_count > 0);
}

} // namespace topocast::app
