#pragma once
// The side panel's controls of the picture: the colour mode, cumulative heat, the explode slider
// and the slice (one plane in full, the others ghosted). They follow the 3-D view's own changes
// (a key, a new network) without echoing them back.

#include "style/scenestyle.h"

#include <QObject>
#include <QString>

class QAction;
class QCheckBox;
class QComboBox;
class QSlider;
class QVBoxLayout;

namespace topocast::app {

class SceneView;

class ViewControls : public QObject {
    Q_OBJECT
public:
    /// Adds the controls to `layout` (the side panel) and drives `scene` from them.
    ViewControls(SceneView* scene, QVBoxLayout* layout, QObject* parent = nullptr);

    ViewMode mode() const;
    /// The colour mode's words as the menu shows them ("Plain", "Heat map", …).
    QString modeText() const;
    bool cumulative() const;
    /// Chooses `mode` in the colour box (emits modeChanged when it changes).
    void setMode(ViewMode mode);
    /// View ▸ Explode planes, kept checked and enabled with the slider.
    void setExplodeAction(QAction* action) { m_explodeAction = action; }

signals:
    void modeChanged(topocast::ViewMode mode);
    void cumulativeToggled(bool on);

private:
    void addExplodeControls(QVBoxLayout* layout);
    void addSliceControls(QVBoxLayout* layout);

    SceneView* m_scene;
    QComboBox* m_modeBox = nullptr;
    QCheckBox* m_cumulative = nullptr;
    QSlider* m_explodeSlider = nullptr; ///< explode × 10 (View ▸ Explode planes, E)
    QAction* m_explodeAction = nullptr;
};

} // namespace topocast::app
