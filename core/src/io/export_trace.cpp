// The Chrome trace export (chrome://tracing, Perfetto): one track per node, a slice per transfer,
// the steps' spans from fixed, modelled or measured step lengths.
#include "topocast/io/export.h"
#include "topocast/io/schedule_json.h"

#include "export_detail.h"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

namespace topocast {

using detail::quoted;
using detail::requireFinalized;

/// Each step's start and length in µs: options.stepTimes when given (checked: one per step, each
/// finite and ≥ 0), else stepMicros apiece. The last entry of `starts` is the trace's end.
static void traceStepSpans(const TraceOptions& options, std::uint32_t steps, std::vector<double>& starts,
                           std::vector<double>& lengths)
{
    if (options.stepTimes.empty()) {
        if (!(options.stepMicros > 0.0) || !std::isfinite(options.stepMicros))
            throw Error("trace step length " + fmt::to_string(options.stepMicros) + " µs must be positive");
        lengths.assign(steps, options.stepMicros);
    } else {
        if (options.stepTimes.size() != steps)
            throw Error("trace: " + std::to_string(options.stepTimes.size()) + " step times for a schedule of " +
                        std::to_string(steps) + " steps; give one per step");
        for (std::size_t i = 0; i < steps; ++i)
            if (!(options.stepTimes[i] >= 0.0) || !std::isfinite(options.stepTimes[i]))
                throw Error("trace: step " + std::to_string(i + 1) + " time " + fmt::to_string(options.stepTimes[i]) +
                            " µs is not a number ≥ 0");
        lengths = options.stepTimes;
    }
    starts.assign(1, 0.0);
    for (double length : lengths)
        starts.push_back(starts.back() + length);
}

/// The trace's otherData (topocast's envelope: format, version, topology, the schedule and where its
/// step times come from) and the metadata of the steps track.
static void writeTraceHeader(std::ostream& out, const Schedule& schedule, const TraceOptions& options)
{
    const Topology& topo = schedule.topology();
    std::string title = schedule.algorithm;
    if (!schedule.mode.empty())
        title += " (" + schedule.mode + ")";
    title += " " + toString(schedule.pattern()) + " on the " + topo.displayName();

    out << "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"format\":\"topocast-trace\",\"version\":1,\"topology\":"
        << quoted(topo.spec()) << ",\"algorithm\":" << quoted(schedule.algorithm)
        << ",\"mode\":" << quoted(schedule.mode) << ",\"pattern\":" << quoted(toString(schedule.pattern()))
        << ",\"source\":" << (hasRoot(schedule.pattern()) ? nodeToJson(topo, schedule.source()).dump() : "null")
        << ",\"steps\":" << schedule.stepCount() << ",\"transfers\":" << schedule.transfers().size()
        << ",\"size_unit\":" << quoted(schedule.sizeUnit)
        << ",\"time_unit\":\"µs\",\"step_times\":" << quoted(options.stepTimes.empty() ? "fixed" : options.timesFrom);
    if (options.stepTimes.empty())
        out << ",\"step_us\":" << fmt::to_string(options.stepMicros);
    out << "},\n\"traceEvents\":[\n";
    out << "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"name\":" << quoted(title)
        << "}},\n";
    out << "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"name\":\"steps\"}},\n";
    out << "{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"sort_index\":-1}}";
}

void writeChromeTrace(std::ostream& out, const Schedule& schedule, const TraceOptions& options)
{
    requireFinalized(schedule, "trace export");
    const Topology& topo = schedule.topology();
    const std::vector<Transfer>& transfers = schedule.transfers();
    const std::uint32_t steps = schedule.stepCount();
    std::vector<double> starts, lengths;
    traceStepSpans(options, steps, starts, lengths);
    writeTraceHeader(out, schedule, options);

    // One track per node that takes part.
    std::vector<char> active(topo.nodeCount(), 0);
    for (const Transfer& t : transfers)
        active[t.from] = active[t.to] = 1;
    for (NodeId v{}; v < topo.nodeCount(); ++v) {
        if (!active[v])
            continue;
        const std::uint64_t tid = std::uint64_t{v} + 1;
        out << ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":" << tid
            << ",\"args\":{\"name\":" << quoted(topo.nodeName(v) + (v == schedule.source() ? " (source)" : "")) << "}}";
        out << ",\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":1,\"tid\":" << tid
            << ",\"args\":{\"sort_index\":" << v << "}}";
    }

    // Per step: one slice on the steps track, then each node's sends and receives.
    struct Slice {
        NodeId node;
        int kind; // 0 send, 1 receive
        std::size_t transfer;
        bool operator<(const Slice& o) const
        {
            return std::tie(node, kind, transfer) < std::tie(o.node, o.kind, o.transfer);
        }
    };
    std::vector<Slice> slices;
    for (StepNo step{1}; step <= steps; ++step) {
        const double base = starts[step - 1];
        const double unit = lengths[step - 1];
        const std::size_t begin = schedule.stepBegin(step);
        const std::size_t end = schedule.stepEnd(step);
        out << ",\n{\"name\":" << quoted("step " + std::to_string(step))
            << ",\"cat\":\"step\",\"ph\":\"X\",\"pid\":1,\"tid\":0"
            << ",\"ts\":" << fmt::to_string(base) << ",\"dur\":" << fmt::to_string(unit)
            << ",\"args\":{\"transfers\":" << (end - begin);
        if (step <= schedule.stepLabels.size() && !schedule.stepLabels[step - 1].empty())
            out << ",\"label\":" << quoted(schedule.stepLabels[step - 1]);
        out << "}}";

        slices.clear();
        for (std::size_t i = begin; i < end; ++i) {
            slices.push_back({transfers[i].from, 0, i});
            slices.push_back({transfers[i].to, 1, i});
        }
        std::sort(slices.begin(), slices.end());
        for (std::size_t a = 0; a < slices.size();) {
            std::size_t b = a;
            while (b < slices.size() && slices[b].node == slices[a].node)
                ++b;
            // Nested slices: the i-th starts i·inset later and ends i·inset earlier, so a flow
            // point half an inset after its start lies in that slice and in no deeper one.
            const double inset = unit / (2.0 * static_cast<double>(b - a + 1));
            for (std::size_t k = a; k < b; ++k) {
                const Slice& sl = slices[k];
                const Transfer& t = transfers[sl.transfer];
                const double depth = static_cast<double>(k - a);
                const double ts = base + depth * inset;
                const double dur = unit - 2.0 * depth * inset;
                const std::uint64_t tid = std::uint64_t{sl.node} + 1;
                const bool send = sl.kind == 0;
                const std::string peer = topo.nodeName(send ? t.to : t.from);
                out << ",\n{\"name\":" << quoted(send ? "send → " + peer : "recv ← " + peer) << ",\"cat\":\""
                    << (send ? "send" : "recv") << "\",\"ph\":\"X\",\"pid\":1,\"tid\":" << tid
                    << ",\"ts\":" << fmt::to_string(ts) << ",\"dur\":" << fmt::to_string(dur)
                    << ",\"args\":{\"step\":" << t.step << ",\"from\":" << nodeToJson(topo, t.from).dump()
                    << ",\"to\":" << nodeToJson(topo, t.to).dump() << ",\"hops\":" << schedule.hops(t)
                    << ",\"route\":" << quoted(routeField(t.route)) << ",\"payload\":" << t.payload
                    << ",\"tag\":" << t.tag << ",\"size\":" << fmt::to_string(t.size) << ",\"transfer\":" << sl.transfer
                    << "}}";
                out << ",\n{\"name\":\"message\",\"cat\":\"flow\",\"ph\":\"" << (send ? "s" : "f") << "\""
                    << (send ? "" : ",\"bp\":\"e\"") << ",\"id\":" << (sl.transfer + 1) << ",\"pid\":1,\"tid\":" << tid
                    << ",\"ts\":" << fmt::to_string(ts + inset / 2.0) << "}";
            }
            a = b;
        }
    }
    out << "\n]}\n";
}

} // namespace topocast
