#include "compare/compareview.h"

#include "compare/comparemetrics.h"
#include "scene/sceneview.h"
#include "session/session.h"
#include "timeline/timeline.h"

#include "topocast/model/error.h"

#include <QWindow>

#include <QEvent>
#include <QFrame>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QPalette>
#include <QSplitter>
#include <QVBoxLayout>

namespace topocast::app {

namespace {
const char* const kAccent[2] = {"#e68c14", "#2896e6"};
}

CompareView::CompareView(Timeline* timeline, QWidget* parent) : QWidget(parent), m_timeline(timeline)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* split = new QSplitter(Qt::Vertical);
    auto* sides = new QWidget;
    auto* row = new QHBoxLayout(sides);
    row->setContentsMargins(0, 0, 0, 0);
    for (int i = 0; i < 2; ++i) {
        m_sessions[i] = new Session(this);
        m_scenes[i] = new SceneView(this);
        m_scenes[i]->setCompactLabels(true);
        // Plain frames and rich text, no style sheets: the titles follow the application font, so
        // they grow with presentation mode.
        m_frames[i] = new QFrame;
        m_frames[i]->setFrameStyle(QFrame::Box | QFrame::Plain);
        auto* column = new QVBoxLayout(m_frames[i]);
        column->setContentsMargins(5, 5, 5, 5);
        m_titles[i] = new QLabel;
        m_titles[i]->setTextFormat(Qt::RichText);
        m_titles[i]->setWordWrap(true);
        column->addWidget(m_titles[i]);
        column->addWidget(m_scenes[i]->widget(), 1);
        row->addWidget(m_frames[i], 1);
        m_scenes[i]->window()->installEventFilter(this);
        connect(m_sessions[i], &Session::scheduleReady, this, [this, i] { sideReady(i); });
        connect(m_sessions[i], &Session::failed, this, [this, i](const QString& message) {
            emit failed(QStringLiteral("%1: %2").arg(i == 0 ? QLatin1Char('A') : QLatin1Char('B')).arg(message));
        });
        connect(&m_scenes[i]->input(), &SceneInput::nodeClicked, this, [this, i](NodeId v) {
            // The source map: click sets A's source, Shift+click B's, on either side.
            if (m_mode == ViewMode::SourceMap)
                setSideSource(QGuiApplication::keyboardModifiers().testFlag(Qt::ShiftModifier) ? 1 : 0, v);
            else
                setSideSource(i, v);
        });
        // One explode on both sides (E on either side), so the two pictures stay comparable.
        connect(&m_scenes[i]->shape(), &SceneShape::explodeChanged, this, [this, i](float explode) {
            if (m_scenes[1 - i]->shape().explode() != explode)
                m_scenes[1 - i]->shape().setExplode(explode);
        });
        connect(&m_scenes[i]->input(), &SceneInput::timelineKey, m_timeline, &Timeline::handleKey);
    }
    split->addWidget(sides);
    m_metrics = new CompareMetrics;
    split->addWidget(m_metrics);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split);
    connect(m_metrics, &CompareMetrics::highlightToggled, this, [this] { showStep(m_timeline->step()); });
    connect(m_timeline, &Timeline::stepChanged, this, &CompareView::showStep);
    connect(m_timeline, &Timeline::fractionChanged, this, &CompareView::showFraction);
    updateFrames();
}

CompareView::~CompareView() = default;

bool CompareView::busy() const
{
    return m_sessions[0]->busy() || m_sessions[1]->busy();
}

Scenario CompareView::sideScenario(int side) const
{
    Scenario s = m_sessions[side == 0 ? 0 : 1]->requestedScenario();
    s.compare.reset();
    return s;
}

Scenario CompareView::scenario() const
{
    const Scenario a = sideScenario(0), b = sideScenario(1);
    return a.topology == b.topology ? withCompare(a, b) : a;
}

void CompareView::setScenario(const Scenario& scenario)
{
    Scenario a = scenario;
    const Scenario b = scenario.compare ? compareSide(scenario) : a;
    a.compare.reset();
    checkComparable(a, b);
    m_cmp.reset();
    m_sessions[0]->setScenario(a);
    m_sessions[1]->setScenario(b);
    emit activeScenarioChanged(sideScenario(m_active));
}

bool CompareView::setScenarioNow(const Scenario& scenario)
{
    try {
        Scenario a = scenario;
        const Scenario b = scenario.compare ? compareSide(scenario) : a;
        a.compare.reset();
        checkComparable(a, b);
        m_cmp.reset();
        const bool ok = m_sessions[0]->setScenarioNow(a) && m_sessions[1]->setScenarioNow(b);
        emit activeScenarioChanged(sideScenario(m_active));
        return ok;
    } catch (const Error& e) {
        emit failed(QString::fromStdString(e.what()));
        return false;
    }
}

void CompareView::compareWithFile(SnapshotPtr file, const Scenario& other)
{
    m_cmp.reset();
    m_sessions[1]->setScenario(other); // busy first, so A alone is not paired with an old B
    m_sessions[0]->showSnapshot(std::move(file));
    emit activeScenarioChanged(sideScenario(m_active));
}

void CompareView::setActiveSide(int side)
{
    side = side == 0 ? 0 : 1;
    if (side == m_active)
        return;
    m_active = side;
    updateFrames();
    emit activeScenarioChanged(sideScenario(m_active));
}

