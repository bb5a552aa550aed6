#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace topocast::app {

/// The playback clock over timeline positions 0..stepCount (position s shows the network after
/// step s, with step s's messages in flight while fraction runs 0 → 1). Pure state: the view
/// is a function of (snapshot, step, fraction), so stepping back restores exactly what was shown.
class Timeline : public QObject {
    Q_OBJECT
public:
    explicit Timeline(QObject* parent = nullptr);

    int step() const { return m_step; }
    int stepCount() const { return m_stepCount; }
    /// Progress of the current step's messages along their routes, 0..1.
    float fraction() const { return m_fraction; }
    bool playing() const { return m_playing; }
    /// Steps per second.
    double speed() const { return m_speed; }

    /// The next setStepCount() puts the timeline at `step` (clamped to the new count) instead of
    /// keeping the current step: a scenario opened from a file starts where it says, not where
    /// the previous scenario was left. Pauses playback.
    void startNextAt(int step);

public slots:
    /// Also applies a pending startNextAt(); otherwise the step is kept (clamped to `steps`).
    void setStepCount(int steps);
    void setStep(int step);
    void setFraction(float fraction);
    void stepForward();
    void stepBack();
    void first();
    void last();
    void play();
    void pause();
    void togglePlay();
    void setSpeed(double stepsPerSecond);
    /// A key pressed in a 3-D view (Qt::Key): Space plays or pauses, Left and Right step back and
    /// forth (pausing), Home and End go to the first and last step; other keys do nothing.
    void handleKey(int key);

signals:
    void stepChanged(int step);
    void fractionChanged(float fraction);
    void playingChanged(bool playing);
    void stepCountChanged(int steps);

private:
    void tick();

    int m_step = 0;
    int m_stepCount = 0;
    int m_startAt = -1; ///< startNextAt()'s step until the next setStepCount(); −1: none
    float m_fraction = 1.0f;
    bool m_playing = false;
    double m_speed = 1.0;
    QTimer m_timer;
    QElapsedTimer m_clock;
};

} // namespace topocast::app
