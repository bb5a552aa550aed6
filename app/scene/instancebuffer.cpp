#include "scene/instancebuffer.h"

#include <Qt3DCore/QAttribute>
#include <Qt3DCore/QBuffer>
#include <Qt3DCore/QGeometry>
#include <Qt3DRender/QGeometryRenderer>

#include <QVariant>

#include <cstring>
#include <utility>

namespace topocast::app {

namespace {
bool g_partialUploads = true;
} // namespace

void InstanceBuffer::setPartialUploads(bool on)
{
    g_partialUploads = on;
}

InstanceBuffer::InstanceBuffer(Qt3DCore::QGeometry* geometry, std::vector<Field> fields, int divisor)
    : m_fields(std::move(fields))
{
    m_buffer = new Qt3DCore::QBuffer(geometry);
    m_buffer->setUsage(Qt3DCore::QBuffer::DynamicDraw);
    for (const Field& f : m_fields)
        m_stride += f.floats;
    addAttributes(geometry, divisor);
}

void InstanceBuffer::shareWith(Qt3DCore::QGeometry* geometry, int divisor)
{
    addAttributes(geometry, divisor);
}

void InstanceBuffer::addAttributes(Qt3DCore::QGeometry* geometry, int divisor)
{
    const uint count = m_attributes.empty() ? 0u : m_attributes.front()->count();
    int offset = 0;
    for (const Field& f : m_fields) {
        auto* a = new Qt3DCore::QAttribute(geometry);
        a->setName(f.name);
        a->setAttributeType(Qt3DCore::QAttribute::VertexAttribute);
        a->setVertexBaseType(Qt3DCore::QAttribute::Float);
        a->setVertexSize(static_cast<uint>(f.floats));
        a->setByteOffset(static_cast<uint>(offset * static_cast<int>(sizeof(float))));
        a->setByteStride(static_cast<uint>(m_stride * static_cast<int>(sizeof(float))));
        a->setDivisor(static_cast<uint>(divisor));
        a->setCount(count);
        a->setBuffer(m_buffer);
        geometry->addAttribute(a);
        m_attributes.push_back(a);
        offset += f.floats;
    }
}

void InstanceBuffer::setData(const std::vector<float>& data)
{
    const auto count = static_cast<uint>(data.size() / static_cast<std::size_t>(m_stride));
    m_data = data;
    // Qt3D (6.4) syncs a buffer with pending partial updates by applying only those to its old
    // contents, dropping a setData() made in the same frame; dropping the pending list makes the
    // backend take the whole new data.
    if (m_partialPending)
        m_buffer->setProperty("QT3D_updateData", QVariant());
    m_partialPending = false;
    m_synced = false;
    m_buffer->setData(
        QByteArray(reinterpret_cast<const char*>(data.data()), static_cast<qsizetype>(data.size() * sizeof(float))));
    for (auto* a : m_attributes)
        a->setCount(count);
    m_lastUpload = data.size() * sizeof(float);
    m_lastRanges = 0;
}

void InstanceBuffer::update(const std::vector<float>& data)
{
    // Partial updates only once the last whole upload has reached the backend (see setData()).
    if (!g_partialUploads || !m_synced || data.size() != m_data.size() || m_data.empty()) {
        setData(data);
        return;
    }
    const auto stride = static_cast<std::size_t>(m_stride);
    const std::size_t count = data.size() / stride;
    auto same = [&](std::size_t i) {
        return std::memcmp(&data[i * stride], &m_data[i * stride], stride * sizeof(float)) == 0;
    };
    // Runs [first, last) of changed instances, neighbours closer than kMergeGap merged.
    std::vector<std::pair<std::size_t, std::size_t>> runs;
    std::size_t changed = 0;
    for (std::size_t i = 0; i < count; ++i) {
        if (same(i))
            continue;
        if (!runs.empty() && i - runs.back().second < kMergeGap) {
            changed += i + 1 - runs.back().second;
            runs.back().second = i + 1;
        } else {
            runs.emplace_back(i, i + 1);
            ++changed;
        }
    }
    m_lastUpload = 0;
    m_lastRanges = 0;
    if (runs.empty())
        return;
    if (changed * 2 > count) {
        setData(data);
        return;
    }
    for (const auto& [first, last] : runs) {
        const std::size_t offset = first * stride * sizeof(float);
        const std::size_t bytes = (last - first) * stride * sizeof(float);
        m_buffer->updateData(static_cast<int>(offset), QByteArray(reinterpret_cast<const char*>(&data[first * stride]),
                                                                  static_cast<qsizetype>(bytes)));
        std::memcpy(&m_data[first * stride], &data[first * stride], bytes);
        m_lastUpload += bytes;
        ++m_lastRanges;
    }
    m_partialPending = true;
}

void InstanceBuffer::markSynced()
{
    m_synced = true;
    m_partialPending = false;
}

Qt3DCore::QAttribute* InstanceBuffer::attribute(const QString& name) const
{
    for (auto* a : m_attributes)
        if (a->name() == name)
            return a;
    return nullptr;
}

Qt3DCore::QGeometry* shapeGeometry(Qt3DCore::QNode* parent, const std::vector<float>& xyz)
{
    auto* geometry = new Qt3DCore::QGeometry(parent);
    auto* shape = new Qt3DCore::QBuffer(geometry);
    shape->setData(
        QByteArray(reinterpret_cast<const char*>(xyz.data()), static_cast<qsizetype>(xyz.size() * sizeof(float))));
    auto* vertex = new Qt3DCore::QAttribute(geometry);
    vertex->setName(QStringLiteral("vertexPosition"));
    vertex->setAttributeType(Qt3DCore::QAttribute::VertexAttribute);
    vertex->setVertexBaseType(Qt3DCore::QAttribute::Float);
    vertex->setVertexSize(3);
    vertex->setByteStride(3 * sizeof(float));
    vertex->setCount(static_cast<uint>(xyz.size() / 3));
    vertex->setBuffer(shape);
    geometry->addAttribute(vertex);
    return geometry;
}

Qt3DRender::QGeometryRenderer* hiddenTriangles(Qt3DCore::QNode* parent, Qt3DCore::QGeometry* geometry, int vertexCount)
{
    auto* renderer = new Qt3DRender::QGeometryRenderer(parent);
    renderer->setGeometry(geometry);
    renderer->setPrimitiveType(Qt3DRender::QGeometryRenderer::Triangles);
    renderer->setVertexCount(vertexCount);
    renderer->setInstanceCount(0);
    renderer->setEnabled(false);
    return renderer;
}

} // namespace topocast::app
