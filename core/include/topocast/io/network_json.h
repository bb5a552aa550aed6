#pragma once

// A network model (model/network.h) as JSON: the "network" object of a scenario file, of
// `topocast-cli time --json` and of a network file given to --network. Every value is a string
// with its unit ("12.5GB/s", "1us", "64KiB"), so a file says what it means.

#include "topocast/io/network_file.h"
#include "topocast/model/network.h"

#include <nlohmann/json.hpp>

#include <string>

namespace topocast {

/// {"preset", "bandwidth", "latency", "hop_latency", "overhead", "gap", "routing", "ports",
/// "rendezvous", "message"}: networkFields(m), every value a string with its unit.
nlohmann::ordered_json networkJson(const NetworkModel& m);

/// Reads a "network" object: "preset" first (default "cluster"), then each key over it, every
/// value a string with its unit. `path` names the object in errors ("network"). Throws Error
/// "PATH.KEY: …" for an unknown key, a value that is not a string, a value without a unit, a
/// bandwidth that is not positive, an unknown preset.
NetworkModel networkFromJson(const nlohmann::json& object, const std::string& path);

} // namespace topocast
