#pragma once

#include "topocast/io/scenario.h"
#include "topocast/params.h"
#include "topocast/topology.h"

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

/// The common "what to schedule" options: --topology, --algorithm, --source, --scenario, and the
/// algorithm parameters (--mode, --pattern, --message, --packet, --ports, --tau, --tc, --variant,
/// --order, …). After parsing, resolve() returns the scenario they describe (a --scenario file
/// first, then the explicit options over it).
class ScenarioOptions {
public:
    void add(CLI::App& sub, bool requireAlgorithm = true);
    Scenario resolve() const;

private:
    /// Throws Error when --source was given for a pattern without a root (allgather, alltoall,
    /// reduce-scatter, allreduce), saying so and naming the patterns with one.
    void refuseSourceWithoutRoot(const Scenario& s) const;

    std::string m_topology, m_algorithm, m_source, m_scenario;
    std::map<std::string, std::string> m_params;  // parameter name → text given (empty: not given)
    std::vector<std::string> m_extra;             // --param KEY=VALUE
    bool m_requireAlgorithm = true;
};

} // namespace topocast::cli
