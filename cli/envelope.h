#pragma once
// The one envelope every JSON document of topocast-cli starts with (issue #31): what the document
// is, its version and the network it is about, so a script can tell documents apart and read them
// back. Schemas: resources/schema/<format without "topocast-">.schema.json.

#include "topocast/topology.h"

#include <nlohmann/json.hpp>

#include <string>

namespace topocast::cli {

/// Version of every topocast-cli JSON output format (raised when a format changes incompatibly).
inline constexpr int kOutputVersion = 1;

/// {"format": format, "version": kOutputVersion, "topology": topo.spec()}; callers add
/// "algorithm", "parameters" and their own fields after it. O(d).
nlohmann::ordered_json envelope(const std::string& format, const Topology& topo);

/// The same without a topology (documents about no one network, e.g. `algorithms`).
nlohmann::ordered_json envelope(const std::string& format);

} // namespace topocast::cli
