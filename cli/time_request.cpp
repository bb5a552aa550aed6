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

bool parseSync(const std::string& sync)
{
    if (sync != "none" && sync != "steps")
        throw Error("--sync '" + sync + "' is not known; use none (every send as soon as its data and ports allow) or "
                    "steps (a barrier between steps, as the papers count them)");
    return sync == "steps";
}

} // namespace topocast::cli
