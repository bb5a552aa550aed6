#include "topocast/io/moodle_quiz.h"

#include "topocast/analysis/grade.h"
#include "topocast/io/xml_text.h"
#include "topocast/model/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>

namespace topocast {

namespace {

/// Moodle's grades (question_bank::fraction_options), in percent, largest first; an import with
/// "error if a grade is not listed" (the default) accepts these within 0.001 %.
constexpr std::array<double, 20> kMoodleGrades = {100,      90,       83.33333, 80,       75, 70, 66.66667,
                                                  60,       50,       40,       33.33333, 30, 25, 20,
                                                  16.66667, 14.28571, 12.5,     11.11111, 10, 5};
constexpr double kSumTolerance = 1e-4;

/// "5", "33.33333", "-100": a grade as Moodle lists it.
std::string gradeText(double g)
{
    std::string s = fmt::format("{:.5f}", g);
    while (s.back() == '0')
        s.pop_back();
    if (s.back() == '.')
        s.pop_back();
    return s;
}

/// Text for the inside of a CDATA section ("]]>" split across two sections).
std::string cdata(const std::string& html)
{
    std::string out = "<![CDATA[";
    std::size_t from = 0;
    for (std::size_t at; (at = html.find("]]>", from)) != std::string::npos; from = at + 2)
        out += html.substr(from, at + 2 - from) + "]]><![CDATA[";
    return out + html.substr(from) + "]]>";
}

std::string textElement(const char* tag, const std::string& html, bool asHtml = true)
{
    return fmt::format("<{0}{1}><text>{2}</text></{0}>", tag, asHtml ? " format=\"html\"" : "",
                       asHtml ? cdata(html) : xmlEscaped(html));
}

std::string questionText(const QuizQuestion& q)
{
    std::string html;
    if (!q.lead.empty())
        html += "<p>" + xmlEscaped(q.lead) + "</p>";
    if (!q.imageName.empty())
        html += fmt::format("<p><img src=\"@@PLUGINFILE@@/{}\" alt=\"{}\" style=\"max-width:100%\"></p>",
                            xmlEscaped(q.imageName), xmlEscaped(q.imageAlt));
    html += "<p><strong>" + xmlEscaped(q.prompt) + "</strong></p>";
    std::string out = "    <questiontext format=\"html\">\n      <text>" + cdata(html) + "</text>\n";
    if (!q.imageName.empty())
        out += fmt::format("      <file name=\"{}\" path=\"/\" encoding=\"base64\">{}</file>\n",
                           xmlEscaped(q.imageName), base64(q.imagePng));
    return out + "    </questiontext>\n";
}

std::string answerElement(const QuizAnswer& a, bool numerical)
{
    return fmt::format("    <answer fraction=\"{}\" format=\"{}\"><text>{}</text>{}{}</answer>\n",
                       gradeText(a.fraction), numerical ? "moodle_auto_format" : "html", xmlEscaped(a.text),
                       a.feedback.empty() ? "" : textElement("feedback", xmlEscaped(a.feedback)),
                       numerical ? "<tolerance>0</tolerance>" : "");
}

std::string questionXml(const QuizQuestion& q)
{
    const bool numerical = q.kind == QuizQuestion::Kind::Numerical;
    std::string out = fmt::format("  <question type=\"{}\">\n    <name><text>{}</text></name>\n",
                                  numerical ? "numerical" : "multichoice", xmlEscaped(q.name));
    out += questionText(q);
    out += "    " + textElement("generalfeedback", "<p>" + xmlEscaped(q.generalFeedback) + "</p>") + "\n";
    out += "    <defaultgrade>1</defaultgrade>\n    <penalty>0.3333333</penalty>\n    <hidden>0</hidden>\n";
    if (!numerical) {
        out += "    <single>false</single>\n    <shuffleanswers>true</shuffleanswers>\n    "
               "<answernumbering>none</answernumbering>\n";
        out += "    " +
               textElement("correctfeedback", "<p>Right: every node that receives in this step, and no other.</p>") +
               "\n";
        out += "    " + textElement("partiallycorrectfeedback", "<p>Partly right.</p>") + "\n";
        out += "    " + textElement("incorrectfeedback", "<p>Not right.</p>") + "\n";
        out += "    <shownumcorrect/>\n";
    }
    for (const QuizAnswer& a : q.answers)
        out += answerElement(a, numerical);
    return out + "  </question>\n";
}

/// The senders of `node` in the transfers of one step, by name.
std::string sendersOf(const Schedule& schedule, std::span<const Transfer> step, NodeId node)
{
    std::vector<std::string> from;
    for (const Transfer& t : step)
        if (t.to == node) {
            const std::string name = schedule.topology().nodeName(t.from);
            if (std::find(from.begin(), from.end(), name) == from.end())
                from.push_back(name);
        }
    return fmt::format("{}", fmt::join(from, ", "));
}

} // namespace

std::optional<std::vector<double>> moodleRightGrades(std::size_t n)
{
    if (n == 0 || n > 20)
        return std::nullopt;
    for (double g : kMoodleGrades)
        if (std::abs(g * static_cast<double>(n) - 100) < kSumTolerance)
            return std::vector<double>(n, g);
    // Two neighbouring grades, as close as the list allows: a of the larger x, n − a of y.
    double bestSpread = std::numeric_limits<double>::max();
    std::optional<std::vector<double>> best;
    for (std::size_t i = 0; i < kMoodleGrades.size(); ++i)
        for (std::size_t j = i + 1; j < kMoodleGrades.size(); ++j)
            for (std::size_t a = 1; a < n; ++a) {
                const double x = kMoodleGrades[i], y = kMoodleGrades[j];
                if (std::abs(x * static_cast<double>(a) + y * static_cast<double>(n - a) - 100) < kSumTolerance &&
                    x - y < bestSpread) {
                    bestSpread = x - y;
                    best = std::vector<double>(a, x);
                    best->insert(best->end(), n - a, y);
                }
            }
    return best;
}

double moodleWrongGrade(std::size_t wrongCount)
{
    if (wrongCount == 0)
        return 0;
    for (auto it = kMoodleGrades.rbegin(); it != kMoodleGrades.rend(); ++it)
        if (*it * static_cast<double>(wrongCount) >= 100 - kSumTolerance)
            return -*it;
    return -100;
}

QuizQuestion stepQuestion(const Schedule& schedule, std::uint32_t step, const StepQuestionOptions& options)
{
    const std::vector<NodeId> receivers = stepReceivers(schedule, StepNo{step});
    const Topology& topo = schedule.topology();
    const std::span<const Transfer> transfers = schedule.stepTransfers(StepNo{step});
    QuizQuestion q;
    q.step = step;
    const std::optional<std::vector<double>> grades = moodleRightGrades(receivers.size());
    if (!grades) {
        q.kind = QuizQuestion::Kind::Numerical;
        q.prompt = fmt::format("How many nodes receive in step {}?", step);
        q.answers.push_back({std::to_string(receivers.size()), 100,
                             fmt::format("{} nodes receive in step {}.", receivers.size(), step)});
        return q;
    }
    q.prompt = fmt::format("Which nodes receive in step {}? Tick every one.", step);
    for (std::size_t i = 0; i < receivers.size(); ++i)
        q.answers.push_back(
            {topo.nodeName(receivers[i]), (*grades)[i],
             fmt::format("Receives in step {} from {}.", step, sendersOf(schedule, transfers, receivers[i]))});
    // The other nodes, nearest a receiver first, as many as fit.
    std::vector<std::pair<int, NodeId>> others;
    for (NodeId n : nodes(topo)) {
        if (std::binary_search(receivers.begin(), receivers.end(), n))
            continue;
        int nearest = std::numeric_limits<int>::max();
        for (NodeId r : receivers)
            nearest = std::min(nearest, topo.distance(n, r));
        others.emplace_back(nearest, n);
    }
    std::sort(others.begin(), others.end());
    const std::size_t room = options.maxChoices > receivers.size() ? options.maxChoices - receivers.size() : 0;
    others.resize(std::min(others.size(), std::max<std::size_t>(room, 1)));
    const double wrong = moodleWrongGrade(others.size());
    for (const auto& [distance, n] : others)
        q.answers.push_back({topo.nodeName(n), wrong, fmt::format("Does not receive in step {}.", step)});
    return q;
}

std::string moodleXml(const std::string& category, std::span<const QuizQuestion> questions, const std::string& request)
{
    std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<quiz>\n";
    // The category's description records the request that made the file.
    out += "  <question type=\"category\">\n    <category><text>" + xmlEscaped("$course$/topocast/" + category) +
           "</text></category>\n    " + textElement("info", "<p>Made by topocast: " + xmlEscaped(request) + "</p>") +
           "\n  </question>\n";
    for (const QuizQuestion& q : questions)
        out += questionXml(q);
    return out + "</quiz>\n";
}

std::string base64(const std::string& bytes)
{
    static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const auto v = (static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i])) << 16) |
                       (static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8) |
                       static_cast<unsigned char>(bytes[i + 2]);
        for (int k = 3; k >= 0; --k)
            out += kAlphabet[(v >> (6 * k)) & 63];
    }
    if (const std::size_t rest = bytes.size() - i; rest > 0) {
        std::uint32_t v = static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i])) << 16;
        if (rest == 2)
            v |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8;
        out += kAlphabet[(v >> 18) & 63];
        out += kAlphabet[(v >> 12) & 63];
        out += rest == 2 ? kAlphabet[(v >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

} // namespace topocast
