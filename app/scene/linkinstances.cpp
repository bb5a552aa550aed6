#include "scene/linkinstances.h"

#include "scene/instancedmaterial.h"

#include "topocast/drawing/line_chains.h"

#include <Qt3DCore/QAttribute>
#include <Qt3DCore/QBuffer>
#include <Qt3DCore/QGeometry>
#include <Qt3DExtras/QCylinderGeometry>
#include <Qt3DLogic/QFrameAction>
#include <Qt3DRender/QGeometryRenderer>
#include <Qt3DRender/QMaterial>
#include <Qt3DRender/QParameter>

#include <algorithm>
#include <array>

namespace topocast::app {

namespace {
constexpr int kFloats = LinkInstances::kFloatsPerInstance; // a(3) b(3) bulge(3) colour(4)

std::vector<InstanceBuffer::Field> fields()
{
    return {{QStringLiteral("instanceA"), 3},
            {QStringLiteral("instanceB"), 3},
            {QStringLiteral("instanceBulge"), 3},
            {QStringLiteral("instanceColor"), 4}};
}

/// A polyline along y from −0.5 to 0.5 drawn as GL lines (pairs of vertices).
Qt3DCore::QGeometry* makeLineGeometry(int segments, Qt3DCore::QNode* parent)
{
    auto* geometry = new Qt3DCore::QGeometry(parent);
    std::vector<float> v;
    for (int i = 0; i < segments; ++i) {
        for (int k : {i, i + 1}) {
            const float y = -0.5f + static_cast<float>(k) / static_cast<float>(segments);
            v.insert(v.end(), {0.0f, y, 0.0f, 0.0f, 0.0f, 1.0f});
        }
    }
    auto* buffer = new Qt3DCore::QBuffer(geometry);
    buffer->setData(
        QByteArray(reinterpret_cast<const char*>(v.data()), static_cast<qsizetype>(v.size() * sizeof(float))));
    const uint count = static_cast<uint>(segments * 2);
    auto* pos = new Qt3DCore::QAttribute(buffer, Qt3DCore::QAttribute::defaultPositionAttributeName(),
                                         Qt3DCore::QAttribute::Float, 3, count, 0, 6 * sizeof(float));
    auto* nrm = new Qt3DCore::QAttribute(buffer, Qt3DCore::QAttribute::defaultNormalAttributeName(),
                                         Qt3DCore::QAttribute::Float, 3, count, 3 * sizeof(float), 6 * sizeof(float));
    geometry->addAttribute(pos);
    geometry->addAttribute(nrm);
    return geometry;
}

/// The channels as segments for chaining: straight ones in one group (colours are compared when
/// the links are split), arcs (segments > 1 or a bulge) never joined.
std::vector<ChainSegment> chainSegments(const std::vector<float>& channels, int segments)
{
    const std::size_t count = channels.size() / kFloats;
    std::vector<ChainSegment> lines(count);
    for (std::size_t c = 0; c < count; ++c) {
        const float* f = &channels[c * kFloats];
        lines[c].a = {f[0], f[1], f[2]};
        lines[c].b = {f[3], f[4], f[5]};
        const bool straight = segments == 1 && f[6] == 0.0f && f[7] == 0.0f && f[8] == 0.0f;
        lines[c].group = straight ? 0 : kNoChain;
    }
    return lines;
}

/// The channels with each run of straight channels of one colour that continue one another (a
/// mesh row of unused links) as one channel — the first's data, ending at the last's end —
/// software OpenGL pays per line. `links` (linkCollinear of the channels' places) is made once
/// per geometry, so a recolouring costs a walk, no hashing.
void chainChannels(const std::vector<float>& channels, const ChainLinks& links, std::vector<float>& out)
{
    const std::vector<Chain> chains = splitLinked(links, [&](std::size_t a, std::size_t b) {
        return std::equal(&channels[a * kFloats + 9], &channels[a * kFloats + 13], &channels[b * kFloats + 9]);
    });
    out.resize(chains.size() * kFloats);
    for (std::size_t i = 0; i < chains.size(); ++i) {
        std::copy_n(&channels[chains[i].first * kFloats], kFloats, &out[i * kFloats]);
        std::copy_n(&channels[chains[i].last * kFloats + 3], 3, &out[i * kFloats + 3]);
    }
}
} // namespace

LinkInstances::LinkInstances(int segments, Qt3DCore::QNode* parent) : Qt3DCore::QEntity(parent), m_segments(segments)
{
    auto* prism = new Qt3DExtras::QCylinderGeometry(this);
    prism->setRadius(1.0f);
    prism->setLength(1.0f);
    prism->setSlices(6);
    prism->setRings(segments + 1);
    m_prismInstances = std::make_unique<InstanceBuffer>(prism, fields());
    prism->setBoundingVolumePositionAttribute(m_prismInstances->attribute(QStringLiteral("instanceA")));
    m_prisms = new Qt3DRender::QGeometryRenderer(this);
    m_prisms->setGeometry(prism);
    m_prisms->setEnabled(false);

    auto* line = makeLineGeometry(segments, this);
    m_lineInstances = std::make_unique<InstanceBuffer>(line, fields());
    line->setBoundingVolumePositionAttribute(m_lineInstances->attribute(QStringLiteral("instanceA")));
    m_lines = new Qt3DRender::QGeometryRenderer(this);
    m_lines->setGeometry(line);
    m_lines->setPrimitiveType(Qt3DRender::QGeometryRenderer::Lines);
    m_lines->setVertexCount(segments * 2);
    m_lines->setEnabled(false);

    auto* material = makeInstancedMaterial(QStringLiteral("links"), this);
    m_radius = new Qt3DRender::QParameter(QStringLiteral("linkRadius"), 0.035f, material);
    m_offset = new Qt3DRender::QParameter(QStringLiteral("channelOffset"), 0.045f, material);
    material->addParameter(m_radius);
    material->addParameter(m_offset);
    // Two renderers in one entity are not allowed; the line variant gets a child entity.
    addComponent(m_prisms);
    addComponent(material);
    // A processed frame means the uploads so far reached the backend: partial updates are safe.
    auto* frames = new Qt3DLogic::QFrameAction(this);
    connect(frames, &Qt3DLogic::QFrameAction::triggered, this, [this] {
        m_prismInstances->markSynced();
        m_lineInstances->markSynced();
    });
    addComponent(frames);
    auto* lineEntity = new Qt3DCore::QEntity(this);
    lineEntity->addComponent(m_lines);
    lineEntity->addComponent(material);
}

LinkInstances::~LinkInstances() = default;

void LinkInstances::setRadius(float radius, float sideOffset)
{
    m_radius->setValue(radius);
    m_offset->setValue(sideOffset);
}

void LinkInstances::setUseLines(bool lines)
{
    if (lines == m_useLines)
        return;
    m_useLines = lines;
    upload(true);
}

void LinkInstances::setInstances(const std::vector<Instance>& instances)
{
    m_data.clear();
    m_data.reserve(instances.size() * kFloats);
    for (const Instance& i : instances) {
        m_data.insert(m_data.end(), {i.a[0], i.a[1], i.a[2], i.b[0], i.b[1], i.b[2], i.bulge[0], i.bulge[1], i.bulge[2],
                                     i.colour.r, i.colour.g, i.colour.b, i.colour.a});
    }
    m_count = static_cast<int>(instances.size());
    upload(true);
}

void LinkInstances::setColours(const std::vector<Rgba>& colours, bool deferPrisms)
{
    const std::size_t n = std::min(colours.size(), static_cast<std::size_t>(m_count));
    for (std::size_t i = 0; i < n; ++i) {
        float* c = &m_data[i * kFloats + 9];
        c[0] = colours[i].r;
        c[1] = colours[i].g;
        c[2] = colours[i].b;
        c[3] = colours[i].a;
    }
    upload(false, deferPrisms);
}

const InstanceBuffer& LinkInstances::buffer() const
{
    if (m_prismsStale) { // drawn as lines: the prisms' buffer is brought up to date when asked
        m_prismInstances->setData(m_data);
        m_prismsStale = false;
    }
    return *m_prismInstances;
}

void LinkInstances::upload(bool whole, bool deferPrisms)
{
    // The prisms' buffer holds every channel (buffer()); the lines draw its chains. While lines
    // are drawn, a recolouring every frame (simulated playback) defers it until it is asked for
    // or the next step: Qt3D paid for each changed run of a 32×32×32 mesh's channels every frame.
    if (m_useLines && deferPrisms) {
        m_prismsStale = true;
    } else if (whole || m_prismsStale) {
        m_prismInstances->setData(m_data);
        m_prismsStale = false;
    } else {
        m_prismInstances->update(m_data);
    }
    m_prisms->setInstanceCount(m_count);
    m_prisms->setEnabled(m_count > 0 && !m_useLines);
    if (m_useLines) {
        if (whole || m_chainLinks.next.size() != static_cast<std::size_t>(m_count))
            m_chainLinks = linkCollinear(chainSegments(m_data, m_segments));
        chainChannels(m_data, m_chainLinks, m_lineData);
        if (whole)
            m_lineInstances->setData(m_lineData);
        else
            m_lineInstances->update(m_lineData);
    }
    m_lines->setInstanceCount(static_cast<int>(m_lineData.size() / kFloats));
    m_lines->setEnabled(m_count > 0 && m_useLines);
}

} // namespace topocast::app
