#pragma once

// Predict questions for a course platform: one question per step of a schedule ("Which nodes
// receive in step 3?"), written as Moodle XML (docs.moodle.org, "Moodle XML format"), which
// Moodle and the platforms that import its question format take.

#include "topocast/model/schedule.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace topocast {

/// One choice of a question, or the value of a numerical one.
struct QuizAnswer {
    std::string text;     ///< a node's name as the app writes it, or a number
    double fraction = 0;  ///< percent of the question's grade, one of Moodle's grades (±)
    std::string feedback; ///< shown after the attempt
};

/// One question of the quiz.
struct QuizQuestion {
    enum class Kind { MultipleAnswer, Numerical };
    Kind kind = Kind::MultipleAnswer;
    std::uint32_t step = 0;
    std::string name;      ///< "Cang-Wu 8×8 mesh from (0,0) — step 3"
    std::string lead;      ///< a sentence before the picture (plain text)
    std::string prompt;    ///< the question (plain text)
    std::string imageName; ///< "step-3.png"; empty: no picture
    std::string imagePng;  ///< the picture's bytes (PNG)
    std::string imageAlt;  ///< what the picture shows, for a reader without it
    std::vector<QuizAnswer> answers;
    std::string generalFeedback; ///< the step's narration
};

/// Moodle's grades for the right choices of a multiple-answer question with `rightCount` right
/// choices: each from Moodle's list of grades (100, 90, 83.33333, 80, 75, 70, 66.66667, 60, 50,
/// 40, 33.33333, 30, 25, 20, 16.66667, 14.28571, 12.5, 11.11111, 10, 5 — an import refuses any
/// other), as equal as that list allows, summing to 100 within 0.0001 (16 right: four 10s and
/// twelve 5s). nullopt when rightCount is 0 or over 20 (the least grade, 5 %, times 21 passes 100).
std::optional<std::vector<double>> moodleRightGrades(std::size_t rightCount);
/// The grade of each wrong choice when there are `wrongCount`: the least of Moodle's grades g
/// with g · wrongCount ≥ 100, negated — ticking every choice scores 0; −100 for one.
double moodleWrongGrade(std::size_t wrongCount);

/// How stepQuestion builds a question.
struct StepQuestionOptions {
    /// Most choices a multiple-answer question lists: the step's receivers, then the nodes that
    /// do not receive, nearest a receiver first (hops; ties by id). The whole network when it
    /// fits.
    std::size_t maxChoices = 32;
};

/// The question of step `step` of `schedule`: which nodes receive in it (core stepReceivers, as
/// Predict grades), the right ones at moodleRightGrades, the others at moodleWrongGrade, each
/// choice's feedback saying whom it receives from or that it does not receive in the step. A step
/// with more than 20 receivers asks how many receive (a numerical question) — Moodle cannot grade
/// more right choices. Name, lead, picture and feedback are left for the caller. Throws Error
/// when the step is not 1..stepCount().
QuizQuestion stepQuestion(const Schedule& schedule, std::uint32_t step, const StepQuestionOptions& options = {});

/// The Moodle XML document of `questions` under the category "$course$/topocast/<category>":
/// multiple-answer questions as type "multichoice" (single false, shuffled, unnumbered),
/// numerical ones with tolerance 0; the question text is HTML with the picture embedded
/// (base64, "@@PLUGINFILE@@/name"); the category's description (info) records `request`, the
/// command that made it.
std::string moodleXml(const std::string& category, std::span<const QuizQuestion> questions, const std::string& request);

/// RFC 4648 base64 of `bytes`, without line breaks.
std::string base64(const std::string& bytes);

} // namespace topocast
