#include "scene/messageinstances.h"

#include "scene/instancedmaterial.h"

#include <Qt3DExtras/QSphereGeometry>
#include <Qt3DRender/QGeometryRenderer>
#include <Qt3DRender/QMaterial>
#include <Qt3DRender/QParameter>

namespace topocast::app {

MessageInstances::MessageInstances(Qt3DCore::QNode* parent) : Qt3DCore::QEntity(parent)
{
    auto* geometry = new Qt3DExtras::QSphereGeometry(this);
    geometry->setRadius(1.0f);
    geometry->setRings(6);
    geometry->setSlices(8);
    m_instances = std::make_unique<InstanceBuffer>(
        geometry, std::vector<InstanceBuffer::Field>{{QStringLiteral("instanceA"), 3},
                                                     {QStringLiteral("instanceB"), 3},
                                                     {QStringLiteral("instanceColor"), 4},
                                                     {QStringLiteral("instanceHop"), 3}});
    geometry->setBoundingVolumePositionAttribute(m_instances->attribute(QStringLiteral("instanceA")));
    m_renderer = new Qt3DRender::QGeometryRenderer(this);
    m_renderer->setGeometry(geometry);
    m_renderer->setEnabled(false);

    auto* material = makeInstancedMaterial(QStringLiteral("messages"), this);
    m_fraction = new Qt3DRender::QParameter(QStringLiteral("stepFraction"), 1.0f, material);
    m_radius = new Qt3DRender::QParameter(QStringLiteral("messageRadius"), 0.1f, material);
    material->addParameter(m_fraction);
    material->addParameter(m_radius);
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

bool MessageInstances::drawn() const { return m_count > 0 && !m_atRest; }
void MessageInstances::setRadius(float radius) { m_radius->setValue(radius); }

void MessageInstances::setHops(const std::vector<Hop>& hops)
{
    std::vector<float> data;
    data.reserve(hops.size() * 13);
    for (const Hop& h : hops)
        data.insert(data.end(), {h.a[0], h.a[1], h.a[2], h.b[0], h.b[1], h.b[2], h.colour.r, h.colour.g, h.colour.b,
                                 h.colour.a, h.index, h.count, h.scale});
    m_instances->setData(data);
    m_count = static_cast<int>(hops.size());
    m_renderer->setInstanceCount(m_count);
    m_renderer->setEnabled(drawn());
}

} // namespace topocast::app
