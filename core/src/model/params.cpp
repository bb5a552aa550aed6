#include "topocast/model/params.h"

#include "topocast/model/error.h"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace topocast {

std::optional<std::string> Params::find(const std::string& key) const
{
    auto it = m_values.find(key);
    if (it == m_values.end() || it->second.empty())
        return std::nullopt;
    return it->second;
}

std::string Params::getString(const std::string& key, const std::string& fallback) const
{
    return find(key).value_or(fallback);
}

double Params::getDouble(const std::string& key, double fallback, double min, double max) const
{
    const auto text = find(key);
    if (!text)
        return fallback;
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(text->c_str(), &end);
    // ERANGE with a tiny result is underflow ("1e-400" reads as 0), which is fine; overflow is not.
    const bool overflow = errno == ERANGE && std::fabs(v) == HUGE_VAL;
    if (end == text->c_str() || *end != '\0' || overflow || !std::isfinite(v))
        throw Error("parameter " + key + " = '" + *text + "' is not a finite number");
    if (v < min || v > max)
        throw Error(fmt::format("parameter {} = {} is out of range; allowed {:g} to {:g}", key, *text, min, max));
    return v;
}

long long Params::getInt(const std::string& key, long long fallback, long long min, long long max) const
{
    const auto text = find(key);
    if (!text)
        return fallback;
    errno = 0;
    char* end = nullptr;
    const long long v = std::strtoll(text->c_str(), &end, 10);
    if (end == text->c_str() || *end != '\0' || errno == ERANGE)
        throw Error("parameter " + key + " = '" + *text + "' is not a whole number");
    if (v < min || v > max)
        throw Error("parameter " + key + " = " + *text + " is out of range; allowed " + std::to_string(min) + " to " +
                    std::to_string(max));
    return v;
}

} // namespace topocast
