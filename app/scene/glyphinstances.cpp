#include "scene/glyphinstances.h"

#include "scene/instancedmaterial.h"

#include <Qt3DCore/QGeometry>
#include <Qt3DRender/QGeometryRenderer>
#include <Qt3DRender/QMaterial>
#include <Qt3DRender/QParameter>

namespace topocast::app {

namespace {
constexpr int kFloatsPerCell = 12;
} // namespace

GlyphInstances::GlyphInstances(Qt3DCore::QNode* parent) : InstancedEntity(parent)
{
    // The unit square [0, 1]² as two triangles.
    const std::vector<float> vertices{0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 0, 0, 1, 1, 0, 0, 1, 0};
    Qt3DCore::QGeometry* geometry = shapeGeometry(this, vertices);
    m_instances = std::make_unique<InstanceBuffer>(
        geometry, std::vector<InstanceBuffer::Field>{{QStringLiteral("instancePosition"), 3},
                                                     {QStringLiteral("instanceColor"), 4},
                                                     {QStringLiteral("instanceRect"), 4},
                                                     {QStringLiteral("instanceLayer"), 1}});
    geometry->setBoundingVolumePositionAttribute(m_instances->attribute(QStringLiteral("instancePosition")));
    // One hidden instance, so the RHI backend never meets an empty buffer ("no data to upload").
    m_instances->setData(std::vector<float>(kFloatsPerCell, 0.0f));
    m_renderer = hiddenTriangles(this, geometry, static_cast<int>(vertices.size() / 3));

    auto* material = makeInstancedMaterial(QStringLiteral("glyphs"), this);
    m_lift = new Qt3DRender::QParameter(QStringLiteral("glyphLift"), 0.2f, material);
    material->addParameter(m_lift);
    addComponent(m_renderer);
    addComponent(material);
}

GlyphInstances::~GlyphInstances() = default;

void GlyphInstances::setLift(float lift)
{
    m_lift->setValue(lift);
}

void GlyphInstances::setCells(const std::vector<GlyphCell>& cells, const std::vector<Vec3>& positions)
{
    m_count = static_cast<int>(cells.size());
    if (cells.empty()) { // keep the buffer's last contents; draw nothing
        m_renderer->setInstanceCount(0);
        m_renderer->setEnabled(false);
        return;
    }
    std::vector<float> data;
    data.reserve(cells.size() * kFloatsPerCell);
    for (const GlyphCell& c : cells) {
        const Vec3& p = positions[c.node];
        data.insert(data.end(), {p[0], p[1], p[2], c.colour.r, c.colour.g, c.colour.b, c.colour.a, c.x, c.y, c.width,
                                 c.height, static_cast<float>(c.layer)});
    }
    m_instances->setData(data);
    m_renderer->setInstanceCount(m_count);
    m_renderer->setEnabled(true);
}

} // namespace topocast::app
