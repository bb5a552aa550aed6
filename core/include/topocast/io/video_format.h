#pragma once

// The kinds of animation topocast writes, and how a name or a file's extension picks one: the
// one list that `topocast-cli render --format`, the app's File ▸ Export ▸ Animation and the video
// library (app/video) all read.

#include <cstdint>
#include <filesystem>
#include <string>

namespace topocast {

/// What an animation export writes.
enum class VideoFormat : std::uint8_t {
    Mp4,         ///< H.264 (libx264) in MP4, or MPEG-4 Part 2 when libavcodec has no libx264
    Gif,         ///< animated GIF, fixed 256-colour palette
    PngSequence, ///< a folder of frame_00001.png, frame_00002.png, …
};

/// "mp4", "gif", "png" or "frames" (a PNG sequence). Throws Error "unknown video format 'avi'; use
/// mp4, gif or png (a numbered PNG sequence)".
VideoFormat parseVideoFormat(const std::string& text);

/// The format `path` asks for: .mp4 and .gif (any letter case) by their extension, anything else —
/// a folder — a PNG sequence. Never throws.
VideoFormat videoFormatForPath(const std::filesystem::path& path);

} // namespace topocast
