#pragma once

// A program of point-to-point operations per rank — sends, receives and local computation with
// the dependencies between them — as LogGOPSim's GOAL format describes one (Hoefler, Schneider &
// Lumsdaine, "LogGOPSim", HPDC 2010, §3). The time engine (analysis/time_engine.h) runs these;
// a topocast schedule becomes one (scheduleProgram), and a GOAL file is read into one
// (io/goal.h), so schedules from anywhere are timed by the same rules.

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace topocast {

struct ProgramOp {
    enum class Kind : std::uint8_t { Send, Recv, Calc };
    static constexpr std::uint32_t kAny = std::numeric_limits<std::uint32_t>::max();

    Kind kind = Kind::Send;
    std::uint32_t rank = 0; ///< the rank (host) that runs it
    std::uint32_t peer = 0; ///< send: the destination; recv: the source or kAny
    std::uint32_t tag = 0;  ///< send: its tag; recv: the tag it matches or kAny
    std::uint64_t size = 0; ///< send and recv: bytes; calc: time in nanoseconds
    std::uint32_t cpu = 0;  ///< the processor of the rank that runs it (GOAL "cpu")
    std::uint32_t nic = 0;  ///< the network interface it uses (GOAL "nic")
    /// send: the receiver's interface the message arrives at. A GOAL file has one "nic" for
    /// both ends (LogGOPSim charges the receiver's port of the sender's number); a schedule
    /// on an all-port network arrives by the port that faces the last link.
    std::uint32_t recvNic = 0;
    std::uint32_t hops = 0;     ///< send: links on its route (0: no topology, or a rank to itself)
    std::uint32_t line = 0;     ///< line of the GOAL file it was read from (0: not read from one)
    std::int64_t transfer = -1; ///< the schedule transfer it runs (index), or −1
};

/// `op` may start once `on` has completed (GOAL "requires") or started (GOAL "irequires").
struct ProgramDependency {
    std::uint32_t op = 0;
    std::uint32_t on = 0;
    bool onStart = false;
};

struct OpProgram {
    std::uint32_t ranks = 0;
    std::vector<ProgramOp> ops;
    std::vector<ProgramDependency> dependencies;
    /// Each op's label where a GOAL file gave one (empty otherwise, or every op unlabelled).
    std::vector<std::string> labels;
    /// True when op 2i is a send, op 2i+1 its one receive and nothing else matches either (a
    /// schedule's program): the engine pairs them without matching queues.
    bool pairedByIndex = false;
};

} // namespace topocast
