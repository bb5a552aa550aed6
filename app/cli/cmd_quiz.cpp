// topocast quiz: a scenario's predict questions as Moodle XML — one question a step ("Which nodes
// receive in step 3?") with the picture of the network before it (needs OpenGL for the pictures,
// so a display or xvfb-run, as render does).
#include "commands.h"
#include "guiscope.h"
#include "render_options.h"

#include "export/quiz.h"
#include "launch/startup.h"
#include "session/snapshot.h"
#include "style/scenestyle.h"

#include "topocast/io/scenario_file.h"
#include "topocast/model/error.h"

#include <fmt/format.h>

#include <memory>
#include <ostream>

namespace topocast::cli {

namespace {

struct QuizCommand {
    std::string scenario;
    std::string out;
    std::string steps = "all";
    std::string mode; ///< empty: the scenario's own
};

int quiz(const QuizCommand& o, Io& io)
{
    const Scenario scenario = loadScenario(o.scenario);
    const std::string modeName = chosenModeName(o.mode, scenario);
    const auto mode = app::parseViewMode(QString::fromStdString(modeName));
    GuiScope gui("quiz", "OpenGL for its pictures");
    const app::SnapshotPtr snap = app::buildSnapshot(scenario);
    const auto [first, last] = parseStepRange(o.steps, snap->stepCount());
    app::QuizSettings settings;
    settings.view.mode = *mode;
    settings.view.size = QSize(800, 640);
    settings.firstStep = first;
    settings.lastStep = last;
    settings.request = QString::fromStdString(
        fmt::format("topocast quiz --scenario {} --steps {}-{} --mode {}", o.scenario, first, last, modeName));
    const app::QuizResult r = app::writeQuiz(snap, QString::fromStdString(o.out), settings);
    io.out << fmt::format("wrote {}: {} questions (steps {}-{}; {} ask how many receive: more than 20 do), Moodle XML, "
                          "pictures {}x{}, mode {}\n",
                          o.out, r.questions, first, last, r.numerical, r.pictureSize.width(), r.pictureSize.height(),
                          modeName);
    return 0;
}

const CommandRegistrar reg{Command{
    .name = "quiz",
    .help = "a scenario's predict questions as Moodle XML: one question a step (which nodes receive?) with the picture "
            "before it (needs OpenGL: a display or xvfb-run)",
    .setup =
        [](CLI::App& sub) {
            auto o = std::make_shared<QuizCommand>();
            addScenarioToFileOptions(sub, o->scenario, o->out, "the Moodle XML file to write (atomically)");
            sub.add_option("--steps", o->steps, "which steps get a question: all | N | A-B | A-")
                ->capture_default_str();
            sub.add_option("--mode", o->mode, "colouring of the pictures (default: the scenario's own, its view.mode)");
            return [o](Io& io) { return quiz(*o, io); };
        },
}};

} // namespace

} // namespace topocast::cli
