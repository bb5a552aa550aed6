// Predict questions as Moodle XML: parsed back with expat, every question's answers held against
// the schedule, every grade one Moodle imports, the right grades summing to 100 %.
#include "topocast/algorithms/registry.h"
#include "topocast/analysis/grade.h"
#include "topocast/io/moodle_quiz.h"
#include "topocast/io/scenario_json.h"
#include "topocast/model/error.h"

#include <catch2/catch.hpp>
#include <expat.h>

#include <cmath>
#include <map>
#include <set>

using namespace topocast;

namespace {

/// What a parse of a Moodle XML file finds: per question its type, name and answers.
struct ParsedAnswer {
    double fraction = 0;
    std::string text;
};
struct ParsedQuestion {
    std::string type;
    std::string name;
    std::string questionText;
    std::vector<ParsedAnswer> answers;
    std::string single;
    int files = 0;
};

struct QuizParse {
    std::vector<ParsedQuestion> questions;
    std::vector<std::string> path; // open elements
    std::string text;              // character data of the innermost element
};

void XMLCALL quizStart(void* data, const XML_Char* name, const XML_Char** attrs)
{
    auto* p = static_cast<QuizParse*>(data);
    const std::string element = name;
    std::map<std::string, std::string> a;
    for (int i = 0; attrs[i]; i += 2)
        a[attrs[i]] = attrs[i + 1];
    if (element == "question")
        p->questions.push_back({a["type"], "", "", {}, "", 0});
    else if (element == "answer")
        p->questions.back().answers.push_back({std::stod(a.at("fraction")), ""});
    else if (element == "file")
        ++p->questions.back().files;
    p->path.push_back(element);
    p->text.clear();
}

void XMLCALL quizEnd(void* data, const XML_Char*)
{
    auto* p = static_cast<QuizParse*>(data);
    const std::string element = p->path.back();
    p->path.pop_back();
    const std::string parent = p->path.empty() ? "" : p->path.back();
    if (element == "text" && parent == "answer")
        p->questions.back().answers.back().text = p->text;
    else if (element == "text" && parent == "name")
        p->questions.back().name = p->text;
    else if (element == "text" && parent == "questiontext")
        p->questions.back().questionText = p->text;
    else if (element == "single")
        p->questions.back().single = p->text;
    p->text.clear();
}

void XMLCALL quizText(void* data, const XML_Char* s, int len)
{
    static_cast<QuizParse*>(data)->text.append(s, static_cast<std::size_t>(len));
}

QuizParse parseQuiz(const std::string& xml)
{
    QuizParse p;
    XML_Parser parser = XML_ParserCreate("UTF-8");
    XML_SetUserData(parser, &p);
    XML_SetElementHandler(parser, quizStart, quizEnd);
    XML_SetCharacterDataHandler(parser, quizText);
    const bool ok = XML_Parse(parser, xml.data(), static_cast<int>(xml.size()), 1) == XML_STATUS_OK;
    INFO(XML_ErrorString(XML_GetErrorCode(parser)));
    XML_ParserFree(parser);
    REQUIRE(ok);
    return p;
}

bool isMoodleGrade(double g)
{
    for (double m : {100.0, 90.0, 83.33333, 80.0,     75.0,     70.0, 66.66667, 60.0, 50.0, 40.0, 33.33333,
                     30.0,  25.0, 20.0,     16.66667, 14.28571, 12.5, 11.11111, 10.0, 5.0,  0.0})
        if (std::abs(std::abs(g) - m) < 0.001)
            return true;
    return false;
}

/// Writes the quiz of every step of `schedule`, parses it back and holds it against the schedule.
std::vector<ParsedQuestion> checkedQuiz(const Schedule& schedule)
{
    std::vector<QuizQuestion> questions;
    for (std::uint32_t k = 1; k <= schedule.stepCount(); ++k) {
        QuizQuestion q = stepQuestion(schedule, k);
        q.name = "step " + std::to_string(k);
        q.imageName = "step-" + std::to_string(k) + ".png";
        q.imagePng = std::string("\x89PNG\r\n\x1a\n", 8);
        questions.push_back(q);
    }
    const QuizParse parsed = parseQuiz(moodleXml("test", questions, "topocast quiz --scenario x.json --steps all"));
    REQUIRE(parsed.questions.size() == schedule.stepCount() + 1);
    CHECK(parsed.questions[0].type == "category");
    std::vector<ParsedQuestion> out(parsed.questions.begin() + 1, parsed.questions.end());
    for (std::uint32_t k = 1; k <= schedule.stepCount(); ++k) {
        const ParsedQuestion& q = out[k - 1];
        INFO("step " << k << ": " << q.type);
        CHECK(q.files == 1);
        CHECK(q.questionText.find("@@PLUGINFILE@@/step-" + std::to_string(k) + ".png") != std::string::npos);
        std::set<std::string> receivers;
        for (NodeId n : stepReceivers(schedule, StepNo{k}))
            receivers.insert(schedule.topology().nodeName(n));
        if (q.type == "numerical") {
            REQUIRE(q.answers.size() == 1);
            CHECK(q.answers[0].text == std::to_string(receivers.size()));
            CHECK(q.answers[0].fraction == 100);
            CHECK(receivers.size() > 20);
            continue;
        }
        REQUIRE(q.type == "multichoice");
        CHECK(q.single == "false");
        double right = 0, wrong = 0;
        std::set<std::string> marked;
        for (const ParsedAnswer& a : q.answers) {
            CHECK(isMoodleGrade(a.fraction));
            CHECK(marked.insert(a.text).second);   // no node twice
            schedule.topology().parseNode(a.text); // every choice names a node of the network
            if (a.fraction > 0) {
                CHECK(receivers.contains(a.text));
                right += a.fraction;
            } else {
                CHECK_FALSE(receivers.contains(a.text));
                wrong += a.fraction;
            }
        }
        CHECK(std::abs(right - 100) < 0.001); // every receiver ticked: full marks
        CHECK(wrong <= -99.999);              // every choice ticked: nothing
        std::size_t rightCount = 0;
        for (const ParsedAnswer& a : q.answers)
            rightCount += a.fraction > 0 ? 1 : 0;
        CHECK(rightCount == receivers.size());
    }
    return out;
}

} // namespace

