// VideoEncoder's format helpers: the format a name or a file extension asks for, and the names of
// a PNG sequence's frames.
#include "videoencoder.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>

namespace topocast::video {

namespace fs = std::filesystem;

std::string VideoEncoder::frameFileName(int index)
{
    std::array<char, 32> buf{};
    std::snprintf(buf.data(), buf.size(), "frame_%05d.png", index);
    return buf.data();
}

VideoFormat VideoEncoder::parseFormat(const std::string& text)
{
    if (text == "mp4")
        return VideoFormat::Mp4;
    if (text == "gif")
        return VideoFormat::Gif;
    if (text == "png" || text == "frames")
        return VideoFormat::PngSequence;
    throw VideoError("unknown video format '" + text + "'; use mp4, gif or png (a numbered PNG sequence)");
}

VideoFormat VideoEncoder::formatForPath(const fs::path& path)
{
    std::string ext = path.has_filename() ? path.extension().string() : std::string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (ext == ".mp4")
        return VideoFormat::Mp4;
    if (ext == ".gif")
        return VideoFormat::Gif;
    return VideoFormat::PngSequence;
}

} // namespace topocast::video
