#include "videoencoder.h"

#include "gifpalette.h"

#include "topocast/io/atomic_file.h"
#include "topocast/model/error.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <system_error>
#include <vector>

#include <sys/stat.h>

namespace topocast::video {

namespace fs = std::filesystem;
using detail::bayerOffset;
using detail::GifPalette;
using detail::gifPalette;

namespace {

std::string averror(int code)
{
    std::array<char, AV_ERROR_MAX_STRING_SIZE> buf{};
    av_strerror(code, buf.data(), buf.size());
    return buf.data();
}

/// Throws VideoError unless `width` × `height` at `fps` suits `format`.
void checkFrameSize(const fs::path& path, VideoFormat format, int width, int height, int fps)
{
    if (width < 1 || height < 1 || width > 16384 || height > 16384)
        throw VideoError(path.string() + ": frame size " + std::to_string(width) + "×" + std::to_string(height) +
                         " is out of range; each side must be 1..16384 pixels");
    if (fps < 1 || fps > 240)
        throw VideoError(path.string() + ": frame rate " + std::to_string(fps) + " is out of range 1..240");
    if (format == VideoFormat::Mp4 && (width % 2 || height % 2))
        throw VideoError(path.string() + ": MP4 needs an even width and height (4:2:0 chroma); got " +
                         std::to_string(width) + "×" + std::to_string(height));
}

} // namespace

// ---- state ----------------------------------------------------------------------------------

struct VideoEncoder::State {
    fs::path target;
    fs::path temporary;                 // the folder of PNG frames (a hidden temporary)
    std::optional<PendingFile> pending; // MP4/GIF: the file, unnamed until finish()
    VideoFormat format = VideoFormat::Mp4;
    VideoOptions options;
    int width = 0, height = 0, fps = 0;
    int frames = 0;
    std::string codec;
    bool open = false;
    bool headerWritten = false; // the muxer holds state until av_write_trailer()

    AVFormatContext* fmt = nullptr;
    AVCodecContext* enc = nullptr;
    AVStream* stream = nullptr;
    AVCodecContext* subEnc = nullptr; // MP4 captions: the mov_text encoder
    AVStream* subStream = nullptr;
    std::size_t nextCaption = 0; // the first caption not yet muxed
    int captionsMuxed = 0;
    AVFrame* frame = nullptr;
    AVPacket* packet = nullptr;
    SwsContext* sws = nullptr;

    ~State() { release(); }

    void release() noexcept
    {
        sws_freeContext(sws);
        sws = nullptr;
        av_packet_free(&packet);
        av_frame_free(&frame);
        avcodec_free_context(&enc);
        avcodec_free_context(&subEnc);
        subStream = nullptr;
        nextCaption = 0;
        if (fmt && headerWritten) {
            // Some muxers free their state only in the trailer (FFmpeg 5.1's GIF muxer keeps the
            // previous packet until then, and has no deinit): write it into the temporary, which
            // a cancel deletes anyway, so nothing leaks.
            av_write_trailer(fmt);
        }
        headerWritten = false;
        if (fmt) {
            if (fmt->pb)
                avio_closep(&fmt->pb);
            avformat_free_context(fmt);
            fmt = nullptr;
        }
        stream = nullptr;
    }

    void removeTemporary() noexcept
    {
        std::error_code ec;
        if (pending)
            pending.reset(); // an unnamed file: closing it is removing it
        else if (!temporary.empty())
            fs::remove_all(temporary, ec);
        temporary.clear();
    }

    [[noreturn]] void fail(const std::string& what, int code = 0)
    {
        abandon(target.string() + ": " + what + (code ? " (" + averror(code) + ")" : std::string()) +
                "; nothing was written");
    }

    /// Closes the encode, removes the temporary and throws `message` as a VideoError.
    [[noreturn]] void abandon(const std::string& message)
    {
        release();
        removeTemporary();
        open = false;
        throw VideoError(message);
    }

