#pragma once

#include "compare/comparesnapshot.h"
#include "export/animationexport.h"

#include <QImage>

#include <optional>

namespace topocast::app {

/// The two sides of a comparison in one picture, for `topocast --screenshot`, File ▸ Export and
/// `topocast-cli render` of a compare scenario: A on the left, B on the right, each with its
/// title and figures above its 3-D view and its narration of the step below, so a room can read
/// which side is which. Nodes the two schedules inform at different steps are ringed on both
/// sides when `highlight` is set.

/// The layout of a compare picture of `size`: the 3-D frame of each side and the bands around.
struct CompareLayout {
    QSize size;
    int header = 0;                  ///< title band height (pixels)
    int footer = 0;                  ///< narration band height
    QRect sideRect(int side) const;  ///< the whole column of a side
    QRect frameRect(int side) const; ///< where its 3-D frame goes
};
CompareLayout compareLayout(QSize size);

/// Paints the titles, narrations and the divider around two rendered side frames (each the
/// size of its frameRect) for timeline position `step`. Deterministic: a function of its inputs.
QImage composeCompareFrame(const CompareSnapshot& cmp, const QImage& frameA, const QImage& frameB, int step, QSize size,
                           bool highContrast);

/// Renders one compare picture of timeline position (step, fraction). Throws topocast::Error
/// as renderPicture does (no OpenGL, step past max(steps A, steps B)).
QImage renderComparePicture(const CompareSnapshotPtr& cmp, const ViewSettings& view, int step, float fraction = 1.0f,
                            bool highlight = true);

/// Renders and encodes a compare animation on the deterministic clock of exportAnimation over
/// the shared timeline (max of the two step counts; the shorter side holds its last state).
/// Returns nullopt when `progress` returned false (nothing written). Throws topocast::Error.
std::optional<video::VideoResult> exportCompareAnimation(const CompareSnapshotPtr& cmp,
                                                         const AnimationSettings& settings,
                                                         const ExportProgress& progress = {},
                                                         ExportTimings* timings = nullptr);

} // namespace topocast::app
