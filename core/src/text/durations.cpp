#include "topocast/text/durations.h"

#include <cmath>

#include <fmt/format.h>

namespace topocast {

std::string formatMicroseconds(double seconds)
{
    return fmt::format("{:.1f}", seconds * 1e6);
}

std::string formatDuration(double seconds)
{
    if (seconds >= 10e-3)
        return fmt::format("{:.2f} ms", seconds * 1e3);
    return formatMicroseconds(seconds) + " µs";
}

std::string formatRoughDuration(double seconds)
{
    if (!(seconds >= 0.1))
        return "under 0.1 s";
    if (seconds < 1.0)
        return fmt::format("{:.2g} s", seconds);
    struct Unit {
        double seconds;
        const char* name;
    };
    static constexpr Unit kUnits[] = {
        {365.25 * 86400, "years"}, {86400, "days"}, {3600, "h"}, {60, "min"}, {1, "s"},
    };
    for (const Unit& u : kUnits) {
        // A unit is used from 1.5 of it (90 s, not "1.5 min"), seconds always.
        if (seconds < 1.5 * u.seconds && u.seconds > 1)
            continue;
        const double v = seconds / u.seconds;
        return (v < 10 ? fmt::format("{:.2g}", v) : fmt::format("{:.0f}", v)) + " " + u.name;
    }
    return fmt::format("{:.0f} s", seconds);
}

DurationUnit durationUnitFor(double largest)
{
    if (!(largest > 0) || !std::isfinite(largest) || largest >= 1)
        return {"s", 1};
    if (largest >= 1e-3)
        return {"ms", 1e-3};
    if (largest >= 1e-6)
        return {"µs", 1e-6};
    return {"ns", 1e-9};
}

} // namespace topocast
