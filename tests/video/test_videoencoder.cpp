#include "videoencoder.h"

#include "decode.h"

#include <catch2/catch.hpp>

#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

using namespace topocast::video;
using namespace topocast::testing;
namespace fs = std::filesystem;

namespace {

// Colours of the synthetic scene: all on the GIF palette's 6×6×6 cube.
constexpr Rgb kBackground{0, 51, 153};
constexpr Rgb kSquare{255, 0, 0};
constexpr Rgb kStripe{0, 204, 0};
constexpr int kSquareSide = 32;

/// Frame `i`: background, a green stripe along the top 16 rows (pins orientation), and a red
/// square whose left edge moves 4 pixels a frame.
std::vector<std::uint8_t> drawFrame(int w, int h, int i, bool bgra = false)
{
    std::vector<std::uint8_t> px(static_cast<std::size_t>(w) * h * 4);
    const int sx = 8 + 4 * i, sy = h / 2 - kSquareSide / 2;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            Rgb c = kBackground;
            if (y < 16)
                c = kStripe;
            if (x >= sx && x < sx + kSquareSide && y >= sy && y < sy + kSquareSide)
                c = kSquare;
            std::uint8_t* p = &px[(static_cast<std::size_t>(y) * w + x) * 4];
            p[0] = static_cast<std::uint8_t>(bgra ? c[2] : c[0]);
            p[1] = static_cast<std::uint8_t>(c[1]);
            p[2] = static_cast<std::uint8_t>(bgra ? c[0] : c[2]);
            p[3] = 255;
        }
    return px;
}

/// Encodes `frames` synthetic frames and returns what finish() said.
VideoResult encode(const fs::path& path, VideoFormat format, int w, int h, int fps, int frames,
                   const VideoOptions& options = {})
{
    VideoEncoder enc;
    enc.open(path, format, w, h, fps, options);
    for (int i = 0; i < frames; ++i) {
        const auto px = drawFrame(w, h, i, options.input == PixelLayout::Bgra);
        enc.addFrame(px.data(), w * 4);
    }
    CHECK(enc.frameCount() == frames);
    return enc.finish();
}

/// Checks the moving square, the stripe and the background in every decoded frame.
void checkPixels(const Decoded& d, int tolerance)
{
    for (std::size_t i = 0; i < d.frames.size(); ++i) {
        const int sx = 8 + 4 * static_cast<int>(i), sy = d.height / 2 - kSquareSide / 2;
        const Rgb inSquare = d.pixel(i, sx + kSquareSide / 2, sy + kSquareSide / 2);
        const Rgb left = d.pixel(i, sx - 6, sy + kSquareSide / 2); // background just left of it
        const Rgb stripe = d.pixel(i, d.width / 2, 6);
        const Rgb corner = d.pixel(i, d.width - 4, d.height - 4);
        INFO("frame " << i << ": square " << show(inSquare) << ", left " << show(left) << ", stripe " << show(stripe)
                      << ", corner " << show(corner));
        CHECK(near(inSquare, kSquare, tolerance));
        CHECK(near(left, kBackground, tolerance));
        CHECK(near(stripe, kStripe, tolerance));
        CHECK(near(corner, kBackground, tolerance));
    }
}