TEST_CASE("moodle quiz: Moodle's grades for n right choices sum to 100 and come from its list and none past 20",
          "[quiz]")
{
    for (std::size_t n = 1; n <= 20; ++n) {
        INFO(n << " right");
        const auto grades = moodleRightGrades(n);
        REQUIRE(grades);
        REQUIRE(grades->size() == n);
        double sum = 0;
        for (double g : *grades) {
            CHECK(isMoodleGrade(g));
            sum += g;
        }
        CHECK(std::abs(sum - 100) < 0.0001);
    }
    CHECK(*moodleRightGrades(16) == std::vector<double>{10, 10, 10, 10, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5});
    CHECK(*moodleRightGrades(3) == std::vector<double>(3, 33.33333));
    CHECK_FALSE(moodleRightGrades(0));
    CHECK_FALSE(moodleRightGrades(21));
    CHECK(moodleWrongGrade(1) == -100);
    CHECK(moodleWrongGrade(3) == -33.33333);
    CHECK(moodleWrongGrade(12) == -10);
    CHECK(moodleWrongGrade(40) == -5);
}

TEST_CASE("moodle quiz: a mesh and a hypercube scenario parsed back with every question's answers the schedule's",
          "[quiz]")
{
    const Scenario mesh = loadScenario(TOPOCAST_SOURCE_DIR "/resources/scenarios/baseline-binomial-4x4.json");
    const auto meshQuiz = checkedQuiz(buildScenario(mesh));
    REQUIRE(meshQuiz.size() == 4);
    // Step 2 of the binomial tree from (1,1): (1,2) and (1,0) receive, 50 % each; the 14 others
    // at −10 % (a tick on all 16 scores 0).
    std::map<std::string, double> step2;
    for (const ParsedAnswer& a : meshQuiz[1].answers)
        step2[a.text] = a.fraction;
    CHECK(step2.size() == 16);
    CHECK(step2["(1,2)"] == 50);
    CHECK(step2["(1,0)"] == 50);
    CHECK(step2["(3,3)"] == -10);

    const Scenario cube = loadScenario(TOPOCAST_SOURCE_DIR "/resources/scenarios/hypercube-sbt-scatter-3cube.json");
    const auto cubeQuiz = checkedQuiz(buildScenario(cube));
    REQUIRE(cubeQuiz.size() == 7);
    std::set<std::string> step3;
    for (const ParsedAnswer& a : cubeQuiz[2].answers)
        if (a.fraction > 0)
            step3.insert(a.text);
    CHECK(step3 == std::set<std::string>{"001", "110", "111"}); // binary, as the app names them
}

TEST_CASE("moodle quiz: a big step asks how many receive and big networks list the nearest others only", "[quiz]")
{
    const Scenario divisible = loadScenario(TOPOCAST_SOURCE_DIR "/resources/scenarios/divisible-scatter6.json");
    const Schedule s = buildScenario(divisible);
    const auto quiz = checkedQuiz(s);
    REQUIRE(quiz.size() == 3);
    CHECK(quiz[0].type == "multichoice"); // 6 receivers
    CHECK(quiz[0].answers.size() == 32);  // of 343 nodes: the 6 and the 26 nearest others
    CHECK(quiz[1].type == "numerical");   // 42 receivers: more than Moodle grades
    CHECK(quiz[1].answers[0].text == "42");
    CHECK(quiz[2].answers[0].text == "294");
    CHECK_THROWS_AS(stepQuestion(s, 4), Error);
}

TEST_CASE("moodle quiz: names and request are escaped and base64 is RFC 4648", "[quiz]")
{
    CHECK(base64("") == "");
    CHECK(base64("f") == "Zg==");
    CHECK(base64("fo") == "Zm8=");
    CHECK(base64("foo") == "Zm9v");
    CHECK(base64("foobar") == "Zm9vYmFy");
    QuizQuestion q;
    q.name = "A <b> & \"c\"";
    q.prompt = "Which ]]> nodes?";
    q.answers.push_back({"(0,0)", 100, ""});
    const std::string xml = moodleXml("x & y", std::vector<QuizQuestion>{q}, "topocast quiz --out a--b.xml");
    const QuizParse p = parseQuiz(xml);
    REQUIRE(p.questions.size() == 2);
    CHECK(p.questions[1].name == "A <b> & \"c\"");
    CHECK(p.questions[1].questionText.find("Which ]]&gt; nodes?") != std::string::npos);
    CHECK(xml.find("<p>Made by topocast: topocast quiz --out a--b.xml</p>") != std::string::npos);
}
