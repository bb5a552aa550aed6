#pragma once
// Test helpers shared by the video encoder tests and the app's export tests: decode a file with
// libavformat/libavcodec (what a viewer would see), compare colours; and the temporary folder
// of tests/core/temp_dir.h.

#include "temp_dir.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libswscale/swscale.h>
}

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

namespace topocast::testing {

namespace fs = std::filesystem;

using Rgb = std::array<int, 3>;

struct Decoded {
    int width = 0, height = 0;
    std::string codec;
    std::int64_t containerFrames = 0;              // AVStream::nb_frames (0 if the container does not say)
    double packetSeconds = 0.0;                    // Σ packet durations
    std::vector<std::vector<std::uint8_t>> frames; // RGBA, tightly packed

    Rgb pixel(std::size_t frame, int x, int y) const
    {
        const std::uint8_t* p = &frames[frame][(static_cast<std::size_t>(y) * width + x) * 4];
        return {p[0], p[1], p[2]};
    }
};

/// Decodes every frame of a file with libavformat + libavcodec, converted to RGBA with the
/// colour matrix and range the stream is tagged with.
inline Decoded decodeFile(const fs::path& path)
{
    Decoded out;
    AVFormatContext* fmt = nullptr;
    REQUIRE(avformat_open_input(&fmt, path.c_str(), nullptr, nullptr) == 0);
    REQUIRE(avformat_find_stream_info(fmt, nullptr) >= 0);
    const AVCodec* codec = nullptr;
    const int si = av_find_best_stream(fmt, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
    REQUIRE(si >= 0);
    AVStream* st = fmt->streams[si];
    out.codec = codec->name;
    out.containerFrames = st->nb_frames;
    AVCodecContext* dec = avcodec_alloc_context3(codec);
    REQUIRE(avcodec_parameters_to_context(dec, st->codecpar) == 0);
    REQUIRE(avcodec_open2(dec, codec, nullptr) == 0);
    out.width = dec->width;
    out.height = dec->height;

    AVPacket* pkt = av_packet_alloc();
    AVFrame* frame = av_frame_alloc();
    SwsContext* sws = nullptr;
    auto receive = [&] {
        while (avcodec_receive_frame(dec, frame) == 0) {
            if (!sws) {
                sws = sws_getContext(frame->width, frame->height, static_cast<AVPixelFormat>(frame->format),
                                     frame->width, frame->height, AV_PIX_FMT_RGBA,
                                     SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, nullptr, nullptr, nullptr);
                REQUIRE(sws);
                if (frame->colorspace == AVCOL_SPC_BT709) {
                    const int* bt709 = sws_getCoefficients(SWS_CS_ITU709);
                    sws_setColorspaceDetails(sws, bt709, frame->color_range == AVCOL_RANGE_JPEG, bt709, 1, 0, 1 << 16,
                                             1 << 16);
                }
            }
            std::vector<std::uint8_t> rgba(static_cast<std::size_t>(frame->width) * frame->height * 4);
            std::uint8_t* dst[4] = {rgba.data(), nullptr, nullptr, nullptr};
            const int dstStride[4] = {frame->width * 4, 0, 0, 0};
            sws_scale(sws, frame->data, frame->linesize, 0, frame->height, dst, dstStride);
            out.frames.push_back(std::move(rgba));
        }
    };
    while (av_read_frame(fmt, pkt) >= 0) {
        if (pkt->stream_index == si) {
            out.packetSeconds += static_cast<double>(pkt->duration) * av_q2d(st->time_base);
            REQUIRE(avcodec_send_packet(dec, pkt) == 0);
            receive();
        }
        av_packet_unref(pkt);
    }
    avcodec_send_packet(dec, nullptr);
    receive();
    sws_freeContext(sws);
    av_frame_free(&frame);
    av_packet_free(&pkt);
    avcodec_free_context(&dec);
    avformat_close_input(&fmt);
    return out;
}

inline bool near(const Rgb& a, const Rgb& b, int tolerance)
{
    for (int c = 0; c < 3; ++c)
        if (std::abs(a[static_cast<std::size_t>(c)] - b[static_cast<std::size_t>(c)]) > tolerance)
            return false;
    return true;
}

inline std::string show(const Rgb& c)
{
    return "(" + std::to_string(c[0]) + "," + std::to_string(c[1]) + "," + std::to_string(c[2]) + ")";
}

struct SubtitlePacket {
    std::int64_t pts = 0;      // in frames
    std::int64_t duration = 0; // in frames
    std::string text;          // mov_text sample: 16-bit big-endian length, then UTF-8 text
};

struct SubtitleTrack {
    int streams = 0;
    std::string codec;
    std::string language;
    std::vector<SubtitlePacket> packets;
};

/// What a player's demuxer sees of the subtitle stream (libavformat, as ffprobe reads it).
inline SubtitleTrack readSubtitles(const fs::path& path, int fps)
{
    SubtitleTrack out;
    AVFormatContext* fmt = nullptr;
    REQUIRE(avformat_open_input(&fmt, path.c_str(), nullptr, nullptr) == 0);
    REQUIRE(avformat_find_stream_info(fmt, nullptr) >= 0);
    out.streams = static_cast<int>(fmt->nb_streams);
    int si = -1;
    for (unsigned i = 0; i < fmt->nb_streams; ++i)
        if (fmt->streams[i]->codecpar->codec_type == AVMEDIA_TYPE_SUBTITLE)
            si = static_cast<int>(i);
    if (si >= 0) {
        AVStream* st = fmt->streams[si];
        out.codec = avcodec_get_name(st->codecpar->codec_id);
        if (const AVDictionaryEntry* e = av_dict_get(st->metadata, "language", nullptr, 0))
            out.language = e->value;
        AVPacket* p = av_packet_alloc();
        while (av_read_frame(fmt, p) >= 0) {
            if (p->stream_index == si) {
                SubtitlePacket sp;
                sp.pts = av_rescale_q(p->pts, st->time_base, AVRational{1, fps});
                sp.duration = av_rescale_q(p->duration, st->time_base, AVRational{1, fps});
                if (p->size >= 2) {
                    const std::size_t len = (static_cast<std::size_t>(p->data[0]) << 8) | p->data[1];
                    sp.text.assign(reinterpret_cast<const char*>(p->data + 2), std::min<std::size_t>(len, p->size - 2));
                }
                out.packets.push_back(sp);
            }
            av_packet_unref(p);
        }
        av_packet_free(&p);
    }
    avformat_close_input(&fmt);
    return out;
}

} // namespace topocast::testing
