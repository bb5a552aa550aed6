#include "topocast/grade.h"

#include "topocast/error.h"

#include <algorithm>
#include <string>

namespace topocast {

std::vector<NodeId> stepReceivers(const Schedule& schedule, std::uint32_t step)
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

StepGrade gradeStep(const Schedule& schedule, std::uint32_t step, std::span<const NodeId> guess)
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
            throw Error("node list '" + std::string(text) + "' has an empty item; separate nodes with ';' as in \"1,2;3,0\"");
        }
        start = end + 1;
    }
    return out;
}

} // namespace topocast