    AVPixelFormat inputFormat() const { return options.input == PixelLayout::Bgra ? AV_PIX_FMT_BGRA : AV_PIX_FMT_RGBA; }

    /// Sends `f` (nullptr: flush) and muxes or writes every packet that comes out.
    void drain(AVFrame* f)
    {
        int rc = avcodec_send_frame(enc, f);
        if (rc < 0)
            fail("the " + codec + " encoder refused a frame", rc);
        for (;;) {
            rc = avcodec_receive_packet(enc, packet);
            if (rc == AVERROR(EAGAIN) || rc == AVERROR_EOF)
                return;
            if (rc < 0)
                fail("the " + codec + " encoder failed", rc);
            if (format == VideoFormat::PngSequence) {
                const int index = static_cast<int>(packet->pts) + 1;
                try {
                    writeFileAtomic(temporary / frameFileName(index), {reinterpret_cast<const char*>(packet->data),
                                                                       static_cast<std::size_t>(packet->size)});
                } catch (const Error& e) {
                    av_packet_unref(packet);
                    fail(e.what());
                }
                av_packet_unref(packet);
                continue;
            }
            av_packet_rescale_ts(packet, enc->time_base, stream->time_base);
            packet->stream_index = stream->index;
            rc = av_interleaved_write_frame(fmt, packet); // takes the packet's reference
            if (rc < 0)
                fail("cannot write to the temporary file " + temporary.string(), rc);
        }
    }

    /// Muxes the captions that start at or before frame `frame` (their first frame is being added).
    void muxCaptions(int frameIndex)
    {
        if (!subEnc)
            return;
        while (nextCaption < options.captions.size() && options.captions[nextCaption].firstFrame <= frameIndex) {
            const Caption& c = options.captions[nextCaption++];
            // One ASS dialogue event, as libavcodec's text subtitle encoders take it:
            // "ReadOrder,Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text"; line breaks as \N,
            // braces (ASS override blocks) dropped.
            std::string ass = "0,0,Default,,0,0,0,,";
            for (char ch : c.text) {
                if (ch == '\n')
                    ass += "\\N";
                else if (ch != '\r' && ch != '{' && ch != '}')
                    ass += ch;
            }
            AVSubtitleRect rect{};
            rect.type = SUBTITLE_ASS;
            rect.ass = ass.data();
            AVSubtitleRect* rects[1] = {&rect};
            AVSubtitle sub{};
            sub.num_rects = 1;
            sub.rects = rects;
            sub.start_display_time = 0; // the packet carries the timing
            sub.end_display_time = static_cast<std::uint32_t>(
                av_rescale_q(c.endFrame - c.firstFrame, AVRational{1, fps}, AVRational{1, 1000}));
            std::vector<std::uint8_t> buf(ass.size() * 2 + 1024);
            const int size = avcodec_encode_subtitle(subEnc, buf.data(), static_cast<int>(buf.size()), &sub);
            if (size < 0)
                fail("the mov_text encoder refused the caption of frame " + std::to_string(c.firstFrame), size);
            AVPacket* p = av_packet_alloc();
            if (!p || av_new_packet(p, size) < 0) {
                av_packet_free(&p);
                fail("out of memory");
            }
            std::memcpy(p->data, buf.data(), static_cast<std::size_t>(size));
            p->pts = p->dts = c.firstFrame;
            p->duration = c.endFrame - c.firstFrame;
            p->flags |= AV_PKT_FLAG_KEY;
            av_packet_rescale_ts(p, AVRational{1, fps}, subStream->time_base);
            p->stream_index = subStream->index;
            const int rc = av_interleaved_write_frame(fmt, p); // takes the packet's reference
            av_packet_free(&p);
            if (rc < 0)
                fail("cannot write a caption to the temporary file", rc);
            ++captionsMuxed;
        }
    }

    // ---- the steps of open() ----------------------------------------------------------------

