#pragma once
// A network model as a file and as one line of text, for front ends that need no JSON library
// (the app): the JSON itself is io/network_json.h's.

#include "topocast/model/network.h"

#include <filesystem>
#include <string>

namespace topocast {

/// A network file: a "network" object, or any topocast document holding one under "network"
/// (a scenario, `time --json`). Throws Error naming the file.
NetworkModel readNetworkFile(const std::filesystem::path& file);

/// The network's "network" object (networkJson) as one line of JSON: equal text, equal model.
std::string networkText(const NetworkModel& m);

} // namespace topocast
