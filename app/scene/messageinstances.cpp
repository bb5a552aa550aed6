#include "scene/messageinstances.h"

#include "scene/instancedmaterial.h"

#include <Qt3DCore/QGeometry>
#include <Qt3DRender/QGeometryRenderer>
#include <Qt3DRender/QMaterial>
#include <Qt3DRender/QParameter>

#include <algorithm>

namespace topocast::app {

MessageInstances::MessageInstances(Qt3DCore::QNode* parent) : InstancedEntity(parent)
{
    // One point per hop (per-vertex records, divisor 0): a sphere mesh per message cost software
    // OpenGL most of a busy frame (32×32×32's last step: 16,384 messages).
    auto* points = new Qt3DCore::QGeometry(this);
    m_instances =
        std::make_unique<InstanceBuffer>(points,
                                         std::vector<InstanceBuffer::Field>{{QStringLiteral("instanceA"), 3},
                                                                            {QStringLiteral("instanceB"), 3},
                                                                            {QStringLiteral("instanceColor"), 4},
                                                                            {QStringLiteral("instanceHop"), 3}},
                                         0);
    points->setBoundingVolumePositionAttribute(m_instances->attribute(QStringLiteral("instanceA")));
    m_renderer = new Qt3DRender::QGeometryRenderer(this);
    m_renderer->setGeometry(points);
    m_renderer->setPrimitiveType(Qt3DRender::QGeometryRenderer::Points);
    m_renderer->setEnabled(false);

    auto* material = makeSpriteMaterial(QStringLiteral("messagesprites"), this, QStringLiteral("nodesprites"));
    m_fraction = new Qt3DRender::QParameter(QStringLiteral("stepFraction"), 1.0f, material);
    m_radius = new Qt3DRender::QParameter(QStringLiteral("messageRadius"), 0.1f, material);
    m_viewportHeight = new Qt3DRender::QParameter(QStringLiteral("viewportHeight"), 720.0f, material);
    material->addParameter(m_fraction);
    material->addParameter(m_radius);
    material->addParameter(m_viewportHeight);
    addComponent(m_renderer);
    addComponent(material);
}

MessageInstances::~MessageInstances() = default;

void MessageInstances::setFraction(float fraction)
{
    m_fraction->setValue(fraction);
    m_atRest = fraction >= 1.0f;
    m_renderer->setEnabled(drawn());
}

bool MessageInstances::drawn() const
{
    return m_count > 0 && !m_atRest;
}
void MessageInstances::setRadius(float radius)
{
    m_radius->setValue(radius);
}
void MessageInstances::setViewportHeight(float pixels)
{
    m_viewportHeight->setValue(std::max(1.0f, pixels));
}

void MessageInstances::setHops(const std::vector<Hop>& hops)
{
    std::vector<float> data;
    data.reserve(hops.size() * 13);
    for (const Hop& h : hops)
        data.insert(data.end(), {h.a[0], h.a[1], h.a[2], h.b[0], h.b[1], h.b[2], h.colour.r, h.colour.g, h.colour.b,
                                 h.colour.a, h.begin, h.end, h.scale});
    m_instances->setData(data);
    m_count = static_cast<int>(hops.size());
    m_renderer->setVertexCount(m_count);
    m_renderer->setEnabled(drawn());
}

} // namespace topocast::app
