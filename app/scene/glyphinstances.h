#pragma once

#include "scene/instancedentity.h"

#include "topocast/scenario/data_glyphs.h"

#include <memory>
#include <vector>

namespace Qt3DRender {
class QGeometryRenderer;
class QParameter;
} // namespace Qt3DRender

namespace topocast::app {

/// The Data held mode's glyphs as one instanced entity: every cell (GlyphCell) is a rectangle
/// facing the camera at its node, lifted toward the camera so the node's sphere never hides it;
/// a layer-1 cell (what is held) sits just in front of its layer-0 backing. One unit square of
/// geometry; per instance: position(3) colour(4) rect(4: x, y, width, height) layer(1).
class GlyphInstances : public InstancedEntity {
    Q_OBJECT
public:
    explicit GlyphInstances(Qt3DCore::QNode* parent = nullptr);
    ~GlyphInstances() override;

    /// Replaces every cell, each placed at positions[cell.node] (an empty list hides the entity).
    void setCells(const std::vector<GlyphCell>& cells, const std::vector<Vec3>& positions);
    /// How far toward the camera the glyphs are lifted (scene units; about the node radius).
    void setLift(float lift);

private:
    Qt3DRender::QParameter* m_lift = nullptr;
};

} // namespace topocast::app
