#include "network_options.h"

#include "topocast/io/network_json.h"
#include "topocast/model/error.h"

#include <filesystem>

namespace topocast::cli {

void NetworkOptions::add(CLI::App& sub, const std::string& messageOption)
{
    std::string presets;
    for (const auto& [name, what] : networkPresets())
        presets += (presets.empty() ? "" : "; ") + name + ": " + what;
    sub.add_option(
        "--network", m_network,
        "the network model: a preset (" + presets +
            ") or a JSON file with a \"network\" object (a scenario, `time --json`); default the scenario's, "
            "else cluster");
    m_values = {{"bandwidth", ""}, {"latency", ""}, {"hop_latency", ""}, {"overhead", ""}, {"gap", ""},
                {"routing", ""},   {"ports", ""},   {"rendezvous", ""},  {"message", ""}};
    const std::pair<const char*, const char*> options[] = {
        {"--bandwidth", "link bandwidth with its unit: 12.5GB/s, 100Gbit/s, or a time per byte, 6ns/B (LogGP's G)"},
        {"--latency", "L, once per message, with its unit: 1us, 2500ns"},
        {"--hop-latency", "latency per hop of a message's route: 10ns"},
        {"--overhead", "o, processor time per message at the sender and at the receiver: 200ns"},
        {"--gap", "g, least time between two messages of one port: 100ns"},
        {"--routing", "cut-through (wormhole: bytes charged once) or store-and-forward (bytes charged every hop)"},
        {"--network-ports", "messages a node's interface moves at once: one-port (one send and one receive), "
                            "half-duplex (one send or one receive), k-port:K or all-port (one per link)"},
        {"--rendezvous", "S: messages above this size wait for their receiver: 64KiB"},
        {"--message", "M, the collective's size with its unit, as nccl-tests counts it: 8B, 64KiB, 1MiB"},
    };
    const std::string messageName = messageOption;
    for (std::size_t i = 0; i < m_values.size(); ++i)
        sub.add_option(m_values[i].first == "message" ? messageName : options[i].first, m_values[i].second,
                       options[i].second);
}

bool NetworkOptions::messageGiven() const
{
    return !m_values.back().second.empty();
}

NetworkModel NetworkOptions::resolve(const std::optional<NetworkModel>& fromScenario) const
{
    NetworkModel m;
    if (!m_network.empty()) {
        const bool isFile = m_network.find('/') != std::string::npos || m_network.ends_with(".json") ||
                            std::filesystem::exists(m_network);
        m = isFile ? readNetworkFile(m_network) : networkPreset(m_network);
    } else if (fromScenario) {
        m = *fromScenario;
    }
    for (const auto& [key, text] : m_values)
        if (!text.empty())
            setNetworkField(m, key, text);
    checkNetworkModel(m);
    return m;
}

} // namespace topocast::cli
