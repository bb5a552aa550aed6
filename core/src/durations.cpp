#include "topocast/durations.h"

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

} // namespace topocast