void CompareView::setActiveScenario(const Scenario& scenario)
{
    Scenario mine = scenario;
    mine.compare.reset();
    const int other = 1 - m_active;
    Scenario theirs = sideScenario(other);
    if (!(theirs.topology == mine.topology)) {
        // One network on both sides: the other side follows, keeping its source where it can.
        const std::string oldName = theirs.topology.nodeName(theirs.source);
        theirs.topology = mine.topology;
        theirs.source = mine.source;
        for (NodeId v{}; v < mine.topology.nodeCount(); ++v)
            if (mine.topology.nodeName(v) == oldName) {
                theirs.source = v;
                break;
            }
        m_sessions[other]->setScenario(theirs);
    }
    if (!(mine == m_sessions[m_active]->requestedScenario()))
        m_sessions[m_active]->setScenario(mine);
}

void CompareView::setSideSource(int side, NodeId source)
{
    setActiveSide(side);
    m_sessions[m_active]->setSource(source);
    emit activeScenarioChanged(sideScenario(m_active));
}

void CompareView::sideReady(int side)
{
    const SnapshotPtr a = m_sessions[0]->snapshot(), b = m_sessions[1]->snapshot();
    if (side == m_active)
        emit activeScenarioChanged(sideScenario(m_active));
    if (!a || !b || !(a->topology() == b->topology()) || busy())
        return; // the other side is still on its way (a new network computes on both)
    try {
        m_cmp = pairSnapshots(a, b);
    } catch (const Error& e) {
        emit failed(QString::fromStdString(e.what()));
        return;
    }
    for (int i = 0; i < 2; ++i) {
        m_scenes[i]->setSnapshot(i == 0 ? a : b);
        m_scenes[i]->setMode(m_mode);
    }
    syncCamera(0);
    m_metrics->setCompare(m_cmp);
    m_timeline->setStepCount(static_cast<int>(m_cmp->comparison.steps)); // keeps the step, or an opened file's
    showStep(m_timeline->step());
    updateFrames();
    emit compareReady(m_cmp);
}

void CompareView::showStep(int step)
{
    if (!m_cmp)
        return;
    const auto ahead = m_metrics->highlightDiffering()
                           ? m_cmp->comparison.informedOnOneSide(static_cast<std::uint32_t>(std::max(0, step)))
                           : std::vector<NodeId>{};
    for (int i = 0; i < 2; ++i) {
        m_scenes[i]->setHighlight(ahead);
        m_scenes[i]->setStep(m_cmp->sideStep(i, step));
    }
    m_metrics->setStep(step);
}

void CompareView::showFraction(float fraction)
{
    if (!m_cmp)
        return;
    for (int i = 0; i < 2; ++i) // a side past its last step holds it: messages delivered
        m_scenes[i]->setFraction(m_cmp->sideStep(i, m_timeline->step()) < m_timeline->step() ? 1.0f : fraction);
}

void CompareView::syncCamera(int from)
{
    if (m_syncing)
        return;
    m_syncing = true;
    SceneView* other = m_scenes[1 - from];
    other->camera().orbit().setState(m_scenes[from]->camera().orbit().state());
    other->camera().updateLevelOfDetail();
    m_syncing = false;
}

bool CompareView::eventFilter(QObject* watched, QEvent* event)
{
    for (int i = 0; i < 2; ++i) {
        if (watched != m_scenes[i]->window())
            continue;
        switch (event->type()) {
        case QEvent::MouseButtonPress:
            setActiveSide(i);
            break;
        case QEvent::MouseMove:
        case QEvent::MouseButtonRelease:
        case QEvent::Wheel:
        case QEvent::KeyPress:
            // The scene handles the event after this filter: copy its camera once it has.
            QMetaObject::invokeMethod(
                this, [this, i] { syncCamera(i); }, Qt::QueuedConnection);
            break;
        default:
            break;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void CompareView::updateFrames()
{
    for (int i = 0; i < 2; ++i) {
        const bool active = i == m_active;
        m_frames[i]->setLineWidth(active ? 4 : 1);
        QPalette pal = m_frames[i]->palette();
        pal.setColor(QPalette::WindowText, active ? QColor(QString::fromLatin1(kAccent[i])) : QColor(0x77, 0x77, 0x77));
        m_frames[i]->setPalette(pal);
        QString text = m_cmp ? QStringLiteral("<big><b>%1</b></big> — %2")
                                   .arg(sideTitle(i, m_cmp->side(i)).toHtmlEscaped(), sideFigures(*m_cmp, i))
                             : QStringLiteral("<big><b>%1</b></big>").arg(i == 0 ? QLatin1Char('A') : QLatin1Char('B'));
        if (active)
            text += QStringLiteral(" <b>◀ panel</b>");
        m_titles[i]->setText(
            QStringLiteral("<span style=\"color:%1\">%2</span>").arg(QString::fromLatin1(kAccent[i]), text));
    }
}

void CompareView::setMode(ViewMode mode)
{
    m_mode = mode;
    for (SceneView* s : m_scenes)
        s->setMode(mode);
}

void CompareView::setCumulativeHeat(bool on)
{
    for (SceneView* s : m_scenes)
        s->setCumulativeHeat(on);
}

void CompareView::setHighContrast(bool on)
{
    for (SceneView* s : m_scenes)
        s->setHighContrast(on);
}

std::array<QImage, 2> CompareView::captureFrames()
{
    return {m_scenes[0]->capture().frame(), m_scenes[1]->capture().frame()};
}

} // namespace topocast::app
