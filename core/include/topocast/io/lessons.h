#pragma once

// The lesson plans: one JSON file (resources/lessons/lessons.json, installed as
// share/topocast/lessons.json) from which docs/teaching.md is written and the app's Lesson panel
// is drawn, so the two cannot disagree. Each answer that names receivers, counts them or gives a
// step count or TCD carries a check that lessonFindings holds against the schedule.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace topocast {

/// What an answer claims about a preset's schedule; every field given is checked.
struct LessonCheck {
    bool compareSide = false;                          ///< "side": "compare": the preset's side B
    std::map<std::string, std::string> params;         ///< parameters changed first ({"mode": "optimal"})
    std::optional<std::uint32_t> step;                 ///< the step receivers and receiverCount are of
    std::optional<std::vector<std::string>> receivers; ///< that step's receivers, as the app names them
    std::optional<std::uint64_t> receiverCount;
    std::optional<std::uint64_t> tcd;
    std::optional<std::vector<std::uint64_t>> tcdPerStep; ///< "tcd_per_step": every step's TCD
    std::optional<std::uint32_t> steps;
};

/// One point of a lesson: something to do or show, a question, its answer (markdown each; any
/// may be empty, an answer only with a question).
struct LessonItem {
    std::string preset; ///< the preset it is about (its file name without .json); may be empty
    std::string text;
    std::string ask;
    std::string answer;
    std::vector<LessonCheck> checks;
};

struct LessonHandout {
    std::string preset;
    std::string steps; ///< "1-4"
    std::string note;  ///< may be empty
};

struct Lesson {
    std::string id; ///< lower-case words joined by '-'
    std::string title;
    std::string audience; ///< "any course, 20 minutes"; may be empty
    std::string goal;
    std::vector<std::string> presets; ///< opened in this order
    std::vector<LessonItem> items;
    std::optional<LessonHandout> handout;
};

struct LessonBook {
    std::string title;
    std::vector<std::string> preamble; ///< paragraphs
    std::vector<Lesson> lessons;
    std::vector<std::string> closing; ///< paragraphs (a "## " line is a heading)
};

/// Reads a lessons document ({"format": "topocast-lessons", "version": 1, …}). Throws Error naming
/// the field at fault ("lessons[2].items[0].checks[1].step: expected a whole number ≥ 1") and
/// what is allowed; an item's preset must be one of its lesson's presets.
LessonBook lessonsFromText(std::string_view text, const std::string& what);
LessonBook loadLessons(const std::filesystem::path& path);

/// How lessonMarkdown writes a lesson.
struct LessonMarkdownOptions {
    /// false: the document (docs/teaching.md), every answer written out. true: the app's panel —
    /// presets as links "open:NAME", answers hidden behind a link "reveal:N" (N: the item's
    /// index) unless N is in `revealed`.
    bool panel = false;
    std::set<std::size_t> revealed;
};

/// One lesson as markdown, headed "## number. title (audience)": its goal, what to open, its
/// items as a numbered list and its handout.
std::string lessonMarkdown(const Lesson& lesson, std::size_t number, const LessonMarkdownOptions& options = {});
/// The whole book as docs/teaching.md holds it.
std::string lessonBookMarkdown(const LessonBook& book);

/// Every check of every lesson held against the schedules of the presets in `presetsDir`
/// (NAME.json): one line per claim that does not hold ("lesson 2, item 3: step 2 of
/// cang-wu-8x8-corner is received by (1,5), (5,5), not (1,5), (5,4)"), or a preset that does
/// not open. Empty when every answer is what the app computes and grades.
std::vector<std::string> lessonFindings(const LessonBook& book, const std::filesystem::path& presetsDir);

} // namespace topocast
