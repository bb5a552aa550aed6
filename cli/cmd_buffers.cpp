// topocast-cli buffers: what every node holds at the end of a step (core Holdings).
// --json: the envelope, {"step": K, "steps": S, "chunks": C, "nodes": [{"node": node notation,
// "required": R, "required_held": H, "blocks": [{"chunk": id or null, "sources": [nodes, as "node" writes them]}, …]},
// …]} in node-id order; text: a line per node with its chunk ids.

#include "commands.h"

#include "envelope.h"

#include "topocast/analysis/holdings.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/error.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <memory>
#include <ostream>

namespace topocast::cli {

namespace {

struct BuffersCommand {
    ScenarioOptions scenario;
    long long step = -1;
    bool json = false;
};

int runBuffers(const BuffersCommand& opt, Io& io)
{
    const Scenario sc = opt.scenario.resolve();
    const Schedule schedule = buildScenario(sc);
    const std::uint32_t steps = schedule.stepCount();
    if (opt.step < 0 || opt.step > static_cast<long long>(steps))
        throw Error(fmt::format("--step {}: this schedule has steps 1..{}; 0 is before the first", opt.step, steps));
    const StepNo step{static_cast<std::uint32_t>(opt.step)};
    const Holdings holdings(schedule);
    const Topology& topo = schedule.topology();

    if (opt.json) {
        nlohmann::ordered_json doc = scenarioEnvelope("topocast-buffers", sc);
        doc["pattern"] = toString(schedule.pattern());
        doc["step"] = opt.step;
        doc["steps"] = steps;
        doc["chunks"] = chunkCount(schedule);
        nlohmann::ordered_json nodes = nlohmann::ordered_json::array();
        for (NodeId v{}; v < topo.nodeCount(); ++v) {
            nlohmann::ordered_json blocks = nlohmann::ordered_json::array();
            for (const HeldBlock& b : holdings.blocksAt(schedule, v, step)) {
                nlohmann::ordered_json sources = nlohmann::ordered_json::array();
                for (NodeId u : b.sources)
                    sources.push_back(nodeToJson(topo, u));
                blocks.push_back(
                    {{"chunk", b.chunk == kNoChunk ? nlohmann::ordered_json() : nlohmann::ordered_json(b.chunk)},
                     {"sources", std::move(sources)}});
            }
            nodes.push_back({{"node", nodeToJson(topo, v)},
                             {"required", holdings.requiredCount(v)},
                             {"required_held", holdings.requiredHeldAt(v, step)},
                             {"blocks", std::move(blocks)}});
        }
        doc["nodes"] = std::move(nodes);
        io.out << doc.dump() << '\n';
        return 0;
    }
    const std::string from = hasRoot(schedule.pattern()) ? " from " + topo.nodeName(schedule.source()) : std::string();
    io.out << fmt::format("{} {} on the {}{}: what each node holds at the end of step {} of {} ({} chunks)\n",
                          sc.algorithm, toString(schedule.pattern()), topo.displayName(), from, opt.step, steps,
                          chunkCount(schedule));
    for (NodeId v{}; v < topo.nodeCount(); ++v) {
        std::vector<std::string> chunks;
        for (const HeldBlock& b : holdings.blocksAt(schedule, v, step))
            chunks.push_back(b.chunk == kNoChunk ? "?" : std::to_string(b.chunk));
        io.out << fmt::format("{}: {} of its {} required; chunks {}\n", topo.nodeName(v),
                              holdings.requiredHeldAt(v, step), holdings.requiredCount(v),
                              chunks.empty() ? "none" : fmt::format("{}", fmt::join(chunks, " ")));
    }
    return 0;
}

const CommandRegistrar reg{Command{
    .name = "buffers",
    .help = "what every node holds at the end of a step: its chunks and the nodes whose data each stands for",
    .setup =
        [](CLI::App& sub) {
            auto opt = std::make_shared<BuffersCommand>();
            opt->scenario.add(sub);
            sub.add_option("--step", opt->step, "the step K (0 = before the first step, up to the last)")->required();
            sub.add_flag(
                "--json", opt->json,
                "write {format, version, topology, algorithm, parameters, source, pattern, step, steps, chunks, "
                "\"nodes\": [{\"node\", \"required\", \"required_held\", \"blocks\": [{\"chunk\", \"sources\"}, …]}, "
                "…]}");
            return [opt](Io& io) { return runBuffers(*opt, io); };
        },
}};

} // namespace

} // namespace topocast::cli
