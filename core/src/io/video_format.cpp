#include "topocast/io/video_format.h"

#include "topocast/model/error.h"

#include <algorithm>
#include <cctype>

namespace topocast {

VideoFormat parseVideoFormat(const std::string& text)
{
    if (text == "mp4")
        return VideoFormat::Mp4;
    if (text == "gif")
        return VideoFormat::Gif;
    if (text == "png" || text == "frames")
        return VideoFormat::PngSequence;
    throw Error("unknown video format '" + text + "'; use mp4, gif or png (a numbered PNG sequence)");
}

VideoFormat videoFormatForPath(const std::filesystem::path& path)
{
    std::string ext = path.has_filename() ? path.extension().string() : std::string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (ext == ".mp4")
        return VideoFormat::Mp4;
    if (ext == ".gif")
        return VideoFormat::Gif;
    return VideoFormat::PngSequence;
}

} // namespace topocast
