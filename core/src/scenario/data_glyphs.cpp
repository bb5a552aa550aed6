#include "topocast/scenario/data_glyphs.h"

#include "topocast/analysis/holdings.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace topocast {

bool drawsDataGlyphs(const ScenarioRun& snap)
{
    return snap.holdings && snap.topology().nodeCount() <= kGlyphMaxNodes &&
           chunkCount(snap.schedule) <= kGlyphMaxChunks;
}

Rgba chunkColour(std::uint64_t chunk, std::uint64_t chunks)
{
    if (chunks <= static_cast<std::uint64_t>(colour::kCategoryColours))
        return categoryColour(static_cast<int>(chunk));
    // HSV (h = chunk / chunks, s = 0.72, v = 0.96) to RGB.
    const float h = 6.0f * static_cast<float>(chunk) / static_cast<float>(chunks), s = 0.72f, v = 0.96f;
    const int sector = static_cast<int>(h) % 6;
    const float f = h - std::floor(h), p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
    const std::array<std::array<float, 3>, 6> rgb = {
        {{v, t, p}, {q, v, p}, {p, v, t}, {p, q, v}, {t, p, v}, {v, p, q}}};
    const auto& c = rgb[static_cast<std::size_t>(sector)];
    return {c[0], c[1], c[2], 1.0f};
}

namespace {

/// Where a glyph's cells lie: ⌈√C⌉ columns of square cells, row order from the top left.
struct GlyphGrid {
    std::uint64_t chunks = 0, columns = 1, rows = 1;
    float cell = 0, gap = 0, left = 0, top = 0, side = 0;
    GlyphGrid(std::uint64_t c, float width) : chunks(c)
    {
        columns = static_cast<std::uint64_t>(std::ceil(std::sqrt(static_cast<double>(chunks))));
        rows = (chunks + columns - 1) / columns;
        cell = width / static_cast<float>(columns);
        gap = cell * 0.14f;
        left = -width / 2;
        top = cell * static_cast<float>(rows) / 2;
        side = cell - gap;
    }
    /// Chunk c's backing square's lower-left corner.
    std::pair<float, float> corner(std::uint64_t c) const
    {
        return {left + cell * static_cast<float>(c % columns) + gap / 2,
                top - cell * static_cast<float>(c / columns + 1) + gap / 2};
    }
};

/// Each chunk's contributions held by v at the end of `step` (combining patterns), or N for a
/// chunk held whole; 0 where not held.
void heldShares(const ScenarioRun& snap, NodeId v, StepNo step, std::vector<std::uint32_t>& combined)
{
    const Schedule& s = snap.schedule;
    const std::uint32_t n = snap.topology().nodeCount();
    const bool combining = combines(s.pattern());
    std::fill(combined.begin(), combined.end(), 0u);
    for (const HeldBlock& b : snap.holdings->blocksAt(s, v, step))
        if (b.chunk < combined.size())
            combined[b.chunk] = combining ? static_cast<std::uint32_t>(b.sources.size()) : n;
}

} // namespace

std::vector<GlyphCell> dataGlyphCells(const ScenarioRun& snap, StepNo step, const Palette& pal, float width)
{
    std::vector<GlyphCell> out;
    if (!drawsDataGlyphs(snap))
        return out;
    const Schedule& s = snap.schedule;
    const std::uint32_t n = snap.topology().nodeCount();
    const GlyphGrid g(chunkCount(s), width);
    const Rgba backing = mix(pal.background, pal.link, 0.45f);
    const Rgba plate = mix(pal.background, pal.link, 0.12f);
    // A chunk complete is a square in a ring of the message colour; a partial result of a
    // reduction is a narrow bar on the dark backing at the cell's right, as tall as its share: the
    // two differ in shape, not only in height (13 of 16 contributions is no longer a near-square).
    const Rgba ring = pal.message;
    const float rim = g.side * kGlyphRim, bar = g.side * kGlyphBarWidth;
    out.reserve(static_cast<std::size_t>(n * g.chunks * 2));
    std::vector<std::uint32_t> combined(g.chunks);
    for (NodeId v{}; v < n; ++v) {
        // A plate under the grid hides the node's sphere and the channels behind it; the source's
        // (a root's) is in its colour, a frame round its glyph.
        const float frame = width * 0.05f;
        out.push_back({v, g.left - frame, g.top - g.cell * static_cast<float>(g.rows) - frame, width + 2 * frame,
                       g.cell * static_cast<float>(g.rows) + 2 * frame,
                       hasRoot(s.pattern()) && v == s.source() ? pal.source : plate, -1});
        heldShares(snap, v, step, combined);
        for (std::uint64_t c = 0; c < g.chunks; ++c) {
            const auto [x, y] = g.corner(c);
            const bool complete = combined[c] >= n;
            out.push_back({v, x, y, g.side, g.side, complete ? ring : backing, 0});
            if (complete)
                out.push_back({v, x + rim, y + rim, g.side - 2 * rim, g.side - 2 * rim, chunkColour(c, g.chunks), 1});
            else if (combined[c] > 0)
                out.push_back({v, x + g.side * (1 - kGlyphBarMargin) - bar, y, bar,
                               g.side * static_cast<float>(combined[c]) / static_cast<float>(n),
                               chunkColour(c, g.chunks), 1});
        }
    }
    return out;
}

std::vector<GlyphCellText> dataGlyphTexts(const ScenarioRun& snap, StepNo step, float width)
{
    std::vector<GlyphCellText> out;
    if (!drawsDataGlyphs(snap))
        return out;
    const std::uint32_t n = snap.topology().nodeCount();
    const GlyphGrid g(chunkCount(snap.schedule), width);
    out.reserve(static_cast<std::size_t>(n * g.chunks));
    std::vector<std::uint32_t> combined(g.chunks);
    for (NodeId v{}; v < n; ++v) {
        heldShares(snap, v, step, combined);
        for (std::uint64_t c = 0; c < g.chunks; ++c) {
            const auto [x, y] = g.corner(c);
            const bool partial = combined[c] > 0 && combined[c] < n;
            out.push_back(
                {v, x, y, g.side, c, partial ? std::to_string(combined[c]) + "/" + std::to_string(n) : std::string()});
        }
    }
    return out;
}

float glyphWidth(const std::vector<Vec3>& positions, float share)
{
    float best = std::numeric_limits<float>::max();
    for (std::size_t i = 0; i < positions.size(); ++i)
        for (std::size_t j = i + 1; j < positions.size(); ++j) {
            const float dx = positions[i][0] - positions[j][0], dy = positions[i][1] - positions[j][1],
                        dz = positions[i][2] - positions[j][2];
            best = std::min(best, std::sqrt(dx * dx + dy * dy + dz * dz));
        }
    return best == std::numeric_limits<float>::max() ? share : share * best;
}

} // namespace topocast
