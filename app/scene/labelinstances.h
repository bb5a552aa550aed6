#pragma once

#include "scene/instancebuffer.h"
#include "style/scenestyle.h"

#include "topocast/drawing/label_layout.h"

#include <Qt3DCore/QEntity>

#include <QColor>
#include <QImage>
#include <QPointF>
#include <QSize>
#include <QString>

#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

namespace Qt3DRender {
class QGeometryRenderer;
class QParameter;
class QTexture2D;
} // namespace Qt3DRender

namespace topocast::app {

class LabelImage;

/// Text in the 3-D view as one instanced entity: each label is an opaque plate (a dark rounded
/// box with the text in its colour, drawn by QPainter into one atlas image) on a screen-aligned
/// quad of fixed pixel size at a point of the scene, snapped to whole pixels and sampled texel for
/// texel. Opaque plates make the picture independent of the order Qt3D issues its draw calls
/// (blended text over opaque geometry is not), and the atlas is built synchronously on the GUI
/// thread, so exports are byte-identical from run to run.
class LabelInstances : public Qt3DCore::QEntity {
    Q_OBJECT
public:
    struct Label {
        Vec3 anchor{}; ///< the scene point the label belongs to
        QString text;
        QColor colour;        ///< the text's colour on the plate
        float offsetX = 0.0f; ///< the plate's centre relative to the anchor's projection, pixels (x right, y up)
        float offsetY = 0.0f;
    };

    /// The plate's centre relative to its anchor (Label::offsetX, offsetY) for a plate of `plate`
    /// pixels on `side` of its anchor (core label_layout's sides; Hidden and Centre: on it).
    static QPointF plateOffset(LabelSide side, QSize plate);

    explicit LabelInstances(Qt3DCore::QNode* parent = nullptr);
    ~LabelInstances() override;

    /// What a plate says and in which colour.
    using PlateKey = std::pair<QString, QRgb>;
    /// Replaces every label; text of `pixelHeight` pixels (the plate is a little taller). `spare`:
    /// plates to keep in the atlas though not shown now (labels left out for want of room at this
    /// step or camera), so showing them later needs no new atlas.
    void setLabels(std::vector<Label> labels, int pixelHeight, const std::vector<PlateKey>& spare = {});
    /// The viewport in pixels (plates keep their pixel size when the window is resized).
    void setViewportSize(const QSize& size);
    /// The viewport the plates are placed in, in pixels.
    QSize viewportSize() const;
    /// Moves each anchor `lift` scene units toward its plate's side (diagonally for a plate up and
    /// to the right) before placing the plate, so node labels keep clear of their node's sphere
    /// at any zoom. 0 (default): plates sit at their pixel offsets from the anchor.
    void setAnchorLift(float lift);
    const std::vector<Label>& labels() const { return m_labels; }
    /// The atlas as last built (for tests).
    const QImage& atlas() const { return m_atlas; }
    /// True once the current atlas has reached the GPU (Qt3D loads textures asynchronously).
    bool loaded() const;
    /// How many atlases have been built: a picture captured under an older count may show an older
    /// atlas (SceneCapture::frame waits for the new one).
    std::uint64_t atlasGeneration() const { return m_generation; }
    /// The plate a text of `pixelHeight` pixels gets, in pixels (before it is placed).
    static QSize plateSizeFor(const QString& text, int pixelHeight);
    /// Outlined text: no plate, the letters in their colour inside a dark outline of outlineWidth
    /// pixels, over whatever lies behind them (the numbers in the Data held glyphs' cells). Off
    /// (plates) by default; takes effect at the next setLabels.
    void setOutlined(bool on)
    {
        m_outlined = on;
        m_atlas = QImage(); // painted again at the next setLabels
    }
    /// The box outlined text of `pixelHeight` pixels takes, outline included, in pixels.
    static QSize outlinedSizeFor(const QString& text, int pixelHeight);
    static int outlineWidth(int pixelHeight) { return pixelHeight >= 12 ? 2 : 1; }
    /// The plate size of label `i` in pixels.
    QSize plateSize(std::size_t i) const;

private:
    Qt3DRender::QGeometryRenderer* m_renderer = nullptr;
    Qt3DRender::QParameter* m_viewport = nullptr;
    Qt3DRender::QParameter* m_lift = nullptr;
    Qt3DRender::QTexture2D* m_texture = nullptr;
    LabelImage* m_image = nullptr;
    std::unique_ptr<InstanceBuffer> m_instances;
    std::vector<Label> m_labels;
    std::vector<QRect> m_plates; ///< each label's rectangle in the atlas
    /// Draws the plates into a new atlas of `width` × `height` and hands it to the texture.
    void paintAtlas(const std::map<PlateKey, QRect>& plates, int width, int height, int pixelHeight);

    QImage m_atlas;
    /// What the atlas holds: each plate's text, colour and rectangle, and the text height.
    std::map<PlateKey, QRect> m_atlasPlates;
    int m_atlasPixels = 0;
    std::uint64_t m_generation = 0;
    bool m_outlined = false;
};

} // namespace topocast::app
