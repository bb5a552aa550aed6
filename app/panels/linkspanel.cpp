#include "panels/linkspanel.h"

#include "topocast/model/units.h"

#include <QAction>
#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollArea>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace topocast::app {

namespace {

/// What the panel says before anything has been simulated.
QString idleText()
{
    return QStringLiteral("View ▸ Simulated time simulates the schedule shown on its network.");
}

QString nsText(double ns)
{
    return QString::fromStdString(formatSeconds(ns * 1e-9));
}

/// A round step for about `count` ticks over 0..`max` (1, 2 or 5 × a power of ten).
double tickStep(double max, int count)
{
    if (!(max > 0))
        return 1;
    const double raw = max / count;
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double m : {1.0, 2.0, 5.0})
        if (m * power >= raw)
            return m * power;
    return 10 * power;
}

QString capitalised(const std::string& text)
{
    QString s = QString::fromStdString(text);
    if (!s.isEmpty())
        s[0] = s[0].toUpper();
    return s;
}

} // namespace

LinkGantt::LinkGantt(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(false);
    setToolTip(QStringLiteral("each link's time carrying messages: one message in its colour, two or more sharing it "
                              "in the contention colour; click a link to find it in the view"));
}

void LinkGantt::setRows(std::vector<LinkRow> rows, double total, QColor busy, QColor shared)
{
    m_rows = std::move(rows);
    m_total = total;
    m_busy = busy;
    m_shared = shared;
    updateGeometry();
    resize(width(), sizeHint().height());
    update();
}

void LinkGantt::setTime(double ns)
{
    m_now = ns;
    update();
}

void LinkGantt::setChosen(std::optional<ChannelId> channel)
{
    m_chosen = channel;
    update();
}

QSize LinkGantt::sizeHint() const
{
    return {420, kAxisHeight + static_cast<int>(m_rows.size()) * kRowHeight + 4};
}

int LinkGantt::labelWidth() const
{
    int widest = 60;
    for (std::size_t i = 0; i < m_rows.size() && i < 40; ++i)
        widest = std::max(widest, fontMetrics().horizontalAdvance(m_rows[i].name));
    return widest + 10;
}

int LinkGantt::rowAt(int y) const
{
    const int row = (y - kAxisHeight) / kRowHeight;
    return y >= kAxisHeight && row < static_cast<int>(m_rows.size()) ? row : -1;
}

void LinkGantt::paintEvent(QPaintEvent* /*event*/)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    const int left = labelWidth();
    const int right = width() - 8;
    if (m_rows.empty() || m_total <= 0 || right <= left)
        return;
    auto xOf = [&](double ns) { return left + static_cast<int>(std::lround((right - left) * ns / m_total)); };
    // The time axis: round ticks in the unit that reads best at the total.
    const double step = tickStep(m_total, 5);
    p.setPen(palette().text().color());
    for (double t = 0; t <= m_total * 1.0001; t += step) {
        const int x = xOf(t);
        p.drawLine(x, kAxisHeight - 5, x, kAxisHeight - 1);
        const QString label = nsText(t);
        const int w = fontMetrics().horizontalAdvance(label);
        p.drawText(std::clamp(x - w / 2, left - w / 2, width() - w - 2), kAxisHeight - 8, label);
    }
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        const LinkRow& r = m_rows[i];
        const int y = kAxisHeight + static_cast<int>(i) * kRowHeight;
        if (m_chosen && *m_chosen == r.channel)
            p.fillRect(0, y, width(), kRowHeight, palette().highlight());
        p.setPen(m_chosen && *m_chosen == r.channel ? palette().highlightedText().color() : palette().text().color());
        p.drawText(QRect(4, y, left - 8, kRowHeight), Qt::AlignVCenter | Qt::AlignLeft, r.name);
        for (const OpTiming& b : r.intervals.busy)
            p.fillRect(
                QRect(QPoint(xOf(b.start), y + 3), QPoint(std::max(xOf(b.end), xOf(b.start) + 1), y + kRowHeight - 4)),
                m_busy);
        for (const OpTiming& s : r.intervals.shared)
            p.fillRect(
                QRect(QPoint(xOf(s.start), y + 3), QPoint(std::max(xOf(s.end), xOf(s.start) + 1), y + kRowHeight - 4)),
                m_shared);
    }
    QPen now(palette().text().color(), 2);
    p.setPen(now);
    p.drawLine(xOf(std::clamp(m_now, 0.0, m_total)), kAxisHeight, xOf(std::clamp(m_now, 0.0, m_total)), height());
}