    /// MP4 with captions: checks them and opens the mov_text encoder and its stream.
    void createCaptionStream()
    {
        if (format != VideoFormat::Mp4 || options.captions.empty())
            return;
        int previous = 0;
        for (std::size_t i = 0; i < options.captions.size(); ++i) {
            const Caption& c = options.captions[i];
            if (c.firstFrame < previous || c.endFrame < c.firstFrame)
                fail("caption " + std::to_string(i + 1) + " (frames " + std::to_string(c.firstFrame) + ".." +
                     std::to_string(c.endFrame) + ") is out of order or ends before it starts");
            previous = c.firstFrame;
        }
        const AVCodec* movText = avcodec_find_encoder(AV_CODEC_ID_MOV_TEXT);
        if (!movText)
            fail("this FFmpeg has no mov_text subtitle encoder");
        subEnc = avcodec_alloc_context3(movText);
        if (!subEnc)
            fail("out of memory");
        subEnc->time_base = AVRational{1, fps};
        // The text encoders read their styles from an ASS header (libavcodec's default one).
        static const char kAssHeader[] =
            "[Script Info]\r\nScriptType: v4.00+\r\nPlayResX: 384\r\nPlayResY: 288\r\n"
            "ScaledBorderAndShadow: yes\r\n\r\n[V4+ Styles]\r\n"
            "Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, "
            "Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, "
            "MarginL, MarginR, MarginV, Encoding\r\n"
            "Style: Default,Arial,16,&Hffffff,&Hffffff,&H0,&H0,0,0,0,0,100,100,0,0,1,1,0,2,10,10,10,0\r\n\r\n"
            "[Events]\r\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\r\n";
        subEnc->subtitle_header = static_cast<std::uint8_t*>(av_mallocz(sizeof kAssHeader));
        if (!subEnc->subtitle_header)
            fail("out of memory");
        std::memcpy(subEnc->subtitle_header, kAssHeader, sizeof kAssHeader);
        subEnc->subtitle_header_size = static_cast<int>(sizeof kAssHeader - 1);
        subEnc->flags |= AV_CODEC_FLAG_BITEXACT;
        int rc = avcodec_open2(subEnc, movText, nullptr);
        if (rc < 0)
            fail("cannot open the mov_text subtitle encoder", rc);
        subStream = avformat_new_stream(fmt, nullptr);
        if (!subStream)
            fail("cannot add a subtitle stream");
        rc = avcodec_parameters_from_context(subStream->codecpar, subEnc);
        if (rc < 0)
            fail("cannot set the subtitle stream parameters", rc);
        subStream->time_base = AVRational{1, fps};
        av_dict_set(&subStream->metadata, "language", "eng", 0);
    }

    struct CodecChoice {
        const AVCodec* codec = nullptr;
        AVPixelFormat pixels = AV_PIX_FMT_YUV420P;
    };

    /// The encoder for `format` and the pixel format it takes; names it in `codec`. MP4 is
    /// libx264 where wanted and present, else MPEG-4 Part 2.
    CodecChoice chooseCodec()
    {
        CodecChoice c;
        switch (format) {
        case VideoFormat::Mp4:
            if (options.preferH264)
                c.codec = avcodec_find_encoder_by_name("libx264");
            if (c.codec) {
                codec = "H.264 (libx264)";
            } else {
                c.codec = avcodec_find_encoder(AV_CODEC_ID_MPEG4);
                codec = "MPEG-4 Part 2 (mpeg4)";
            }
            break;
        case VideoFormat::Gif:
            c.codec = avcodec_find_encoder(AV_CODEC_ID_GIF);
            c.pixels = AV_PIX_FMT_PAL8;
            codec = "GIF (gif)";
            break;
        case VideoFormat::PngSequence:
            c.codec = avcodec_find_encoder(AV_CODEC_ID_PNG);
            c.pixels = options.pngAlpha ? AV_PIX_FMT_RGBA : AV_PIX_FMT_RGB24;
            codec = "PNG (png)";
            break;
        }
        if (!c.codec)
            fail("this FFmpeg has no " + codec + " encoder");
        return c;
    }

