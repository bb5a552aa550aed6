#include "topocast/analysis/validate.h"

#include "topocast/analysis/holdings.h"
#include "topocast/analysis/import_findings.h"
#include "topocast/analysis/metrics.h"
#include "topocast/analysis/reduction.h"
#include "topocast/model/error.h"
#include "topocast/model/limits.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <unordered_map>

namespace topocast {

namespace {

constexpr std::uint32_t kNever = std::numeric_limits<std::uint32_t>::max();
/// Nodes listed in one finding at most (a schedule that reaches nobody on a 2^24-node cube).
constexpr std::size_t kMaxFindingNodes = 4096;

class Report {
public:
    Report(Validation& v, std::size_t limit) : m_v(v), m_limit(limit) {}
    void add(FindingKind kind, StepNo step, std::vector<NodeId> nodes, std::string sentence, std::int64_t channel = -1)
    {
        ++m_v.violationCount;
        if (m_v.violations.size() < m_limit) {
            m_v.violations.push_back(sentence);
            m_v.findings.push_back(Finding{kind, step, std::move(nodes), channel, std::move(sentence)});
        }
    }

private:
    Validation& m_v;
    std::size_t m_limit;
};

std::string at(std::uint32_t step)
{
    return "step " + std::to_string(step) + ": ";
}

std::string blockName(const Topology& topo, const Block& b, std::uint32_t parts)
{
    std::string s = "block from " + topo.nodeName(NodeId{b.origin});
    if (b.dest != Block::kAll)
        s += " for " + (b.dest < topo.nodeCount() ? topo.nodeName(NodeId{b.dest}) : std::to_string(b.dest));
    if (parts > 1)
        s += " part " + std::to_string(b.part);
    return s;
}

/// Checks each transfer on its own: endpoints, step number, payload index, route.
/// Returns false if some route could not be expanded (contention is then not checked).
bool checkTransfers(const Schedule& s, Report& report)
{
    const Topology& topo = s.topology();
    bool routesOk = true;
    for (std::size_t i = 0; i < s.transfers().size(); ++i) {
        const Transfer& t = s.transfers()[i];
        if (t.from >= topo.nodeCount() || t.to >= topo.nodeCount()) {
            report.add(FindingKind::BadTransfer, t.step, {},
                       at(t.step) + "transfer " + std::to_string(i) + " names node " +
                           std::to_string(std::max(t.from, t.to)) + ", outside the " + topo.displayName());
            routesOk = false;
            continue;
        }
        if (t.step < 1)
            report.add(FindingKind::BadTransfer, StepNo{0}, {t.from, t.to},
                       "transfer " + std::to_string(i) + " (" + topo.nodeName(t.from) + "→" + topo.nodeName(t.to) +
                           ") has step 0; steps start at 1");
        if (t.from == t.to)
            report.add(FindingKind::BadTransfer, t.step, {t.from},
                       at(t.step) + topo.nodeName(t.from) + " sends to itself");
        if (t.payload >= s.payloadCount())
            report.add(FindingKind::BadTransfer, t.step, {t.from, t.to},
                       at(t.step) + topo.nodeName(t.from) + "→" + topo.nodeName(t.to) + " carries payload " +
                           std::to_string(t.payload) + ", which does not exist");
        if (t.route.kind == RouteKind::Cyclic && t.route.start >= topo.dims()) {
            report.add(FindingKind::BadRoute, t.step, {t.from, t.to},
                       at(t.step) + "route " + topo.nodeName(t.from) + "→" + topo.nodeName(t.to) +
                           " starts in dimension " + std::to_string(t.route.start) + "; the " + topo.displayName() +
                           " has " + std::to_string(topo.dims()));
            routesOk = false;
            continue;
        }
        try {
            NodeId cur = t.from;
            bool connected = true;
            forEachChannel(topo, t.from, t.to, t.route, s.dimensionOrder, [&](ChannelId c) {
                if (topo.channelTail(c) != cur)
                    connected = false;
                cur = topo.channelHead(c);
            });
            if (!connected || cur != t.to) {
                report.add(FindingKind::BadRoute, t.step, {t.from, t.to},
                           at(t.step) + "route " + topo.nodeName(t.from) + "→" + topo.nodeName(t.to) +
                               " is not a connected path ending at the receiver");
                routesOk = false;
            }
        } catch (const Error& e) {
            report.add(FindingKind::BadRoute, t.step, {t.from, t.to}, at(t.step) + e.what());
            routesOk = false;
        }
    }
    return routesOk;
}

void checkPorts(const Schedule& s, Report& report)
{
    const Topology& topo = s.topology();
    const PortModel model = s.portModel();
    std::vector<std::uint32_t> sends(topo.nodeCount(), 0), receives(topo.nodeCount(), 0);
    std::vector<NodeId> sendPartner(topo.nodeCount()), recvPartner(topo.nodeCount());
    std::unordered_map<ChannelId, std::size_t> firstChannels, lastChannels;
    for (StepNo step : steps(s)) {
        const auto transfers = s.stepTransfers(step);
        firstChannels.clear();
        lastChannels.clear();
        for (const Transfer& t : transfers) {
            if (t.from >= topo.nodeCount() || t.to >= topo.nodeCount() || t.from == t.to)
                continue;
            const std::uint32_t ns = ++sends[t.from];
            const std::uint32_t nr = ++receives[t.to];
            sendPartner[t.from] = t.to;
            recvPartner[t.to] = t.from;
            switch (model) {
            case PortModel::OnePort:
            case PortModel::OnePortExchange:
                if (ns == 2)
                    report.add(FindingKind::PortLimit, step, {t.from, t.to},
                               at(step) + topo.nodeName(t.from) + " sends more than once under the " + toString(model) +
                                   " model");
                if (nr == 2)
                    report.add(FindingKind::PortLimit, step, {t.to, t.from},
                               at(step) + topo.nodeName(t.to) + " receives more than once under the " +
                                   toString(model) + " model");
                break;
            case PortModel::HalfDuplex:
                break; // checked below, once all sends and receives of the step are counted
            case PortModel::AllPort:
            case PortModel::MultiPort:
                if (model == PortModel::MultiPort && ns == static_cast<std::uint32_t>(s.maxSendsPerStep) + 1)
                    report.add(FindingKind::PortLimit, step, {t.from, t.to},
                               at(step) + topo.nodeName(t.from) + " sends more than " +
                                   std::to_string(s.maxSendsPerStep) + " messages in one step");
                if (model == PortModel::AllPort) {
                    try {
                        std::optional<ChannelId> first;
                        ChannelId last{};
                        forEachChannel(topo, t.from, t.to, t.route, s.dimensionOrder, [&](ChannelId c) {
                            if (!first)
                                first = c;
                            last = c;
                        });
                        if (first && !firstChannels.emplace(*first, 1).second)
                            report.add(FindingKind::PortLimit, step, {t.from, t.to},
                                       at(step) + topo.nodeName(t.from) + " injects two messages on channel " +
                                           topo.channelName(*first) + " (all-port allows one per outgoing channel)");
                        if (first && !lastChannels.emplace(last, 1).second)
                            report.add(FindingKind::PortLimit, step, {t.to, t.from},
                                       at(step) + topo.nodeName(t.to) + " accepts two messages on channel " +
                                           topo.channelName(last) + " (all-port allows one per incoming channel)");
                    } catch (const Error&) {
                        // reported by checkTransfers
                    }
                }
                break;
            }
        }
        for (const Transfer& t : transfers) {
            if (t.from >= topo.nodeCount() || t.to >= topo.nodeCount())
                continue;
            if (model == PortModel::HalfDuplex && sends[t.from] + receives[t.from] > 1 && sends[t.from] != kNever) {
                report.add(FindingKind::PortLimit, step, {t.from, t.to},
                           at(step) + topo.nodeName(t.from) +
                               " both sends and receives (or sends twice) under the "
                               "half-duplex model");
                sends[t.from] = kNever; // report once per node and step
            }
            if (model == PortModel::OnePortExchange && sends[t.from] == 1 && receives[t.from] == 1 &&
                recvPartner[t.from] != t.to) {
                report.add(FindingKind::PortLimit, step, {t.from, t.to, recvPartner[t.from]},
                           at(step) + topo.nodeName(t.from) + " sends to " + topo.nodeName(t.to) +
                               " but receives from " + topo.nodeName(recvPartner[t.from]) +
                               "; one-port exchange allows one partner per step");
            }
        }
        for (const Transfer& t : transfers) {
            if (t.from >= topo.nodeCount() || t.to >= topo.nodeCount())
                continue;
            sends[t.from] = 0;
            receives[t.to] = 0;
            receives[t.from] = 0;
            sends[t.to] = 0;
        }
    }
}

/// The fast path: a single-part broadcast where every transfer carries payload 0.
void checkSimpleBroadcast(const Schedule& s, const ValidateOptions& options, Report& report)
{
    const Topology& topo = s.topology();
    // First receive of every node, then the checks (a send may be listed before the receive it
    // depends on only if the schedule is wrong, and the message then names that receive's step).
    std::vector<std::uint32_t> informedAt(topo.nodeCount(), kNever);
    informedAt[s.source()] = 0;
    for (const Transfer& t : s.transfers())
        if (t.from < topo.nodeCount() && t.to < topo.nodeCount() && t.from != t.to && t.to != s.source())
            informedAt[t.to] = std::min<std::uint32_t>(informedAt[t.to], t.step);
    std::vector<bool> received(topo.nodeCount(), false);
    for (const Transfer& t : s.transfers()) {
        if (t.from >= topo.nodeCount() || t.to >= topo.nodeCount() || t.from == t.to)
            continue;
        if (informedAt[t.from] >= t.step) {
            report.add(FindingKind::NotYetHolding, t.step, {t.from, t.to},
                       at(t.step) + topo.nodeName(t.from) + " sends to " + topo.nodeName(t.to) +
                           " but does not hold the message yet" +
                           (informedAt[t.from] == kNever
                                ? std::string(" (it never receives it)")
                                : " (it receives it in step " + std::to_string(informedAt[t.from]) + ")"));
        }
        if (t.to == s.source()) {
            report.add(FindingKind::InformedTwice, t.step, {t.to, t.from},
                       at(t.step) + topo.nodeName(t.to) + " (the source) receives the message again from " +
                           topo.nodeName(t.from));
        } else if (received[t.to]) {
            if (options.forbidDuplicateReceives)
                report.add(FindingKind::InformedTwice, t.step, {t.to, t.from},
                           at(t.step) + topo.nodeName(t.to) + " receives the message again from " +
                               topo.nodeName(t.from) + " (it already has it since step " +
                               std::to_string(informedAt[t.to]) + ")");
        } else {
            received[t.to] = true;
        }
    }
    std::size_t missing = 0;
    NodeId firstMissing{};
    std::vector<NodeId> never;
    for (NodeId v{}; v < topo.nodeCount(); ++v)
        if (informedAt[v] == kNever) {
            if (missing++ == 0)
                firstMissing = v;
            if (never.size() < kMaxFindingNodes)
                never.push_back(v);
        }
    if (missing)
        report.add(FindingKind::NeverReached, StepNo{s.stepCount()}, std::move(never),
                   std::to_string(missing) + " of " + std::to_string(topo.nodeCount()) +
                       " nodes never receive the message (first: " + topo.nodeName(firstMissing) + ")");
}

struct NodeBlockHash {
    std::size_t operator()(const std::pair<NodeId, Block>& k) const noexcept
    {
        std::uint64_t h = (std::uint64_t{k.first} << 32) ^ k.second.origin;
        h = h * 0x9E3779B97F4A7C15ull ^ (std::uint64_t{k.second.dest} << 20) ^ k.second.part;
        return static_cast<std::size_t>(h ^ (h >> 29));
    }
};

/// General path: follows every block through the schedule.
void checkBlocks(const Schedule& s, const ValidateOptions& options, Report& report)
{
    const Topology& topo = s.topology();
    const std::uint32_t n = topo.nodeCount();
    const Pattern pattern = s.pattern();
    const std::uint32_t parts = s.parts;
    const bool personalized = pattern == Pattern::Scatter || pattern == Pattern::Alltoall;
    const bool oneSource = pattern == Pattern::Broadcast || pattern == Pattern::Scatter;
    // A program of messages: tokens {sender, receiver, k}; a sender must hold what it forwards
    // (causality), and nothing is required at the end.
    const bool messages = !isCollective(pattern);

    // Scatter over part of the topology: only participants need (and may be sent) blocks.
    std::vector<char> takesPart;
    if (pattern == Pattern::Scatter && !s.participants.empty()) {
        takesPart.assign(n, 0);
        for (NodeId v : s.participants)
            if (v < n)
                takesPart[v] = 1;
    }

    auto validBlock = [&](const Block& b) {
        if (b.part >= parts || b.origin >= n)
            return false;
        if (oneSource && b.origin != s.source())
            return false;
        if (messages)
            return b.dest < n && b.dest != b.origin;
        if (personalized)
            return b.dest != Block::kAll && b.dest < n && b.dest != b.origin &&
                   (takesPart.empty() || takesPart[b.dest]);
        return b.dest == Block::kAll;
    };

    // Every block a transfer delivers may become one entry of `held` (~48 B with its bucket).
    std::uint64_t deliveries = 0;
    for (const Transfer& t : s.transfers())
        if (t.payload < s.payloadCount())
            deliveries += s.payload(t.payload).size();
    checkMemory("checking the " + toString(pattern) + " blocks of a schedule on the " + topo.displayName(),
                saturatingMul(deliveries, 48), std::to_string(deliveries) + " block deliveries × 48 B");
    std::unordered_map<std::pair<NodeId, Block>, std::uint32_t, NodeBlockHash> held; // (node, block) → step
    std::vector<std::uint64_t> complete(n, 0); // blocks each node must end with, received so far

    for (const Transfer& t : s.transfers()) {
        if (t.from >= n || t.to >= n || t.from == t.to || t.payload >= s.payloadCount())
            continue;
        for (const Block& b : s.payload(t.payload)) {
            if (!validBlock(b)) {
                report.add(FindingKind::WrongData, t.step, {t.from, t.to},
                           at(t.step) + topo.nodeName(t.from) + "→" + topo.nodeName(t.to) + " carries a " +
                               blockName(topo, b, parts) + ", which is not data of this " + toString(pattern) +
                               (parts > 1 ? " (parts 0.." + std::to_string(parts - 1) + ")" : std::string()));
                continue;
            }
            if (b.origin != t.from) {
                auto it = held.find({t.from, b});
                if (it == held.end() || it->second >= t.step)
                    report.add(FindingKind::NotYetHolding, t.step, {t.from, t.to},
                               at(t.step) + topo.nodeName(t.from) + " sends the " + blockName(topo, b, parts) + " to " +
                                   topo.nodeName(t.to) + " but does not hold it yet" +
                                   (it == held.end() ? std::string()
                                                     : " (it receives it in step " + std::to_string(it->second) + ")"));
            }
            if (b.origin == t.to && !messages) {
                report.add(FindingKind::InformedTwice, t.step, {t.to, t.from},
                           at(t.step) + topo.nodeName(t.to) + " receives its own " + blockName(topo, b, parts));
                continue;
            }
            auto [it, inserted] = held.emplace(std::pair{t.to, b}, t.step);
            if (!inserted) {
                // (A token may come twice: two messages may wait for one receive.)
                if ((options.forbidDuplicateReceives || personalized) && !messages)
                    report.add(FindingKind::InformedTwice, t.step, {t.to, t.from},
                               at(t.step) + topo.nodeName(t.to) + " receives the " + blockName(topo, b, parts) +
                                   " again (it has it since step " + std::to_string(it->second) + ")");
                continue;
            }
            if ((!personalized || b.dest == t.to) && (pattern != Pattern::Gather || t.to == s.source()))
                ++complete[t.to];
        }
    }

    if (messages)
        return; // nothing must end anywhere
    std::size_t incomplete = 0;
    NodeId first{};
    std::vector<NodeId> short_;
    std::uint64_t firstHas = 0, firstNeeds = 0;
    for (NodeId v{}; v < n; ++v) {
        std::uint64_t needs = 0;
        if (oneSource)
            needs = v == s.source() || (!takesPart.empty() && !takesPart[v]) ? 0 : parts;
        else if (pattern == Pattern::Gather)
            needs = v == s.source() ? std::uint64_t{n - 1} * parts : 0;
        else
            needs = std::uint64_t{n - 1} * parts;
        if (complete[v] != needs && short_.size() < kMaxFindingNodes)
            short_.push_back(v);
        if (complete[v] != needs && incomplete++ == 0) {
            first = v;
            firstHas = complete[v];
            firstNeeds = needs;
        }
    }
    if (incomplete)
        report.add(FindingKind::NeverReached, StepNo{s.stepCount()}, std::move(short_),
                   std::to_string(incomplete) + " of " + std::to_string(n) +
                       " nodes do not end with all their data (first: " + topo.nodeName(first) + " has " +
                       std::to_string(firstHas) + " of its " + std::to_string(firstNeeds) + " blocks)");
}

std::string contributionsText(const Topology& topo, const ContributionSets& sets, ContributionSets::SetId id)
{
    const std::uint32_t k = sets.size(id);
    if (k == 1)
        return "the contribution of " + topo.nodeName(sets.members(id).front()) + " alone";
    return "the sum of " + std::to_string(k) + " of " + std::to_string(topo.nodeCount()) + " contributions";
}

/// Reduce, reduce-scatter, allreduce: follows every partial result (ReductionReplay). A
/// contribution combined twice, a repeated receive, a block that names no chunk, and any node
/// that ends without a complete result it must have.
void checkReduction(const Schedule& s, const ValidateOptions& options, Report& report)
{
    const Topology& topo = s.topology();
    const std::string what = toString(s.pattern());
    ReductionReplay replay(s, [&](const ReductionArrival& a) {
        const Transfer& t = s.transfers()[a.transfer];
        if (a.chunk != kNoChunk &&
            (a.merge.kind == ContributionSets::Merge::Added || a.merge.kind == ContributionSets::Merge::Replaced))
            return; // the common case, tens of millions of times on a large torus: no strings
        const std::string edge = topo.nodeName(t.from) + "→" + topo.nodeName(t.to);
        if (a.chunk == kNoChunk) {
            const std::string block =
                "[" + (a.block.origin == Block::kAll ? std::string("*") : std::to_string(a.block.origin)) + ", " +
                (a.block.dest == Block::kAll ? std::string("*") : std::to_string(a.block.dest)) + ", " +
                std::to_string(a.block.part) + "]";
            report.add(FindingKind::WrongData, t.step, {t.from, t.to},
                       at(t.step) + edge + " carries block " + block + ", which names no chunk of this " + what +
                           " (its blocks are partial results: origin * with " +
                           (s.pattern() == Pattern::ReduceScatter ? "the owner as dest" : std::string("dest *")) +
                           " and part 0.." + std::to_string(s.parts - 1) + ")");
            return;
        }
        const ContributionSets& sets = *a.sets;
        const std::string chunk = chunkName(s, a.block);
        switch (a.merge.kind) {
        case ContributionSets::Merge::Added:
        case ContributionSets::Merge::Replaced:
            break;
        case ContributionSets::Merge::Repeated:
            if (options.forbidDuplicateReceives)
                report.add(FindingKind::InformedTwice, t.step, {t.to, t.from},
                           at(t.step) + topo.nodeName(t.to) + " receives " + chunk + " from " + topo.nodeName(t.from) +
                               " again: the same partial result it holds (" + contributionsText(topo, sets, a.before) +
                               ")");
            break;
        case ContributionSets::Merge::Overlap:
            report.add(FindingKind::InformedTwice, t.step, {t.to, t.from},
                       at(t.step) + topo.nodeName(t.to) + " receives " + chunk + " from " + topo.nodeName(t.from) +
                           " (" + contributionsText(topo, sets, a.incoming) + ") but already holds (" +
                           contributionsText(topo, sets, a.before) + "); both contain the contribution of " +
                           topo.nodeName(a.merge.witness) + ", which would be combined twice");
            break;
        }
    });
    const ContributionSets& sets = *replay.sets();
    std::size_t incomplete = 0;
    std::vector<NodeId> short_;
    std::string first;
    for (NodeId v{}; v < topo.nodeCount(); ++v) {
        for (std::uint64_t c : requiredChunks(s, v)) {
            const ContributionSets::SetId id = replay.finalSet(v, c);
            if (sets.isFull(id))
                continue;
            if (incomplete++ == 0) {
                first = topo.nodeName(v) + " ends " + chunkName(s, chunkBlock(s, c)) + " with " +
                        std::to_string(sets.size(id)) + " of " + std::to_string(topo.nodeCount()) +
                        " contributions; the contribution of " + topo.nodeName(sets.firstMissing(id)) +
                        " never reaches it";
            }
            if (short_.size() < kMaxFindingNodes && (short_.empty() || short_.back() != v))
                short_.push_back(v);
        }
    }
    if (incomplete)
        report.add(FindingKind::NeverReached, StepNo{s.stepCount()}, short_,
                   std::to_string(short_.size()) + (short_.size() == kMaxFindingNodes ? " or more" : "") + " of " +
                       std::to_string(topo.nodeCount()) + " nodes do not end with their complete " + what +
                       " result (" + std::to_string(incomplete) + " chunks short; first: " + first + ")");
}

} // namespace

std::string toString(FindingKind kind)
{
    switch (kind) {
    case FindingKind::InformedTwice:
        return "informed twice";
    case FindingKind::NotYetHolding:
        return "not yet holding";
    case FindingKind::ChannelShared:
        return "channel shared";
    case FindingKind::NeverReached:
        return "never reached";
    case FindingKind::PortLimit:
        return "port limit";
    case FindingKind::BadRoute:
        return "bad route";
    case FindingKind::BadTransfer:
        return "bad transfer";
    case FindingKind::WrongData:
        return "wrong data";
    case FindingKind::FoundWrongAtImport:
        return "found wrong at import";
    }
    return "unknown";
}

std::string findingLine(const Topology& topo, const Finding& f)
{
    if (f.kind == FindingKind::FoundWrongAtImport) // no step or nodes of the schedule: the program's own words
        return toString(f.kind) + ": " + f.text;
    std::string line = (f.kind == FindingKind::NeverReached ? "after step " : "step ") + std::to_string(f.step) + ", " +
                       toString(f.kind) + ", node" + (f.nodes.size() == 1 ? "" : "s");
    for (std::size_t i = 0; i < f.nodes.size() && i < 16; ++i)
        line += " " + (f.nodes[i] < topo.nodeCount() ? topo.nodeName(f.nodes[i]) : std::to_string(f.nodes[i]));
    if (f.nodes.size() > 16)
        line += " … (" + std::to_string(f.nodes.size()) + " in all)";
    if (f.nodes.empty())
        line += " (none)";
    // The sentence starts with the step as well ("step 4: …"); say it once.
    const std::string prefix = at(f.step);
    const bool repeats = f.text.compare(0, prefix.size(), prefix) == 0;
    return line + ": " + (repeats ? f.text.substr(prefix.size()) : f.text);
}

ValidateOptions promisedValidateOptions(const Schedule& schedule)
{
    ValidateOptions o;
    o.forbidStepContention = schedule.contentionFree;
    return o;
}

/// The findings `import --force` recorded (importFindings), each a violation of its own: the
/// file says what the program it came from did wrong, which its moves alone do not show.
void reportImportFindings(const Schedule& s, Report& report)
{
    const std::optional<ImportFindings> found = importFindings(s);
    if (!found)
        return;
    const std::string from =
        "imported from " + found->file + ", which the " + found->collective + " check found wrong: ";
    for (const std::string& text : found->texts)
        report.add(FindingKind::FoundWrongAtImport, StepNo{0}, {}, from + text);
    for (std::uint64_t k = found->texts.size(); k < found->count; ++k) // counted, not listed
        report.add(FindingKind::FoundWrongAtImport, StepNo{0}, {},
                   from + "(a finding the file counts but does not list)");
}

Validation validate(const Schedule& schedule, const ValidateOptions& options)
{
    // Per-node arrays: sends, receives and both partners (checkPorts), then what each node holds.
    const Topology& topo = schedule.topology();
    checkMemory("checking a schedule on the " + topo.displayName(), saturatingMul(topo.nodeCount(), 24),
                std::to_string(topo.nodeCount()) + " nodes × 24 B");
    Validation v;
    Report report(v, options.maxViolations);
    Schedule copy;
    if (!schedule.finalized()) { // steps must be indexed
        copy = schedule;
        copy.finalize();
    }
    const Schedule& s = schedule.finalized() ? schedule : copy;

    const bool routesOk = checkTransfers(s, report);
    checkPorts(s, report);

    bool simple = s.pattern() == Pattern::Broadcast && s.parts == 1;
    for (const Transfer& t : s.transfers())
        if (t.payload != 0)
            simple = false;
    if (simple)
        checkSimpleBroadcast(s, options, report);
    else if (combines(s.pattern()))
        checkReduction(s, options, report);
    else
        checkBlocks(s, options, report);

    if (options.forbidStepContention && routesOk) {
        const Metrics m = computeMetrics(s, options.maxViolations);
        for (const Contention& c : m.contentions) {
            std::string who;
            std::vector<NodeId> nodes;
            for (std::size_t i = 0; i < c.transfers.size() && i < 4; ++i) {
                const Transfer& t = s.transfers()[c.transfers[i]];
                who += (i ? ", " : "") + s.topology().nodeName(t.from) + "→" + s.topology().nodeName(t.to);
            }
            for (std::size_t i = 0; i < c.transfers.size() && nodes.size() + 2 <= kMaxFindingNodes; ++i) {
                const Transfer& t = s.transfers()[c.transfers[i]];
                nodes.push_back(t.from);
                nodes.push_back(t.to);
            }
            if (c.transfers.size() > 4)
                who += ", …";
            report.add(FindingKind::ChannelShared, c.step, std::move(nodes),
                       at(c.step) + std::to_string(c.transfers.size()) + " transfers share the directed channel " +
                           s.topology().channelName(c.channel) + " (" + who + ")",
                       static_cast<std::int64_t>(c.channel));
        }
    }
    reportImportFindings(s, report);
    return v;
}

} // namespace topocast
