#include "timeline/timeline.h"

#include <algorithm>

namespace topocast::app {

Timeline::Timeline(QObject* parent) : QObject(parent)
{
    m_timer.setInterval(16);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &Timeline::tick);
}

void Timeline::startNextAt(int step)
{
    pause();
    m_startAt = std::max(0, step);
}

void Timeline::setStepCount(int steps)
{
    m_stepCount = std::max(0, steps);
    emit stepCountChanged(m_stepCount);
    if (m_startAt >= 0) {
        const int start = m_startAt;
        m_startAt = -1;
        setStep(start);
    } else if (m_step > m_stepCount) {
        setStep(m_stepCount);
    }
}

void Timeline::setStep(int step)
{
    step = std::clamp(step, 0, m_stepCount);
    const bool changed = step != m_step;
    m_step = step;
    setFraction(1.0f);
    if (changed)
        emit stepChanged(m_step);
}

void Timeline::setFraction(float fraction)
{
    fraction = std::clamp(fraction, 0.0f, 1.0f);
    if (fraction == m_fraction)
        return;
    m_fraction = fraction;
    emit fractionChanged(m_fraction);
}

void Timeline::stepForward()
{
    setStep(m_step + 1);
}
void Timeline::stepBack()
{
    setStep(m_step - 1);
}
void Timeline::first()
{
    setStep(0);
}
void Timeline::last()
{
    setStep(m_stepCount);
}

void Timeline::handleKey(int key)
{
    switch (key) {
    case Qt::Key_Space:
        togglePlay();
        break;
    case Qt::Key_Left:
        pause();
        stepBack();
        break;
    case Qt::Key_Right:
        pause();
        stepForward();
        break;
    case Qt::Key_Home:
        first();
        break;
    case Qt::Key_End:
        last();
        break;
    default:
        break;
    }
}

void Timeline::play()
{
    if (m_playing)
        return;
    if (m_step >= m_stepCount)
        setStep(0);
    m_playing = true;
    m_clock.start();
    m_timer.start();
    emit playingChanged(true);
}

void Timeline::pause()
{
    if (!m_playing)
        return;
    m_playing = false;
    m_timer.stop();
    setFraction(1.0f);
    emit playingChanged(false);
}

void Timeline::togglePlay()
{
    m_playing ? pause() : play();
}

void Timeline::setSpeed(double stepsPerSecond)
{
    m_speed = std::clamp(stepsPerSecond, 0.05, 100.0);
}

void Timeline::tick()
{
    const double dt = static_cast<double>(m_clock.restart()) / 1000.0;
    float f = m_fraction >= 1.0f ? 1.0f : m_fraction + static_cast<float>(dt * m_speed);
    if (m_fraction >= 1.0f) {
        // The step is shown complete: advance to the next one and start its messages moving.
        if (m_step >= m_stepCount) {
            pause();
            return;
        }
        m_step += 1;
        m_fraction = 0.0f;
        emit stepChanged(m_step);
        emit fractionChanged(m_fraction);
        return;
    }
    setFraction(std::min(f, 1.0f));
}

} // namespace topocast::app
