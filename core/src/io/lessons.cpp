#include "topocast/io/lessons.h"

#include "json_fields.h"

#include "topocast/analysis/grade.h"
#include "topocast/analysis/metrics.h"
#include "topocast/io/read_file.h"
#include "topocast/io/scenario_json.h"
#include "topocast/model/error.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace topocast {

namespace {

using jsonfields::fail;
using jsonfields::joinPath;
using jsonfields::need;
using jsonfields::stringValue;
using nlohmann::json;

std::string optionalString(const json& obj, const char* key, const std::string& path)
{
    const auto it = obj.find(key);
    return it == obj.end() ? std::string() : stringValue(*it, joinPath(path, key));
}

std::vector<std::string> stringList(const json& v, const std::string& path)
{
    if (!v.is_array())
        fail(path, std::string("expected a list of strings, got ") + v.type_name());
    std::vector<std::string> out;
    for (std::size_t i = 0; i < v.size(); ++i)
        out.push_back(stringValue(v[i], path + "[" + std::to_string(i) + "]"));
    return out;
}

std::uint64_t wholeNumber(const json& v, const std::string& path, std::uint64_t least)
{
    if (!v.is_number_integer() || v.get<long long>() < static_cast<long long>(least))
        fail(path, fmt::format("expected a whole number ≥ {}, got {}", least, v.dump()));
    return v.get<std::uint64_t>();
}

LessonCheck checkFromJson(const json& v, const std::string& path)
{
    if (!v.is_object())
        fail(path, "expected an object such as {\"step\": 2, \"receivers\": [\"(1,2)\"]}");
    LessonCheck c;
    for (const auto& [key, value] : v.items()) {
        const std::string at = joinPath(path, key.c_str());
        if (key == "side") {
            if (value != "compare")
                fail(at, "expected \"compare\" (the preset's side B); leave it out for side A");
            c.compareSide = true;
        } else if (key == "params") {
            if (!value.is_object())
                fail(at, "expected an object of parameters such as {\"mode\": \"optimal\"}");
            for (const auto& [name, text] : value.items())
                c.params[name] = stringValue(text, joinPath(at, name.c_str()));
        } else if (key == "step") {
            c.step = static_cast<std::uint32_t>(wholeNumber(value, at, 1));
        } else if (key == "receivers") {
            c.receivers = stringList(value, at);
        } else if (key == "receiver_count") {
            c.receiverCount = wholeNumber(value, at, 0);
        } else if (key == "tcd") {
            c.tcd = wholeNumber(value, at, 0);
        } else if (key == "tcd_per_step") {
            if (!value.is_array())
                fail(at, "expected a list of every step's TCD, such as [7, 9, 6]");
            std::vector<std::uint64_t> perStep;
            for (std::size_t i = 0; i < value.size(); ++i)
                perStep.push_back(wholeNumber(value[i], at + "[" + std::to_string(i) + "]", 0));
            c.tcdPerStep = perStep;
        } else if (key == "steps") {
            c.steps = static_cast<std::uint32_t>(wholeNumber(value, at, 0));
        } else {
            fail(at, "not a check topocast knows; allowed: side, params, step, receivers, receiver_count, tcd, "
                     "tcd_per_step, steps");
        }
    }
    if ((c.receivers || c.receiverCount) && !c.step)
        fail(path, "receivers and receiver_count need the step they are of (\"step\": N)");
    return c;
}

LessonItem itemFromJson(const json& v, const std::string& path, const std::vector<std::string>& presets)
{
    if (!v.is_object())
        fail(path, "expected an object with text, ask and answer");
    LessonItem item;
    item.preset = optionalString(v, "preset", path);
    item.text = optionalString(v, "text", path);
    item.ask = optionalString(v, "ask", path);
    item.answer = optionalString(v, "answer", path);
    if (!item.preset.empty() && std::find(presets.begin(), presets.end(), item.preset) == presets.end())
        fail(joinPath(path, "preset"), "\"" + item.preset + "\" is not one of the lesson's presets");
    if (item.text.empty() && item.ask.empty())
        fail(path, "an item needs a text or a question (ask)");
    if (item.ask.empty() != item.answer.empty())
        fail(path, "a question (ask) needs its answer, and an answer its question");
    if (const auto it = v.find("checks"); it != v.end()) {
        if (!it->is_array())
            fail(joinPath(path, "checks"), "expected a list of checks");
        if (item.preset.empty())
            fail(joinPath(path, "checks"), "checks need the item's preset");
        for (std::size_t i = 0; i < it->size(); ++i)
            item.checks.push_back(checkFromJson((*it)[i], joinPath(path, "checks") + "[" + std::to_string(i) + "]"));
    }
    return item;
}

Lesson lessonFromJson(const json& v, const std::string& path)
{
    Lesson l;
    l.id = stringValue(need(v, "id", path), joinPath(path, "id"));
    l.title = stringValue(need(v, "title", path), joinPath(path, "title"));
    l.audience = optionalString(v, "audience", path);
    l.goal = stringValue(need(v, "goal", path), joinPath(path, "goal"));
    l.presets = stringList(need(v, "presets", path), joinPath(path, "presets"));
    const json& items = need(v, "items", path);
    if (!items.is_array() || items.empty())
        fail(joinPath(path, "items"), "expected a list of one item or more");
    for (std::size_t i = 0; i < items.size(); ++i)
        l.items.push_back(itemFromJson(items[i], joinPath(path, "items") + "[" + std::to_string(i) + "]", l.presets));
    if (const auto it = v.find("handout"); it != v.end()) {
        const std::string at = joinPath(path, "handout");
        LessonHandout h;
        h.preset = stringValue(need(*it, "preset", at), joinPath(at, "preset"));
        h.steps = stringValue(need(*it, "steps", at), joinPath(at, "steps"));
        h.note = optionalString(*it, "note", at);
        l.handout = h;
    }
    return l;
}

/// "(1,2), (1,0)": a list of names as the answers write them.
std::string joined(const std::vector<std::string>& names)
{
    return fmt::format("{}", fmt::join(names, ", "));
}

/// The findings of one check against `schedule`.
void holdCheck(const LessonCheck& c, const Schedule& schedule, const std::string& where, std::vector<std::string>& out)
{
    if (c.steps && schedule.stepCount() != *c.steps)
        out.push_back(fmt::format("{}: {} steps, not {}", where, schedule.stepCount(), *c.steps));
    if (c.tcd || c.tcdPerStep) {
        const Metrics m = computeMetrics(schedule);
        if (c.tcd && m.tcd != *c.tcd)
            out.push_back(fmt::format("{}: TCD {}, not {}", where, m.tcd, *c.tcd));
        if (c.tcdPerStep && m.tcdPerStep != *c.tcdPerStep)
            out.push_back(fmt::format("{}: TCD by step {}, not {}", where, fmt::join(m.tcdPerStep, " + "),
                                      fmt::join(*c.tcdPerStep, " + ")));
    }
    if (!c.step)
        return;
    if (*c.step > schedule.stepCount()) {
        out.push_back(fmt::format("{}: the schedule has {} steps, no step {}", where, schedule.stepCount(), *c.step));
        return;
    }
    const std::vector<NodeId> receivers = stepReceivers(schedule, StepNo{*c.step});
    if (c.receiverCount && receivers.size() != *c.receiverCount)
        out.push_back(
            fmt::format("{}: {} nodes receive in step {}, not {}", where, receivers.size(), *c.step, *c.receiverCount));
    if (!c.receivers)
        return;
    std::vector<std::string> actual, claimed = *c.receivers;
    for (NodeId n : receivers)
        actual.push_back(schedule.topology().nodeName(n));
    std::vector<std::string> sortedActual = actual, sortedClaimed = claimed;
    std::sort(sortedActual.begin(), sortedActual.end());
    std::sort(sortedClaimed.begin(), sortedClaimed.end());
    if (sortedActual != sortedClaimed)
        out.push_back(
            fmt::format("{}: step {} is received by {}, not {}", where, *c.step, joined(actual), joined(claimed)));
}

} // namespace

