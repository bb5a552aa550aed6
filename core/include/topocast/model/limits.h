#pragma once

#include <cstdint>
#include <string>

namespace topocast {

/// The memory budget of one operation: building a schedule, computing its metrics, checking it,
/// laying it out, reading a file. Every allocation whose size depends on the input is estimated
/// first and refused with an Error naming the limit and the memory it would need, so a topology
/// far too large for the machine is answered with a message instead of an out-of-memory kill.
inline constexpr std::uint64_t kDefaultMemoryLimit = std::uint64_t{4} << 30; // 4 GiB

/// The current budget in bytes (kDefaultMemoryLimit unless setMemoryLimit() changed it).
/// Thread-safe.
std::uint64_t memoryLimit();
/// Sets the budget for the whole process (a front end on a small machine, the fuzzers).
/// Throws Error for 0. Thread-safe.
void setMemoryLimit(std::uint64_t bytes);

/// Throws Error "<what> would need <size> (<detail>); the limit is <limit>" when
/// bytes > memoryLimit(). `bytes` is usually built with saturatingMul/saturatingAdd. O(1).
void checkMemory(const std::string& what, std::uint64_t bytes, const std::string& detail);

/// a·b and a+b, saturating at UINT64_MAX instead of wrapping (size estimates never overflow).
std::uint64_t saturatingMul(std::uint64_t a, std::uint64_t b);
std::uint64_t saturatingAdd(std::uint64_t a, std::uint64_t b);

/// "512 MiB", "3.5 GiB", "640 KiB", "12 B".
std::string formatBytes(std::uint64_t bytes);

} // namespace topocast
