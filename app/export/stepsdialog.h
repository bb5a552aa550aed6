#pragma once

#include <QString>

#include <cstdint>
#include <functional>
#include <optional>

class QFormLayout;
class QWidget;

namespace topocast::app {

/// The steps an export covers, as its dialog asked for them (first ≤ last).
struct StepRange {
    std::uint32_t first = 1;
    std::uint32_t last = 1;
};

/// A modal dialog titled `title` asking for the first and last of `steps` steps (all by default),
/// with whatever rows `extraRows` adds to its form first (page size, exercise); nullopt when
/// cancelled. The handout's and the quiz's dialogs.
std::optional<StepRange> askStepRange(QWidget* window, const QString& title, int steps,
                                      const std::function<void(QFormLayout*)>& extraRows = {});

/// Runs `write` under a wait cursor and says how it went: its message to `report`, or, when it
/// throws, "`what` not written: reason" to `report` and in a warning box titled `title`.
void writeReported(QWidget* window, const QString& title, const QString& what, const std::function<QString()>& write,
                   const std::function<void(const QString&)>& report);

} // namespace topocast::app