std::string readBytes(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

TEST_CASE("MP4: frame count, size, duration and the square's colour survive H.264 (or MPEG-4) encoding", "[video][mp4]")
{
    const bool h264 = GENERATE(true, false);
    TempDir dir;
    const fs::path file = dir.path / "anim.mp4";
    VideoOptions options;
    options.preferH264 = h264;
    const VideoResult r = encode(file, VideoFormat::Mp4, 192, 128, 24, 24, options);
    const bool x264 = h264 && VideoEncoder::hasH264();
    CAPTURE(r.codec);
    CHECK(r.codec == (x264 ? "H.264 (libx264)" : "MPEG-4 Part 2 (mpeg4)"));
    CHECK(r.frames == 24);
    CHECK(r.seconds == Approx(1.0));
    CHECK(dir.entries() == 1); // the file and no temporary

    const Decoded d = decodeFile(file);
    CHECK(d.codec == (x264 ? "h264" : "mpeg4"));
    CHECK(d.width == 192);
    CHECK(d.height == 128);
    CHECK(d.frames.size() == 24);
    CHECK(d.containerFrames == 24);
    CHECK(d.packetSeconds == Approx(1.0).margin(1e-6));
    // Lossy 4:2:0: flat areas come back within 24 per channel (state the tolerance: crf 20,
    // MPEG-4 q 3; sampled 6+ pixels from any edge, so chroma subsampling does not blur them).
    checkPixels(d, 24);
}

TEST_CASE("GIF: frame count, size, 1/100 s timing and palette colours", "[video][gif]")
{
    const bool dither = GENERATE(true, false);
    TempDir dir;
    const fs::path file = dir.path / "anim.gif";
    VideoOptions options;
    options.gifDither = dither;
    const VideoResult r = encode(file, VideoFormat::Gif, 160, 100, 25, 20, options);
    CHECK(r.codec == "GIF (gif)");
    const Decoded d = decodeFile(file);
    CHECK(d.codec == "gif");
    CHECK(d.width == 160);
    CHECK(d.height == 100);
    CHECK(d.frames.size() == 20);
    // GIF delays are centiseconds: at 25 fps every frame is exactly 4/100 s.
    CHECK(d.packetSeconds == Approx(20.0 / 25.0).margin(1e-6));
    // Colours on the palette's cube come back exactly, dithered or not.
    checkPixels(d, 0);
}

TEST_CASE("GIF: a colour off the palette lands within one cube step (dithered within 51)", "[video][gif]")
{
    TempDir dir;
    const fs::path file = dir.path / "grey.gif";
    const int w = 64, h = 32;
    for (bool dither : {false, true}) {
        VideoOptions options;
        options.gifDither = dither;
        VideoEncoder enc;
        enc.open(file, VideoFormat::Gif, w, h, 10, options);
        std::vector<std::uint8_t> px(static_cast<std::size_t>(w) * h * 4);
        for (int x = 0; x < w; ++x)
            for (int y = 0; y < h; ++y) {
                std::uint8_t* p = &px[(static_cast<std::size_t>(y) * w + x) * 4];
                p[0] = 200, p[1] = 120, p[2] = 40, p[3] = 255;
            }
        enc.addFrame(px.data(), w * 4);
        enc.finish();
        const Decoded d = decodeFile(file);
        REQUIRE(d.frames.size() == 1);
        double mean[3] = {0, 0, 0};
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                const Rgb c = d.pixel(0, x, y);
                CHECK(near(c, {200, 120, 40}, dither ? 51 : 26));
                for (int k = 0; k < 3; ++k)
                    mean[k] += c[static_cast<std::size_t>(k)] / double(w * h);
            }
        if (dither) {
            // Ordered dithering keeps the average colour within 8 per channel.
            CHECK(std::abs(mean[0] - 200) < 8);
            CHECK(std::abs(mean[1] - 120) < 8);
            CHECK(std::abs(mean[2] - 40) < 8);
        }
    }
}

TEST_CASE("PNG sequence: numbered files, lossless pixels, BGRA and bottom-up input", "[video][png]")
{
    TempDir dir;
    const int w = 90, h = 70;
    SECTION("RGBA top-down into a new folder")
    {
        const fs::path frames = dir.path / "frames";
        const VideoResult r = encode(frames, VideoFormat::PngSequence, w, h, 30, 5);
        CHECK(r.path == frames);
        CHECK(r.codec == "PNG (png)");
        CHECK(dir.entries() == 1);
        for (int i = 1; i <= 5; ++i) {
            const fs::path f = frames / VideoEncoder::frameFileName(i);
            REQUIRE(fs::exists(f));
            const Decoded d = decodeFile(f);
            REQUIRE(d.frames.size() == 1);
            CHECK(d.width == w);
            CHECK(d.height == h);
            const auto expected = drawFrame(w, h, i - 1);
            CHECK(d.frames[0] == expected); // lossless, alpha 255
        }
        CHECK(!fs::exists(frames / VideoEncoder::frameFileName(6)));
        CHECK((fs::status(frames / VideoEncoder::frameFileName(1)).permissions() & fs::perms::others_read) !=
              fs::perms::none);
    }
    SECTION("BGRA, bottom-up (negative stride) into an existing folder")
    {
        const fs::path frames = dir.path / "out";
        fs::create_directory(frames);
        std::ofstream(frames / "notes.txt") << "kept";
        VideoOptions options;
        options.input = PixelLayout::Bgra;
        VideoEncoder enc;
        enc.open(frames / "", VideoFormat::PngSequence, w, h, 30, options);
        for (int i = 0; i < 3; ++i) {
            // Store the frame upside down, then hand the encoder its last row and a negative stride.
            const auto topDown = drawFrame(w, h, i, true);
            std::vector<std::uint8_t> bottomUp(topDown.size());
            for (int y = 0; y < h; ++y)
                std::copy_n(&topDown[static_cast<std::size_t>(y) * w * 4], w * 4,
                            &bottomUp[static_cast<std::size_t>(h - 1 - y) * w * 4]);
            enc.addFrame(bottomUp.data() + static_cast<std::size_t>(h - 1) * w * 4, -w * 4);
        }
        enc.finish();
        CHECK(readBytes(frames / "notes.txt") == "kept");
        CHECK(dir.entries() == 1);
        for (int i = 1; i <= 3; ++i) {
            const Decoded d = decodeFile(frames / VideoEncoder::frameFileName(i));
            CHECK(d.frames.at(0) == drawFrame(w, h, i - 1));
        }
    }
}

