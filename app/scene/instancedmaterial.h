#pragma once

#include <QString>

namespace Qt3DCore {
class QNode;
}
namespace Qt3DRender {
class QMaterial;
class QParameter;
} // namespace Qt3DRender

namespace topocast::app {

/// A material for one instanced element type: shaders/gl3/<vertexName>.vert (OpenGL 3.2 core
/// technique) and shaders/rhi/<vertexName>.vert (RHI technique), both with the shared
/// instanced.frag (or <fragmentName>.frag), tagged for the forward renderer.
Qt3DRender::QMaterial* makeInstancedMaterial(const QString& vertexName, Qt3DCore::QNode* parent,
                                             const QString& fragmentName = QStringLiteral("instanced"));

/// A point-sprite material: makeInstancedMaterial whose OpenGL passes size points from
/// gl_PointSize (GL_PROGRAM_POINT_SIZE; Qt's RHI always does, and warns about a PointSize state
/// it does not handle).
Qt3DRender::QMaterial* makeSpriteMaterial(const QString& vertexName, Qt3DCore::QNode* parent,
                                          const QString& fragmentName);

} // namespace topocast::app
