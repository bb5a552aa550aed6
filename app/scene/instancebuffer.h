#pragma once

#include <QByteArray>
#include <QString>

#include <cstddef>
#include <vector>

namespace Qt3DCore {
class QAttribute;
class QBuffer;
class QGeometry;
class QNode;
} // namespace Qt3DCore
namespace Qt3DRender {
class QGeometryRenderer;
}

namespace topocast::app {

/// One per-instance vertex buffer (divisor 1) with interleaved float attributes, added to a
/// geometry. Attributes are declared once; data is replaced with setData() or, when only some
/// instances change (a timeline step recolours a few nodes and channels), with update(), which
/// uploads just the changed ranges (Qt3DCore::QBuffer::updateData).
class InstanceBuffer {
public:
    struct Field {
        QString name;
        int floats;
    };
    /// `divisor` 1: one record per instance; 0: one record per vertex (a non-instanced draw of
    /// per-vertex records, which software OpenGL draws far faster than many tiny instances).
    InstanceBuffer(Qt3DCore::QGeometry* geometry, std::vector<Field> fields, int divisor = 1);
    /// Also feeds `geometry` from the same buffer, the same fields with `divisor` (a second
    /// renderer over the same data, e.g. the nodes' point sprites): nothing is uploaded twice.
    void shareWith(Qt3DCore::QGeometry* geometry, int divisor);

    int floatsPerInstance() const { return m_stride; }
    /// Replaces the buffer's contents (instanceCount × floatsPerInstance() floats).
    void setData(const std::vector<float>& data);
    /// Same result as setData(data), but when the instance count is unchanged only the runs of
    /// instances that differ from the current contents are uploaded (runs closer than
    /// kMergeGap instances are merged; everything when that would be over half the buffer).
    /// Uploads everything as long as the last setData() may not have reached Qt3D's backend yet
    /// (no markSynced() since): Qt3D 6.4 drops a setData() followed by updateData() in one frame.
    void update(const std::vector<float>& data);
    /// Tells the buffer that Qt3D has processed a frame since the last upload (the owning
    /// entity's QFrameAction fires after the frontend has been synced to the backend).
    void markSynced();
    /// The current contents (what setData()/update() last set).
    const std::vector<float>& data() const { return m_data; }
    /// Bytes sent to the buffer by the last setData()/update() (0: nothing changed).
    std::size_t lastUploadBytes() const { return m_lastUpload; }
    /// Number of updateData() calls made by the last update() (0 after a whole-buffer upload).
    int lastUploadRanges() const { return m_lastRanges; }
    /// The attribute named `name` (for setBoundingVolumePositionAttribute).
    Qt3DCore::QAttribute* attribute(const QString& name) const;

    static constexpr std::size_t kMergeGap = 32;
    /// Off: update() uploads the whole buffer like setData() (for the before/after benchmark).
    static void setPartialUploads(bool on);

private:
    void addAttributes(Qt3DCore::QGeometry* geometry, int divisor);

    Qt3DCore::QBuffer* m_buffer = nullptr;
    std::vector<Field> m_fields;
    std::vector<Qt3DCore::QAttribute*> m_attributes;
    std::vector<float> m_data;
    std::size_t m_lastUpload = 0;
    int m_lastRanges = 0;
    bool m_synced = false;         ///< a frame has been processed since the last setData()
    bool m_partialPending = false; ///< updateData() calls not yet synced
    int m_stride = 0;
};

/// A geometry under `parent` holding one float×3 "vertexPosition" attribute over `xyz` (x, y, z
/// per vertex): the shape every instance of an instanced entity draws.
Qt3DCore::QGeometry* shapeGeometry(Qt3DCore::QNode* parent, const std::vector<float>& xyz);

/// The renderer of an instanced shape under `parent`: `geometry` drawn as triangles of
/// `vertexCount` vertices, no instances yet and disabled until the owner has some to show.
Qt3DRender::QGeometryRenderer* hiddenTriangles(Qt3DCore::QNode* parent, Qt3DCore::QGeometry* geometry, int vertexCount);

} // namespace topocast::app
