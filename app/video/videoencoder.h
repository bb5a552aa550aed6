#pragma once

#include "topocast/io/video_format.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace topocast::video {

/// What a VideoEncoder writes (core's list: topocast/io/video_format.h).
using VideoFormat = topocast::VideoFormat;

/// Byte order of the pixels handed to addFrame (8 bits per channel, 4 bytes per pixel).
enum class PixelLayout : std::uint8_t {
    Rgba, ///< R, G, B, A in memory (QImage::Format_RGBA8888, glReadPixels GL_RGBA)
    Bgra, ///< B, G, R, A in memory (QImage::Format_ARGB32 / RGB32 on little-endian machines)
};

/// Every failure of the encoder: the message names the file and what went wrong.
class VideoError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// One caption of an MP4: `text` (UTF-8) shown from frame `firstFrame` up to, not including,
/// frame `endFrame` (frame i is shown at i / fps seconds).
struct Caption {
    int firstFrame = 0;
    int endFrame = 0;
    std::string text;
};

/// Encoder settings beyond size and rate. Defaults suit slides and papers.
struct VideoOptions {
    PixelLayout input = PixelLayout::Rgba;
    /// MP4: use libx264 when libavcodec has it (false forces MPEG-4 Part 2, for tests).
    bool preferH264 = true;
    /// H.264 constant rate factor (0 = lossless … 51; 18–23 look clean on flat-shaded scenes).
    int crf = 20;
    /// libx264 preset ("ultrafast" … "veryslow"). "veryfast" encodes 720p about twice as fast as
    /// "medium" for files ~15 % larger at the same crf (bench/video/bench_video.cpp).
    std::string preset = "veryfast";
    /// MPEG-4 Part 2 fixed quantiser (1 best … 31).
    int mpeg4Quantizer = 3;
    /// GIF: 4×4 ordered (Bayer) dithering before the palette lookup. Deterministic; smooths the
    /// shading gradients a 6×6×6 colour cube would band, at some cost in file size.
    bool gifDither = true;
    /// PNG: keep the alpha channel (false writes opaque RGB, so an offscreen surface that clears
    /// to alpha 0 does not give see-through slides).
    bool pngAlpha = false;
    /// Encoder threads (0: libavcodec chooses).
    int threads = 0;
    /// MP4 only: captions muxed as a subtitle stream (mov_text, the MP4 timed-text format, through
    /// libavcodec's subtitle encoder; language "eng"), in frame order. Empty: no subtitle stream.
    /// Each is written when its first frame is added, so the file interleaves as a player reads it.
    /// Ignored for GIF and PNG. open() throws VideoError for cues out of order or ending before
    /// they start.
    std::vector<Caption> captions;
};

/// What finish() produced.
struct VideoResult {
    std::filesystem::path path; ///< the file (MP4, GIF) or folder (PNG sequence)
    std::string codec;          ///< "H.264 (libx264)", "MPEG-4 Part 2 (mpeg4)", "GIF (gif)", "PNG (png)"
    int frames = 0;
    int captions = 0;     ///< subtitle packets muxed (MP4 with VideoOptions::captions)
    double seconds = 0.0; ///< frames / fps
};

/// Encodes RGBA frames into an MP4, an animated GIF or a PNG sequence through libavcodec /
/// libavformat / libswscale (no external ffmpeg process, no Qt). Frames are numbered, not
/// timed: frame i is shown at i / fps seconds, so the same frames always give the same file.
///
/// Atomic: MP4 and GIF are written to a hidden temporary file beside `path` (".name.tmp-XXXXXX")
/// and renamed over `path` by finish(); a PNG sequence goes to a hidden temporary folder whose
/// files finish() moves into `path` (created if missing; files of the same name are replaced,
/// others are left alone). cancel(), a failure, or destroying an encoder that was not finished
/// removes the temporary and leaves any existing `path` untouched.
///
/// Not thread-safe; use one encoder from one thread (a worker thread is fine). The first open()
/// lowers FFmpeg's global log level from its default "info" to "error" (libx264 would print a
/// page of statistics per file); a program that set a level with av_log_set_level keeps it.
class VideoEncoder {
public:
    VideoEncoder();
    ~VideoEncoder();
    VideoEncoder(const VideoEncoder&) = delete;
    VideoEncoder& operator=(const VideoEncoder&) = delete;

    /// Starts an encode of width × height frames at `fps` frames per second. MP4 needs even
    /// width and height (4:2:0 chroma); every format needs 1..16384 pixels a side and fps
    /// 1..240. Throws VideoError (bad size, no encoder, cannot create the temporary); the
    /// encoder is then closed. Throws VideoError if an encode is already open.
    void open(const std::filesystem::path& path, VideoFormat format, int width, int height, int fps,
              const VideoOptions& options = {});

    /// Appends one frame: `height` rows of `width` pixels in the open() layout, row r starting
    /// at pixels + r·strideBytes (top row first). A negative stride with `pixels` pointing at the
    /// last row in memory feeds bottom-up images (glReadPixels) without a copy.
    /// Throws VideoError if not open or the encoder fails (the encode is then cancelled).
    void addFrame(const std::uint8_t* pixels, std::ptrdiff_t strideBytes);

    /// Flushes the encoder, closes the file and moves it into place. Throws VideoError (the
    /// temporary is removed; `path` is untouched). Returns what was written.
    VideoResult finish();

    /// Abandons the encode and removes the temporary. Safe to call at any time.
    void cancel() noexcept;

    bool isOpen() const;
    /// Frames added since open().
    int frameCount() const;
    /// The codec the open encode uses (see VideoResult::codec); empty when closed.
    std::string codecName() const;

    /// True when this libavcodec has the libx264 encoder (MP4 is then H.264).
    static bool hasH264();
    /// "frame_00001.png" for index 1 (1-based, five digits, more if needed).
    static std::string frameFileName(int index);
    /// Parses "mp4", "gif", "png" / "frames"; throws VideoError listing them.
    static VideoFormat parseFormat(const std::string& text);
    /// The format a path asks for: ".mp4" → Mp4, ".gif" → Gif, anything else (a folder, a path
    /// ending in '/') → PngSequence.
    static VideoFormat formatForPath(const std::filesystem::path& path);

private:
    struct State;
    std::unique_ptr<State> m;
};

} // namespace topocast::video
