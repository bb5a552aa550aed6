#include "topocast/analysis/measured.h"

#include "topocast/analysis/replay.h"

#include <algorithm>

namespace topocast {

TimeStats makeTimeStats(std::vector<double> samples)
{
    TimeStats s;
    s.samples = std::move(samples);
    if (s.samples.empty())
        return s;
    std::vector<double> sorted = s.samples;
    std::sort(sorted.begin(), sorted.end());
    s.min = sorted.front();
    const std::size_t n = sorted.size();
    s.median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
    return s;
}

std::optional<std::string> measuredMismatch(const MeasuredTimes& m, const Schedule& s)
{
    if (m.topology != s.topology().spec())
        return "measured on " + m.topology + " but the schedule is on " + s.topology().spec();
    if (m.stepCount != s.stepCount())
        return "measured " + std::to_string(m.stepCount) + " steps but the schedule has " +
               std::to_string(s.stepCount());
    if (!m.fingerprint.empty() && m.fingerprint != scheduleFingerprint(s))
        return "measured on a different schedule of the same size (fingerprint " + m.fingerprint +
               ", the schedule's is " + scheduleFingerprint(s) + ")";
    return std::nullopt;
}

} // namespace topocast
