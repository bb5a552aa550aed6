#include "commands.h"
#include "envelope.h"

#include "topocast/algorithms/registry.h"
#include "topocast/model/error.h"
#include "topocast/model/limits.h"
#include "topocast/version.h"

#include <algorithm>
#include <iostream>
#include <memory>
#include <set>
#include <sstream>

namespace topocast::cli {

namespace {

/// The request of a parsed subcommand as documents record it (currentCommandLine): every option
/// given, in long form and declaration order, each with its value as it counts (a later value of
/// an option that keeps the last), except those that only say where output goes or how fast.
std::vector<std::string> commandLineOf(const CLI::App& sub)
{
    static const std::set<std::string> kNotTheRequest = {"--out",   "--json",         "--trace",   "--network-out",
                                                         "--plot",  "--hostfile",     "--threads", "--max-seconds",
                                                         "--force", "--memory-limit", "--timings"};
    std::vector<std::string> args{sub.get_name()};
    for (const CLI::Option* opt : sub.get_options()) {
        if (opt->count() == 0)
            continue;
        const std::string name = !opt->get_lnames().empty()   ? "--" + opt->get_lnames().front()
                                 : !opt->get_snames().empty() ? "-" + opt->get_snames().front()
                                                              : std::string();
        if (kNotTheRequest.contains(name) || name == "--help")
            continue;
        if (opt->get_type_size_max() == 0) { // a flag
            args.push_back(name);
            continue;
        }
        const std::vector<std::string> values = opt->reduced_results();
        if (opt->get_delimiter() != '\0' && !name.empty()) {
            std::string joined;
            for (const std::string& v : values)
                joined += (joined.empty() ? "" : std::string(1, opt->get_delimiter())) + v;
            args.insert(args.end(), {name, joined});
            continue;
        }
        for (const std::string& v : values) {
            if (!name.empty())
                args.push_back(name);
            args.push_back(v);
        }
    }
    return args;
}

} // namespace

std::vector<Command>& commandTable()
{
    static std::vector<Command> table;
    return table;
}

int run(const std::vector<std::string>& args, Io& io)
{
    CLI::App app{"topocast-cli: collective-communication schedules on meshes, tori and hypercubes"};
    app.name("topocast-cli");
    if (std::none_of(commandTable().begin(), commandTable().end(), [](const Command& c) { return c.name == "render"; }))
        app.footer("render, handout, html, quiz: made by the app program, `topocast render …` / `topocast handout …` / "
                   "`topocast html …` / `topocast quiz …`; "
                   "topocast-cli hands them over to it (run `topocast-cli render --help` for their options)");
    app.set_version_flag("--version", std::string("topocast-cli ") + kVersion, "print the version and exit");
    app.require_subcommand(1);
    // Global options (--memory-limit) work before or after the subcommand: a subcommand hands the
    // options it does not know to topocast-cli itself.
    app.fallthrough();
    std::uint64_t memoryMiB = 0;
    app.add_option("--memory-limit", memoryMiB,
                   "memory one operation may use, in MiB (default " + std::to_string(kDefaultMemoryLimit >> 20) +
                       "); larger inputs are refused with a message naming what they would need")
        ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 30));
    std::function<int(Io&)> action;
    std::vector<std::pair<CLI::App*, std::function<int(Io&)>>> actions;
    for (const Command& c : commandTable()) {
        CLI::App* sub = app.add_subcommand(c.name, c.help);
        for (const std::string& alias : c.aliases)
            sub->alias(alias);
        actions.emplace_back(sub, c.setup(*sub));
    }
    if (!args.empty() && !args[0].empty() && args[0][0] != '-' &&
        std::none_of(commandTable().begin(), commandTable().end(), [&](const Command& c) {
            return c.name == args[0] || std::find(c.aliases.begin(), c.aliases.end(), args[0]) != c.aliases.end();
        })) {
        if (args[0] == "render" || args[0] == "handout" || args[0] == "html" || args[0] == "quiz") {
            io.err << "topocast-cli: " << args[0]
                   << " is not in this build: it draws with the Qt 6 / Qt3D app (the program "
                      "topocast, looked for beside topocast-cli, in ../app/ and in $TOPOCAST_APP) and encodes "
                      "with FFmpeg; run scripts/install-deps.sh and configure with -DTOPOCAST_BUILD_APP=ON\n";
            return 2;
        }
        io.err << "topocast-cli: unknown command '" << args[0] << "'; commands:";
        const char* sep = " ";
        for (const Command& c : commandTable()) {
            io.err << sep << c.name;
            sep = ", ";
        }
        io.err << "\n";
        return 2;
    }
    try {
        std::vector<std::string> reversed(args.rbegin(), args.rend());
        app.parse(reversed);
    } catch (const CLI::CallForHelp&) {
        io.out << app.help();
        return 0;
    } catch (const CLI::CallForAllHelp&) {
        io.out << app.help("", CLI::AppFormatMode::All);
        return 0;
    } catch (const CLI::CallForVersion& e) {
        io.out << e.what() << "\n";
        return 0;
    } catch (const CLI::ParseError& e) {
        // Subcommand help arrives as CallForHelp from the subcommand: print that subcommand's help.
        io.err << "topocast-cli: " << e.what() << "\n";
        return 2;
    }
    for (auto& [sub, act] : actions)
        if (sub->parsed())
            action = act;
    if (!action) {
        io.err << "topocast-cli: no command given; run topocast-cli --help\n";
        return 2;
    }
    // The limit holds for this run only (tests call run() many times in one process).
    struct LimitGuard {
        std::uint64_t saved = memoryLimit();
        ~LimitGuard() { setMemoryLimit(saved); }
    } guard;
    if (memoryMiB)
        setMemoryLimit(memoryMiB << 20);
    // The source map document records its request in its own keys, which topocast-mpi writes
    // byte for byte too (docs/mpi.md).
    std::vector<std::string> request;
    for (auto& [sub, act] : actions)
        if (sub->parsed() && sub->get_name() != "source-map")
            request = commandLineOf(*sub);
    const CommandLineScope scope(std::move(request));
    try {
        return action(io);
    } catch (const Error& e) {
        io.err << "topocast-cli: " << e.what() << "\n";
        return 2;
    } catch (const std::bad_alloc&) {
        io.err << "topocast-cli: out of memory\n";
        return 2;
    } catch (const std::exception& e) {
        io.err << "topocast-cli: " << e.what() << "\n";
        return 2;
    }
}

} // namespace topocast::cli
