#include "scene/nodeinstances.h"

#include "scene/instancedmaterial.h"
#include "scene/levelofdetail.h"

#include <Qt3DCore/QAttribute>
#include <Qt3DCore/QGeometry>
#include <Qt3DExtras/QSphereGeometry>
#include <Qt3DLogic/QFrameAction>
#include <Qt3DRender/QGeometryRenderer>
#include <Qt3DRender/QMaterial>
#include <Qt3DRender/QParameter>

#include <algorithm>

namespace topocast::app {

NodeInstances::NodeInstances(Qt3DCore::QNode* parent) : InstancedEntity(parent)
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

    // The impostors: the same buffer read per vertex, one point per node, in a child entity
    // (one renderer per entity); their material sizes each point from the projected radius.
    auto* points = new Qt3DCore::QGeometry(this);
    m_instances->shareWith(points, 0);
    for (auto* attribute : points->attributes())
        if (attribute->name() == QStringLiteral("instancePosition"))
            points->setBoundingVolumePositionAttribute(attribute);
    m_sprites = new Qt3DRender::QGeometryRenderer(this);
    m_sprites->setGeometry(points);
    m_sprites->setPrimitiveType(Qt3DRender::QGeometryRenderer::Points);
    m_sprites->setEnabled(false);
    auto* spriteMaterial = makeSpriteMaterial(QStringLiteral("nodesprites"), this, QStringLiteral("nodesprites"));
    m_spriteRadius =
        new Qt3DRender::QParameter(QStringLiteral("nodeRadius"), 0.16f * kImpostorRadiusScale, spriteMaterial);
    spriteMaterial->addParameter(m_spriteRadius);
    m_viewportHeight = new Qt3DRender::QParameter(QStringLiteral("viewportHeight"), 720.0f, spriteMaterial);
    spriteMaterial->addParameter(m_viewportHeight);
    auto* spriteEntity = new Qt3DCore::QEntity(this);
    spriteEntity->addComponent(m_sprites);
    spriteEntity->addComponent(spriteMaterial);
}

NodeInstances::~NodeInstances() = default;

void NodeInstances::setRadius(float radius)
{
    m_radius->setValue(radius);
    m_spriteRadius->setValue(radius * kImpostorRadiusScale);
}

void NodeInstances::setViewportHeight(float pixels)
{
    m_viewportHeight->setValue(std::max(1.0f, pixels));
}

void NodeInstances::setImpostors(bool on)
{
    if (on == m_impostors)
        return;
    m_impostors = on;
    enableRenderers();
}

void NodeInstances::enableRenderers()
{
    m_renderer->setInstanceCount(m_count);
    m_renderer->setEnabled(m_count > 0 && !m_impostors);
    m_sprites->setVertexCount(m_count);
    m_sprites->setEnabled(m_count > 0 && m_impostors);
}

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
    m_instances->update(data); // a step changes few nodes: upload only those
    m_count = static_cast<int>(positions.size());
    enableRenderers();
}

} // namespace topocast::app
