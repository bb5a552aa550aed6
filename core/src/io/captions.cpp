#include "topocast/io/captions.h"

#include "topocast/model/error.h"

#include <cstdio>

namespace topocast {

namespace {

void checkFps(int fps)
{
    if (fps < 1 || fps > 240)
        throw Error("frame rate " + std::to_string(fps) + " is out of range 1..240");
}

} // namespace

std::vector<CaptionCue> captionCues(std::span<const FrameTime> frames)
{
    std::vector<CaptionCue> cues;
    for (std::size_t i = 0; i < frames.size(); ++i) {
        if (cues.empty() || cues.back().step != frames[i].step) {
            if (!cues.empty())
                cues.back().endFrame = i;
            cues.push_back(CaptionCue{frames[i].step, i, i, {}});
        }
    }
    if (!cues.empty())
        cues.back().endFrame = frames.size();
    return cues;
}

std::string vttTimestamp(std::size_t frame, int fps)
{
    checkFps(fps);
    // Rounded to the nearest millisecond in integers: (frame · 1000 + fps/2) / fps.
    const std::uint64_t ms =
        (std::uint64_t{frame} * 1000 + static_cast<std::uint64_t>(fps) / 2) / static_cast<std::uint64_t>(fps);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%02llu:%02llu:%02llu.%03llu", static_cast<unsigned long long>(ms / 3600000),
                  static_cast<unsigned long long>(ms / 60000 % 60), static_cast<unsigned long long>(ms / 1000 % 60),
                  static_cast<unsigned long long>(ms % 1000));
    return buf;
}

std::string webVtt(std::span<const CaptionCue> cues, int fps)
{
    checkFps(fps);
    std::string out = "WEBVTT\n";
    std::size_t number = 0;
    for (const CaptionCue& c : cues) {
        if (c.endFrame < c.firstFrame)
            throw Error("caption of step " + std::to_string(c.step) + " ends at frame " + std::to_string(c.endFrame) +
                        ", before it starts at frame " + std::to_string(c.firstFrame));
        std::string text;
        bool lineStart = true;
        for (char ch : c.text) {
            switch (ch) {
            case '&':
                text += "&amp;";
                break;
            case '<':
                text += "&lt;";
                break;
            case '>':
                text += "&gt;";
                break;
            case '\r':
                continue;
            case '\n':
                if (lineStart)
                    continue; // a blank line would end the cue
                text += '\n';
                lineStart = true;
                continue;
            default:
                text += ch;
            }
            lineStart = false;
        }
        while (!text.empty() && text.back() == '\n')
            text.pop_back();
        out += "\n" + std::to_string(++number) + "\n" + vttTimestamp(c.firstFrame, fps) + " --> " +
               vttTimestamp(c.endFrame, fps) + "\n" +
               (text.empty() ? std::string("Step ") + std::to_string(c.step) : text) + "\n";
    }
    return out;
}

std::filesystem::path captionsPathFor(const std::filesystem::path& video)
{
    std::filesystem::path p = video;
    return p.replace_extension(".vtt");
}

} // namespace topocast
