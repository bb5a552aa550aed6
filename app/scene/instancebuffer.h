#pragma once

#include <QByteArray>
#include <QString>

#include <vector>

namespace Qt3DCore { class QAttribute; class QBuffer; class QGeometry; }

namespace topocast::app {

/// One per-instance vertex buffer (divisor 1) with interleaved float attributes, added to a
/// geometry. Attributes are declared once; data is replaced with setData().
class InstanceBuffer {
public:
    struct Field {
        QString name;
        int floats;
    };
    InstanceBuffer(Qt3DCore::QGeometry* geometry, std::vector<Field> fields);

    int floatsPerInstance() const { return m_stride; }
    /// Replaces the buffer's contents (instanceCount × floatsPerInstance() floats).
    void setData(const std::vector<float>& data);
    /// The attribute named `name` (for setBoundingVolumePositionAttribute).
    Qt3DCore::QAttribute* attribute(const QString& name) const;

private:
    Qt3DCore::QBuffer* m_buffer = nullptr;
    std::vector<Qt3DCore::QAttribute*> m_attributes;
    int m_stride = 0;
};

} // namespace topocast::app