LessonBook lessonsFromText(std::string_view text, const std::string& what)
{
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::exception& e) {
        throw Error(what + ": not JSON (" + e.what() + ")");
    }
    try {
        if (stringValue(need(doc, "format", ""), "format") != "topocast-lessons")
            fail("format", "expected \"topocast-lessons\"");
        if (need(doc, "version", "") != 1)
            fail("version", "expected 1, the version this topocast reads");
        LessonBook book;
        book.title = stringValue(need(doc, "title", ""), "title");
        book.preamble = stringList(need(doc, "preamble", ""), "preamble");
        const json& lessons = need(doc, "lessons", "");
        if (!lessons.is_array() || lessons.empty())
            fail("lessons", "expected a list of one lesson or more");
        for (std::size_t i = 0; i < lessons.size(); ++i)
            book.lessons.push_back(lessonFromJson(lessons[i], "lessons[" + std::to_string(i) + "]"));
        if (doc.contains("closing"))
            book.closing = stringList(doc["closing"], "closing");
        return book;
    } catch (const Error& e) {
        throw Error(what + ": " + e.what());
    }
}

LessonBook loadLessons(const std::filesystem::path& path)
{
    ReadFileLimits limits;
    limits.kind = "lessons file";
    limits.maxBytes = std::uint64_t{1} << 22;
    limits.whenPast = [&] { throw Error(path.string() + ": past 4 MiB; a lessons file is a few pages of text"); };
    return lessonsFromText(readFileText(path, limits), path.string());
}

