#pragma once

#include "compare/comparesnapshot.h"
#include "export/animationexport.h"

#include "topocast/io/export.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <utility>

class QAction;
class QMenu;
class QWidget;

namespace topocast::app {

class LayerCharts;
class SceneView;
class Session;
class Timeline;

/// File ▸ Export: the animation (MP4, GIF, PNG frames) with a progress bar and cancel, a
/// picture of the current view at any size, the divisible-load charts as PNG + SVG, and the
/// schedule's data formats (JSON, CSV, trace, GraphML, DOT). The menu's dialogs end in the
/// dialog-free functions below, which tests call directly. Every file is written atomically.
class ExportActions : public QObject {
    Q_OBJECT
public:
    ExportActions(QWidget* window, Session* session, Timeline* timeline, SceneView* scene, LayerCharts* charts);

    /// While it returns a comparison (the split view is on), the picture and the animation show
    /// both sides in one file, seen with the returned camera.
    using CompareSource = std::function<std::pair<CompareSnapshotPtr, OrbitCamera::State>()>;
    void setCompareSource(CompareSource source) { m_compareSource = std::move(source); }

    /// The "Export" submenu for the File menu (owned by this object's window).
    QMenu* menu() const { return m_menu; }

    /// The view as the window shows it now: its size-independent settings (mode, heat,
    /// contrast, camera), at `size`.
    ViewSettings currentView(QSize size) const;

    /// Renders the animation with a modal progress dialog (cancel stops it: nothing written).
    /// Returns an empty string on success, "cancelled", or the error; the window shows it too.
    QString exportAnimation(const AnimationSettings& settings);
    /// The current view (step and fraction of the timeline) as a PNG at `size`.
    QString exportPicture(const QString& path, QSize size);
    /// The divisible-load charts as <dir>/<stem>-<chart>.png and .svg.
    QString exportCharts(const QString& dir, const QString& stem);
    /// The schedule (or topology / broadcast tree for the graph formats) in a data format.
    QString exportData(const QString& path, ExportFormat format, ExportGraph graph = ExportGraph::Topology);

signals:
    /// After each animation frame (the progress dialog's value); tests cancel through it.
    void animationProgress(int done, int total);
    /// A one-line report for the status bar after an export ("wrote …" or the error).
    void reported(const QString& message);

private:
    void animationDialog();
    void pictureDialog();
    void chartsDialog();
    void dataDialog();
    QString report(const QString& message);

    QWidget* m_window;
    Session* m_session;
    Timeline* m_timeline;
    SceneView* m_scene;
    LayerCharts* m_charts;
    QMenu* m_menu = nullptr;
    QAction* m_chartsAction = nullptr;
    CompareSource m_compareSource;
};

} // namespace topocast::app
