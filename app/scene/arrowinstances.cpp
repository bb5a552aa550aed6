#include "scene/arrowinstances.h"

#include "scene/instancedmaterial.h"

#include <Qt3DCore/QAttribute>
#include <Qt3DCore/QBuffer>
#include <Qt3DCore/QGeometry>
#include <Qt3DRender/QGeometryRenderer>
#include <Qt3DRender/QMaterial>
#include <Qt3DRender/QParameter>

namespace topocast::app {

std::vector<float> ArrowInstances::shapeTriangles()
{
    // A notched head: tip (0, 0), barbs (−1, ±0.55), notch (−0.7, 0).
    return {0.0f, 0.0f, -1.0f, 0.55f, -0.7f, 0.0f, //
            0.0f, 0.0f, -0.7f, 0.0f,  -1.0f, -0.55f};
}

ArrowInstances::ArrowInstances(Qt3DCore::QNode* parent) : Qt3DCore::QEntity(parent)
{
    std::vector<float> vertices;
    const std::vector<float> xy = shapeTriangles();
    for (std::size_t i = 0; i + 1 < xy.size(); i += 2)
        vertices.insert(vertices.end(), {xy[i], xy[i + 1], 0.0f});
    Qt3DCore::QGeometry* geometry = shapeGeometry(this, vertices);
    m_instances = std::make_unique<InstanceBuffer>(
        geometry, std::vector<InstanceBuffer::Field>{{QStringLiteral("instanceTip"), 3},
                                                     {QStringLiteral("instanceFrom"), 3},
                                                     {QStringLiteral("instanceColor"), 4},
                                                     {QStringLiteral("instanceScale"), 1}});
    geometry->setBoundingVolumePositionAttribute(m_instances->attribute(QStringLiteral("instanceTip")));
    // One hidden instance, so the RHI backend never meets an empty buffer ("no data to upload").
    m_instances->setData(std::vector<float>(11, 0.0f));

    m_renderer = hiddenTriangles(this, geometry, static_cast<int>(vertices.size() / 3));

    auto* material = makeInstancedMaterial(QStringLiteral("arrows"), this);
    m_length = new Qt3DRender::QParameter(QStringLiteral("arrowLength"), m_lengthValue, material);
    m_gap = new Qt3DRender::QParameter(QStringLiteral("arrowGap"), 0.16f, material);
    material->addParameter(m_length);
    material->addParameter(m_gap);
    addComponent(m_renderer);
    addComponent(material);
}

ArrowInstances::~ArrowInstances() = default;

void ArrowInstances::setSize(float length, float tipGap)
{
    m_lengthValue = length;
    m_length->setValue(length);
    m_gap->setValue(tipGap);
}

void ArrowInstances::setShown(bool shown)
{
    m_shown = shown;
    updateEnabled();
}

void ArrowInstances::updateEnabled()
{
    m_renderer->setEnabled(m_shown && !m_arrows.empty());
}

void ArrowInstances::setArrows(std::vector<Arrow> arrows)
{
    m_arrows = std::move(arrows);
    if (!m_arrows.empty()) { // else keep the buffer's last contents and draw nothing
        std::vector<float> data;
        data.reserve(m_arrows.size() * 11);
        for (const Arrow& a : m_arrows)
            data.insert(data.end(), {a.tip[0], a.tip[1], a.tip[2], a.from[0], a.from[1], a.from[2], a.colour.r,
                                     a.colour.g, a.colour.b, a.colour.a, a.scale});
        m_instances->setData(data);
    }
    m_renderer->setInstanceCount(static_cast<int>(m_arrows.size()));
    updateEnabled();
}

} // namespace topocast::app
