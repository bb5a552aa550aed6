#include "timeline/timelinebar.h"

#include "timeline/timeline.h"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QStyle>

namespace topocast::app {

TimelineBar::TimelineBar(Timeline* timeline, QWidget* parent) : QWidget(parent), m_timeline(timeline)
{
    auto* layout = new QHBoxLayout(this);
    auto button = [this, layout](QStyle::StandardPixmap icon, const QString& tip) {
        auto* b = new QPushButton(style()->standardIcon(icon), QString());
        b->setToolTip(tip);
        b->setFocusPolicy(Qt::NoFocus);
        layout->addWidget(b);
        return b;
    };
    auto* first = button(QStyle::SP_MediaSkipBackward, QStringLiteral("first step (Home)"));
    auto* back = button(QStyle::SP_MediaSeekBackward, QStringLiteral("step back (←)"));
    m_play = button(QStyle::SP_MediaPlay, QStringLiteral("play / pause (Space)"));
    auto* forward = button(QStyle::SP_MediaSeekForward, QStringLiteral("step forward (→)"));
    auto* last = button(QStyle::SP_MediaSkipForward, QStringLiteral("last step (End)"));
    m_slider = new QSlider(Qt::Horizontal);
    m_slider->setFocusPolicy(Qt::NoFocus);
    layout->addWidget(m_slider, 1);
    m_label = new QLabel;
    m_label->setMinimumWidth(110);
    layout->addWidget(m_label);
    m_speed = new QDoubleSpinBox;
    m_speed->setRange(0.1, 20.0);
    m_speed->setSingleStep(0.25);
    m_speed->setValue(timeline->speed());
    m_speed->setSuffix(QStringLiteral(" steps/s"));
    m_speed->setToolTip(QStringLiteral("playback speed"));
    layout->addWidget(m_speed);

    connect(first, &QPushButton::clicked, timeline, &Timeline::first);
    connect(back, &QPushButton::clicked, timeline, &Timeline::stepBack);
    connect(m_play, &QPushButton::clicked, timeline, &Timeline::togglePlay);
    connect(forward, &QPushButton::clicked, timeline, &Timeline::stepForward);
    connect(last, &QPushButton::clicked, timeline, &Timeline::last);
    connect(m_slider, &QSlider::valueChanged, timeline, [timeline](int v) {
        if (v != timeline->step())
            timeline->setStep(v);
    });
    connect(m_speed, &QDoubleSpinBox::valueChanged, timeline, &Timeline::setSpeed);
    connect(timeline, &Timeline::stepChanged, this, &TimelineBar::sync);
    connect(timeline, &Timeline::stepCountChanged, this, &TimelineBar::sync);
    connect(timeline, &Timeline::playingChanged, this, &TimelineBar::sync);
    sync();
}

void TimelineBar::sync()
{
    const QSignalBlocker block(m_slider);
    m_slider->setRange(0, m_timeline->stepCount());
    m_slider->setValue(m_timeline->step());
    m_label->setText(QStringLiteral("Step %1 / %2").arg(m_timeline->step()).arg(m_timeline->stepCount()));
    m_play->setIcon(style()->standardIcon(m_timeline->playing() ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
}

} // namespace topocast::app
