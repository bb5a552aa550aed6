#include "commands.h"
#include "handoff.h"

#include <algorithm>
#include <iostream>

int main(int argc, char** argv)
{
    using namespace topocast::cli;
    std::vector<std::string> args(argv + 1, argv + argc);
    // render and handout draw with Qt3D: the app program runs them, with the same options and
    // messages (topocast-cli loads no Qt library). A build with them linked in runs them here.
    const std::string command = commandOf(args);
    const auto& table = commandTable();
    // So does a chart drawn as PNG (sweep --plot FILE.png: Qt SVG draws it).
    const bool drawn = (drawsWithApp(command) && std::none_of(table.begin(), table.end(),
                                                              [&](const Command& c) { return c.name == command; })) ||
                       (plotsPng(args) && !svgToPng());
    if (drawn) {
        if (const auto app = findApp()) {
            const std::string why = execApp(*app, args);
            std::cerr << "topocast-cli: could not run " << app->string() << " for " << command << ": " << why << "\n";
            return 2;
        }
    }
    Io io{std::cout, std::cerr};
    return run(args, io);
}
