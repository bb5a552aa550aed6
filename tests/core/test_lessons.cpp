// The lesson plans: one file that docs/teaching.md and the app's Lesson panel are written from,
// every answer held against the schedule it is about.
#include "topocast/io/lessons.h"
#include "topocast/io/read_file.h"
#include "topocast/model/error.h"

#include "cli_runner.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

using namespace topocast;

namespace {

const std::filesystem::path kLessonsFile =
    std::filesystem::path(TOPOCAST_SOURCE_DIR) / "resources/lessons/lessons.json";
const std::filesystem::path kPresetDir = std::filesystem::path(TOPOCAST_SOURCE_DIR) / "resources/scenarios";

std::string lessonsText()
{
    return readFileText(kLessonsFile, ReadFileLimits{});
}

/// The shipped lessons file with `from` replaced by `to` once (a mutation of one answer or field).
LessonBook mutatedLessons(const std::string& from, const std::string& to)
{
    std::string text = lessonsText();
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
    return lessonsFromText(text, "mutated lessons");
}

} // namespace

TEST_CASE("lessons: every answer that names receivers or gives steps or TCD is what the app computes and grades",
          "[lessons]")
{
    const LessonBook book = loadLessons(kLessonsFile);
    REQUIRE(book.lessons.size() == 7);
    std::size_t checks = 0, receiverChecks = 0;
    for (const Lesson& l : book.lessons)
        for (const LessonItem& item : l.items)
            for (const LessonCheck& c : item.checks) {
                ++checks;
                receiverChecks += c.receivers || c.receiverCount ? 1 : 0;
            }
    CHECK(checks >= 30);
    CHECK(receiverChecks >= 14);
    CHECK(lessonFindings(book, kPresetDir).empty());
}

TEST_CASE("lessons: a wrong answer is found and named", "[lessons]")
{
    const auto findings = lessonFindings(
        mutatedLessons("\"receivers\": [\"(1,2)\", \"(1,0)\"]", "\"receivers\": [\"(1,2)\", \"(2,0)\"]"), kPresetDir);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0] ==
          "lesson 1, item 3 (baseline-binomial-4x4): step 2 is received by (1,0), (1,2), not (1,2), (2,0)");
    // A hypercube answer in decimal, as the old lesson plan wrote it, is not what the app names.
    const auto decimal =
        lessonFindings(mutatedLessons("[\"001\", \"110\", \"111\"]", "[\"1\", \"6\", \"7\"]"), kPresetDir);
    REQUIRE(decimal.size() == 1);
    CHECK_THAT(decimal[0], Catch::Contains("step 3 is received by 001, 110, 111, not 1, 6, 7"));
    const auto perStep = lessonFindings(mutatedLessons("[7, 9, 6, 9, 16, 32]", "[7, 9, 18, 9, 16, 20]"), kPresetDir);
    REQUIRE(perStep.size() == 1);
    CHECK_THAT(perStep[0], Catch::Contains("TCD by step 7 + 9 + 6 + 9 + 16 + 32, not 7 + 9 + 18 + 9 + 16 + 20"));
    const auto tcd = lessonFindings(mutatedLessons("{\"tcd\": 79,", "{\"tcd\": 78,"), kPresetDir);
    REQUIRE(tcd.size() == 1);
    CHECK_THAT(tcd[0], Catch::Contains("cang-wu-8x8-corner): TCD 79, not 78"));
    const auto side = lessonFindings(
        mutatedLessons("{\"side\": \"compare\", \"tcd\": 69", "{\"side\": \"compare\", \"tcd\": 71"), kPresetDir);
    REQUIRE(side.size() == 1);
    CHECK_THAT(side[0], Catch::Contains("side B): TCD 69, not 71"));
    const auto count = lessonFindings(mutatedLessons("\"receiver_count\": 42", "\"receiver_count\": 36"), kPresetDir);
    REQUIRE(count.size() == 1);
    CHECK_THAT(count[0], Catch::Contains("42 nodes receive in step 2, not 36"));
}

