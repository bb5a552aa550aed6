#pragma once

#include "scenario_options.h"

#include <CLI/CLI.hpp>

#include <functional>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

namespace topocast::cli {

/// Where a command writes. Tests pass string streams; main() passes std::cout / std::cerr.
struct Io {
    std::ostream& out;
    std::ostream& err;
};

/// A subcommand: `setup` declares its options on `sub` and returns the action to run after
/// parsing. The action returns the exit status (0 ok, 1 a check failed, 2 bad input) and throws
/// topocast::Error for bad input (main prints it as one line and exits 2).
struct Command {
    std::string name;
    std::string help;
    /// Other names the command answers to (spellings of earlier versions, kept for scripts).
    std::vector<std::string> aliases;
    std::function<std::function<int(Io&)>(CLI::App& sub)> setup;
};

/// Every subcommand, registered by the cmd_*.cpp files through CommandRegistrar.
std::vector<Command>& commandTable();

struct CommandRegistrar {
    explicit CommandRegistrar(Command command) { commandTable().push_back(std::move(command)); }
};

/// Runs topocast-cli with `args` (without the program name). Returns the exit status; writes
/// normal output to io.out and errors (one line, "topocast-cli: …") to io.err.
int run(const std::vector<std::string>& args, Io& io);

} // namespace topocast::cli
