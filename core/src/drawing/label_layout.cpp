#include "topocast/drawing/label_layout.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace topocast {

namespace {

/// Advance widths of DejaVu Sans Bold in 1/44 em (measured at 44 px with full hinting, the size
/// at which a pixel is finest): the characters node labels, titles and values use.
int advance44(char32_t c)
{
    if (c >= U'0' && c <= U'9')
        return 31;
    static constexpr std::array<int, 26> lower{30, 32, 26, 32, 30, 19, 32, 31, 15, 15, 29, 15, 46,
                                               31, 30, 32, 32, 22, 26, 21, 31, 29, 41, 28, 29, 26};
    if (c >= U'a' && c <= U'z')
        return lower[static_cast<std::size_t>(c - U'a')];
    switch (c) {
    case U'(':
    case U')':
        return 20;
    case U',':
    case U'.':
        return 17;
    case U' ':
        return 15;
    case U'-':
        return 18;
    case U'=':
    case U'+':
    case U'→':
    case U'×':
        return 37;
    case U'%':
        return 44;
    default:
        return 44 * 9 / 8; // capitals and the rest: wider than any of the above
    }
}

/// The code points of UTF-8 text (a malformed byte counts as one character).
std::vector<char32_t> codePoints(std::string_view s)
{
    std::vector<char32_t> out;
    for (std::size_t i = 0; i < s.size();) {
        const auto b = static_cast<unsigned char>(s[i]);
        const int len = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 1;
        char32_t c = len == 1 ? b : b & (0x7F >> len);
        for (int k = 1; k < len && i + static_cast<std::size_t>(k) < s.size(); ++k)
            c = (c << 6) | (static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]) & 0x3F);
        out.push_back(c);
        i += static_cast<std::size_t>(len);
    }
    return out;
}

bool boxesOverlap(const LabelBox& a, const LabelBox& b)
{
    return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

bool boxOverDisc(const LabelBox& b, const ScreenDisc& d)
{
    const float cx = std::clamp(d.x, b.x0, b.x1), cy = std::clamp(d.y, b.y0, b.y1);
    return std::hypot(cx - d.x, cy - d.y) < d.r;
}

/// The discs in a grid of square cells, to ask which lie near a box.
class DiscGrid {
public:
    DiscGrid(const std::vector<ScreenDisc>& discs, float cell) : m_discs(discs), m_cell(cell)
    {
        for (std::size_t i = 0; i < discs.size(); ++i) {
            const ScreenDisc& d = discs[i];
            forCells(d.x - d.r, d.y - d.r, d.x + d.r, d.y + d.r, [&](long long key) { m_cells[key].push_back(i); });
        }
    }

    /// Whether `box` covers a disc of a node other than `own`.
    bool covers(const LabelBox& box, long long own) const
    {
        bool hit = false;
        forCells(box.x0, box.y0, box.x1, box.y1, [&](long long key) {
            if (hit)
                return;
            const auto it = m_cells.find(key);
            if (it == m_cells.end())
                return;
            for (std::size_t i : it->second)
                if (!m_discs[i].soft && m_discs[i].node != own && boxOverDisc(box, m_discs[i])) {
                    hit = true;
                    return;
                }
        });
        return hit;
    }

    /// How many soft discs (of nodes other than `own`) `box` covers.
    int softCovered(const LabelBox& box, long long own) const
    {
        std::vector<std::size_t> seen;
        forCells(box.x0, box.y0, box.x1, box.y1, [&](long long key) {
            const auto it = m_cells.find(key);
            if (it == m_cells.end())
                return;
            for (std::size_t i : it->second)
                if (m_discs[i].soft && m_discs[i].node != own && boxOverDisc(box, m_discs[i]) &&
                    std::find(seen.begin(), seen.end(), i) == seen.end())
                    seen.push_back(i);
        });
        return static_cast<int>(seen.size());
    }

private:
    template <class F> void forCells(float x0, float y0, float x1, float y1, F&& f) const
    {
        // Far outside the picture nothing is placed: clamp (in floats, before converting) so a
        // stray disc — a point just in front of the camera projects very far — cannot make the
        // loop huge or the conversion overflow.
        const auto c = [this](float v) {
            const float cell = v / m_cell;
            return std::isfinite(cell) ? static_cast<long long>(std::floor(std::clamp(cell, -4096.0f, 4096.0f))) : 0LL;
        };
        for (long long gy = c(y0); gy <= c(y1); ++gy)
            for (long long gx = c(x0); gx <= c(x1); ++gx)
                f(gy * 16384 + gx);
    }

    const std::vector<ScreenDisc>& m_discs;
    float m_cell;
    std::unordered_map<long long, std::vector<std::size_t>> m_cells;
};

} // namespace

PlateSize labelPlateSize(std::string_view utf8, int pixelHeight)
{
    const int px = std::max(1, pixelHeight);
    int text = 0;
    for (char32_t c : codePoints(utf8))
        text += (advance44(c) * px + 43) / 44;
    const int pad = std::max(2, px / 4);
    const int line = (px * 1164 + 999) / 1000;
    return {text + 2 * pad + 2, line + 2 * pad};
}

