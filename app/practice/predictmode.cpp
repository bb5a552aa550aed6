#include "practice/predictmode.h"

#include "scene/markinstances.h"
#include "scene/sceneview.h"
#include "session/session.h"
#include "timeline/timeline.h"

#include "topocast/model/error.h"

#include <QAction>
#include <QDockWidget>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QMainWindow>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QWidget>

#include <QWindow>

#include <cmath>
#include <limits>

namespace topocast::app {

Rgba markColour(MarkShape shape)
{
    // Okabe–Ito-like hues, bright enough on the dark background; the shapes differ as well.
    switch (shape) {
    case MarkShape::Marked:
        return {0.35f, 0.75f, 1.00f};
    case MarkShape::Right:
        return {0.10f, 0.85f, 0.70f};
    case MarkShape::Missed:
        return {1.00f, 0.62f, 0.00f};
    case MarkShape::Wrong:
        return {0.95f, 0.35f, 0.85f};
    case MarkShape::Cursor:
        return {1.00f, 0.95f, 0.30f};
    }
    return {};
}

namespace {

bool isPredictKey(int key)
{
    switch (key) {
    case Qt::Key_Left:
    case Qt::Key_Right:
    case Qt::Key_Up:
    case Qt::Key_Down:
    case Qt::Key_Space:
    case Qt::Key_Return:
    case Qt::Key_Enter:
    case Qt::Key_PageUp:
    case Qt::Key_PageDown:
        return true;
    default:
        return false;
    }
}

QString plural(std::uint64_t n, const char* one, const char* many)
{
    return QStringLiteral("%1 %2").arg(n).arg(QString::fromLatin1(n == 1 ? one : many));
}

/// The marks' legend: each shape as the view draws it, around a grey node, with its meaning.
class MarkLegend : public QWidget {
public:
    explicit MarkLegend(QWidget* parent = nullptr) : QWidget(parent) {}
    QSize sizeHint() const override { return {260, kEntries * line() + 6}; }

protected:
    void paintEvent(QPaintEvent*) override
    {
        static const std::pair<MarkShape, const char*> entries[kEntries] = {
            {MarkShape::Marked, "your mark (not checked yet)"},
            {MarkShape::Right, "right: marked and receives"},
            {MarkShape::Missed, "missed: receives, not marked"},
            {MarkShape::Wrong, "wrong: marked, receives nothing"},
            {MarkShape::Cursor, "keyboard cursor"},
        };
        QPainter p(this);
        p.setRenderHint(QPainter::Antialiasing);
        int y = 3;
        const int h = line();
        for (const auto& [shape, text] : entries) {
            const QPointF centre(4 + h / 2.0, y + h / 2.0);
            const double unit = h * 0.3;
            p.fillRect(QRectF(centre.x() - h / 2.0, y, h, h), QColor(23, 26, 31));
            p.setPen(Qt::NoPen);
            p.setBrush(QColor(110, 112, 120));
            p.drawEllipse(centre, unit * 0.5, unit * 0.5);
            const std::vector<float> tri = MarkInstances::shapeTriangles(shape);
            QPainterPath path;
            path.setFillRule(Qt::WindingFill);
            for (std::size_t i = 0; i + 5 < tri.size(); i += 6) {
                QPolygonF t;
                for (std::size_t k = 0; k < 6; k += 2)
                    t << centre + QPointF(tri[i + k] * unit, -tri[i + k + 1] * unit);
                path.addPolygon(t);
                path.closeSubpath();
            }
            p.setBrush(markColour(shape).to<QColor>());
            p.drawPath(path);
            p.setPen(palette().color(QPalette::WindowText));
            p.drawText(QRect(h + 12, y, width() - h - 14, h), Qt::AlignVCenter, QString::fromUtf8(text));
            y += h;
        }
    }

private:
    static constexpr int kEntries = 5;
    int line() const { return std::max(30, fontMetrics().height() + 12); }
};

} // namespace

long long nodeInDirection(const std::vector<QPointF>& screen, long long from, QPointF direction)
{
    if (screen.empty())
        return -1;
    const auto n = static_cast<long long>(screen.size());
    if (from < 0 || from >= n) {
        QPointF centre;
        for (const QPointF& p : screen)
            centre += p;
        centre /= static_cast<double>(n);
        long long best = 0;
        double bestDist = std::numeric_limits<double>::max();
        for (long long i = 0; i < n; ++i) {
            const QPointF d = screen[static_cast<std::size_t>(i)] - centre;
            const double dist = std::hypot(d.x(), d.y());
            if (dist < bestDist) {
                bestDist = dist;
                best = i;
            }
        }
        return best;
    }
    const double len = std::hypot(direction.x(), direction.y());
    if (len <= 0)
        return from;
    const QPointF dir = direction / len;
    const QPointF here = screen[static_cast<std::size_t>(from)];
    long long best = from;
    double bestScore = std::numeric_limits<double>::max();
    for (long long i = 0; i < n; ++i) {
        if (i == from)
            continue;
        const QPointF v = screen[static_cast<std::size_t>(i)] - here;
        const double dist = std::hypot(v.x(), v.y());
        if (dist < 3.0)
            continue; // drawn on the same spot: Page Up/Down reaches it
        const double cosine = (v.x() * dir.x() + v.y() * dir.y()) / dist;
        if (cosine < 0.5)
            continue; // more than 60° off the arrow's direction
        const double score = dist * (1.0 + 2.0 * (1.0 - cosine));
        if (score < bestScore) {
            bestScore = score;
            best = i;
        }
    }
    return best;
}

PredictMode::PredictMode(QMainWindow* window, Session* session, Timeline* timeline, SceneView* scene)
    : QObject(window), m_session(session), m_timeline(timeline), m_scene(scene)
{
    m_action = new QAction(QStringLiteral("&Predict the next step"), window);
    m_action->setCheckable(true);
    m_action->setShortcut(QKeySequence(Qt::Key_P));
    m_action->setToolTip(QStringLiteral("mark the nodes you think receive in the next step, then press Enter"));
    connect(m_action, &QAction::toggled, this, &PredictMode::setActive);

    auto* body = new QWidget;
    auto* layout = new QVBoxLayout(body);
    m_hint = new QLabel(QStringLiteral(
        "Mark the nodes that receive in the next step: click a node, or move the cursor with the arrow keys "
        "(Page Up/Down: node by node) and press Space. Enter checks; Enter again goes on. A node receives in a "
        "step when a transfer of that step ends at it."));
    m_hint->setWordWrap(true);
    layout->addWidget(m_hint);
    layout->addWidget(new MarkLegend);
    m_table = new QTableWidget(0, 4);
    m_table->setHorizontalHeaderLabels(
        {QStringLiteral("step"), QStringLiteral("right"), QStringLiteral("missed"), QStringLiteral("wrong")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->setFocusPolicy(Qt::NoFocus);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    layout->addWidget(m_table, 1);
    auto* reset = new QPushButton(QStringLiteral("Reset score"));
    reset->setFocusPolicy(Qt::NoFocus);
    connect(reset, &QPushButton::clicked, this, &PredictMode::resetScore);
    layout->addWidget(reset);
    body->setMaximumWidth(330); // the 3-D view keeps most of the window
    m_dock = new QDockWidget(QStringLiteral("Predict"), window);
    m_dock->setObjectName(QStringLiteral("predictDock"));
    m_dock->setWidget(body);
    m_dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    window->addDockWidget(Qt::LeftDockWidgetArea, m_dock);
    m_dock->hide();

    connect(m_session, &Session::scheduleReady, this, &PredictMode::snapshotChanged);
    connect(m_timeline, &Timeline::stepChanged, this, &PredictMode::timelineMoved);
    m_scene->window()->installEventFilter(this);
    refreshScore();
}

std::uint32_t PredictMode::targetStep() const
{
    if (m_phase == Phase::Checked && m_grade)
        return m_grade->step;
    if (!m_snap)
        return 0;
    const auto next = static_cast<std::uint32_t>(std::max(0, m_timeline->step()) + 1);
    return next <= m_snap->stepCount() ? next : 0;
}

std::vector<NodeId> PredictMode::marked() const
{
    std::vector<NodeId> out;
    for (std::size_t v = 0; v < m_marks.size(); ++v)
        if (m_marks[v])
            out.push_back(static_cast<NodeId>(v));
    return out;
}

void PredictMode::setActive(bool on)
{
    if (on == m_active)
        return;
    m_active = on;
    m_action->setChecked(on);
    // Beside the scenario panel, as a tab over it: the 3-D view keeps its width.
    auto* window = static_cast<QMainWindow*>(m_dock->parentWidget());
    auto* scenario = window->findChild<QDockWidget*>(QStringLiteral("scenarioDock"));
    if (on && scenario && !window->tabifiedDockWidgets(scenario).contains(m_dock))
        window->tabifyDockWidget(scenario, m_dock);
    m_dock->setVisible(on);
    if (on)
        m_dock->raise();
    if (on) {
        m_timeline->pause();
        if (m_session->snapshot() != m_snap)
            snapshotChanged(m_session->snapshot());
        startPredicting();
        if (QWidget* view = m_scene->widget())
            view->setFocus();
    } else {
        m_scene->layers().marks->setMarks({});
    }
    emit activeChanged(on);
    emit changed();
}

void PredictMode::snapshotChanged(SnapshotPtr snap)
{
    const bool sameNetwork = m_snap && snap && m_snap->topology() == snap->topology();
    m_snap = std::move(snap);
    m_score.clear();
    if (!sameNetwork)
        m_cursor = -1;
    refreshScore();
    if (m_active) {
        m_timeline->pause();
        m_timeline->first(); // a new schedule: predict it from its first step
        startPredicting();
    }
}

void PredictMode::timelineMoved(int step)
{
    if (!m_active || m_moving)
        return;
    if (m_phase == Phase::Checked && m_grade && static_cast<int>(m_grade->step) == step)
        return;
    startPredicting(); // the student moved the timeline: predict the step after it
}

void PredictMode::startPredicting()
{
    m_phase = Phase::Predicting;
    m_grade.reset();
    m_marks.assign(m_snap ? m_snap->topology().nodeCount() : 0, 0);
    refreshMarks();
    emit changed();
}

void PredictMode::toggleMark(NodeId node)
{
    if (!m_active || !m_snap || node >= m_snap->topology().nodeCount())
        return;
    if (m_phase == Phase::Checked)
        startPredicting(); // a mark after a check starts on the next step
    if (targetStep() == 0)
        return;
    m_marks[node] ^= 1;
    refreshMarks();
    emit changed();
}

void PredictMode::enter()
{
    if (!m_active || !m_snap)
        return;
    if (m_phase == Phase::Checked) {
        startPredicting();
        return;
    }
    const std::uint32_t step = targetStep();
    if (step == 0) { // the schedule is complete: start over (the score stays)
        m_timeline->first();
        startPredicting();
        return;
    }
    try {
        const std::vector<NodeId> guess = marked();
        m_grade = gradeStep(m_snap->schedule, StepNo{step}, guess);
    } catch (const Error& e) {
        qWarning("predict: %s", e.what()); // cannot happen for marks made here; never escape a slot
        return;
    }
    m_score.push_back(*m_grade);
    m_phase = Phase::Checked;
    m_moving = true;
    m_timeline->pause();
    m_timeline->setStep(static_cast<int>(step));
    m_moving = false;
    refreshMarks();
    refreshScore();
    emit changed();
}

void PredictMode::moveCursor(int key)
{
    if (!m_snap)
        return;
    QPointF dir;
    switch (key) {
    case Qt::Key_Left:
        dir = {-1, 0};
        break;
    case Qt::Key_Right:
        dir = {1, 0};
        break;
    case Qt::Key_Up:
        dir = {0, -1};
        break;
    case Qt::Key_Down:
        dir = {0, 1};
        break;
    default:
        return;
    }
    std::vector<QPointF> screen(m_snap->positions.size());
    for (std::size_t v = 0; v < screen.size(); ++v)
        screen[v] = m_scene->camera().nodeOnScreen(static_cast<NodeId>(v));
    m_cursor = nodeInDirection(screen, m_cursor, dir);
    refreshMarks();
    emit changed();
}

void PredictMode::stepCursor(int delta)
{
    if (!m_snap || m_snap->topology().nodeCount() == 0)
        return;
    const auto n = static_cast<long long>(m_snap->topology().nodeCount());
    m_cursor = m_cursor < 0 ? (delta > 0 ? 0 : n - 1) : ((m_cursor + delta) % n + n) % n;
    refreshMarks();
    emit changed();
}

void PredictMode::resetScore()
{
    m_score.clear();
    refreshScore();
    emit changed();
}

void PredictMode::refreshMarks()
{
    std::vector<MarkInstances::Mark> marks;
    if (m_active && m_snap) {
        const auto& pos = m_scene->shape().positions();
        auto add = [&](NodeId v, MarkShape shape) {
            if (v < pos.size())
                marks.push_back({v, pos[v], markColour(shape), shape, 1.0f});
        };
        if (m_phase == Phase::Checked && m_grade) {
            for (NodeId v : m_grade->right)
                add(v, MarkShape::Right);
            for (NodeId v : m_grade->missed)
                add(v, MarkShape::Missed);
            for (NodeId v : m_grade->wrong)
                add(v, MarkShape::Wrong);
        } else {
            for (NodeId v : marked())
                add(v, MarkShape::Marked);
        }
        if (m_cursor >= 0)
            add(static_cast<NodeId>(m_cursor), MarkShape::Cursor);
    }
    m_scene->layers().marks->setMarks(std::move(marks));
}

void PredictMode::refreshScore()
{
    m_table->setRowCount(static_cast<int>(m_score.size()) + 1);
    auto set = [this](int row, int col, const QString& text, bool bold) {
        auto* item = new QTableWidgetItem(text);
        item->setTextAlignment(Qt::AlignCenter);
        if (bold) {
            QFont f = item->font();
            f.setBold(true);
            item->setFont(f);
        }
        m_table->setItem(row, col, item);
    };
    for (std::size_t i = 0; i < m_score.size(); ++i) {
        const StepGrade& g = m_score[i];
        const int row = static_cast<int>(i);
        set(row, 0, QString::number(g.step), false);
        set(row, 1, QString::number(g.right.size()), false);
        set(row, 2, QString::number(g.missed.size()), false);
        set(row, 3, QString::number(g.wrong.size()), false);
    }
    const GradeTally t = total();
    const int last = static_cast<int>(m_score.size());
    set(last, 0, QStringLiteral("total"), true);
    set(last, 1, QString::number(t.right), true);
    set(last, 2, QString::number(t.missed), true);
    set(last, 3, QString::number(t.wrong), true);
    m_table->scrollToBottom();
}

QString PredictMode::scoreText() const
{
    QString out;
    for (const StepGrade& g : m_score)
        out += QStringLiteral("%1 %2 %3 %4\n").arg(g.step).arg(g.right.size()).arg(g.missed.size()).arg(g.wrong.size());
    const GradeTally t = total();
    return out + QStringLiteral("total %1 %2 %3").arg(t.right).arg(t.missed).arg(t.wrong);
}

QString PredictMode::narration() const
{
    if (!m_snap)
        return QStringLiteral("Predict: open a scenario first.");
    const GradeTally t = total();
    const QString score = QStringLiteral("Score: %1, %2, %3 over %4.")
                              .arg(plural(t.right, "right", "right"), plural(t.missed, "missed", "missed"),
                                   plural(t.wrong, "wrong", "wrong"), plural(t.steps, "step", "steps"));
    const std::uint32_t steps = m_snap->stepCount();
    if (m_phase == Phase::Checked && m_grade) {
        const QString next = m_grade->step < steps ? QStringLiteral("Enter: predict step %1.").arg(m_grade->step + 1)
                                                   : QStringLiteral("That was the last step; Enter: finish.");
        return QString::fromStdString(explainGrade(m_snap->schedule, *m_grade)) + QStringLiteral(" ") + score +
               QStringLiteral(" ") + next;
    }
    const std::uint32_t step = targetStep();
    if (step == 0)
        return QStringLiteral("Predict: the schedule is complete. ") + score +
               QStringLiteral(" Enter: start over from step 1.");
    QString text = QStringLiteral("Predict step %1 of %2: mark the nodes that receive in step %1 (click them, or "
                                  "arrow keys and Space), then press Enter. %3 marked.")
                       .arg(step)
                       .arg(steps)
                       .arg(marked().size());
    if (m_cursor >= 0 && static_cast<std::size_t>(m_cursor) < m_snap->positions.size())
        text += QStringLiteral(" Cursor on %1.")
                    .arg(QString::fromStdString(m_snap->topology().nodeName(static_cast<NodeId>(m_cursor))));
    return text;
}

bool PredictMode::eventFilter(QObject* watched, QEvent* event)
{
    if (watched != m_scene->window())
        return QObject::eventFilter(watched, event);
    if (event->type() == QEvent::KeyPress) {
        // P in the 3-D view (a QWindow of its own) when the window system gave the key to it
        // rather than to the menu's shortcut (no active window, as under a bare X server).
        auto* e = static_cast<QKeyEvent*>(event);
        if (e->key() == Qt::Key_P && !(e->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))) {
            m_action->toggle();
            return true;
        }
    }
    if (!m_active)
        return QObject::eventFilter(watched, event);
    switch (event->type()) {
    case QEvent::MouseButtonPress: {
        auto* e = static_cast<QMouseEvent*>(event);
        m_pressPos = e->position();
        m_pressed = e->button() == Qt::LeftButton;
        break; // SceneView still sees it (a drag orbits the camera)
    }
    case QEvent::MouseButtonRelease: {
        auto* e = static_cast<QMouseEvent*>(event);
        const bool click =
            m_pressed && e->button() == Qt::LeftButton && (e->position() - m_pressPos).manhattanLength() <= 4;
        m_pressed = false;
        if (!click)
            break;
        const long long v = m_scene->camera().nodeAt(e->position());
        if (v < 0)
            break;
        toggleMark(static_cast<NodeId>(v));
        return true; // a mark, not a new source
    }
    case QEvent::ShortcutOverride: {
        // The timeline's own shortcuts (Space, ←, →) must not fire while predicting.
        auto* e = static_cast<QKeyEvent*>(event);
        if (isPredictKey(e->key()) && !(e->modifiers() & (Qt::ControlModifier | Qt::AltModifier))) {
            e->accept();
            return true;
        }
        break;
    }
    case QEvent::KeyPress:
        if (predictKey(static_cast<QKeyEvent*>(event)))
            return true;
        break;
    default:
        break;
    }
    return QObject::eventFilter(watched, event);
}

bool PredictMode::predictKey(QKeyEvent* e)
{
    if (e->modifiers() & (Qt::ControlModifier | Qt::AltModifier))
        return false;
    switch (e->key()) {
    case Qt::Key_Left:
    case Qt::Key_Right:
    case Qt::Key_Up:
    case Qt::Key_Down:
        moveCursor(e->key());
        return true;
    case Qt::Key_PageDown:
        stepCursor(1);
        return true;
    case Qt::Key_PageUp:
        stepCursor(-1);
        return true;
    case Qt::Key_Space:
        if (m_cursor >= 0)
            toggleMark(static_cast<NodeId>(m_cursor));
        return true;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        enter();
        return true;
    default:
        return false;
    }
}

} // namespace topocast::app
