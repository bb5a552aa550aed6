#pragma once

#include <QWidget>

class QLabel;
class QPushButton;
class QSlider;
class QDoubleSpinBox;

namespace topocast::app {

class Timeline;

/// The timeline's controls: first, back, play/pause, forward, last, a slider over the steps
/// and the speed (steps per second). Keeps itself in sync with the Timeline it drives.
class TimelineBar : public QWidget {
    Q_OBJECT
public:
    TimelineBar(Timeline* timeline, QWidget* parent = nullptr);

    QSlider* slider() const { return m_slider; }
    QPushButton* playButton() const { return m_play; }

private:
    void sync();

    Timeline* m_timeline;
    QPushButton* m_play = nullptr;
    QSlider* m_slider = nullptr;
    QLabel* m_label = nullptr;
    QDoubleSpinBox* m_speed = nullptr;
};

} // namespace topocast::app
