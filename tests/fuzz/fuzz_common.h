// Shared setup of the libFuzzer targets: a small memory budget, so every input the fuzzer can
// write is either refused by the size limits or handled within a few milliseconds.
#pragma once

#include "topocast/model/limits.h"

#include <cstdint>
#include <cstdlib>

namespace topocast::fuzz {

/// Budget for one operation inside the fuzzers (the default, 4 GiB, is for real use).
inline constexpr std::uint64_t kFuzzMemoryLimit = std::uint64_t{16} << 20;

inline void initLimits()
{
    setMemoryLimit(kFuzzMemoryLimit);
}

/// A property the target checks; abort so libFuzzer records the input as a crash.
inline void require(bool ok)
{
    if (!ok)
        std::abort();
}

} // namespace topocast::fuzz
