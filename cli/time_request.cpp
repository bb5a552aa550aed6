// What `time` and `simulate` share (time_request.h).
#include "time_request.h"

#include "envelope.h"

#include "topocast/io/network_json.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/error.h"

#include <cmath>

namespace topocast::cli {

nlohmann::ordered_json nsJson(double nanoseconds)
{
    return {{"value", std::round(nanoseconds * 1e3) / 1e3}, {"unit", "ns"}};
}

nlohmann::ordered_json timeRequestJson(const std::string& file, const std::string& topology, const std::string& ranks,
                                       const Scenario* sc, const NetworkModel& net, bool steps)
{
    nlohmann::ordered_json r;
    if (!sc) {
        r["file"] = file;
        if (!topology.empty())
            r["topology"] = topology;
        if (!ranks.empty())
            r["ranks"] = ranks;
    } else {
        r["topology"] = sc->topology.spec();
        r["algorithm"] = sc->algorithm;
        nlohmann::ordered_json params = nlohmann::ordered_json::object();
        for (const auto& [k, v] : sc->params.values())
            params[k] = v;
        r["parameters"] = params;
        r["source"] = nodeToJson(sc->topology, sc->source);
    }
    r["network"] = networkJson(net);
    r["sync"] = steps ? "steps" : "none";
    return r;
}

void timedScheduleJson(nlohmann::ordered_json& doc, const Schedule& s, const NetworkModel& net, const TimeResult& t,
                       const TimeResult* free)
{
    const Topology& topo = s.topology();
    doc["last_node"] = nodeToJson(topo, NodeId{t.lastRank});
    nlohmann::ordered_json nodes = nlohmann::ordered_json::array();
    for (std::uint32_t r = 0; r < t.rankFinish.size(); ++r)
        nodes.push_back({{"node", nodeToJson(topo, NodeId{r})}, {"finish", nsJson(t.rankFinish[r])}});
    doc["nodes"] = nodes;
    nlohmann::ordered_json steps = nlohmann::ordered_json::array();
    for (std::size_t k = 0; k < t.stepEnds.size(); ++k) {
        steps.push_back({{"step", k + 1}, {"end", nsJson(t.stepEnds[k])}});
        if (free)
            steps.back()["contention_free_end"] = nsJson(free->stepEnds.at(k));
    }
    doc["steps"] = steps;
    nlohmann::ordered_json transfers = nlohmann::ordered_json::array();
    const TransferBytes bytesOf(s, net.message);
    for (std::size_t i = 0; i < s.size(); ++i) {
        const Transfer& x = s.transfers()[i];
        transfers.push_back({{"from", nodeToJson(topo, x.from)},
                             {"to", nodeToJson(topo, x.to)},
                             {"step", x.step.value()},
                             {"bytes", bytesOf(x)},
                             {"hops", s.hops(x)},
                             {"start", nsJson(t.transfers[i].start)},
                             {"end", nsJson(t.transfers[i].end)}});
        if (free)
            transfers.back()["contention_free_end"] = nsJson(free->transfers.at(i).end);
    }
    doc["transfers"] = transfers;
}

bool parseSync(const std::string& sync)
{
    if (sync != "none" && sync != "steps")
        throw Error("--sync '" + sync +
                    "' is not known; use none (every send as soon as its data and ports allow) or "
                    "steps (a barrier between steps, as the papers count them)");
    return sync == "steps";
}

} // namespace topocast::cli
