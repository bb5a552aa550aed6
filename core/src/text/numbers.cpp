#include "topocast/text/numbers.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace topocast {

std::string formatSignificant(double value, int digits)
{
    return fmt::format("{:.{}g}", value, std::max(digits, 1));
}

std::string formatFixed(double value, int decimals)
{
    return fmt::format("{:.{}f}", value, std::max(decimals, 0));
}

std::string formatRatio(double ratio)
{
    int digits = 3;
    std::string text = formatSignificant(ratio, digits);
    while (digits < 8 && ratio != 1.0 && std::isfinite(ratio) && text == "1")
        text = formatSignificant(ratio, ++digits);
    return text;
}

std::string formatNumber(double value)
{
    if (std::isfinite(value) && std::floor(value) == value && std::fabs(value) < 1e15)
        return fmt::to_string(static_cast<std::int64_t>(value));
    return formatSignificant(value, 6);
}

} // namespace topocast
