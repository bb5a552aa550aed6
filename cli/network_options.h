#pragma once
// The network model on the command line, shared by the commands that give a time (time, and the
// GOAL export's message size): --network PRESET|FILE, then each value with its unit over it.

#include "topocast/model/network.h"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace topocast::cli {

class NetworkOptions {
public:
    /// Declares --network and one option per value; the collective's size is `messageOption`
    /// ("--message"; `compare` and `export`, whose --message is the algorithms' element count, use
    /// "--size").
    void add(CLI::App& sub, const std::string& messageOption = "--message");
    /// The model: --network (a preset or a file), else the scenario's, else the cluster preset;
    /// then every value given on the command line over it. Throws Error for a value without its
    /// unit, a bandwidth that is not positive, an unknown preset.
    NetworkModel resolve(const std::optional<NetworkModel>& fromScenario = std::nullopt) const;
    /// Whether the collective's size was given on the command line.
    bool messageGiven() const;

private:
    std::string m_network;
    std::vector<std::pair<std::string, std::string>> m_values; // (key, text) as declared
};

} // namespace topocast::cli
