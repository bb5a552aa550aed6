#pragma once

// Playing a simulation (simulate.h) back on the steps' timeline: where each message is at a
// moment, how many messages cross each link at that moment, and the sentence that says where
// contention cost time. Plain data over a finished Simulation; no SimGrid here, so the app and
// the CLI share it without linking the simulator twice.

#include "topocast/analysis/simulate.h"
#include "topocast/model/schedule.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace topocast {

/// One hop of one message as a frame draws it: the message's head crosses hop `hop` of the
/// transfer's route (0-based, of `hops`) from `begin` to `end` (ns). Store-and-forward: the hop's
/// own interval; cut-through: the message's time on the wire split evenly over its hops.
struct PlaybackHop {
    std::uint32_t transfer = 0;
    std::uint32_t hop = 0;
    std::uint32_t hops = 1;
    double begin = 0;
    double end = 0;
};

/// A simulation on the timeline of its steps: timeline position (step s, fraction f) is the
/// moment f of the way from the end of step s − 1 to the end of step s, as simulated (each
/// step's end is its last message's arrival, kept from going back in time: without barriers
/// a message of step 3 may arrive after every message of step 4).
class SimulatedPlayback {
public:
    /// `simulation` of `schedule` (simulateSchedule's result). O(transfers · hops).
    SimulatedPlayback(const Schedule& schedule, std::shared_ptr<const Simulation> simulation);

    const Simulation& simulation() const { return *m_sim; }
    std::uint32_t stepCount() const { return static_cast<std::uint32_t>(m_stepEnd.size()) - 1; }
    /// ns at the end of step `step` (0: the start, 0 ns; past the last step: the total). O(1).
    double stepEnd(std::uint32_t step) const;
    /// ns at timeline position (`step`, `fraction` in 0..1); step 0 is the start. O(1).
    double timeAt(std::uint32_t step, double fraction) const;
    /// Every hop whose message is on its way at some moment in [from, to] (ns), in transfer
    /// order, hops in route order. O(transfers + result).
    std::vector<PlaybackHop> hopsBetween(double from, double to) const;
    /// Every channel some message in flight in [from, to] crosses. O(transfers + result).
    std::vector<ChannelId> channelsBetween(double from, double to) const;

private:
    std::shared_ptr<const Simulation> m_sim;
    std::vector<double> m_stepEnd;   ///< [0] = 0, then each step's end, never decreasing
    std::vector<double> m_wireBegin; ///< per transfer: its bytes' first moment on a link
    std::vector<double> m_wireEnd;   ///< … and their last
    std::vector<char> m_ownHops;     ///< per transfer: hops with intervals of their own (store-and-forward)
};

/// How many messages cross each directed channel at a moment, as the moment moves: a cursor
/// over the simulation's hop intervals (their beginnings and ends in time order), so moving it
/// costs the events it passes, not the channels. A message's hop counts from its beginning to
/// just before its end (two messages that touch do not share).
class LinkOccupancy {
public:
    /// `channelCount`: the topology's channels (the counts' size). O(hops · log hops).
    LinkOccupancy(const Simulation& simulation, std::uint64_t channelCount);

    /// Moves to moment `ns`; returns the channels whose count changed (each once). O(events passed).
    const std::vector<ChannelId>& moveTo(double ns);
    double now() const { return m_now; }
    /// Messages crossing `channel` at the moment. O(1).
    std::uint32_t count(ChannelId channel) const { return m_count[channel.value()]; }

private:
    struct Event {
        double time;
        std::uint32_t channel;
        int delta;
    };
    void apply(const Event& e, int sign);
    std::vector<Event> m_events; ///< in time order, ends before beginnings at one instant
    std::size_t m_applied = 0;   ///< events [0, m_applied) are counted
    std::vector<std::uint32_t> m_count;
    std::vector<std::uint64_t> m_stamp; ///< per channel: the move that last listed it
    std::uint64_t m_move = 0;
    std::vector<ChannelId> m_changed;
    double m_now = -1;
};

/// "(3,1)→(3,2) carries 4 messages at once in step 5 (shared 12.3 µs in all)". O(1).
std::string linkFinding(const Topology& topology, const LinkLoad& link);
/// What contention cost, for people: "contention costs 38 %: (3,1)→(3,2) carries …", or that it
/// cost nothing (no link shared, or shared off the critical path). O(1).
std::string contentionSentence(const Simulation& simulation, const Topology& topology);
/// Step `step`'s sentence for the narration: when its last message arrives as simulated, beside
/// the time without contention, and its most shared link ("step 5 ends at 412 µs, 38 % later than
/// without contention (298 µs); (3,1)→(3,2) carries 4 messages at once"). O(links).
std::string stepContentionSentence(const Simulation& simulation, const Topology& topology, StepNo step);

} // namespace topocast
