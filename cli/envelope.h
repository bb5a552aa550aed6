#pragma once
// The one envelope every JSON document of topocast-cli starts with: what the document is, its
// version and the network it is about, so a script can tell documents apart and read them back.
// Schemas: resources/schema/<format>.schema.json; the words are in docs/glossary.md.

#include "topocast/io/scenario_json.h"
#include "topocast/model/topology.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace topocast::cli {

/// Version of every topocast-cli JSON output format (raised when a format changes incompatibly).
inline constexpr int kOutputVersion = 1;

/// The request a document records ("command_line"): the subcommand and every option given that
/// changes what is computed, in long form (`tcd-map --topology mesh:8x8 --mode paper`); where the
/// document goes (--out, --json, --trace …) is left out. `topocast-cli ARGS… --json` gives the same
/// bytes again. Set by run() for the command it runs (CommandLineScope); empty elsewhere
/// (topocast-mpi), and then documents record none.
const std::vector<std::string>& currentCommandLine();

/// Sets currentCommandLine() while it lives (run() is re-entered by tests, one request at a time).
class CommandLineScope {
public:
    explicit CommandLineScope(std::vector<std::string> args);
    ~CommandLineScope();
    CommandLineScope(const CommandLineScope&) = delete;
    CommandLineScope& operator=(const CommandLineScope&) = delete;

private:
    std::vector<std::string> m_saved;
};

/// {"format": format, "version": kOutputVersion, "topology": topo.spec(), "command_line": […]
/// where a request is set}; callers add
/// "algorithm", "parameters" and their own fields after it. O(d).
nlohmann::ordered_json envelope(const std::string& format, const Topology& topo);

/// The same with "topology": null, for documents about no one network (`algorithms` without
/// --topology, the divisible-load model without a mapping).
nlohmann::ordered_json envelope(const std::string& format);

/// The envelope of a document about one scenario's schedule: format, version, topology, then
/// "algorithm", "parameters" (the scenario's algorithm parameters as given, strings as written;
/// {} for none), "pattern" (given or the algorithm's default: requestedPattern) and "source" in
/// node notation (nodeToJson; null for a pattern without a root). O(d + parameters).
nlohmann::ordered_json scenarioEnvelope(const std::string& format, const Scenario& scenario);

// The units of the hypercube model and of the α–β model (Johnsson & Ho §2): time in model units
// (τ per start-up, t_c per element), data in elements.
inline constexpr const char* kModelUnits = "model units";
inline constexpr const char* kModelUnitsPerElement = "model units per element";
inline constexpr const char* kElements = "elements";

/// A quantity as every document writes one: {"value": v (roundedForJson), "unit": unit}.
/// Counts named by their key (steps, transfers, start-ups, ranks, TCD in hops) stay plain numbers.
nlohmann::ordered_json quantity(double value, const std::string& unit);

/// A number as the shortest decimal of at most 12 significant digits, so JSON prints what the
/// text shows (8.206, not 8.206000000000001 after a unit change). Never throws.
double roundedForJson(double v);

} // namespace topocast::cli
