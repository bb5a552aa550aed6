#include "scene/instancebuffer.h"

#include <Qt3DCore/QAttribute>
#include <Qt3DCore/QBuffer>
#include <Qt3DCore/QGeometry>

namespace topocast::app {

InstanceBuffer::InstanceBuffer(Qt3DCore::QGeometry* geometry, std::vector<Field> fields)
{
    m_buffer = new Qt3DCore::QBuffer(geometry);
    m_buffer->setUsage(Qt3DCore::QBuffer::DynamicDraw);
    for (const Field& f : fields)
        m_stride += f.floats;
    int offset = 0;
    for (const Field& f : fields) {
        auto* a = new Qt3DCore::QAttribute(geometry);
        a->setName(f.name);
        a->setAttributeType(Qt3DCore::QAttribute::VertexAttribute);
        a->setVertexBaseType(Qt3DCore::QAttribute::Float);
        a->setVertexSize(static_cast<uint>(f.floats));
        a->setByteOffset(static_cast<uint>(offset * static_cast<int>(sizeof(float))));
        a->setByteStride(static_cast<uint>(m_stride * static_cast<int>(sizeof(float))));
        a->setDivisor(1);
        a->setCount(0);
        a->setBuffer(m_buffer);
        geometry->addAttribute(a);
        m_attributes.push_back(a);
        offset += f.floats;
    }
}

void InstanceBuffer::setData(const std::vector<float>& data)
{
    const auto count = static_cast<uint>(data.size() / static_cast<std::size_t>(m_stride));
    m_buffer->setData(QByteArray(reinterpret_cast<const char*>(data.data()),
                                 static_cast<qsizetype>(data.size() * sizeof(float))));
    for (auto* a : m_attributes)
        a->setCount(count);
}

Qt3DCore::QAttribute* InstanceBuffer::attribute(const QString& name) const
{
    for (auto* a : m_attributes)
        if (a->name() == name)
            return a;
    return nullptr;
}

} // namespace topocast::app
