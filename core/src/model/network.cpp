#include "topocast/model/network.h"

#include "topocast/model/error.h"
#include "topocast/model/units.h"

#include <charconv>
#include <cmath>

namespace topocast {

std::string toString(Routing r)
{
    return r == Routing::CutThrough ? "cut-through" : "store-and-forward";
}

std::string toString(NetworkPorts p)
{
    switch (p) {
    case NetworkPorts::One:
        return "one-port";
    case NetworkPorts::K:
        return "k-port";
    case NetworkPorts::All:
        return "all-port";
    case NetworkPorts::Half:
        return "half-duplex";
    }
    return "one-port";
}

Routing parseRouting(std::string_view text)
{
    if (text == "cut-through" || text == "wormhole")
        return Routing::CutThrough;
    if (text == "store-and-forward")
        return Routing::StoreAndForward;
    throw Error("routing '" + std::string(text) + "' is not known; use cut-through (or wormhole) or store-and-forward");
}

NetworkPorts parseNetworkPorts(std::string_view text, int& k)
{
    if (text == "one-port") {
        k = 1;
        return NetworkPorts::One;
    }
    if (text == "all-port") {
        k = 1;
        return NetworkPorts::All;
    }
    if (text == "half-duplex") {
        k = 1;
        return NetworkPorts::Half;
    }
    if (text.starts_with("k-port:")) {
        const std::string_view digits = text.substr(7);
        int v = 0;
        const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
        if (ec == std::errc() && ptr == digits.data() + digits.size() && v >= 1 && v <= 1024) {
            k = v;
            return NetworkPorts::K;
        }
    }
    throw Error("ports '" + std::string(text) +
                "' is not known; use one-port, half-duplex, all-port or k-port:K with K = 1..1024");
}

std::string portsText(const NetworkModel& m)
{
    return m.ports == NetworkPorts::K ? "k-port:" + std::to_string(m.k) : toString(m.ports);
}

const std::vector<std::pair<std::string, std::string>>& networkPresets()
{
    static const std::vector<std::pair<std::string, std::string>> presets = {
        {"cluster",
         "a cluster interconnect in round numbers: 12.5 GB/s links (100 Gbit/s), L = 1 us, 10 ns per hop, "
         "o = 200 ns, g = 100 ns, cut-through, one-port, rendezvous above 64 KiB, RDMA receives (the processor "
         "pays o, the interface moves the bytes)"},
        {"loggopsim", "LogGOPSim's defaults: L = 2500 ns, o = 1500 ns, g = 1000 ns, G = 6 ns/B, S = 65535 B, no "
                      "per-hop latency, one-port, the receiver's processor busy while the bytes arrive"},
    };
    return presets;
}

NetworkModel networkPreset(std::string_view name)
{
    if (name == "cluster")
        return NetworkModel{};
    if (name == "loggopsim") {
        NetworkModel m;
        m.preset = "loggopsim";
        m.perByte = parseSecondsPerByte("6ns/B", "G");
        m.latency = parseSeconds("2500ns", "L");
        m.hopLatency = 0;
        m.overhead = parseSeconds("1500ns", "o");
        m.gap = parseSeconds("1000ns", "g");
        m.rendezvous = 65535;
        m.receiveCopies = true;
        return m;
    }
    std::string names;
    for (const auto& [preset, what] : networkPresets())
        names += (names.empty() ? "" : ", ") + preset;
    throw Error("network preset '" + std::string(name) + "' is not known; the presets are " + names +
                ", or give a JSON file holding a \"network\" object (a scenario file, `topocast-cli time --json`)");
}

void checkNetworkModel(const NetworkModel& m)
{
    if (!(m.perByte > 0) || !std::isfinite(m.perByte))
        throw Error("the network's bandwidth must be positive and finite");
    const std::pair<const char*, double> times[] = {
        {"latency", m.latency}, {"hop_latency", m.hopLatency}, {"overhead", m.overhead}, {"gap", m.gap}};
    for (const auto& [key, v] : times)
        if (!(v >= 0) || !std::isfinite(v) || v > 3600)
            throw Error(std::string("the network's ") + key + " must be between 0 and 1 hour");
    if (m.k < 1 || m.k > 1024)
        throw Error("the network's k-port count must be 1..1024; got " + std::to_string(m.k));
    if (m.message < 1)
        throw Error("the message size must be at least 1 B");
}

void setNetworkField(NetworkModel& m, std::string_view key, std::string_view text)
{
    const NetworkModel before = m;
    if (key == "bandwidth")
        m.perByte = parseSecondsPerByte(text, "bandwidth");
    else if (key == "latency")
        m.latency = parseSeconds(text, "latency");
    else if (key == "hop_latency")
        m.hopLatency = parseSeconds(text, "hop_latency");
    else if (key == "overhead")
        m.overhead = parseSeconds(text, "overhead");
    else if (key == "gap")
        m.gap = parseSeconds(text, "gap");
    else if (key == "routing")
        m.routing = parseRouting(text);
    else if (key == "ports")
        m.ports = parseNetworkPorts(text, m.k);
    else if (key == "rendezvous")
        m.rendezvous = parseBytes(text, "rendezvous");
    else if (key == "receive") {
        if (text != "copy" && text != "rdma")
            throw Error(
                "receive '" + std::string(text) +
                "' is not known; use copy (the receiver's processor is busy while the bytes arrive, as LogGOPSim "
                "has it) or rdma (only the overhead o: the interface writes the data)");
        m.receiveCopies = text == "copy";
    } else if (key == "message") {
        m.message = parseBytes(text, "message");
        if (m.message < 1)
            throw Error("message '" + std::string(text) + "' must be at least 1 B");
        return; // the size of the collective, not a property of the network
    } else
        throw Error(
            "network key '" + std::string(key) +
            "' is not known; the keys are preset, bandwidth, latency, hop_latency, overhead, gap, routing, ports, "
            "rendezvous, receive, message");
    if (!(m == before))
        m.preset = "custom";
}

std::vector<std::pair<std::string, std::string>> networkFields(const NetworkModel& m)
{
    return {{"preset", m.preset},
            {"bandwidth", compactBandwidth(m.perByte)},
            {"latency", compactSeconds(m.latency)},
            {"hop_latency", compactSeconds(m.hopLatency)},
            {"overhead", compactSeconds(m.overhead)},
            {"gap", compactSeconds(m.gap)},
            {"routing", toString(m.routing)},
            {"ports", portsText(m)},
            {"rendezvous", compactSize(m.rendezvous)},
            {"receive", m.receiveCopies ? "copy" : "rdma"},
            {"message", compactSize(m.message)}};
}

std::string describe(const NetworkModel& m, bool withMessage)
{
    return m.preset + ": " + formatBandwidth(m.perByte) + ", L " + formatSeconds(m.latency) + ", " +
           formatSeconds(m.hopLatency) + " per hop, o " + formatSeconds(m.overhead) + ", g " + formatSeconds(m.gap) +
           ", " + toString(m.routing) + ", " + portsText(m) + ", rendezvous above " + formatSize(m.rendezvous) +
           (m.receiveCopies ? ", the receiver copies the bytes" : ", RDMA receives") +
           (withMessage ? ", M = " + formatSize(m.message) : std::string());
}

} // namespace topocast
