#pragma once

// Durations as topocast prints them (measured step times, fitted cost constants).

#include <string>

namespace topocast {

/// `seconds` in microseconds with one decimal and no unit: "12.5" for 12.5e-6 s (the columns of
/// topocast-cli measured and topocast-mpi's summary). Never throws.
std::string formatMicroseconds(double seconds);

/// `seconds` for a reader: "12.35 ms" from 10 ms up, else microseconds with one decimal
/// ("812.4 µs"). Never throws.
std::string formatDuration(double seconds);

/// A duration in round words, as an estimate is said: "under 0.1 s", "0.15 s", "8 s", "8 min",
/// "3.2 h", "48 days", "12 years" (two significant digits below 10, whole numbers above). Never throws.
std::string formatRoughDuration(double seconds);

/// The unit a time axis up to `largest` seconds reads best in: the largest of s, ms, µs and ns of
/// which `largest` is at least one (ns below that, s for 0, a negative or a non-finite value), so
/// its labels show their digits ("0 … 2.6 ms", not "0.00 … 0.00 s"). Never throws.
struct DurationUnit {
    const char* symbol; ///< "s", "ms", "µs", "ns"
    double seconds;     ///< 1, 1e-3, 1e-6, 1e-9
};
DurationUnit durationUnitFor(double largest);

} // namespace topocast
