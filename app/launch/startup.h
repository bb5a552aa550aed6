#pragma once

#include "style/scenestyle.h"

#include <QSize>
#include <QString>

#include <optional>

namespace topocast::app {

/// Sets QT3D_RENDERER to "opengl" unless the user chose one, and returns the one in use
/// (logged at start-up, since the two backends differ in small ways).
QString setupRenderer();

/// True when a windowing system is reachable (DISPLAY, WAYLAND_DISPLAY, or an explicit
/// QT_QPA_PLATFORM); otherwise the caller prints noDisplayMessage().
bool haveDisplay();
QString noDisplayMessage();

struct ScreenshotOptions {
    QString scenarioFile; ///< empty: the default scenario
    int step = -1;        ///< −1: the last step
    /// The colouring; nothing: the scenario's own (its view.mode), as the window opens it.
    std::optional<ViewMode> mode;
    QString output;
    QSize size{1200, 800};
    /// --layout: how a hypercube is drawn ("cube" or "flat"); empty: as the scenario says.
    QString layout;
};

/// --screenshot: renders the scenario's view once into `output` (PNG); a compare scenario (its
/// own "compare", or `compareFile` given with --compare) as both sides in one picture. Returns
/// 0, or 2 with a one-line message in `error`.
int renderScreenshot(const ScreenshotOptions& options, QString& error, const QString& compareFile = {});

/// `topocast --scenario A --compare B`: A (empty: the default scenario) with B's file as its
/// compare side. Throws topocast::Error naming the file, e.g. "--compare b.json: a comparison
/// needs one network on both sides: A is …, B is …; give B the topology … too".
Scenario loadComparePair(const QString& scenarioFile, const QString& compareFile);

/// Parses "WxH" ("1200x800"); nullopt if malformed or out of 16..8192.
std::optional<QSize> parseSize(const QString& text);

} // namespace topocast::app
