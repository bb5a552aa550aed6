// VideoEncoder's format helpers: the format a name or a file extension asks for (core's one list,
// topocast/io/video_format.h), and the names of a PNG sequence's frames.
#include "videoencoder.h"

#include "topocast/model/error.h"

#include <array>
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
    try {
        return parseVideoFormat(text);
    } catch (const Error& e) {
        throw VideoError(e.what());
    }
}

VideoFormat VideoEncoder::formatForPath(const fs::path& path)
{
    return videoFormatForPath(path);
}

} // namespace topocast::video