    /// MP4 / GIF: the muxer writing to the temporary, with one video stream.
    void createMuxer()
    {
        const char* muxer = format == VideoFormat::Mp4 ? "mp4" : "gif";
        const int rc = avformat_alloc_output_context2(&fmt, nullptr, muxer, temporary.c_str());
        if (rc < 0 || !fmt)
            fail(std::string("cannot set up the ") + muxer + " muxer", rc);
        stream = avformat_new_stream(fmt, nullptr);
        if (!stream)
            fail("cannot add a video stream");
    }

    void openEncoder(const CodecChoice& choice)
    {
        enc = avcodec_alloc_context3(choice.codec);
        if (!enc)
            fail("out of memory");
        enc->width = width;
        enc->height = height;
        enc->pix_fmt = choice.pixels;
        enc->time_base = AVRational{1, fps};
        enc->framerate = AVRational{fps, 1};
        enc->sample_aspect_ratio = AVRational{1, 1};
        enc->thread_count = options.threads;
        if (format == VideoFormat::Mp4) {
            // Tag what the RGB → YUV conversion below does: BT.709, limited range.
            enc->color_primaries = AVCOL_PRI_BT709;
            enc->color_trc = AVCOL_TRC_BT709;
            enc->colorspace = AVCOL_SPC_BT709;
            enc->color_range = AVCOL_RANGE_MPEG;
            enc->gop_size = std::max(1, fps * 2);
            if (std::string(choice.codec->name) == "libx264") {
                av_opt_set(enc->priv_data, "preset", options.preset.c_str(), 0);
                av_opt_set_int(enc->priv_data, "crf", std::clamp(options.crf, 0, 51), 0);
            } else {
                enc->flags |= AV_CODEC_FLAG_QSCALE;
                enc->global_quality = FF_QP2LAMBDA * std::clamp(options.mpeg4Quantizer, 1, 31);
                enc->max_b_frames = 0;
            }
        }
        if (fmt && (fmt->oformat->flags & AVFMT_GLOBALHEADER))
            enc->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
        // Keep the output free of run-dependent bytes (encoder version strings stay; no dates).
        enc->flags |= AV_CODEC_FLAG_BITEXACT;
        const int rc = avcodec_open2(enc, choice.codec, nullptr);
        if (rc < 0)
            fail("cannot open the " + codec + " encoder", rc);
    }

    /// MP4 / GIF: the stream parameters from the open encoder, the temporary opened, the header.
    void writeHeader()
    {
        int rc = avcodec_parameters_from_context(stream->codecpar, enc);
        if (rc < 0)
            fail("cannot set the stream parameters", rc);
        stream->time_base = enc->time_base;
        stream->avg_frame_rate = enc->framerate;
        fmt->flags |= AVFMT_FLAG_BITEXACT;
        rc = avio_open(&fmt->pb, temporary.c_str(), AVIO_FLAG_WRITE);
        if (rc < 0)
            fail("cannot open the temporary file " + temporary.string(), rc);
        AVDictionary* muxOptions = nullptr;
        if (format == VideoFormat::Mp4)
            av_dict_set(&muxOptions, "movflags", "+faststart", 0); // playable while loading (slides, web)
        else
            av_dict_set(&muxOptions, "loop", "0", 0); // loop forever
        rc = avformat_write_header(fmt, &muxOptions);
        av_dict_free(&muxOptions);
        if (rc < 0)
            fail("cannot write the file header", rc);
        headerWritten = true;
    }

    /// The frame the pixels are converted into, and the packet the encoder fills.
    void allocateFrame(AVPixelFormat pixels)
    {
        frame = av_frame_alloc();
        packet = av_packet_alloc();
        if (!frame || !packet)
            fail("out of memory");
        frame->format = pixels;
        frame->width = width;
        frame->height = height;
        const int rc = av_frame_get_buffer(frame, 0);
        if (rc < 0)
            fail("cannot allocate a frame", rc);
    }

