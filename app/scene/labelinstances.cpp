#include "scene/labelinstances.h"

#include "scene/instancedmaterial.h"

#include <Qt3DCore/QAttribute>
#include <Qt3DCore/QBuffer>
#include <Qt3DCore/QGeometry>
#include <Qt3DRender/QAbstractTextureImage>
#include <Qt3DRender/QGeometryRenderer>
#include <Qt3DRender/QMaterial>
#include <Qt3DRender/QParameter>
#include <Qt3DRender/QTexture>
#include <Qt3DRender/QTextureImageDataGenerator>

#include <QFont>
#include <QFontMetrics>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <map>
#include <set>

namespace topocast::app {

namespace {

/// The most plates an atlas keeps from the atlas before it beside those shown now.
constexpr std::size_t kAtlasKeep = 96;

/// Hands one atlas image to Qt3D's texture loader; equal generations are the same image.
class LabelImageGenerator : public Qt3DRender::QTextureImageDataGenerator {
public:
    LabelImageGenerator(QImage image, quint64 generation) : m_image(std::move(image)), m_generation(generation) {}
    Qt3DRender::QTextureImageDataPtr operator()() override
    {
        auto data = Qt3DRender::QTextureImageDataPtr::create();
        data->setImage(m_image);
        return data;
    }
    bool operator==(const Qt3DRender::QTextureImageDataGenerator& other) const override
    {
        const auto* o = Qt3DCore::functor_cast<LabelImageGenerator>(&other);
        return o && o->m_generation == m_generation;
    }
    QT3D_FUNCTOR(LabelImageGenerator)

private:
    QImage m_image;
    quint64 m_generation;
};

QFont labelFont(int pixelHeight)
{
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPixelSize(pixelHeight);
    font.setBold(true);
    font.setHintingPreference(QFont::PreferFullHinting);
    return font;
}

} // namespace

class LabelImage : public Qt3DRender::QAbstractTextureImage {
public:
    explicit LabelImage(Qt3DCore::QNode* parent) : Qt3DRender::QAbstractTextureImage(parent) {}
    void setImage(const QImage& image)
    {
        m_image = image;
        ++m_generation;
        notifyDataGeneratorChanged();
    }

protected:
    Qt3DRender::QTextureImageDataGeneratorPtr dataGenerator() const override
    {
        return Qt3DRender::QTextureImageDataGeneratorPtr(new LabelImageGenerator(m_image, m_generation));
    }

private:
    QImage m_image;
    quint64 m_generation = 0;
};

LabelInstances::LabelInstances(Qt3DCore::QNode* parent) : Qt3DCore::QEntity(parent)
{
    // One unit quad (two triangles); each instance places and sizes it in pixels.
    auto* geometry = new Qt3DCore::QGeometry(this);
    const float corners[] = {0, 0, 1, 0, 1, 1, 0, 0, 1, 1, 0, 1};
    auto* quad = new Qt3DCore::QBuffer(geometry);
    quad->setData(QByteArray(reinterpret_cast<const char*>(corners), sizeof(corners)));
    auto* corner = new Qt3DCore::QAttribute(geometry);
    corner->setName(QStringLiteral("vertexCorner"));
    corner->setAttributeType(Qt3DCore::QAttribute::VertexAttribute);
    corner->setVertexBaseType(Qt3DCore::QAttribute::Float);
    corner->setVertexSize(2);
    corner->setByteStride(2 * sizeof(float));
    corner->setCount(6);
    corner->setBuffer(quad);
    geometry->addAttribute(corner);
    m_instances = std::make_unique<InstanceBuffer>(
        geometry, std::vector<InstanceBuffer::Field>{{QStringLiteral("instanceAnchor"), 3},
                                                     {QStringLiteral("instancePlate"), 4},
                                                     {QStringLiteral("instanceAtlas"), 4}});
    geometry->setBoundingVolumePositionAttribute(m_instances->attribute(QStringLiteral("instanceAnchor")));

    m_renderer = new Qt3DRender::QGeometryRenderer(this);
    m_renderer->setGeometry(geometry);
    m_renderer->setPrimitiveType(Qt3DRender::QGeometryRenderer::Triangles);
    m_renderer->setVertexCount(6);
    m_renderer->setInstanceCount(0);
    m_renderer->setEnabled(false);

    m_texture = new Qt3DRender::QTexture2D(this);
    m_texture->setMinificationFilter(Qt3DRender::QAbstractTexture::Nearest);
    m_texture->setMagnificationFilter(Qt3DRender::QAbstractTexture::Nearest);
    m_texture->setGenerateMipMaps(false);
    m_texture->setFormat(Qt3DRender::QAbstractTexture::RGBA8_UNorm);
    m_image = new LabelImage(m_texture);
    m_texture->addTextureImage(m_image);

    auto* material = makeInstancedMaterial(QStringLiteral("labels"), this, QStringLiteral("labels"));
    m_viewport = new Qt3DRender::QParameter(QStringLiteral("viewportSize"), QVector2D(1280, 720), material);
    material->addParameter(m_viewport);
    m_lift = new Qt3DRender::QParameter(QStringLiteral("anchorLift"), 0.0f, material);
    material->addParameter(m_lift);
    material->addParameter(new Qt3DRender::QParameter(QStringLiteral("labelAtlas"), m_texture, material));
    addComponent(m_renderer);
    addComponent(material);
}

LabelInstances::~LabelInstances() = default;

void LabelInstances::setViewportSize(const QSize& size)
{
    m_viewport->setValue(
        QVector2D(static_cast<float>(std::max(1, size.width())), static_cast<float>(std::max(1, size.height()))));
}

QSize LabelInstances::viewportSize() const
{
    const QVector2D v = m_viewport->value().value<QVector2D>();
    return {static_cast<int>(v.x()), static_cast<int>(v.y())};
}

void LabelInstances::setAnchorLift(float lift)
{
    m_lift->setValue(lift);
}

bool LabelInstances::loaded() const
{
    return m_labels.empty() || (m_texture->status() == Qt3DRender::QAbstractTexture::Ready &&
                                m_texture->width() == m_atlas.width() && m_texture->height() == m_atlas.height());
}

QPointF LabelInstances::plateOffset(LabelSide side, QSize plate)
{
    const double w = 0.5 * plate.width(), h = 0.5 * plate.height();
    switch (side) {
    case LabelSide::UpRight:
        return {w, h};
    case LabelSide::UpLeft:
        return {-w, h};
    case LabelSide::DownRight:
        return {w, -h};
    case LabelSide::DownLeft:
        return {-w, -h};
    case LabelSide::Right:
        return {w, 0};
    case LabelSide::Left:
        return {-w, 0};
    case LabelSide::Above:
        return {0, h};
    case LabelSide::Below:
        return {0, -h};
    case LabelSide::Centre:
    case LabelSide::Hidden:
        break;
    }
    return {0, 0};
}

QSize LabelInstances::plateSizeFor(const QString& text, int pixelHeight)
{
    const QFontMetrics metrics(labelFont(pixelHeight));
    const int pad = std::max(2, pixelHeight / 4);
    return {metrics.horizontalAdvance(text) + 2 * pad + 2, metrics.height() + 2 * pad};
}

QSize LabelInstances::outlinedSizeFor(const QString& text, int pixelHeight)
{
    const QFontMetrics metrics(labelFont(pixelHeight));
    const int halo = outlineWidth(pixelHeight);
    return {metrics.horizontalAdvance(text) + 2 * halo + 1, metrics.ascent() + metrics.descent() + 2 * halo};
}

QSize LabelInstances::plateSize(std::size_t i) const
{
    return i < m_plates.size() ? m_plates[i].size() : QSize();
}

void LabelInstances::paintAtlas(const std::map<PlateKey, QRect>& plates, int width, int height, int pixelHeight)
{
    const QFont font = labelFont(pixelHeight);
    const QFontMetrics metrics(font);
    const int pad = std::max(2, pixelHeight / 4);
    QImage atlas(width, height, QImage::Format_RGBA8888);
    atlas.fill(Qt::transparent);
    {
        QPainter painter(&atlas);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::TextAntialiasing);
        painter.setFont(font);
        for (const auto& [key, rect] : plates) {
            if (m_outlined) {
                // The letters inside a dark outline, nothing around them: what lies behind shows.
                const int halo = outlineWidth(pixelHeight);
                QPainterPath text;
                text.addText(rect.left() + halo, rect.top() + halo + metrics.ascent(), font, key.first);
                painter.strokePath(text,
                                   QPen(QColor(16, 18, 24), 2.0 * halo, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
                painter.fillPath(text, QColor::fromRgba(key.second));
                continue;
            }
            // Opaque plate: dark fill, a thin light rim so it stands off dark and light scenes.
            QPainterPath path;
            path.addRoundedRect(QRectF(rect).adjusted(0.5, 0.5, -0.5, -0.5), pad, pad);
            painter.fillPath(path, QColor(16, 18, 24));
            painter.setPen(QPen(QColor(120, 128, 140), 1.0));
            painter.drawPath(path);
            painter.setPen(QColor::fromRgba(key.second));
            painter.drawText(rect, Qt::AlignCenter, key.first);
        }
    }
    // Rounded corners are transparent in the atlas: the shader discards them (no blending).
    m_atlas = std::move(atlas);
    m_atlasPlates = plates;
    m_atlasPixels = pixelHeight;
    m_image->setImage(m_atlas);
    ++m_generation;
}

void LabelInstances::setLabels(std::vector<Label> labels, int pixelHeight, const std::vector<PlateKey>& spare)
{
    m_labels = std::move(labels);
    m_plates.assign(m_labels.size(), QRect());
    // Labels whose plates are all in the atlas already (labels that only moved, some left out for
    // want of room, a step naming the same nodes) keep it and its texture on the GPU: nothing to
    // paint, and no new texture to wait for before the next frame is captured.
    const bool reuse = !m_atlas.isNull() && pixelHeight == m_atlasPixels &&
                       std::all_of(m_labels.begin(), m_labels.end(), [&](const Label& l) {
                           return m_atlasPlates.count({l.text, l.colour.rgba()}) > 0;
                       });
    int atlasW = m_atlas.width(), atlasH = m_atlas.height();
    if (reuse) {
        for (std::size_t i = 0; i < m_labels.size(); ++i)
            m_plates[i] = m_atlasPlates.at({m_labels[i].text, m_labels[i].colour.rgba()});
    } else {
        // One plate per distinct (text, colour), packed in rows of an atlas at most 1024 wide.
        const QFont font = labelFont(pixelHeight);
        const QFontMetrics metrics(font);
        const int pad = std::max(2, pixelHeight / 4);
        const int plateH = m_outlined ? outlinedSizeFor(QString(), pixelHeight).height() : metrics.height() + 2 * pad;
        // The plates of the atlas shown stay in the new one (up to kAtlasKeep of them): a label
        // left out at one step and back at the next finds its plate there.
        std::vector<std::pair<QString, QRgb>> keys;
        if (pixelHeight == m_atlasPixels && m_atlasPlates.size() + m_labels.size() <= kAtlasKeep)
            for (const auto& [key, rect] : m_atlasPlates)
                keys.push_back(key);
        for (const Label& l : m_labels)
            keys.emplace_back(l.text, l.colour.rgba());
        keys.insert(keys.end(), spare.begin(), spare.end());
        std::set<PlateKey> seen;
        keys.erase(std::remove_if(keys.begin(), keys.end(), [&](const PlateKey& k) { return !seen.insert(k).second; }),
                   keys.end());
        std::map<std::pair<QString, QRgb>, QRect> plates;
        int x = 0, y = 0, rowH = 0;
        // Rows at most 1024 wide, or 4096 for many plates (a 512-node network's names at print
        // resolution would make a 1024-wide atlas taller than a GPU's textures may be).
        const int maxWidth = keys.size() > 128 ? 4096 : 1024;
        for (const auto& key : keys) {
            const int w = m_outlined ? outlinedSizeFor(key.first, pixelHeight).width()
                                     : metrics.horizontalAdvance(key.first) + 2 * pad + 2;
            if (x + w > maxWidth) {
                x = 0;
                y += rowH;
                rowH = 0;
            }
            plates.emplace(key, QRect(x, y, w, plateH));
            x += w;
            rowH = std::max(rowH, plateH);
        }
        for (std::size_t i = 0; i < m_labels.size(); ++i)
            m_plates[i] = plates.at({m_labels[i].text, m_labels[i].colour.rgba()});
        atlasW = std::max(1, std::min(maxWidth, y == 0 ? x : maxWidth));
        atlasH = std::max(1, y + rowH);
        paintAtlas(plates, atlasW, atlasH, pixelHeight);
    }

    std::vector<float> data;
    data.reserve(m_labels.size() * 11);
    for (std::size_t i = 0; i < m_labels.size(); ++i) {
        const Label& l = m_labels[i];
        const QRect& r = m_plates[i];
        const float w = static_cast<float>(r.width()), h = static_cast<float>(r.height());
        data.insert(data.end(), {l.anchor[0], l.anchor[1], l.anchor[2], l.offsetX - w / 2, l.offsetY - h / 2, w, h,
                                 static_cast<float>(r.left()) / static_cast<float>(atlasW),
                                 static_cast<float>(r.top()) / static_cast<float>(atlasH),
                                 static_cast<float>(r.right() + 1) / static_cast<float>(atlasW),
                                 static_cast<float>(r.bottom() + 1) / static_cast<float>(atlasH)});
    }
    m_instances->setData(data);
    m_renderer->setInstanceCount(static_cast<int>(m_labels.size()));
    m_renderer->setEnabled(!m_labels.empty());
}

} // namespace topocast::app
