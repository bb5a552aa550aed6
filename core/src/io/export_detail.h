#pragma once
// What the export writers share between their files (export.cpp, export_trace.cpp).

#include "topocast/model/error.h"
#include "topocast/model/schedule.h"

#include <nlohmann/json.hpp>

#include <string>

namespace topocast::detail {

/// Refuses a schedule that is not finalized (its steps and metrics are not yet counted).
inline void requireFinalized(const Schedule& schedule, const char* what)
{
    if (!schedule.finalized() && schedule.size() > 0)
        throw Error(std::string(what) + ": the schedule is not finalized (call Schedule::finalize())");
}

/// JSON string literal (quotes and escapes).
inline std::string quoted(const std::string& s)
{
    return nlohmann::json(s).dump();
}

} // namespace topocast::detail