    /// MP4 / PNG: the RGBA → encoder pixel conversion (GIF maps to its palette itself).
    void setUpConversion(AVPixelFormat pixels)
    {
        sws = sws_getContext(width, height, inputFormat(), width, height, pixels,
                             SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT | SWS_BITEXACT, nullptr, nullptr,
                             nullptr);
        if (!sws)
            fail("cannot set up the pixel conversion");
        if (format == VideoFormat::Mp4) {
            const int* bt709 = sws_getCoefficients(SWS_CS_ITU709);
            // source range: full (RGB), destination: limited (MPEG); brightness 0, contrast and
            // saturation 1.0 in 16.16 fixed point.
            sws_setColorspaceDetails(sws, bt709, 1, bt709, 0, 0, 1 << 16, 1 << 16);
        }
    }
};

VideoEncoder::VideoEncoder() = default;

VideoEncoder::~VideoEncoder()
{
    cancel();
}

bool VideoEncoder::hasH264()
{
    return avcodec_find_encoder_by_name("libx264") != nullptr;
}

bool VideoEncoder::isOpen() const
{
    return m && m->open;
}

int VideoEncoder::frameCount() const
{
    return m ? m->frames : 0;
}

std::string VideoEncoder::codecName() const
{
    return isOpen() ? m->codec : std::string();
}

void VideoEncoder::open(const fs::path& path, VideoFormat format, int width, int height, int fps,
                        const VideoOptions& options)
{
    if (isOpen())
        throw VideoError(path.string() + ": the encoder is still writing " + m->target.string() +
                         "; finish() or cancel() it first");
    checkFrameSize(path, format, width, height, fps);

    // libav* log at "info" by default, and libx264 prints a page of statistics per file: keep
    // command-line output to errors unless the program chose a level itself.
    if (av_log_get_level() == AV_LOG_INFO)
        av_log_set_level(AV_LOG_ERROR);

    m = std::make_unique<State>();
    State& s = *m;
    s.target = path;
    s.format = format;
    s.options = options;
    s.width = width;
    s.height = height;
    s.fps = fps;

    const State::CodecChoice choice = s.chooseCodec();
    try {
        // A file is written unnamed (O_TMPFILE) until finish(): a killed export leaves nothing.
        if (format == VideoFormat::PngSequence)
            s.temporary = makeTemporaryBeside(path, TemporaryKind::Folder);
        else
            s.temporary = s.pending.emplace(path).path();
    } catch (const Error& e) {
        m.reset();
        throw VideoError(e.what());
    }
    if (format != VideoFormat::PngSequence)
        s.createMuxer();
    s.openEncoder(choice);
    s.createCaptionStream();
    if (s.fmt)
        s.writeHeader();
    s.allocateFrame(choice.pixels);
    if (format != VideoFormat::Gif)
        s.setUpConversion(choice.pixels);
    s.open = true;
}

void VideoEncoder::addFrame(const std::uint8_t* pixels, std::ptrdiff_t strideBytes)
{
    if (!isOpen())
        throw VideoError("VideoEncoder::addFrame: no encode is open; call open() first");
    State& s = *m;
    if (!pixels || std::abs(strideBytes) < static_cast<std::ptrdiff_t>(s.width) * 4)
        s.fail("frame " + std::to_string(s.frames + 1) + " has stride " + std::to_string(strideBytes) +
               " bytes; a row of " + std::to_string(s.width) + " pixels needs at least " + std::to_string(s.width * 4));

    int rc = av_frame_make_writable(s.frame);
    if (rc < 0)
        s.fail("cannot write a frame", rc);

    if (s.format == VideoFormat::Gif) {
        const GifPalette& pal = gifPalette();
        std::memcpy(s.frame->data[1], pal.argb.data(), AVPALETTE_SIZE);
        const bool bgra = s.options.input == PixelLayout::Bgra;
        const int ri = bgra ? 2 : 0, bi = bgra ? 0 : 2;
        for (int y = 0; y < s.height; ++y) {
            const std::uint8_t* src = pixels + static_cast<std::ptrdiff_t>(y) * strideBytes;
            std::uint8_t* dst = s.frame->data[0] + static_cast<std::ptrdiff_t>(y) * s.frame->linesize[0];
            if (s.options.gifDither) {
                const std::array<int, 4> offsets{bayerOffset(0, y), bayerOffset(1, y), bayerOffset(2, y),
                                                 bayerOffset(3, y)};
                for (int x = 0; x < s.width; ++x, src += 4) {
                    const int o = offsets[static_cast<std::size_t>(x & 3)];
                    dst[x] = pal.index(std::clamp(src[ri] + o, 0, 255), std::clamp(src[1] + o, 0, 255),
                                       std::clamp(src[bi] + o, 0, 255));
                }
            } else {
                for (int x = 0; x < s.width; ++x, src += 4)
                    dst[x] = pal.index(src[ri], src[1], src[bi]);
            }
        }
    } else {
        const std::uint8_t* planes[4] = {pixels, nullptr, nullptr, nullptr};
        const int strides[4] = {static_cast<int>(strideBytes), 0, 0, 0};
        rc = sws_scale(s.sws, planes, strides, 0, s.height, s.frame->data, s.frame->linesize);
        if (rc != s.height)
            s.fail("the pixel conversion failed on frame " + std::to_string(s.frames + 1));
    }
    s.frame->pts = s.frames;
    s.muxCaptions(s.frames);
    ++s.frames;
    s.drain(s.frame);
}

VideoResult VideoEncoder::finish()
{
    if (!isOpen())
        throw VideoError("VideoEncoder::finish: no encode is open");
    State& s = *m;
    if (s.frames == 0)
        s.fail("no frames were added");
    s.drain(nullptr);

    VideoResult result;
    result.path = s.target;
    result.codec = s.codec;
    result.frames = s.frames;
    result.captions = s.captionsMuxed;
    result.seconds = static_cast<double>(s.frames) / s.fps;

    if (s.fmt) {
        s.headerWritten = false;
        const int rc = av_write_trailer(s.fmt);
        if (rc < 0)
            s.fail("cannot finish the file", rc);
        avio_closep(&s.fmt->pb);
        s.release();
        s.temporary.clear(); // the pending file's own path: nothing to remove by name
        try {
            s.pending->commit();
        } catch (const Error& e) {
            s.abandon(e.what());
        }
        s.pending.reset();
    } else {
        s.release();
        // PNG sequence: a new folder takes the temporary's place whole; an existing one receives
        // the frames one rename at a time (each replaces a file of the same name atomically).
        std::error_code ec;
        fs::path dir = s.target.has_filename() ? s.target : s.target.parent_path();
        if (!fs::exists(dir, ec)) {
            if (::rename(s.temporary.c_str(), dir.c_str()) != 0)
                s.fail(std::string("cannot create the folder (") + std::strerror(errno) + ")");
            ::chmod(dir.c_str(), 0755);
        } else {
            if (!fs::is_directory(dir, ec))
                s.fail("exists and is not a folder");
            for (int i = 1; i <= s.frames; ++i) {
                const fs::path from = s.temporary / frameFileName(i);
                if (::rename(from.c_str(), (dir / frameFileName(i)).c_str()) != 0)
                    s.fail(std::string("cannot move ") + frameFileName(i) + " into place (" + std::strerror(errno) +
                           ")");
            }
            s.removeTemporary();
        }
        s.temporary.clear();
        result.path = dir;
    }
    s.open = false;
    return result;
}

void VideoEncoder::cancel() noexcept
{
    if (!m)
        return;
    m->release();
    m->removeTemporary();
    m->open = false;
}

} // namespace topocast::video
