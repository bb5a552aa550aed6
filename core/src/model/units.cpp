#include "topocast/model/units.h"

#include "topocast/model/error.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <string>

namespace topocast {

namespace {

struct Unit {
    std::string_view name;
    double factor;
};

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

/// Splits "12.5 GB/s" into 12.5 and "GB/s". False when there is no number first.
bool splitNumber(std::string_view text, double& value, std::string_view& unit)
{
    text = trim(text);
    const char* begin = text.data();
    const char* end = begin + text.size();
    if (begin != end && *begin == '+')
        ++begin;
    const auto [ptr, ec] = std::from_chars(begin, end, value);
    if (ec != std::errc() || ptr == begin)
        return false;
    unit = trim(std::string_view(ptr, static_cast<std::size_t>(end - ptr)));
    return true;
}

std::string unitList(std::initializer_list<Unit> units)
{
    std::string out;
    for (const Unit& u : units)
        out += (out.empty() ? "" : ", ") + std::string(u.name);
    return out;
}

constexpr double kKi = 1024.0;

} // namespace

std::uint64_t parseBytes(std::string_view text, std::string_view what)
{
    static const std::initializer_list<Unit> units = {{"B", 1},
                                                      {"KiB", kKi},
                                                      {"MiB", kKi * kKi},
                                                      {"GiB", kKi * kKi * kKi},
                                                      {"TiB", kKi * kKi * kKi * kKi},
                                                      {"KB", 1e3},
                                                      {"kB", 1e3},
                                                      {"k", 1e3},
                                                      {"MB", 1e6},
                                                      {"GB", 1e9},
                                                      {"TB", 1e12}};
    const auto refuse = [&](const std::string& why) -> std::uint64_t {
        throw Error(std::string(what) + " '" + std::string(text) + "' " + why +
                    "; give a size with its unit: B, KB, MB, GB, TB (powers of 1000) or KiB, MiB, GiB, TiB (powers of "
                    "1024), e.g. 64B, 1MiB");
    };
    double v = 0;
    std::string_view unit;
    if (!splitNumber(text, v, unit))
        return refuse("is not a size");
    if (unit.empty())
        return v == 0 ? 0 : refuse("has no unit");
    for (const Unit& u : units)
        if (u.name == unit) {
            const double bytes = v * u.factor;
            if (!std::isfinite(bytes) || bytes < 0)
                return refuse("is not a size of zero or more bytes");
            if (bytes > std::ldexp(1.0, 50))
                return refuse("is over 1 PiB, the largest size topocast takes");
            if (bytes != std::floor(bytes))
                return refuse("is not a whole number of bytes");
            return static_cast<std::uint64_t>(bytes);
        }
    return refuse("has an unknown unit '" + std::string(unit) + "'");
}

double parseSeconds(std::string_view text, std::string_view what)
{
    static const std::initializer_list<Unit> units = {{"s", 1},     {"ms", 1e-3}, {"us", 1e-6},
                                                      {"µs", 1e-6}, {"ns", 1e-9}, {"ps", 1e-12}};
    const auto refuse = [&](const std::string& why) -> double {
        throw Error(std::string(what) + " '" + std::string(text) + "' " + why + "; give a duration with its unit (" +
                    unitList(units) + "), e.g. 1us, 2500ns");
    };
    double v = 0;
    std::string_view unit;
    if (!splitNumber(text, v, unit))
        return refuse("is not a duration");
    if (!std::isfinite(v) || v < 0)
        return refuse("is not a duration of zero or more");
    if (unit.empty())
        return v == 0 ? 0.0 : refuse("has no unit");
    for (const Unit& u : units)
        if (u.name == unit)
            return v * u.factor;
    return refuse("has an unknown unit '" + std::string(unit) + "'");
}

double parseSecondsPerByte(std::string_view text, std::string_view what)
{
    static const std::initializer_list<Unit> rates = {
        {"B/s", 1},        {"KB/s", 1e3},        {"kB/s", 1e3},
        {"MB/s", 1e6},     {"GB/s", 1e9},        {"TB/s", 1e12},
        {"KiB/s", kKi},    {"MiB/s", kKi * kKi}, {"GiB/s", kKi * kKi * kKi},
        {"bit/s", 0.125},  {"Kbit/s", 125},      {"Mbit/s", 125e3},
        {"Gbit/s", 125e6}, {"Tbit/s", 125e9},    {"b/s", 0.125},
        {"Kb/s", 125},     {"Mb/s", 125e3},      {"Gb/s", 125e6},
        {"Tb/s", 125e9}};
    static const std::initializer_list<Unit> perByte = {{"s/B", 1},     {"ms/B", 1e-3}, {"us/B", 1e-6},
                                                        {"µs/B", 1e-6}, {"ns/B", 1e-9}, {"ps/B", 1e-12}};
    const auto refuse = [&](const std::string& why) -> double {
        throw Error(std::string(what) + " '" + std::string(text) + "' " + why +
                    "; give a positive bandwidth with its unit (B/s, KB/s, MB/s, GB/s, TB/s, KiB/s, MiB/s, GiB/s, "
                    "Mbit/s, Gbit/s, Gb/s …) or a time per byte (ns/B, ps/B …), e.g. 12.5GB/s, 100Gbit/s, 6ns/B");
    };
    double v = 0;
    std::string_view unit;
    if (!splitNumber(text, v, unit))
        return refuse("is not a bandwidth");
    if (!std::isfinite(v) || v <= 0)
        return refuse("is not positive");
    if (unit.empty())
        return refuse("has no unit");
    for (const Unit& u : rates)
        if (u.name == unit) {
            const double s = 1.0 / (v * u.factor);
            if (!std::isfinite(s) || s <= 0)
                return refuse("is out of range");
            return s;
        }
    for (const Unit& u : perByte)
        if (u.name == unit)
            return v * u.factor;
    return refuse("has an unknown unit '" + std::string(unit) + "'");
}

std::string formatSize(std::uint64_t bytes)
{
    static constexpr const char* names[] = {"KiB", "MiB", "GiB", "TiB"};
    std::string out = fmt::format("{} B", bytes);
    double scale = 1024.0;
    for (const char* name : names) {
        const double v = static_cast<double>(bytes) / scale;
        if (v < 1)
            break;
        if (v * 2 == std::floor(v * 2))
            out = fmt::format("{:g} {}", v, name);
        scale *= 1024.0;
    }
    return out;
}

std::string compactSize(std::uint64_t bytes)
{
    std::string out = formatSize(bytes);
    out.erase(out.find(' '), 1);
    return out;
}

std::string formatSeconds(double seconds)
{
    if (seconds == 0)
        return "0 s";
    struct Scale {
        double factor;
        const char* name;
    };
    static constexpr Scale scales[] = {{1, "s"}, {1e-3, "ms"}, {1e-6, "us"}, {1e-9, "ns"}};
    for (const Scale& s : scales)
        if (std::abs(seconds) >= s.factor * (1 - 1e-12) || s.factor == 1e-9)
            return fmt::format("{:.6g} {}", seconds / s.factor, s.name);
    return fmt::format("{:.6g} s", seconds);
}

std::string compactSeconds(double seconds)
{
    // Exact enough to read back: in each unit, the fewest significant digits (up to 17) that read
    // back to the same value; of those, the shortest text ("2500ns", not "2.5000000000000004us"),
    // the larger unit where two are as short.
    if (seconds == 0)
        return "0";
    struct Scale {
        double factor;
        const char* name;
    };
    static constexpr Scale scales[] = {{1, "s"}, {1e-3, "ms"}, {1e-6, "us"}, {1e-9, "ns"}, {1e-12, "ps"}};
    std::string best;
    for (const Scale& s : scales) {
        const double v = seconds / s.factor;
        if (std::abs(v) >= 1e9 || (std::abs(v) < 1e-3 && s.factor != 1e-12))
            continue;
        for (int digits = 1; digits <= 17; ++digits) {
            const std::string text = fmt::format("{:.{}g}{}", v, digits, s.name);
            if (text.find('e') != std::string::npos && text.find('e') < text.size() - std::strlen(s.name))
                continue; // "2.5e+03ns": the next unit says it plainly
            if (parseSeconds(text, "duration") == seconds) {
                if (best.empty() || text.size() < best.size())
                    best = text;
                break;
            }
        }
    }
    return best.empty() ? fmt::format("{:.17g}s", seconds) : best;
}

std::string formatBandwidth(double secondsPerByte)
{
    const double rate = 1.0 / secondsPerByte;
    struct Scale {
        double factor;
        const char* name;
    };
    static constexpr Scale scales[] = {{1e12, "TB/s"}, {1e9, "GB/s"}, {1e6, "MB/s"}, {1e3, "KB/s"}, {1, "B/s"}};
    for (const Scale& s : scales)
        if (rate >= s.factor || s.factor == 1)
            return fmt::format("{:.6g} {}", rate / s.factor, s.name);
    return fmt::format("{:.6g} B/s", rate);
}

std::string compactBandwidth(double secondsPerByte)
{
    std::string rate = formatBandwidth(secondsPerByte);
    rate.erase(rate.find(' '), 1);
    if (parseSecondsPerByte(rate, "bandwidth") == secondsPerByte)
        return rate;
    return compactSeconds(secondsPerByte) + "/B";
}

} // namespace topocast
