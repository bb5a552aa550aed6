#pragma once

#include "topocast/analysis/simulated_playback.h"
#include "topocast/model/topology.h"

#include <QColor>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QAction;
class QLabel;
class QScrollArea;

namespace topocast::app {

/// One row of the Links dock: a link and when it carried messages.
struct LinkRow {
    ChannelId channel{};
    QString name;                ///< "(3,1)→(3,2)"
    LinkIntervals intervals;     ///< busy and shared (ns)
    double busy = 0, shared = 0; ///< ns in all
    std::uint32_t most = 0;      ///< the most messages at once
};

/// The Gantt chart of the Links dock: one row per link, the most shared first (then the
/// busiest), its busy time as bars in the one-message colour and the time it was shared in the
/// contention colour over a time axis in µs, a line at the moment shown; a click chooses a row.
class LinkGantt : public QWidget {
    Q_OBJECT
public:
    explicit LinkGantt(QWidget* parent = nullptr);
    void setRows(std::vector<LinkRow> rows, double total, QColor busy, QColor shared);
    void setTime(double ns);
    void setChosen(std::optional<ChannelId> channel);
    const std::vector<LinkRow>& rows() const { return m_rows; }
    /// The row under widget point `y` (−1: none).
    int rowAt(int y) const;
    static constexpr int kRowHeight = 18;
    static constexpr int kAxisHeight = 22;
    QSize sizeHint() const override;

signals:
    void rowClicked(int row);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    int labelWidth() const;
    std::vector<LinkRow> m_rows;
    double m_total = 0;
    double m_now = 0;
    QColor m_busy, m_shared;
    std::optional<ChannelId> m_chosen;
};

/// View ▸ Links (simulated time): what the simulation says about every link — the total beside
/// the time without contention, what contention cost and where (core contentionSentence), and
/// the Gantt chart; clicking a link chooses it in the 3-D view (linkChosen).
class LinksPanel : public QWidget {
    Q_OBJECT
public:
    /// Links charted: the most shared and busiest first.
    static constexpr std::size_t kRows = 200;

    explicit LinksPanel(QWidget* parent = nullptr);
    /// The toggle shown at the top (View ▸ Simulated time), and whether steps are simulated with
    /// a barrier between them (the box beside it; barrierToggled when the user changes it).
    void setToggle(QAction* simulatedTime, bool barrier);
    /// What the runner says while there is no simulation (estimate, refusal, failure, off).
    void setStatus(const QString& text);
    /// The simulation of the schedule on `topology` (null: none); colours of busy and shared.
    void setPlayback(std::shared_ptr<const SimulatedPlayback> playback, const Topology* topology, QColor busy,
                     QColor shared);
    void setTime(double ns);
    void setChosen(std::optional<ChannelId> channel) { m_gantt->setChosen(channel); }
    QString summary() const;
    const LinkGantt& gantt() const { return *m_gantt; }

signals:
    void linkChosen(topocast::ChannelId channel);
    void barrierToggled(bool barrier);

private:
    QLabel* m_summary = nullptr;
    QLabel* m_now = nullptr;
    LinkGantt* m_gantt = nullptr;
    QScrollArea* m_scroll = nullptr;
    std::shared_ptr<const SimulatedPlayback> m_playback;
};

} // namespace topocast::app
