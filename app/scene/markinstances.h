#pragma once

#include "scene/instancebuffer.h"
#include "style/scenestyle.h"

#include <Qt3DCore/QEntity>

#include <memory>
#include <vector>

namespace Qt3DRender {
class QGeometryRenderer;
class QParameter;
} // namespace Qt3DRender

namespace topocast::app {

/// The flat shapes drawn around a node (Predict mode): each one differs by outline as well as by
/// colour, so the marks read the same to a colour-blind student and on a grey-scale printout.
enum class MarkShape : int {
    Marked = 0, ///< a guess not checked yet: a dashed ring
    Right = 1,  ///< a solid ring
    Missed = 2, ///< a diamond outline
    Wrong = 3,  ///< a cross over the node
    Cursor = 4, ///< the keyboard cursor: four corner brackets
};
inline constexpr int kMarkShapeCount = 5;

/// Node marks as one instanced entity: every instance is a flat shape facing the camera
/// (billboard), centred on a node and pulled toward the camera so the node's own sphere never
/// hides it. The geometry holds all shapes, each vertex tagged with its shape; the vertex
/// shader (shaders/*/marks.vert) drops the vertices of the other shapes, so one draw call
/// serves every kind of mark. Per instance: position(3) colour(4) shape(1) size(1).
class MarkInstances : public Qt3DCore::QEntity {
    Q_OBJECT
public:
    struct Mark {
        NodeId node{};
        Vec3 position{};
        Rgba colour{};
        MarkShape shape = MarkShape::Marked;
        float size = 1.0f; ///< relative to the radius (setRadius)
    };

    explicit MarkInstances(Qt3DCore::QNode* parent = nullptr);
    ~MarkInstances() override;

    /// Replaces every mark (an empty list hides the entity).
    void setMarks(std::vector<Mark> marks);
    const std::vector<Mark>& marks() const { return m_marks; }
    /// The outer radius of a mark of size 1 in scene units (about twice the node radius).
    void setRadius(float radius);
    float radius() const { return m_radiusValue; }
    const InstanceBuffer& buffer() const { return *m_instances; }

    /// The outline of `shape` as triangles in mark units (outer radius 1, y up): what the
    /// shader draws and what the Predict panel's legend paints. Six floats (x, y) × 3 per triangle.
    static std::vector<float> shapeTriangles(MarkShape shape);

private:
    Qt3DRender::QGeometryRenderer* m_renderer = nullptr;
    Qt3DRender::QParameter* m_radius = nullptr;
    std::unique_ptr<InstanceBuffer> m_instances;
    std::vector<Mark> m_marks;
    float m_radiusValue = 0.3f;
};

} // namespace topocast::app
