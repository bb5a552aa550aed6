#include "topocast/analysis/grade.h"

#include "topocast/algorithms/figures.h"
#include "topocast/model/error.h"

#include <algorithm>
#include <string>

namespace topocast {

std::vector<NodeId> stepReceivers(const Schedule& schedule, StepNo step)
{
    if (step < 1 || step > schedule.stepCount())
        throw Error("step " + std::to_string(step) + " is not a step of this schedule; it has steps 1.." +
                    std::to_string(schedule.stepCount()));
    std::vector<NodeId> out;
    for (const Transfer& t : schedule.stepTransfers(step))
        out.push_back(t.to);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

StepGrade gradeStep(const Schedule& schedule, StepNo step, std::span<const NodeId> guess)
{
    const Topology& topo = schedule.topology();
    std::vector<NodeId> marked(guess.begin(), guess.end());
    for (NodeId v : marked)
        if (v >= topo.nodeCount())
            throw Error("node " + std::to_string(v) + " is not in the " + topo.displayName() + " (ids 0.." +
                        std::to_string(topo.nodeCount() - 1) + ")");
    std::sort(marked.begin(), marked.end());
    if (const auto twice = std::adjacent_find(marked.begin(), marked.end()); twice != marked.end())
        throw Error("node " + topo.nodeName(*twice) + " is marked twice; mark each node once");
    const std::vector<NodeId> receivers = stepReceivers(schedule, step);
    StepGrade grade;
    grade.step = step;
    std::set_intersection(marked.begin(), marked.end(), receivers.begin(), receivers.end(),
                          std::back_inserter(grade.right));
    std::set_difference(receivers.begin(), receivers.end(), marked.begin(), marked.end(),
                        std::back_inserter(grade.missed));
    std::set_difference(marked.begin(), marked.end(), receivers.begin(), receivers.end(),
                        std::back_inserter(grade.wrong));
    return grade;
}

GradeTally tallyGrades(std::span<const StepGrade> grades)
{
    GradeTally t;
    for (const StepGrade& g : grades) {
        ++t.steps;
        t.right += g.right.size();
        t.missed += g.missed.size();
        t.wrong += g.wrong.size();
    }
    return t;
}

namespace {

void checkStep(const Schedule& schedule, StepNo step)
{
    if (step < 1 || step > schedule.stepCount())
        throw Error("step " + std::to_string(step) + " is not a step of this schedule; it has steps 1.." +
                    std::to_string(schedule.stepCount()));
}

/// "the source (0,0)", "the eye (2,3)" or "(4,1)".
std::string senderName(const Schedule& schedule, NodeId v)
{
    const Topology& topo = schedule.topology();
    const std::string name = topo.nodeName(v);
    const bool source = v == schedule.source() && hasRoot(schedule.pattern());
    bool eye = false;
    if (const CangWuFigures* cw = schedule.figures ? schedule.figures->get<CangWuFigures>() : nullptr;
        cw && !topo.isHypercube()) {
        const Coord me = topo.coords(v);
        eye = std::find(cw->eyes.begin(), cw->eyes.end(), me) != cw->eyes.end();
    }
    if (source)
        return (eye ? "the source, an eye, " : "the source ") + name;
    return eye ? "the eye " + name : name;
}

std::string hopsText(int hops)
{
    return std::to_string(hops) + (hops == 1 ? " hop" : " hops");
}

} // namespace

std::string explainReceiver(const Schedule& schedule, StepNo step, NodeId v)
{
    checkStep(schedule, step);
    std::string out;
    for (const Transfer& t : schedule.stepTransfers(step)) {
        if (t.to != v)
            continue;
        out += out.empty() ? schedule.topology().nodeName(v) + " receives from " : " and from ";
        out += senderName(schedule, t.from) + " over " + hopsText(schedule.hops(t));
    }
    if (out.empty())
        throw Error("node " + schedule.topology().nodeName(v) + " receives nothing in step " + std::to_string(step));
    return out;
}

std::string explainNonReceiver(const Schedule& schedule, StepNo step, NodeId v)
{
    checkStep(schedule, step);
    const std::string name = schedule.topology().nodeName(v);
    StepNo before{};
    StepNo after{};
    for (const Transfer& t : schedule.transfers()) {
        if (t.to != v)
            continue;
        if (t.step == step)
            throw Error("node " + name + " does receive in step " + std::to_string(step));
        if (t.step < step)
            before = std::max(before, t.step);
        else if (after == 0 || t.step < after)
            after = t.step;
    }
    const std::string head = name + " receives nothing in step " + std::to_string(step);
    if (after != 0)
        return head + "; it receives in step " + std::to_string(after);
    if (before != 0)
        return head + "; it received in step " + std::to_string(before);
    if (v == schedule.source())
        return name + " is the source; it receives nothing";
    return name + " receives nothing in this schedule";
}

std::string explainGrade(const Schedule& schedule, const StepGrade& grade, std::size_t maxClauses)
{
    std::string out = "Step " + std::to_string(grade.step) + ": ";
    const std::size_t receivers = grade.right.size() + grade.missed.size();
    if (grade.missed.empty() && grade.wrong.empty())
        out += receivers == 0 ? "nothing to find, none marked." : "all " + std::to_string(receivers) + " right.";
    else
        out += std::to_string(grade.right.size()) + " right, " + std::to_string(grade.missed.size()) + " missed, " +
               std::to_string(grade.wrong.size()) + " wrong.";
    auto group = [&](const char* title, const std::vector<NodeId>& nodes, bool receives) {
        if (nodes.empty())
            return;
        out += std::string(" ") + title + ": ";
        const std::size_t shown = std::min(nodes.size(), maxClauses);
        for (std::size_t i = 0; i < shown; ++i) {
            if (i > 0)
                out += "; ";
            out += receives ? explainReceiver(schedule, grade.step, nodes[i])
                            : explainNonReceiver(schedule, grade.step, nodes[i]);
        }
        if (nodes.size() > shown)
            out += "; … and " + std::to_string(nodes.size() - shown) + " more";
        out += ".";
    };
    group("Missed", grade.missed, true);
    group("Right", grade.right, true);
    group("Wrong", grade.wrong, false);
    return out;
}

std::vector<NodeId> parseNodeList(const Topology& topo, std::string_view text)
{
    std::vector<NodeId> out;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find(';', start), text.size());
        std::string_view item = text.substr(start, end - start);
        while (!item.empty() && item.front() == ' ')
            item.remove_prefix(1);
        while (!item.empty() && item.back() == ' ')
            item.remove_suffix(1);
        if (!item.empty()) {
            try {
                out.push_back(topo.parseNode(item));
            } catch (const Error& e) {
                throw Error("node list item '" + std::string(item) + "': " + e.what());
            }
        } else if (end < text.size()) {
            throw Error("node list '" + std::string(text) +
                        "' has an empty item; separate nodes with ';' as in \"1,2;3,0\"");
        }
        start = end + 1;
    }
    return out;
}

} // namespace topocast
