#include "scene/instancedmaterial.h"

#include <Qt3DRender/QEffect>
#include <Qt3DRender/QFilterKey>
#include <Qt3DRender/QGraphicsApiFilter>
#include <Qt3DRender/QMaterial>
#include <Qt3DRender/QPointSize>
#include <Qt3DRender/QRenderPass>
#include <Qt3DRender/QShaderProgram>
#include <Qt3DRender/QTechnique>

#include <QUrl>

// The shaders live in topocast_app's resources; a static library must register them itself.
static void initTopocastResources()
{
    Q_INIT_RESOURCE(topocast);
}

namespace topocast::app {

namespace {
Qt3DRender::QTechnique* makeTechnique(Qt3DRender::QGraphicsApiFilter::Api api, int major, int minor,
                                      const QString& folder, const QString& vertexName, const QString& fragmentName)
{
    auto* technique = new Qt3DRender::QTechnique;
    technique->graphicsApiFilter()->setApi(api);
    technique->graphicsApiFilter()->setMajorVersion(major);
    technique->graphicsApiFilter()->setMinorVersion(minor);
    if (api == Qt3DRender::QGraphicsApiFilter::OpenGL)
        technique->graphicsApiFilter()->setProfile(Qt3DRender::QGraphicsApiFilter::CoreProfile);
    auto* key = new Qt3DRender::QFilterKey(technique);
    key->setName(QStringLiteral("renderingStyle"));
    key->setValue(QStringLiteral("forward"));
    technique->addFilterKey(key);

    auto* program = new Qt3DRender::QShaderProgram(technique);
    program->setVertexShaderCode(Qt3DRender::QShaderProgram::loadSource(
        QUrl(QStringLiteral("qrc:/shaders/%1/%2.vert").arg(folder, vertexName))));
    program->setFragmentShaderCode(Qt3DRender::QShaderProgram::loadSource(
        QUrl(QStringLiteral("qrc:/shaders/%1/%2.frag").arg(folder, fragmentName))));
    auto* pass = new Qt3DRender::QRenderPass(technique);
    pass->setShaderProgram(program);
    technique->addRenderPass(pass);
    return technique;
}
} // namespace

Qt3DRender::QMaterial* makeInstancedMaterial(const QString& vertexName, Qt3DCore::QNode* parent,
                                             const QString& fragmentName)
{
    static const bool resourcesReady = (initTopocastResources(), true);
    Q_UNUSED(resourcesReady);
    auto* material = new Qt3DRender::QMaterial(parent);
    auto* effect = new Qt3DRender::QEffect(material);
    effect->addTechnique(
        makeTechnique(Qt3DRender::QGraphicsApiFilter::OpenGL, 3, 2, QStringLiteral("gl3"), vertexName, fragmentName));
    effect->addTechnique(
        makeTechnique(Qt3DRender::QGraphicsApiFilter::RHI, 1, 0, QStringLiteral("rhi"), vertexName, fragmentName));
    material->setEffect(effect);
    return material;
}

Qt3DRender::QMaterial* makeSpriteMaterial(const QString& vertexName, Qt3DCore::QNode* parent,
                                          const QString& fragmentName)
{
    Qt3DRender::QMaterial* material = makeInstancedMaterial(vertexName, parent, fragmentName);
    for (auto* technique : material->effect()->techniques())
        for (auto* pass : technique->renderPasses()) {
            if (technique->graphicsApiFilter()->api() != Qt3DRender::QGraphicsApiFilter::OpenGL)
                continue;
            auto* size = new Qt3DRender::QPointSize(pass);
            size->setSizeMode(Qt3DRender::QPointSize::Programmable);
            pass->addRenderState(size);
        }
    return material;
}

} // namespace topocast::app
