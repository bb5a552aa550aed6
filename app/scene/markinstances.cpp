#include "scene/markinstances.h"

#include "scene/instancedmaterial.h"

#include <Qt3DCore/QAttribute>
#include <Qt3DCore/QBuffer>
#include <Qt3DCore/QGeometry>
#include <Qt3DRender/QGeometryRenderer>
#include <Qt3DRender/QMaterial>
#include <Qt3DRender/QParameter>

#include <cmath>
#include <numbers>

namespace topocast::app {

namespace {

void quad(std::vector<float>& out, float ax, float ay, float bx, float by, float cx, float cy, float dx, float dy)
{
    out.insert(out.end(), {ax, ay, bx, by, cx, cy, ax, ay, cx, cy, dx, dy});
}

/// A band between radii r0 and r1 from angle a0 to a1 (radians), in `segments` pieces.
void arc(std::vector<float>& out, float r0, float r1, float a0, float a1, int segments)
{
    for (int i = 0; i < segments; ++i) {
        const float t0 = a0 + (a1 - a0) * static_cast<float>(i) / static_cast<float>(segments);
        const float t1 = a0 + (a1 - a0) * static_cast<float>(i + 1) / static_cast<float>(segments);
        quad(out, r0 * std::cos(t0), r0 * std::sin(t0), r1 * std::cos(t0), r1 * std::sin(t0), r1 * std::cos(t1),
             r1 * std::sin(t1), r0 * std::cos(t1), r0 * std::sin(t1));
    }
}

/// A bar of half-width w from (x0, y0) to (x1, y1).
void bar(std::vector<float>& out, float x0, float y0, float x1, float y1, float w)
{
    const float dx = x1 - x0, dy = y1 - y0;
    const float len = std::hypot(dx, dy);
    const float nx = -dy / len * w, ny = dx / len * w;
    quad(out, x0 + nx, y0 + ny, x0 - nx, y0 - ny, x1 - nx, y1 - ny, x1 + nx, y1 + ny);
}

} // namespace

std::vector<float> MarkInstances::shapeTriangles(MarkShape shape)
{
    constexpr float pi = std::numbers::pi_v<float>;
    std::vector<float> out;
    switch (shape) {
    case MarkShape::Marked: // eight dashes round a ring
        for (int i = 0; i < 8; ++i)
            arc(out, 0.74f, 0.96f, (static_cast<float>(i) + 0.15f) * pi / 4, (static_cast<float>(i) + 0.85f) * pi / 4,
                3);
        break;
    case MarkShape::Right: // a solid ring
        arc(out, 0.70f, 1.0f, 0, 2 * pi, 32);
        break;
    case MarkShape::Missed: { // a diamond outline
        const float outer = 1.12f, inner = 0.80f;
        for (int i = 0; i < 4; ++i) {
            const float a0 = static_cast<float>(i) * pi / 2, a1 = a0 + pi / 2;
            quad(out, inner * std::cos(a0), inner * std::sin(a0), outer * std::cos(a0), outer * std::sin(a0),
                 outer * std::cos(a1), outer * std::sin(a1), inner * std::cos(a1), inner * std::sin(a1));
        }
        break;
    }
    case MarkShape::Wrong: // a cross over the node
        bar(out, -0.8f, -0.8f, 0.8f, 0.8f, 0.14f);
        bar(out, -0.8f, 0.8f, 0.8f, -0.8f, 0.14f);
        break;
    case MarkShape::Cursor: { // four corner brackets
        const float c = 1.3f, l = 0.5f, w = 0.11f;
        for (int sx : {-1, 1})
            for (int sy : {-1, 1}) {
                const float x = c * static_cast<float>(sx), y = c * static_cast<float>(sy);
                bar(out, x + w * static_cast<float>(sx), y, x - l * static_cast<float>(sx), y, w);
                bar(out, x, y, x, y - l * static_cast<float>(sy), w);
            }
        break;
    }
    }
    return out;
}

MarkInstances::MarkInstances(Qt3DCore::QNode* parent) : Qt3DCore::QEntity(parent)
{
    // Every shape's triangles in one vertex buffer: (x, y, shape id) per vertex.
    std::vector<float> vertices;
    for (int s = 0; s < kMarkShapeCount; ++s) {
        const std::vector<float> xy = shapeTriangles(static_cast<MarkShape>(s));
        for (std::size_t i = 0; i + 1 < xy.size(); i += 2)
            vertices.insert(vertices.end(), {xy[i], xy[i + 1], static_cast<float>(s)});
    }
    Qt3DCore::QGeometry* geometry = shapeGeometry(this, vertices);
    m_instances = std::make_unique<InstanceBuffer>(
        geometry, std::vector<InstanceBuffer::Field>{{QStringLiteral("instancePosition"), 3},
                                                     {QStringLiteral("instanceColor"), 4},
                                                     {QStringLiteral("instanceShape"), 1},
                                                     {QStringLiteral("instanceSize"), 1}});
    geometry->setBoundingVolumePositionAttribute(m_instances->attribute(QStringLiteral("instancePosition")));
    // One hidden instance, so the RHI backend never meets an empty buffer ("no data to upload").
    m_instances->setData(std::vector<float>(9, 0.0f));

    m_renderer = hiddenTriangles(this, geometry, static_cast<int>(vertices.size() / 3));

    auto* material = makeInstancedMaterial(QStringLiteral("marks"), this);
    m_radius = new Qt3DRender::QParameter(QStringLiteral("markRadius"), m_radiusValue, material);
    material->addParameter(m_radius);
    addComponent(m_renderer);
    addComponent(material);
}

MarkInstances::~MarkInstances() = default;

void MarkInstances::setRadius(float radius)
{
    m_radiusValue = radius;
    m_radius->setValue(radius);
}

void MarkInstances::setMarks(std::vector<Mark> marks)
{
    m_marks = std::move(marks);
    if (m_marks.empty()) { // keep the buffer's last contents; draw nothing
        m_renderer->setInstanceCount(0);
        m_renderer->setEnabled(false);
        return;
    }
    std::vector<float> data;
    data.reserve(m_marks.size() * 9);
    for (const Mark& m : m_marks)
        data.insert(data.end(), {m.position[0], m.position[1], m.position[2], m.colour.r, m.colour.g, m.colour.b,
                                 m.colour.a, static_cast<float>(static_cast<int>(m.shape)), m.size});
    m_instances->setData(data);
    m_renderer->setInstanceCount(static_cast<int>(m_marks.size()));
    m_renderer->setEnabled(!m_marks.empty());
}

} // namespace topocast::app
