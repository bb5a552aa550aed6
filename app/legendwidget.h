#pragma once

#include <QColor>
#include <QString>
#include <QWidget>

#include <vector>

namespace topocast::app {

/// Colour swatches with captions, beside the 3-D view.
class LegendWidget : public QWidget {
    Q_OBJECT
public:
    explicit LegendWidget(QWidget* parent = nullptr);
    void setEntries(const std::vector<std::pair<QColor, QString>>& entries, const QString& title = {});
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::vector<std::pair<QColor, QString>> m_entries;
    QString m_title;
};

} // namespace topocast::app