TEST_CASE("encoding the same frames twice gives byte-identical MP4, GIF and PNG files", "[video][determinism]")
{
    TempDir dir;
    for (VideoFormat f : {VideoFormat::Mp4, VideoFormat::Gif, VideoFormat::PngSequence}) {
        const std::string ext = f == VideoFormat::Mp4 ? ".mp4" : f == VideoFormat::Gif ? ".gif" : "";
        const fs::path a = dir.path / ("a" + ext), b = dir.path / ("b" + ext);
        encode(a, f, 128, 96, 30, 12);
        encode(b, f, 128, 96, 30, 12);
        if (f == VideoFormat::PngSequence) {
            CHECK(readBytes(a / VideoEncoder::frameFileName(7)) == readBytes(b / VideoEncoder::frameFileName(7)));
        } else {
            const std::string x = readBytes(a), y = readBytes(b);
            CHECK(!x.empty());
            CHECK(x == y);
        }
    }
}

TEST_CASE("cancel, failure and an unfinished encoder leave nothing behind and keep the old file", "[video][atomic]")
{
    TempDir dir;
    const fs::path file = dir.path / "talk.mp4";
    std::ofstream(file) << "old";
    const auto px = drawFrame(64, 48, 0);
    SECTION("cancel()")
    {
        VideoEncoder enc;
        enc.open(file, VideoFormat::Mp4, 64, 48, 10);
        CHECK(dir.entries() == 1); // the old file only: the new one has no name until finish() (O_TMPFILE)
        enc.addFrame(px.data(), 64 * 4);
        enc.cancel();
        CHECK(!enc.isOpen());
        CHECK(dir.entries() == 1);
        CHECK(readBytes(file) == "old");
        CHECK_THROWS_AS(enc.addFrame(px.data(), 64 * 4), VideoError);
    }
    SECTION("destroyed without finish()")
    {
        {
            VideoEncoder enc;
            enc.open(file, VideoFormat::Gif, 64, 48, 10);
            enc.addFrame(px.data(), 64 * 4);
        }
        CHECK(dir.entries() == 1);
        CHECK(readBytes(file) == "old");
    }
    SECTION("a PNG sequence cancelled leaves no folder")
    {
        VideoEncoder enc;
        enc.open(dir.path / "frames", VideoFormat::PngSequence, 64, 48, 10);
        enc.addFrame(px.data(), 64 * 4);
        enc.cancel();
        CHECK(!fs::exists(dir.path / "frames"));
        CHECK(dir.entries() == 1);
    }
    SECTION("bad input is refused with a message naming it")
    {
        VideoEncoder enc;
        CHECK_THROWS_WITH(enc.open(file, VideoFormat::Mp4, 65, 48, 10),
                          Catch::Contains("even") && Catch::Contains("65"));
        CHECK_THROWS_WITH(enc.open(file, VideoFormat::Gif, 0, 48, 10), Catch::Contains("0×48"));
        CHECK_THROWS_WITH(enc.open(file, VideoFormat::Gif, 64, 48, 0), Catch::Contains("frame rate 0"));
        CHECK_THROWS_WITH(enc.open(dir.path / "missing" / "x.gif", VideoFormat::Gif, 64, 48, 10),
                          Catch::Contains("temporary"));
        enc.open(file, VideoFormat::Gif, 64, 48, 10);
        CHECK_THROWS_WITH(enc.addFrame(px.data(), 10), Catch::Contains("stride 10"));
        CHECK(!enc.isOpen()); // a failed frame cancels the encode
        enc.open(file, VideoFormat::Gif, 64, 48, 10);
        CHECK_THROWS_WITH(enc.finish(), Catch::Contains("no frames"));
        CHECK(dir.entries() == 1);
        CHECK(readBytes(file) == "old");
    }
}