TEST_CASE("lessons: docs/teaching.md is the lessons file written out", "[lessons]")
{
    const std::string doc =
        readFileText(std::filesystem::path(TOPOCAST_SOURCE_DIR) / "docs/teaching.md", ReadFileLimits{});
    // Regenerate with: topocast-cli lessons --markdown > docs/teaching.md
    CHECK(doc == lessonBookMarkdown(loadLessons(kLessonsFile)) + "\n");
    CHECK(doc.find("Step 3: 1, 6 and 7") == std::string::npos);
}

TEST_CASE("lessons: the panel hides each answer behind a link until it is revealed and opens presets by link",
          "[lessons]")
{
    const LessonBook book = loadLessons(kLessonsFile);
    const Lesson& first = book.lessons.front();
    LessonMarkdownOptions panel;
    panel.panel = true;
    const std::string hidden = lessonMarkdown(first, 1, panel);
    CHECK(hidden.find("[`baseline-binomial-4x4`](open:baseline-binomial-4x4)") != std::string::npos);
    CHECK(hidden.find("[Show the answer](reveal:2)") != std::string::npos);
    CHECK(hidden.find("**(1,2) and (1,0)**") == std::string::npos);
    panel.revealed = {2};
    const std::string shown = lessonMarkdown(first, 1, panel);
    CHECK(shown.find("**Answer:** **(1,2) and (1,0)**") != std::string::npos);
    CHECK(shown.find("[Show the answer](reveal:3)") != std::string::npos);
    CHECK(shown.find("reveal:2") == std::string::npos);
}

TEST_CASE("lessons: a bad lessons file is refused naming the field and what is allowed", "[lessons]")
{
    CHECK_THROWS_WITH(
        mutatedLessons("\"receiver_count\": 42", "\"receiver_cnt\": 42"),
        Catch::Contains("lessons[4].items[1].checks[0].receiver_cnt: not a check topocast knows; allowed:"));
    CHECK_THROWS_WITH(mutatedLessons("\"answer\": \"**6** — one per port.\",", ""),
                      Catch::Contains("lessons[4].items[0]: a question (ask) needs its answer"));
    CHECK_THROWS_WITH(
        mutatedLessons("{\"preset\": \"divisible-scatter3\",", "{\"preset\": \"divisible-scatter1\","),
        Catch::Contains("lessons[4].items[4].preset: \"divisible-scatter1\" is not one of the lesson's presets"));
    CHECK_THROWS_WITH(mutatedLessons("\"step\": 3, \"receiver_count\": 294", "\"step\": 0, \"receiver_count\": 294"),
                      Catch::Contains("step: expected a whole number ≥ 1, got 0"));
    CHECK_THROWS_WITH(lessonsFromText("{\"format\": \"topocast-scenario\"}", "x.json"),
                      Catch::Contains("x.json: format: expected \"topocast-lessons\""));
    CHECK_THROWS_WITH(lessonsFromText("[1,", "x.json"), Catch::Contains("x.json: not JSON"));
}

TEST_CASE("lessons: topocast-cli lessons lists them and writes the document and checks the answers", "[lessons][cli]")
{
    const auto list = topocast::testing::runCli({"lessons"});
    CHECK(list.status == 0);
    CHECK_THAT(list.out,
               Catch::Contains("7. Latency or bandwidth: which algorithm for which size (latency-or-bandwidth)"));
    const auto check = topocast::testing::runCli({"lessons", "--check"});
    CHECK(check.status == 0);
    CHECK_THAT(check.out, Catch::Contains("every answer holds"));
    const auto md = topocast::testing::runCli({"lessons", "--markdown"});
    CHECK(md.out == lessonBookMarkdown(loadLessons(kLessonsFile)) + "\n");
}
