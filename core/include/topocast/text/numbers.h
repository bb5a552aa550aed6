#pragma once

// Numbers as topocast prints them: the one formatter (on {fmt}) behind the CLI's tables, the
// source map's values and the app's metrics panel. Durations: durations.h; sizes: limits.h.

#include <string>

namespace topocast {

/// `value` with `digits` significant digits and no trailing zeros, as printf's "%.<digits>g":
/// "0.1235", "1.235e+07", "inf", "-inf", "nan". `digits` < 1 counts as 1. Never throws.
std::string formatSignificant(double value, int digits);

/// `value` with exactly `decimals` digits after the point, as printf's "%.<decimals>f":
/// "3.142", "2" (0 decimals). `decimals` < 0 counts as 0. Never throws.
std::string formatFixed(double value, int decimals);

/// A ratio (a time over its bound) with 3 significant digits, more — up to 8 — where 3 would
/// print 1 for a ratio that is not 1: "1.67", "1", "1.002" (4816/4805), never "1" for a time
/// above its bound. Never throws.
std::string formatRatio(double ratio);

/// A figure for a table: a whole number below 10^15 as its digits ("71", "-3"), anything else
/// with 6 significant digits (formatSignificant: "12.5", "1e+20", "nan"). Never throws.
std::string formatNumber(double value);

} // namespace topocast
