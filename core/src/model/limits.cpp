#include "topocast/model/limits.h"

#include "topocast/model/error.h"

#include <fmt/format.h>

#include <atomic>
#include <limits>

namespace topocast {

namespace {

std::atomic<std::uint64_t> g_memoryLimit{kDefaultMemoryLimit};

} // namespace

std::uint64_t memoryLimit()
{
    return g_memoryLimit.load(std::memory_order_relaxed);
}

void setMemoryLimit(std::uint64_t bytes)
{
    if (bytes == 0)
        throw Error("memory limit must be at least 1 byte; got 0");
    g_memoryLimit.store(bytes, std::memory_order_relaxed);
}

void checkMemory(const std::string& what, std::uint64_t bytes, const std::string& detail)
{
    const std::uint64_t limit = memoryLimit();
    if (bytes <= limit)
        return;
    const std::string need =
        bytes == std::numeric_limits<std::uint64_t>::max() ? "more than 16 EiB" : formatBytes(bytes);
    throw Error(what + " would need " + need + (detail.empty() ? "" : " (" + detail + ")") + "; the limit is " +
                formatBytes(limit));
}

std::uint64_t saturatingMul(std::uint64_t a, std::uint64_t b)
{
    std::uint64_t r = 0;
    if (__builtin_mul_overflow(a, b, &r))
        return std::numeric_limits<std::uint64_t>::max();
    return r;
}

std::uint64_t saturatingAdd(std::uint64_t a, std::uint64_t b)
{
    std::uint64_t r = 0;
    if (__builtin_add_overflow(a, b, &r))
        return std::numeric_limits<std::uint64_t>::max();
    return r;
}

std::string formatBytes(std::uint64_t bytes)
{
    static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    if (bytes < 1024)
        return std::to_string(bytes) + " B";
    double v = static_cast<double>(bytes);
    int unit = 0;
    while (v >= 1024.0 && unit < 6) {
        v /= 1024.0;
        ++unit;
    }
    std::string s = fmt::format("{:.{}f}", v, v >= 100 ? 0 : 1);
    if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0)
        s.resize(s.size() - 2); // "8 GiB", not "8.0 GiB"
    return s + " " + kUnits[unit];
}

} // namespace topocast
