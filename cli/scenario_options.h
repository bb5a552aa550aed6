#pragma once
// The options that say what to schedule, shared by topocast-cli's commands and topocast-mpi's
// source map, so that both read a scenario the same way.

#include "topocast/io/scenario_file.h"

#include <CLI/CLI.hpp>

#include <map>
#include <string>
#include <vector>

namespace topocast::cli {

/// The common "what to schedule" options: --topology, --algorithm, --source, --scenario, and the
/// algorithm parameters (--mode, --pattern, --message, --packet, --ports, --tau, --tc, --variant,
/// --order, …). After parsing, resolve() returns the scenario they describe (a --scenario file
/// first, then the explicit options over it).
class ScenarioOptions {
public:
    /// Declares the options on `sub`. Parameters named in `without` get no --KEY option of their
    /// own (the command uses that name for something else: `time` takes --message as the
    /// collective's size in bytes); they stay reachable as --param KEY=VALUE.
    void add(CLI::App& sub, bool requireAlgorithm = true, const std::vector<std::string>& without = {});
    Scenario resolve() const;
    /// --topology as given (empty: not given), for commands that also read files naming none.
    const std::string& topologyText() const { return m_topology; }
    /// --algorithm as given (empty: not given).
    const std::string& algorithmText() const { return m_algorithm; }

private:
    /// Throws Error when --source was given for a pattern without a root (allgather, alltoall,
    /// reduce-scatter, allreduce), saying so and naming the patterns with one.
    void refuseSourceWithoutRoot(const Scenario& s) const;

    std::string m_topology, m_algorithm, m_source, m_scenario;
    std::map<std::string, std::string> m_params; // parameter name → text given (empty: not given)
    std::vector<std::string> m_extra;            // --param KEY=VALUE
    bool m_requireAlgorithm = true;
};

} // namespace topocast::cli
