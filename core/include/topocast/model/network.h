#pragma once

// The network a schedule runs on, for time: link bandwidth, latency once per message and per
// hop, the processor's overhead per message at the sender and at the receiver, the gap between
// two messages of one port, the routing (cut-through / wormhole, or store-and-forward), the
// ports a node drives at once, the rendezvous threshold and the size of the collective. It is
// LogGP (Alexandrov et al. 1995: L, o, g, G) with a latency per hop added, so one model both
// reproduces LogGOPSim (the `loggopsim` preset: no per-hop latency) and charges a torus for the
// hops its messages take.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace topocast {

/// How a message crosses the links of its route.
enum class Routing : std::uint8_t {
    /// Cut-through / wormhole: the head goes ahead hop by hop (latency per hop), the body follows
    /// in a pipeline, so the bytes are charged once.
    CutThrough,
    /// Store-and-forward: each hop receives the whole message before passing it on, so the bytes
    /// (and the per-hop latency) are charged once per hop.
    StoreAndForward,
};

/// How many messages a node's network interface sends (and receives) at once.
enum class NetworkPorts : std::uint8_t {
    One,  ///< one send and one receive at a time, each port with its own gap (LogGP, LogGOPSim)
    K,    ///< k sends and k receives at a time (NetworkModel::k)
    All,  ///< one per link: as many as the node has neighbours
    Half, ///< one port that either sends or receives (half-duplex: a send and a receive share its gap)
};

struct NetworkModel {
    /// The preset it started from ("cluster", "loggopsim", "measured"), "custom" where none.
    std::string preset = "cluster";
    double perByte = 1.0 / 12.5e9; ///< G: seconds per byte on a link (the inverse of the bandwidth)
    double latency = 1e-6;         ///< L: seconds once per message (wire and switch start-up)
    double hopLatency = 10 * 1e-9; ///< seconds per hop of the route (router delay)
    double overhead = 200 * 1e-9;  ///< o: processor seconds per message, at the sender and at the receiver
    double gap = 100 * 1e-9;       ///< g: least seconds between two messages of one port
    Routing routing = Routing::CutThrough;
    NetworkPorts ports = NetworkPorts::One;
    int k = 1;                        ///< ports when ports == K
    std::uint64_t rendezvous = 65536; ///< S: messages of more bytes wait for the receiver (rendezvous)
    /// Whether the receiver's processor is busy while a message's bytes arrive (LogGOPSim: o +
    /// (M−1)·G) or only for o, the interface writing the data to memory itself (RDMA, as cluster
    /// interconnects do).
    bool receiveCopies = false;
    std::uint64_t message = 1024; ///< M: the collective's size in bytes, as nccl-tests counts it

    double bandwidth() const { return 1.0 / perByte; }
    friend bool operator==(const NetworkModel&, const NetworkModel&) = default;
};

std::string toString(Routing r);
std::string toString(NetworkPorts p);
/// "cut-through" (or "wormhole"), "store-and-forward". Throws Error listing the names.
Routing parseRouting(std::string_view text);
/// "one-port", "all-port", or "k-port:K" with K ≥ 1 (sets k). Throws Error listing the forms.
NetworkPorts parseNetworkPorts(std::string_view text, int& k);
/// "one-port", "all-port", "k-port:3".
std::string portsText(const NetworkModel& m);

/// Every preset's name with one line on what it is, in the order they are listed.
const std::vector<std::pair<std::string, std::string>>& networkPresets();
/// The preset `name` ("cluster", "loggopsim"). Throws Error naming the presets.
NetworkModel networkPreset(std::string_view name);

/// Throws Error naming the field, its value and what is allowed when a value is out of range
/// (bandwidth not positive, a time negative or not finite, k < 1, message size 0). O(1).
void checkNetworkModel(const NetworkModel& m);

/// Sets field `key` of `m` from `text` with its unit (the keys a scenario's "network" object and
/// the command line use: bandwidth, latency, hop_latency, overhead, gap, routing, ports,
/// rendezvous, receive, message). Marks the model "custom" when the value differs from the preset's.
/// Throws Error naming the key and what it takes (an unknown key lists the keys).
void setNetworkField(NetworkModel& m, std::string_view key, std::string_view text);
/// Every field as (key, text with its unit) in the order setNetworkField takes them, the preset
/// first: what a scenario file and a JSON document write, and what the parsers read back exactly.
std::vector<std::pair<std::string, std::string>> networkFields(const NetworkModel& m);
/// One line for people: "cluster: 12.5 GB/s, L 1 us, 10 ns per hop, o 200 ns, g 100 ns,
/// cut-through, one-port, rendezvous above 64 KiB, RDMA receives, M = 1 KiB" (without the
/// collective's size where `withMessage` is false: a table of many sizes).
std::string describe(const NetworkModel& m, bool withMessage = true);

} // namespace topocast
