#include "gifpalette.h"

namespace topocast::video::detail {

const GifPalette& gifPalette()
{
    static const GifPalette palette;
    return palette;
}

namespace {
constexpr std::array<int, 16> kBayer{0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5};
} // namespace

int bayerOffset(int x, int y)
{
    return ((2 * kBayer[static_cast<std::size_t>((y & 3) * 4 + (x & 3))] + 1) * kCubeStep) / 32 - kCubeStep / 2;
}

} // namespace topocast::video::detail
