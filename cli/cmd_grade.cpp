// topocast-cli grade: a student's guess of which nodes receive in one step, graded against the
// schedule (right, missed, wrong) — the check behind the app's Predict mode.
#include "commands.h"

#include "envelope.h"

#include "topocast/analysis/grade.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/error.h"

#include <memory>
#include <ostream>

namespace topocast::cli {

namespace {

struct GradeCommand {
    ScenarioOptions scenario;
    std::uint32_t step = 0;
    std::string nodes;
    bool json = false;
};

std::string names(const Topology& topo, const std::vector<NodeId>& nodes)
{
    if (nodes.empty())
        return "none";
    std::string out;
    for (NodeId v : nodes)
        out += (out.empty() ? "" : " ") + topo.nodeName(v);
    return out;
}

int grade(const GradeCommand& o, Io& io)
{
    const Scenario sc = o.scenario.resolve();
    const Schedule schedule = buildScenario(sc);
    const Topology& topo = schedule.topology();
    const std::vector<NodeId> guess = parseNodeList(topo, o.nodes);
    const StepGrade g = gradeStep(schedule, StepNo{o.step}, guess);
    if (o.json) {
        auto list = [&](const std::vector<NodeId>& nodes) {
            nlohmann::ordered_json a = nlohmann::ordered_json::array();
            for (NodeId v : nodes)
                a.push_back(nodeToJson(topo, v));
            return a;
        };
        nlohmann::ordered_json out = scenarioEnvelope("topocast-grade", sc);
        out["steps"] = schedule.stepCount();
        out["step"] = g.step;
        out["right"] = list(g.right);
        out["missed"] = list(g.missed);
        out["wrong"] = list(g.wrong);
        io.out << out.dump() << "\n";
        return 0;
    }
    io.out << "step " << g.step << " of " << schedule.stepCount() << ": " << g.right.size() << " of "
           << g.right.size() + g.missed.size() << " receivers found, " << g.wrong.size() << " wrong\n"
           << "  right:  " << names(topo, g.right) << "\n"
           << "  missed: " << names(topo, g.missed) << "\n"
           << "  wrong:  " << names(topo, g.wrong) << "\n";
    return 0;
}

Command makeCommand()
{
    return Command{
        .name = "grade",
        .help = "grade a guess of the nodes that receive in one step (right, missed, wrong)",
        .setup = [](CLI::App& sub) {
            auto opts = std::make_shared<GradeCommand>();
            opts->scenario.add(sub);
            sub.add_option("--step", opts->step, "the step guessed, 1..steps")->required();
            sub.add_option("--nodes", opts->nodes,
                           "the nodes marked, separated by ';': coordinates \"1,2;3,0\" (mesh, torus) or "
                           "addresses \"5;0b0110\" (hypercube); empty for none")
                ->required();
            sub.add_flag("--json", opts->json,
                         "print {format, version, topology, algorithm, parameters, source, steps, step, right, missed, "
                         "wrong} as JSON (nodes as coordinate arrays, addresses on a hypercube)");
            return [opts](Io& io) { return grade(*opts, io); };
        }};
}

const CommandRegistrar registrar{makeCommand()};

} // namespace

} // namespace topocast::cli