int labelPixelHeight(int dpi)
{
    return 14 * std::max(1, dpi) / 96;
}

LabelBox labelBoxAt(const LabelRequest& r, LabelSide side)
{
    const auto w = static_cast<float>(r.plate.width), h = static_cast<float>(r.plate.height);
    float x0 = 0, y0 = 0;
    switch (side) {
    case LabelSide::UpRight:
        x0 = r.x + r.gap;
        y0 = r.y - r.gap - h;
        break;
    case LabelSide::UpLeft:
        x0 = r.x - r.gap - w;
        y0 = r.y - r.gap - h;
        break;
    case LabelSide::DownRight:
        x0 = r.x + r.gap;
        y0 = r.y + r.gap;
        break;
    case LabelSide::DownLeft:
        x0 = r.x - r.gap - w;
        y0 = r.y + r.gap;
        break;
    case LabelSide::Right:
        x0 = r.x + r.gap;
        y0 = r.y - 0.5f * h;
        break;
    case LabelSide::Left:
        x0 = r.x - r.gap - w;
        y0 = r.y - 0.5f * h;
        break;
    case LabelSide::Above:
        x0 = r.x - 0.5f * w;
        y0 = r.y - r.gap - h;
        break;
    case LabelSide::Below:
        x0 = r.x - 0.5f * w;
        y0 = r.y + r.gap;
        break;
    case LabelSide::Centre:
        x0 = r.x - 0.5f * w;
        y0 = r.y - 0.5f * h;
        break;
    case LabelSide::Hidden:
        return {};
    }
    return {side, x0, y0, x0 + w, y0 + h};
}

std::vector<LabelBox> placeLabels(const std::vector<LabelRequest>& requests, const std::vector<ScreenDisc>& nodes,
                                  int width, int height, const std::vector<LabelBox>& obstacles,
                                  const std::vector<LabelBox>& avoid)
{
    // The area of `b` over the boxes to avoid (pixels²).
    const auto overAvoided = [&avoid](const LabelBox& b) {
        float area = 0;
        for (const LabelBox& o : avoid)
            area += std::max(0.0f, std::min(b.x1, o.x1) - std::max(b.x0, o.x0)) *
                    std::max(0.0f, std::min(b.y1, o.y1) - std::max(b.y0, o.y0));
        return area;
    };
    float cell = 24.0f;
    for (const LabelRequest& r : requests)
        cell = std::max(cell, static_cast<float>(std::max(r.plate.width, r.plate.height)));
    const DiscGrid grid(nodes, cell);
    std::vector<LabelBox> boxes(requests.size());
    std::vector<std::size_t> placed;
    static constexpr LabelSide kSides[] = {LabelSide::UpRight,  LabelSide::UpLeft, LabelSide::DownRight,
                                           LabelSide::DownLeft, LabelSide::Right,  LabelSide::Left,
                                           LabelSide::Above,    LabelSide::Below};
    for (std::size_t i = 0; i < requests.size(); ++i) {
        const LabelRequest& r = requests[i];
        const auto fits = [&](const LabelBox& b) {
            return b.x0 >= 0 && b.y0 >= 0 && b.x1 <= static_cast<float>(width) && b.y1 <= static_cast<float>(height) &&
                   std::none_of(placed.begin(), placed.end(),
                                [&](std::size_t j) { return boxesOverlap(b, boxes[j]); }) &&
                   std::none_of(obstacles.begin(), obstacles.end(),
                                [&](const LabelBox& o) { return boxesOverlap(b, o); }) &&
                   !grid.covers(b, r.node);
        };
        const std::vector<LabelSide> sides =
            r.fixed ? std::vector<LabelSide>{r.side} : std::vector<LabelSide>(std::begin(kSides), std::end(kSides));
        // The first side that fits clear of what to avoid and of soft discs; else the fitting
        // side least over what to avoid, then over the fewest soft discs.
        std::pair<float, int> least{std::numeric_limits<float>::infinity(), 0};
        for (LabelSide side : sides)
            if (const LabelBox b = labelBoxAt(r, side); fits(b)) {
                if (const std::pair cost{overAvoided(b), grid.softCovered(b, r.node)}; cost < least) {
                    least = cost;
                    boxes[i] = b;
                }
                if (least == std::pair{0.0f, 0})
                    break;
            }
        if (boxes[i].side != LabelSide::Hidden)
            placed.push_back(i);
    }
    return boxes;
}

LabelCheck checkLabels(const std::vector<LabelBox>& boxes, const std::vector<LabelRequest>& requests,
                       const std::vector<ScreenDisc>& nodes)
{
    LabelCheck check;
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        if (boxes[i].side == LabelSide::Hidden) {
            ++check.hidden;
            continue;
        }
        ++check.shown;
        for (std::size_t j = i + 1; j < boxes.size(); ++j)
            if (boxes[j].side != LabelSide::Hidden && boxesOverlap(boxes[i], boxes[j]))
                ++check.overlaps;
        const long long own = i < requests.size() ? requests[i].node : -1;
        for (const ScreenDisc& d : nodes)
            if (!d.soft && d.node != own && boxOverDisc(boxes[i], d))
                ++check.overlaps;
    }
    return check;
}

} // namespace topocast
