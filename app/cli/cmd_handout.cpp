// topocast-cli handout: a scenario as a printable PDF — a title page and one page per step with
// the app's picture of the step, its narration and its figures (needs OpenGL for the pictures,
// so a display or xvfb-run, as render does).
#include "commands.h"
#include "guiscope.h"
#include "render_options.h"

#include "export/handout.h"
#include "launch/startup.h"
#include "session/snapshot.h"
#include "style/scenestyle.h"

#include "topocast/io/export.h"
#include "topocast/io/scenario_file.h"
#include "topocast/model/error.h"

#include <fmt/format.h>

#include <memory>
#include <ostream>

namespace topocast::cli {

namespace {

struct HandoutCommand {
    std::string scenario;
    std::string out;
    std::string size = "A4";
    std::string steps = "all";
    std::string mode; ///< empty: the scenario's own
    std::string theme = "light";
    int dpi = 300;
    bool exercise = false;
};

/// The view modes, as render takes them.
std::string modeList(const char* separator)
{
    std::string out;
    for (const std::string& m : renderModeNames())
        out += (out.empty() ? "" : separator) + m;
    return out;
}

int handout(const HandoutCommand& o, Io& io)
{
    const auto size = app::parseHandoutPageSize(QString::fromStdString(o.size));
    if (!size)
        throw Error("--size " + o.size + " is not a page size topocast knows; use A4 or letter");
    const Scenario scenario = loadScenario(o.scenario);
    // The scenario's own colour mode unless --mode says otherwise, as the window and render do.
    const std::string modeName = chosenModeName(o.mode, scenario);
    const auto mode = app::parseViewMode(QString::fromStdString(modeName));
    if (o.theme != "light" && o.theme != "dark")
        throw Error("--theme " + o.theme +
                    " is not a theme topocast knows; use light (white paper) or dark (as the window)");
    GuiScope gui("handout", "OpenGL for its pictures");
    const app::SnapshotPtr snap = app::buildSnapshot(scenario);
    const auto [first, last] = parseStepRange(o.steps, snap->stepCount());
    app::HandoutSettings settings;
    settings.view.mode = *mode;
    settings.view.print = o.theme == "light";
    settings.pageSize = *size;
    settings.firstStep = first;
    settings.lastStep = last;
    settings.dpi = o.dpi;
    settings.exercise = o.exercise;
    const app::HandoutResult r = app::writeHandout(snap, QString::fromStdString(o.out), settings);
    io.out << fmt::format(
        "wrote {}: {} pages (a title page and steps {}-{}{}), {}, pictures {}x{} at {} dpi, mode {}, theme {}\n", o.out,
        r.pages, first, last,
        o.exercise ? fmt::format(" to fill in, then an answer key of {} page{}", r.answerKeyPages,
                                 r.answerKeyPages == 1 ? "" : "s")
                   : std::string(),
        *size == QPageSize::A4 ? "A4" : "letter", r.pictureSize.width(), r.pictureSize.height(), o.dpi, modeName,
        o.theme);
    return 0;
}

const CommandRegistrar reg{Command{
    .name = "handout",
    .help = "a scenario as a printable PDF: a title page and one page per step with its picture, narration and figures "
            "(needs OpenGL: a display or xvfb-run)",
    .setup =
        [](CLI::App& sub) {
            auto o = std::make_shared<HandoutCommand>();
            addScenarioToFileOptions(sub, o->scenario, o->out, "the PDF to write (atomically)");
            sub.add_option("--size", o->size, "page size: A4 | letter")->capture_default_str();
            sub.add_option("--steps", o->steps, "which steps get a page: all | N | A-B | A-")->capture_default_str();
            sub.add_option("--mode", o->mode,
                           "colouring of the pictures: " + modeList(" | ") +
                               " (default: the scenario's own, its view.mode; plain where it names none)");
            sub.add_option("--theme", o->theme,
                           "pictures on white paper (light, the print palette) or as the window draws them (dark)")
                ->capture_default_str();
            sub.add_flag(
                "--exercise", o->exercise,
                "an exercise: each step's page shows the network before the step with its receivers left blank "
                "and an empty table of its transfers; an answer key follows on its own page");
            sub.add_option("--dpi", o->dpi, "print resolution of the pages and pictures")
                ->capture_default_str()
                ->check(CLI::Range(72, 600));
            return [o](Io& io) { return handout(*o, io); };
        },
}};

} // namespace

} // namespace topocast::cli
