#include "panels/findingspanel.h"

#include "scene/sceneview.h"
#include "timeline/timeline.h"

#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QPainter>
#include <QPixmap>
#include <QVBoxLayout>

#include <algorithm>

namespace topocast::app {

namespace {

QIcon swatch(const Rgba& c)
{
    QPixmap pm(14, 14);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setPen(Qt::black);
    p.setBrush(c.to<QColor>());
    p.drawRect(1, 1, 11, 11);
    return QIcon(pm);
}

} // namespace

FindingsPanel::FindingsPanel(Timeline* timeline, SceneView* scene, QWidget* parent)
    : QWidget(parent), m_timeline(timeline), m_scene(scene)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_summary = new QLabel;
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_summary);
    m_list = new QListWidget;
    m_list->setWordWrap(true);
    m_list->setToolTip(QStringLiteral("click a broken rule to see its step; its nodes are drawn larger"));
    layout->addWidget(m_list, 1);
    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0)
            activateFinding(row);
    });
}

Rgba FindingsPanel::findingColour(FindingKind kind)
{
    switch (kind) {
    case FindingKind::InformedTwice:
        return {1.0f, 0.9f, 0.0f, 1.0f}; // yellow (the source is orange)
    case FindingKind::NotYetHolding:
        return {0.85f, 0.1f, 0.85f, 1.0f}; // magenta
    case FindingKind::ChannelShared:
        return {0.95f, 0.1f, 0.1f, 1.0f}; // red
    case FindingKind::NeverReached:
        return {0.45f, 0.2f, 1.0f, 1.0f}; // violet
    default:
        return {0.75f, 0.0f, 0.25f, 1.0f}; // crimson
    }
}

void FindingsPanel::setOpened(OpenedSchedulePtr opened)
{
    m_opened = std::move(opened);
    m_selected = -1;
    m_list->blockSignals(true);
    m_list->clear();
    if (m_opened) {
        const Topology& topo = m_opened->snapshot->topology();
        for (const Finding& f : m_opened->validation.findings) {
            auto* item = new QListWidgetItem(swatch(findingColour(f.kind)),
                                             QString::fromStdString(topocast::findingLine(topo, f)));
            m_list->addItem(item);
        }
        const Validation& v = m_opened->validation;
        if (v.violations.size() < v.violationCount)
            m_list->addItem(QStringLiteral("… %1 more (topocast-cli validate lists the first %2)")
                                .arg(v.violationCount - v.violations.size())
                                .arg(v.violations.size()));
    }
    m_list->blockSignals(false);
    m_summary->setText(summary());
    if (m_opened)
        m_scene->setStyleOverlay([this](FrameStyle& style, const std::vector<DrawnChannel>& channels, int step) {
            applyOverlay(style, channels, step);
        });
    else
        m_scene->setStyleOverlay({});
}

int FindingsPanel::findingCount() const
{
    return m_opened ? static_cast<int>(m_opened->validation.findings.size()) : 0;
}

QString FindingsPanel::findingLine(int row) const
{
    if (row < 0 || row >= findingCount())
        return {};
    return m_list->item(row)->text();
}

QString FindingsPanel::summary() const
{
    if (!m_opened)
        return QStringLiteral("Open a schedule (File ▸ Open schedule) to check it.");
    const Snapshot& snap = *m_opened->snapshot;
    QString text = QStringLiteral("<b>%1</b> on the %2<br>")
                       .arg(QFileInfo(m_opened->file).fileName().toHtmlEscaped(),
                            QString::fromStdString(snap.topology().displayName()));
    text += QStringLiteral("Steps: %1").arg(snap.stepCount());
    if (const auto& ref = m_opened->reference; ref && ref->minSteps > 0)
        text +=
            QStringLiteral(" (at least %1: %2)").arg(ref->minSteps).arg(QString::fromStdString(ref->minStepsReason));
    text += QStringLiteral("<br>TCD: %1").arg(snap.metrics.tcd);
    if (const auto& ref = m_opened->reference; ref && ref->bestTcd)
        text += QStringLiteral(" (best known %1, by %2 in %3 steps)")
                    .arg(*ref->bestTcd)
                    .arg(QString::fromStdString(ref->bestTcdAlgorithm))
                    .arg(ref->bestTcdSteps);
    const std::size_t n = m_opened->validation.violationCount;
    text += n == 0 ? QStringLiteral("<br><b>Valid:</b> no rule broken.")
                   : QStringLiteral("<br><b>%1 broken rule%2</b> — click one to see it:")
                         .arg(n)
                         .arg(n == 1 ? QString() : QStringLiteral("s"));
    return text;
}

void FindingsPanel::activateFinding(int row)
{
    if (row < 0 || row >= findingCount())
        return;
    m_selected = row;
    if (m_list->currentRow() != row) {
        m_list->blockSignals(true);
        m_list->setCurrentRow(row);
        m_list->blockSignals(false);
    }
    const Finding& f = m_opened->validation.findings[static_cast<std::size_t>(row)];
    m_timeline->pause();
    m_timeline->setStep(static_cast<int>(f.step));
    m_scene->setStyleOverlay([this](FrameStyle& style, const std::vector<DrawnChannel>& channels, int step) {
        applyOverlay(style, channels, step);
    }); // redraw with the selection
    emit findingActivated(row);
}

void FindingsPanel::snapshotShown(SnapshotPtr snap)
{
    if (m_opened && snap != m_opened->snapshot)
        setOpened(nullptr);
}

void FindingsPanel::applyOverlay(FrameStyle& style, const std::vector<DrawnChannel>& channels, int step) const
{
    if (!m_opened || m_scene->snapshot() != m_opened->snapshot || step < 1)
        return;
    const auto& findings = m_opened->validation.findings;
    for (std::size_t i = 0; i < findings.size(); ++i) {
        const Finding& f = findings[i];
        if (static_cast<int>(f.step) != step)
            continue;
        const bool chosen = static_cast<int>(i) == m_selected;
        const Rgba colour = findingColour(f.kind);
        // The node that breaks the rule (every node, for "never reached" and a shared channel)
        // in the rule's colour; its partners only larger.
        const bool all = f.kind == FindingKind::NeverReached || f.kind == FindingKind::ChannelShared;
        for (std::size_t k = 0; k < f.nodes.size(); ++k) {
            const NodeId v = f.nodes[k];
            if (v >= style.nodeColour.size())
                continue;
            if (k == 0 || all)
                style.nodeColour[v] = colour;
            const float scale = (k == 0 || all ? 1.6f : 1.3f) * (chosen ? 1.3f : 1.0f);
            style.nodeScale[v] = std::max(style.nodeScale[v], scale);
        }
        if (f.channel >= 0) {
            // Both directions: the two directed channels of a link are drawn in one place.
            const Topology& topo = m_opened->snapshot->topology();
            const auto shared = static_cast<ChannelId>(f.channel);
            const NodeId tail = topo.channelTail(shared), head = topo.channelHead(shared);
            for (std::size_t c = 0; c < channels.size() && c < style.channelColour.size(); ++c)
                if ((channels[c].tail == tail && channels[c].head == head) ||
                    (channels[c].tail == head && channels[c].head == tail))
                    style.channelColour[c] = colour;
        }
    }
}

} // namespace topocast::app
