#include "style/dataglyphs.h"

#include "topocast/analysis/holdings.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace topocast::app {

bool drawsDataGlyphs(const Snapshot& snap)
{
    return snap.holdings && snap.topology().nodeCount() <= kGlyphMaxNodes &&
           chunkCount(snap.schedule) <= kGlyphMaxChunks;
}

Rgba chunkColour(std::uint64_t chunk, std::uint64_t chunks)
{
    if (chunks <= static_cast<std::uint64_t>(colour::kCategoryColours))
        return categoryColour(static_cast<int>(chunk));
    const QColor c = QColor::fromHsvF(static_cast<float>(chunk) / static_cast<float>(chunks), 0.72f, 0.96f);
    return {static_cast<float>(c.redF()), static_cast<float>(c.greenF()), static_cast<float>(c.blueF()), 1.0f};
}

std::vector<GlyphCell> dataGlyphCells(const Snapshot& snap, StepNo step, const Palette& pal, float width)
{
    std::vector<GlyphCell> out;
    if (!drawsDataGlyphs(snap))
        return out;
    const Schedule& s = snap.schedule;
    const std::uint32_t n = snap.topology().nodeCount();
    const std::uint64_t chunks = chunkCount(s);
    const auto columns = static_cast<std::uint64_t>(std::ceil(std::sqrt(static_cast<double>(chunks))));
    const std::uint64_t rows = (chunks + columns - 1) / columns;
    const float cell = width / static_cast<float>(columns);
    const float gap = cell * 0.14f;
    const float left = -width / 2, top = cell * static_cast<float>(rows) / 2;
    const Rgba backing = mix(pal.background, pal.link, 0.45f);
    const Rgba plate = mix(pal.background, pal.link, 0.12f);
    const bool combining = combines(s.pattern());
    // A chunk complete is a square in a ring of the message colour; a partial result of a
    // reduction is a narrow bar on the dark backing, as tall as its share: the two differ in
    // shape, not only in height (13 of 16 contributions is no longer a near-square).
    const Rgba ring = pal.message;
    const float side = cell - gap, rim = side * kGlyphRim, bar = side * kGlyphBarWidth;
    out.reserve(static_cast<std::size_t>(n * chunks * 2));
    std::vector<float> share(chunks);
    for (NodeId v{}; v < n; ++v) {
        auto corner = [&](std::uint64_t c) {
            return std::pair{left + cell * static_cast<float>(c % columns) + gap / 2,
                             top - cell * static_cast<float>(c / columns + 1) + gap / 2};
        };
        // A plate under the grid hides the node's sphere and the channels behind it; the source's
        // (a root's) is in its colour, a frame round its glyph.
        const float frame = width * 0.05f;
        out.push_back({v, left - frame, top - cell * static_cast<float>(rows) - frame, width + 2 * frame,
                       cell * static_cast<float>(rows) + 2 * frame,
                       hasRoot(s.pattern()) && v == s.source() ? pal.source : plate, -1});
        std::fill(share.begin(), share.end(), 0.0f);
        for (const HeldBlock& b : snap.holdings->blocksAt(s, v, step))
            if (b.chunk < chunks)
                share[b.chunk] = combining ? static_cast<float>(b.sources.size()) / static_cast<float>(n) : 1.0f;
        for (std::uint64_t c = 0; c < chunks; ++c) {
            const auto [x, y] = corner(c);
            const bool complete = share[c] >= 1.0f;
            out.push_back({v, x, y, side, side, complete ? ring : backing, 0});
            if (complete)
                out.push_back({v, x + rim, y + rim, side - 2 * rim, side - 2 * rim, chunkColour(c, chunks), 1});
            else if (share[c] > 0.0f)
                out.push_back({v, x + (side - bar) / 2, y, bar, side * share[c], chunkColour(c, chunks), 1});
        }
    }
    return out;
}

float glyphWidth(const std::vector<Vec3>& positions)
{
    float best = std::numeric_limits<float>::max();
    for (std::size_t i = 0; i < positions.size(); ++i)
        for (std::size_t j = i + 1; j < positions.size(); ++j) {
            const float dx = positions[i][0] - positions[j][0], dy = positions[i][1] - positions[j][1],
                        dz = positions[i][2] - positions[j][2];
            best = std::min(best, std::sqrt(dx * dx + dy * dy + dz * dz));
        }
    return best == std::numeric_limits<float>::max() ? 0.6f : 0.6f * best;
}

} // namespace topocast::app
