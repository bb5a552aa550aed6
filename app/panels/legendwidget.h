#pragma once

#include "style/scenestyle.h"

#include <QColor>
#include <QPainter>
#include <QString>
#include <QWidget>

#include <optional>
#include <vector>

namespace topocast::app {

/// Colour swatches with captions and, for modes that map numbers to colours, a colour bar with
/// numbers, beside the 3-D view (a column) or under it in presentation mode (a row that wraps).
class LegendWidget : public QWidget {
    Q_OBJECT
public:
    explicit LegendWidget(QWidget* parent = nullptr);
    void setEntries(const std::vector<std::pair<QColor, QString>>& entries, const QString& title = {});
    void setColourBar(std::optional<ColourBar> bar);
    const std::optional<ColourBar>& colourBar() const { return m_bar; }
    /// Row layout: title, swatches and bar side by side, wrapping to the widget's width.
    void setRow(bool row);
    QSize sizeHint() const override;
    /// As tall as every entry needs: a legend squeezed by its neighbours would hide colours
    /// the picture draws.
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override { return m_row; }
    int heightForWidth(int width) const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    /// Lays out (and with a painter, draws) everything for `width`; returns the height used.
    int layoutAt(int width, QPainter* painter) const;
    void paintBar(QPainter& painter, const QRect& bar, int width) const;

    std::vector<std::pair<QColor, QString>> m_entries;
    std::optional<ColourBar> m_bar;
    QString m_title;
    bool m_row = false;
};

} // namespace topocast::app
