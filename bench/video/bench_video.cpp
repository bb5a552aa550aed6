// Encode speed of topocast_video at 1280×720: frames per second for MP4 (H.264 presets, MPEG-4
// Part 2), GIF (dithered or not) and PNG. The frames imitate a rendered scene: a dark background,
// a lattice of shaded spheres and a few moving bright ones, so the encoders see gradients and
// motion, not flat colour. Run a Release build by hand: ./build-rel/bench/bench_video
#include "videoencoder.h"

extern "C" {
#include <libavutil/frame.h>
#include <libswscale/swscale.h>
}

#include <benchmark/benchmark.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

using namespace topocast::video;
namespace fs = std::filesystem;

namespace {

constexpr int kWidth = 1280, kHeight = 720, kFps = 30, kDistinct = 24;

void disc(std::vector<std::uint8_t>& px, double cx, double cy, double r, const double rgb[3])
{
    const int x0 = std::max(0, int(cx - r)), x1 = std::min(kWidth - 1, int(cx + r));
    const int y0 = std::max(0, int(cy - r)), y1 = std::min(kHeight - 1, int(cy + r));
    for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x) {
            const double dx = (x - cx) / r, dy = (y - cy) / r, d2 = dx * dx + dy * dy;
            if (d2 > 1.0)
                continue;
            const double nz = std::sqrt(1.0 - d2);
            const double light = 0.25 + 0.75 * std::max(0.0, (-0.4 * dx - 0.5 * dy + 0.77 * nz));
            std::uint8_t* p = &px[(std::size_t(y) * kWidth + x) * 4];
            for (int c = 0; c < 3; ++c)
                p[c] = static_cast<std::uint8_t>(std::min(255.0, rgb[c] * light));
        }
}

std::vector<std::vector<std::uint8_t>> makeFrames()
{
    std::vector<std::vector<std::uint8_t>> frames;
    for (int f = 0; f < kDistinct; ++f) {
        std::vector<std::uint8_t> px(std::size_t(kWidth) * kHeight * 4);
        for (int y = 0; y < kHeight; ++y)
            for (int x = 0; x < kWidth; ++x) {
                std::uint8_t* p = &px[(std::size_t(y) * kWidth + x) * 4];
                p[0] = 24, p[1] = static_cast<std::uint8_t>(26 + y / 40), p[2] = static_cast<std::uint8_t>(36 + y / 30),
                p[3] = 255;
            }
        const double grey[3] = {150, 160, 175}, red[3] = {255, 60, 40}, blue[3] = {60, 140, 255};
        for (int i = 0; i < 8; ++i)
            for (int j = 0; j < 8; ++j)
                disc(px, 300 + i * 90 + j * 12, 80 + j * 75 - i * 6, 22, (i + j + f / 4) % 5 == 0 ? blue : grey);
        for (int k = 0; k < 6; ++k)
            disc(px, 300 + k * 110 + f * 3.5, 120 + k * 80 + std::sin(f * 0.3 + k) * 20, 12, red);
        frames.push_back(std::move(px));
    }
    return frames;
}

const std::vector<std::vector<std::uint8_t>>& frames()
{
    static const auto f = makeFrames();
    return f;
}

void encodeBench(benchmark::State& state, VideoFormat format, VideoOptions options)
{
    const auto& fr = frames();
    const fs::path dir = fs::temp_directory_path() / ("topocast-bench-video-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path out = dir / (format == VideoFormat::Mp4 ? "a.mp4" : format == VideoFormat::Gif ? "a.gif" : "frames");
    const int perRun = static_cast<int>(state.range(0));
    std::string codec;
    std::uintmax_t bytes = 0;
    for (auto _ : state) {
        VideoEncoder enc;
        enc.open(out, format, kWidth, kHeight, kFps, options);
        for (int i = 0; i < perRun; ++i)
            enc.addFrame(fr[static_cast<std::size_t>(i % kDistinct)].data(), kWidth * 4);
        const VideoResult r = enc.finish();
        codec = r.codec;
        if (format != VideoFormat::PngSequence)
            bytes = fs::file_size(out);
    }
    state.SetItemsProcessed(state.iterations() * perRun);
    // Wall-clock rate: libx264 and the PNG writer use threads, so CPU time of this thread says little.
    state.counters["fps"] = benchmark::Counter(double(state.iterations() * perRun), benchmark::Counter::kIsRate);
    if (bytes)
        state.counters["KiB/frame"] = double(bytes) / 1024.0 / perRun;
    state.SetLabel(codec);
    fs::remove_all(dir);
}

VideoOptions x264(const char* preset)
{
    VideoOptions o;
    o.preset = preset;
    return o;
}

VideoOptions mpeg4()
{
    VideoOptions o;
    o.preferH264 = false;
    return o;
}

VideoOptions gif(bool dither)
{
    VideoOptions o;
    o.gifDither = dither;
    return o;
}

/// The MP4 path's pixel conversion alone (RGBA → YUV 4:2:0, BT.709, the flags the encoder uses).
void rgbaToYuv420(benchmark::State& state)
{
    const auto& fr = frames();
    SwsContext* sws =
        sws_getContext(kWidth, kHeight, AV_PIX_FMT_RGBA, kWidth, kHeight, AV_PIX_FMT_YUV420P,
                       SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT | SWS_BITEXACT, nullptr, nullptr, nullptr);
    const int* bt709 = sws_getCoefficients(SWS_CS_ITU709);
    sws_setColorspaceDetails(sws, bt709, 1, bt709, 0, 0, 1 << 16, 1 << 16);
    AVFrame* out = av_frame_alloc();
    out->format = AV_PIX_FMT_YUV420P;
    out->width = kWidth;
    out->height = kHeight;
    av_frame_get_buffer(out, 0);
    std::size_t i = 0;
    for (auto _ : state) {
        const std::uint8_t* planes[4] = {fr[i++ % kDistinct].data(), nullptr, nullptr, nullptr};
        const int strides[4] = {kWidth * 4, 0, 0, 0};
        sws_scale(sws, planes, strides, 0, kHeight, out->data, out->linesize);
    }
    state.counters["fps"] = benchmark::Counter(double(state.iterations()), benchmark::Counter::kIsRate);
    av_frame_free(&out);
    sws_freeContext(sws);
}

} // namespace

BENCHMARK(rgbaToYuv420)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(encodeBench, mp4_x264_medium, VideoFormat::Mp4, x264("medium"))
    ->Arg(60)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->UseRealTime();
BENCHMARK_CAPTURE(encodeBench, mp4_x264_veryfast, VideoFormat::Mp4, x264("veryfast"))
    ->Arg(60)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->UseRealTime();
BENCHMARK_CAPTURE(encodeBench, mp4_mpeg4, VideoFormat::Mp4, mpeg4())
    ->Arg(60)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->UseRealTime();
BENCHMARK_CAPTURE(encodeBench, gif_dither, VideoFormat::Gif, gif(true))
    ->Arg(60)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->UseRealTime();
BENCHMARK_CAPTURE(encodeBench, gif_plain, VideoFormat::Gif, gif(false))
    ->Arg(60)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->UseRealTime();
BENCHMARK_CAPTURE(encodeBench, png, VideoFormat::PngSequence, VideoOptions{})
    ->Arg(30)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->UseRealTime();

BENCHMARK_MAIN();
