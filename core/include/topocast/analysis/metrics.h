#pragma once

#include "topocast/model/schedule.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace topocast {

/// A directed channel used by more than one transfer of the same step.
struct Contention {
    StepNo step{};
    ChannelId channel{};
    std::vector<std::size_t> transfers; ///< indices into Schedule::transfers()
};

/// Figures of a schedule. All counts are exact integers.
struct Metrics {
    std::uint32_t steps = 0;
    std::uint64_t transfers = 0;
    /// Total communication distance: Σ route lengths (hops) over all transfers.
    std::uint64_t tcd = 0;
    /// TCD of each step (index step−1).
    std::vector<std::uint64_t> tcdPerStep;
    /// Step contention: every (step, channel) used by ≥ 2 transfers, in step then channel order.
    std::vector<Contention> contentions;
    /// Number of conflicting channel uses: Σ over contentions of the transfers involved.
    std::uint64_t contentionUses = 0;
    /// Largest number of transfers on one channel in one step (1 when contention-free).
    std::uint32_t maxStepLoad = 0;
    /// Largest number of transfers on one channel over the whole schedule (depth contention).
    std::uint32_t maxLinkLoad = 0;
    /// Channels used in more than one step (depth contention, information only).
    std::uint64_t depthContendedChannels = 0;
    /// Most sends / receives by one node in one step.
    std::uint32_t maxSendsPerNodeStep = 0;
    std::uint32_t maxReceivesPerNodeStep = 0;
    /// Longest route (hops).
    std::uint32_t maxHops = 0;
};

/// Computes every metric in one pass over the expanded routes.
/// O(total hops + nodes·ports) time, O(channel slots) memory. `contentionLimit` caps how many
/// Contention records are kept (the counts stay exact).
Metrics computeMetrics(const Schedule& schedule, std::size_t contentionLimit = 10000);

/// TCD so far at every timeline position: out[s] = Σ tcdPerStep[0..s−1] for s = 0..steps
/// (out[0] = 0; steps past the end of `tcdPerStep` add 0). The narration's "TCD so far", the
/// comparison's cumulative curves and the handout's step figures all read it. O(steps).
std::vector<std::uint64_t> cumulativeTcd(const std::vector<std::uint64_t>& tcdPerStep, std::uint32_t steps);

/// The spanning tree of a schedule: for every node, the index in Schedule::transfers() of the
/// transfer that first reaches it (smallest step; ties by transfer order), or kNoTransfer for the
/// source and for nodes nothing reaches. For a broadcast this is "who first informs whom".
/// Throws Error for a schedule that is not finalized. O(transfers + nodes).
inline constexpr std::size_t kNoTransfer = static_cast<std::size_t>(-1);
std::vector<std::size_t> firstInformers(const Schedule& schedule);

/// informedSteps(): the node never receives anything.
inline constexpr std::uint32_t kNeverInformed = static_cast<std::uint32_t>(-1);
/// The step in which every node first holds data: 0 for the source, and for every node of an
/// allgather or all-to-all (each starts with its own block); otherwise the step of its
/// firstInformers() transfer, kNeverInformed when nothing reaches it. Throws Error for a schedule
/// that is not finalized. O(transfers + nodes).
std::vector<std::uint32_t> informedSteps(const Schedule& schedule);

/// The loads of every channel at one timeline position `step` of a schedule (0..stepCount: the
/// network after step `step`). Index = ChannelId (channel slots; unused slots stay 0 / −1).
struct ChannelLoads {
    std::vector<std::uint32_t> step;       ///< uses in step `step`
    std::vector<std::uint32_t> cumulative; ///< uses in steps 1..step
    std::vector<std::int32_t> lastTag;     ///< tag of the last transfer on it in steps 1..step (−1: unused)
    std::uint32_t contendedNow = 0;        ///< channels used twice or more in step `step`
};

/// The channel loads of a schedule at every step, from one pass over its routes, so that any
/// step's loads cost O(channel slots) — not a recount of steps 1..k — whichever step came before
/// (a viewer stepping back and forth, a heat map of "loads so far").
///
/// Stored compactly: for every step the channels it uses with their count and last tag (a sparse
/// delta, at most one entry per route hop), and the cumulative loads at checkpoints placed so
/// that fewer than channel-slots delta entries lie between a step and the checkpoint before it.
/// Memory: O(steps + Σ hops) — at most one checkpoint of channel slots × 4 B (× 2 when the
/// transfers carry several tags) per channel slots delta entries — never steps × channels.
class ChannelLoadHistory {
public:
    /// An empty history (no steps, no channels); at() gives empty loads.
    ChannelLoadHistory() = default;
    /// One pass over the routes of a finalized schedule (computeMetrics' own, see the overload
    /// below that returns both): O(Σ hops + channel slots · checkpoints) time. Throws Error for a
    /// schedule that is not finalized, or naming the memory it would need when that passes
    /// memoryLimit() (limits.h).
    explicit ChannelLoadHistory(const Schedule& schedule);

    std::uint32_t stepCount() const { return static_cast<std::uint32_t>(m_stepBegin.size()) - 1; }
    /// Loads after step `step` (clamped to 0..stepCount()). O(channel slots).
    ChannelLoads at(std::uint32_t step) const;
    /// Same, into `out` (reusing its storage).
    void loadsAt(std::uint32_t step, ChannelLoads& out) const;

    /// True when the schedule's transfers carry more than one tag (trees, parts, layers), so that
    /// ChannelLoads::lastTag tells them apart.
    bool severalTags() const { return m_severalTags; }
    /// Number of stored cumulative checkpoints (tests, memory figures).
    std::size_t checkpointCount() const { return m_checkpointStep.size(); }
    /// Bytes held (approximate: the vectors' sizes).
    std::uint64_t memoryBytes() const;

private:
    std::size_t m_slots = 0;
    /// Step s (1-based) owns delta entries [m_stepBegin[s−1], m_stepBegin[s]).
    std::vector<std::size_t> m_stepBegin{0};
    struct Entry {
        std::uint32_t channel;
        std::uint32_t count;
    };
    std::vector<Entry> m_entries;
    /// Per entry: the tag of the step's last transfer on the channel. Empty unless m_severalTags
    /// (otherwise every used channel's last tag is m_uniformTag).
    std::vector<std::int32_t> m_tag;
    bool m_severalTags = false;
    std::optional<std::int32_t> m_uniformTag;
    /// Checkpoint i: the cumulative loads (and last tags unless uniform) after step m_checkpointStep[i].
    std::vector<std::uint32_t> m_checkpointStep;
    std::vector<std::vector<std::uint32_t>> m_checkpointLoad;
    std::vector<std::vector<std::int32_t>> m_checkpointTag;

    friend class ChannelLoadHistoryBuilder; // metrics.cpp: filled during computeMetrics' pass
};

/// computeMetrics() that also fills `loads` with the schedule's ChannelLoadHistory in the same
/// pass over the routes (what a viewer needs at build time: the figures and every step's loads).
/// Same complexity and errors as both; the schedule must be finalized.
Metrics computeMetrics(const Schedule& schedule, std::size_t contentionLimit, ChannelLoadHistory& loads);

/// Total uses of every channel (index = ChannelId) over the whole schedule.
std::vector<std::uint32_t> cumulativeChannelLoad(const Schedule& schedule);
/// Uses of every channel in one step (index = ChannelId).
std::vector<std::uint32_t> stepChannelLoad(const Schedule& schedule, StepNo step);

} // namespace topocast