void LinkGantt::mousePressEvent(QMouseEvent* event)
{
    const int row = rowAt(static_cast<int>(event->position().y()));
    if (row >= 0)
        emit rowClicked(row);
}

LinksPanel::LinksPanel(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    m_summary = new QLabel(idleText());
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_summary);
    m_now = new QLabel;
    layout->addWidget(m_now);
    m_gantt = new LinkGantt;
    m_scroll = new QScrollArea;
    m_scroll->setWidget(m_gantt);
    m_scroll->setWidgetResizable(true);
    layout->addWidget(m_scroll, 1);
    connect(m_gantt, &LinkGantt::rowClicked, this, [this](int row) {
        const ChannelId ch = m_gantt->rows()[static_cast<std::size_t>(row)].channel;
        m_gantt->setChosen(ch);
        emit linkChosen(ch);
    });
}

void LinksPanel::setToggle(QAction* simulatedTime, bool barrier)
{
    auto* row = new QHBoxLayout;
    auto* button = new QToolButton;
    button->setDefaultAction(simulatedTime);
    button->setToolButtonStyle(Qt::ToolButtonTextOnly);
    row->addWidget(button);
    auto* box = new QCheckBox(QStringLiteral("a barrier between steps"));
    box->setObjectName(QStringLiteral("barrierBox"));
    box->setChecked(barrier);
    box->setToolTip(
        QStringLiteral("on: every step starts when the step before has arrived, so each step's messages move in "
                       "its own window (as the papers count steps); off: each send as soon as its data and "
                       "ports allow, and a step's window shows whatever is on the wire then"));
    connect(box, &QCheckBox::toggled, this, &LinksPanel::barrierToggled);
    row->addWidget(box);
    row->addStretch();
    static_cast<QVBoxLayout*>(layout())->insertLayout(0, row);
}

void LinksPanel::setStatus(const QString& text)
{
    if (!m_playback)
        m_summary->setText(text.isEmpty() ? idleText() : text);
}

void LinksPanel::setPlayback(std::shared_ptr<const SimulatedPlayback> playback, const Topology* topology, QColor busy,
                             QColor shared)
{
    m_playback = std::move(playback);
    std::vector<LinkRow> rows;
    if (!m_playback || !topology) {
        m_gantt->setRows({}, 0, busy, shared);
        m_now->clear();
        return;
    }
    const Simulation& sim = m_playback->simulation();
    for (std::size_t i = 0; i < sim.links.size() && i < kRows; ++i) {
        const LinkLoad& l = sim.links[i];
        rows.push_back({l.channel, QString::fromStdString(topology->channelName(l.channel)),
                        linkIntervals(sim, l.channel), l.busy, l.shared, l.most});
    }
    const NetworkModel& net = sim.time.network;
    std::size_t sharedLinks = 0;
    for (const LinkLoad& l : sim.links)
        sharedLinks += l.shared > 0 ? 1 : 0;
    m_summary->setText(
        QStringLiteral("Simulated on %1, %2 network, M = %3%11: <b>%4</b>; without contention (LogGP) %5. %6. "
                       "%L7 of %L8 links carried messages, %L9 of them shared%10.")
            .arg(QString::fromStdString(simulationEngine()), QString::fromStdString(net.preset),
                 QString::fromStdString(formatSize(net.message)), nsText(sim.time.total),
                 nsText(sim.contentionFree.total))
            .arg(capitalised(contentionSentence(sim, *topology)))
            .arg(static_cast<qulonglong>(sim.links.size()))
            .arg(static_cast<qulonglong>(topology->channelCount()))
            .arg(static_cast<qulonglong>(sharedLinks))
            .arg(sim.links.size() > kRows ? QStringLiteral(" (the %1 most shared charted)").arg(kRows) : QString())
            .arg(sim.time.model == "simgrid-steps"
                     ? QStringLiteral(", a barrier between steps")
                     : QStringLiteral(", each send as soon as its data and ports allow")));
    m_gantt->setRows(std::move(rows), m_playback->stepEnd(m_playback->stepCount()), busy, shared);
}

void LinksPanel::setTime(double ns)
{
    m_gantt->setTime(ns);
    if (m_playback)
        m_now->setText(
            QStringLiteral("Shown: %1 of %2").arg(nsText(ns), nsText(m_playback->stepEnd(m_playback->stepCount()))));
}

QString LinksPanel::summary() const
{
    return m_summary->text();
}

} // namespace topocast::app