TEST_CASE("format helpers", "[video]")
{
    CHECK(VideoEncoder::formatForPath("a/anim.MP4") == VideoFormat::Mp4);
    CHECK(VideoEncoder::formatForPath("anim.gif") == VideoFormat::Gif);
    CHECK(VideoEncoder::formatForPath("frames/") == VideoFormat::PngSequence);
    CHECK(VideoEncoder::parseFormat("png") == VideoFormat::PngSequence);
    CHECK_THROWS_WITH(VideoEncoder::parseFormat("avi"), Catch::Contains("mp4, gif or png"));
    CHECK(VideoEncoder::frameFileName(12) == "frame_00012.png");
}

TEST_CASE("MP4 captions: a mov_text subtitle stream with one packet per caption at its frames", "[video][captions]")
{
    TempDir dir;
    VideoOptions o;
    // Three captions over 12 frames at 10 fps: frames 0–3, 4–7, 8–11 (0.4 s each).
    o.captions = {{0, 4, "Step 1: (0,0) sends to (2,0), 2 hops"},
                  {4, 8, "Step 2: two sends — TCD so far 6"},
                  {8, 12, "Step 3 <&>"}};
    const fs::path path = dir.path / "c.mp4";
    const VideoResult r = encode(path, VideoFormat::Mp4, 128, 96, 10, 12, o);
    CHECK(r.captions == 3);
    const SubtitleTrack t = readSubtitles(path, 10);
    CHECK(t.streams == 2);
    CHECK(t.codec == "mov_text");
    CHECK(t.language == "eng");
    // FFmpeg's MP4 muxer puts an empty, zero-length sample where a caption ends (a player clears
    // the text there); the captions themselves are the samples with text.
    std::vector<SubtitlePacket> shown;
    for (const SubtitlePacket& p : t.packets) {
        if (p.text.empty())
            CHECK(p.duration == 0);
        else
            shown.push_back(p);
    }
    REQUIRE(shown.size() == 3);
    for (std::size_t i = 0; i < 3; ++i) {
        INFO("caption " << i);
        CHECK(shown[i].pts == o.captions[i].firstFrame);
        CHECK(shown[i].duration == o.captions[i].endFrame - o.captions[i].firstFrame);
        CHECK(shown[i].text == o.captions[i].text);
    }
    // The video is untouched by the extra stream.
    const Decoded d = decodeFile(path);
    CHECK(d.frames.size() == 12);

    // Deterministic with the subtitle stream too.
    const fs::path again = dir.path / "again.mp4";
    encode(again, VideoFormat::Mp4, 128, 96, 10, 12, o);
    CHECK(readBytes(path) == readBytes(again));

    // No captions: one stream. Captions are ignored for GIF.
    encode(dir.path / "plain.mp4", VideoFormat::Mp4, 128, 96, 10, 12);
    CHECK(readSubtitles(dir.path / "plain.mp4", 10).streams == 1);
    CHECK(encode(dir.path / "g.gif", VideoFormat::Gif, 128, 96, 10, 12, o).captions == 0);

    // Captions out of order are refused before anything is written.
    VideoOptions bad;
    bad.captions = {{4, 8, "b"}, {0, 4, "a"}};
    VideoEncoder enc;
    CHECK_THROWS_WITH(enc.open(dir.path / "bad.mp4", VideoFormat::Mp4, 128, 96, 10, bad),
                      Catch::Contains("caption 2 (frames 0..4) is out of order"));
    CHECK_FALSE(fs::exists(dir.path / "bad.mp4"));
}
