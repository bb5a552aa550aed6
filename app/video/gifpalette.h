#pragma once
// The GIF export's fixed 256-colour palette and its ordered dithering (videoencoder.cpp's GIF path).

#include <array>
#include <cstdint>
#include <vector>

namespace topocast::video::detail {

// ---- GIF palette ----------------------------------------------------------------------------
// A fixed palette rather than a per-animation one: frames arrive one at a time and are not kept
// (300 frames of 1280×720 would be a gigabyte), so no two-pass palettegen. The 6×6×6 colour cube
// (levels 0, 51, …, 255) gives every scheme colour within 25 per channel, and a ramp of 40 extra
// greys keeps backgrounds, text and grey shading smooth. 216 + 40 = 256 entries.

constexpr int kCubeStep = 51;

struct GifPalette {
    std::array<std::uint32_t, 256> argb{}; // AV_PIX_FMT_PAL8 palette: 0xAARRGGBB native-endian
    std::array<std::array<std::uint8_t, 3>, 256> rgb{};
    std::vector<std::uint8_t> lut; // 32×32×32 (5 bits a channel) → palette index

    GifPalette()
    {
        int n = 0;
        auto add = [&](int r, int g, int b) {
            rgb[static_cast<std::size_t>(n)] = {static_cast<std::uint8_t>(r), static_cast<std::uint8_t>(g),
                                                static_cast<std::uint8_t>(b)};
            argb[static_cast<std::size_t>(n)] = 0xFF000000u | (static_cast<std::uint32_t>(r) << 16) |
                                                (static_cast<std::uint32_t>(g) << 8) | static_cast<std::uint32_t>(b);
            ++n;
        };
        for (int r = 0; r < 6; ++r)
            for (int g = 0; g < 6; ++g)
                for (int b = 0; b < 6; ++b)
                    add(r * kCubeStep, g * kCubeStep, b * kCubeStep);
        // 40 greys between the cube's six: 8 in each of the five gaps of 51.
        for (int gap = 0; gap < 5; ++gap)
            for (int k = 1; k <= 8; ++k) {
                const int v = gap * kCubeStep + (k * kCubeStep + 4) / 9;
                add(v, v, v);
            }
        lut.resize(32 * 32 * 32);
        for (int r = 0; r < 32; ++r)
            for (int g = 0; g < 32; ++g)
                for (int b = 0; b < 32; ++b) {
                    // Centre of the 8-wide bucket.
                    const int cr = r * 8 + 4, cg = g * 8 + 4, cb = b * 8 + 4;
                    int best = 0;
                    int bestD = 1 << 30;
                    for (int i = 0; i < 256; ++i) {
                        const auto& p = rgb[static_cast<std::size_t>(i)];
                        const int dr = cr - p[0], dg = cg - p[1], db = cb - p[2];
                        const int d = 2 * dr * dr + 4 * dg * dg + db * db; // green weighs most
                        if (d < bestD) {
                            bestD = d;
                            best = i;
                        }
                    }
                    lut[static_cast<std::size_t>((r << 10) | (g << 5) | b)] = static_cast<std::uint8_t>(best);
                }
    }

    std::uint8_t index(int r, int g, int b) const
    {
        return lut[static_cast<std::size_t>(((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3))];
    }
};

/// The palette, built once (a 32 KiB lookup table).
const GifPalette& gifPalette();

/// The 4×4 Bayer matrix at (x, y), scaled to an offset in (−kCubeStep/2, +kCubeStep/2).
int bayerOffset(int x, int y);

} // namespace topocast::video::detail