std::string lessonMarkdown(const Lesson& lesson, std::size_t number, const LessonMarkdownOptions& options)
{
    const auto preset = [&](const std::string& name) {
        return options.panel ? fmt::format("[`{}`](open:{})", name, name) : fmt::format("`{}`", name);
    };
    std::string md = fmt::format("## {}. {}{}\n\n**Goal:** {}\n\n", number, lesson.title,
                                 lesson.audience.empty() ? "" : " (" + lesson.audience + ")", lesson.goal);
    md += "*Open* ";
    for (std::size_t i = 0; i < lesson.presets.size(); ++i)
        md += (i == 0 ? "" : ", then ") + preset(lesson.presets[i]);
    md += ".\n\n";
    std::string current;
    for (std::size_t i = 0; i < lesson.items.size(); ++i) {
        const LessonItem& item = lesson.items[i];
        std::string head;
        if (!item.preset.empty() && item.preset != current)
            head = preset(item.preset) + ": ";
        current = item.preset.empty() ? current : item.preset;
        md += fmt::format("{}. {}", i + 1, head);
        if (!item.text.empty())
            md += item.text + "\n";
        if (!item.ask.empty()) {
            md += item.text.empty() ? "" : "\n   ";
            md += "**Ask:** *" + item.ask + "*\n\n   ";
            if (options.panel && !options.revealed.contains(i))
                md += fmt::format("[Show the answer](reveal:{})\n", i);
            else
                md += "**Answer:** " + item.answer + "\n";
        }
        md += "\n";
    }
    if (lesson.handout) {
        const LessonHandout& h = *lesson.handout;
        md += fmt::format("*Handout:* {}, steps {}{}.\n\n", preset(h.preset), h.steps,
                          h.note.empty() ? "" : " (" + h.note + ")");
    }
    return md;
}

std::string lessonBookMarkdown(const LessonBook& book)
{
    std::string md = "# " + book.title + "\n\n";
    md += "<!-- Written from resources/lessons/lessons.json by `topocast-cli lessons --markdown`; edit that file. "
          "-->\n\n";
    for (const std::string& p : book.preamble)
        md += p + "\n\n";
    for (std::size_t i = 0; i < book.lessons.size(); ++i)
        md += lessonMarkdown(book.lessons[i], i + 1);
    for (const std::string& p : book.closing)
        md += p + "\n\n";
    while (md.ends_with("\n\n"))
        md.pop_back();
    return md;
}

std::vector<std::string> lessonFindings(const LessonBook& book, const std::filesystem::path& presetsDir)
{
    std::vector<std::string> out;
    for (std::size_t l = 0; l < book.lessons.size(); ++l) {
        const Lesson& lesson = book.lessons[l];
        std::vector<std::string> names = lesson.presets;
        if (lesson.handout)
            names.push_back(lesson.handout->preset);
        for (const std::string& name : names)
            if (!std::filesystem::is_regular_file(presetsDir / (name + ".json")))
                out.push_back(fmt::format("lesson {}: no preset {} in {}", l + 1, name, presetsDir.string()));
        for (std::size_t i = 0; i < lesson.items.size(); ++i)
            for (const LessonCheck& c : lesson.items[i].checks) {
                const std::string where = fmt::format("lesson {}, item {} ({}{})", l + 1, i + 1, lesson.items[i].preset,
                                                      c.compareSide ? ", side B" : "");
                try {
                    Scenario s = loadScenario(presetsDir / (lesson.items[i].preset + ".json"));
                    if (c.compareSide) {
                        if (!s.compare)
                            throw Error("the preset compares nothing; it has no side B");
                        s = compareSide(s);
                    }
                    for (const auto& [key, value] : c.params)
                        s.params.set(key, value);
                    holdCheck(c, buildScenario(s), where, out);
                } catch (const Error& e) {
                    out.push_back(where + ": " + e.what());
                }
            }
    }
    return out;
}

} // namespace topocast
