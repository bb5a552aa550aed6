#pragma once

#include "topocast/io/export.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace topocast {

/// One caption of an exported animation: the narration of `step`, shown from frame `firstFrame`
/// up to (not including) frame `endFrame` of the export's frame clock (animationFrames).
struct CaptionCue {
    std::uint32_t step = 0;
    std::size_t firstFrame = 0;
    std::size_t endFrame = 0;
    std::string text;
    friend bool operator==(const CaptionCue&, const CaptionCue&) = default;
};

/// One cue per step of the frame clock `frames`, in order: a step's cue starts at the first frame
/// that shows it and ends where the next step's first frame starts; the last step's cue runs to
/// the end of the animation (its delivered frame and the hold frames included). Texts are left
/// empty for the caller's narration. O(frames).
std::vector<CaptionCue> captionCues(std::span<const FrameTime> frames);

/// The WebVTT time of frame `frame` at `fps` frames per second (frame i is shown at i / fps s),
/// rounded to the millisecond: "00:00:01.500". Throws Error unless 1 ≤ fps ≤ 240.
std::string vttTimestamp(std::size_t frame, int fps);

/// A WebVTT document ("WEBVTT", then one numbered cue per entry: "1\n00:00:00.000 --> 00:00:01.500\n
/// text\n"). '&', '<' and '>' in texts are escaped as the format requires (so "-->" cannot end a
/// cue early); line breaks stay, blank lines inside a text are dropped (they would end the cue).
/// Throws Error unless 1 ≤ fps ≤ 240 or a cue ends before it starts. O(total text).
std::string webVtt(std::span<const CaptionCue> cues, int fps);

/// Where an export's captions go: the video's path with the extension ".vtt" (anim.mp4 →
/// anim.vtt).
std::filesystem::path captionsPathFor(const std::filesystem::path& video);

} // namespace topocast
