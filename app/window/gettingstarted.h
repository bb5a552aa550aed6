#pragma once
// Help ▸ Getting started: a short guided tour on the default scenario — play, step, click a source,
// planes and tower, compare, predict. A panel docked under the view (so it never covers the network
// it talks about) says what to try on each page, and "Show me" does it and frames the network
// again; the scenario that was open comes back when the tour closes. It opens by itself on the
// first start (openTourOnFirstStart).

#include "window/windowparts.h"

#include "topocast/scenario/scenario.h"

#include <QDockWidget>

#include <optional>

class QAction;
class QLabel;
class QPushButton;

namespace topocast::app {

class GettingStarted : public QDockWidget {
    Q_OBJECT

public:
    /// Opens the default scenario in `window` and shows page 1 in a dock under the view (object name
    /// "tourDock"); `layout` and `compare` are View ▸ Planes side by side and View ▸ Compare side
    /// by side. Deletes itself when closed.
    GettingStarted(const WindowParts& window, QAction* layout, QAction* compare);

    /// The pages, in order; page(i) the one shown.
    static int pageCount();
    int page() const { return m_page; }
    QString pageTitle() const;
    QString pageText() const;
    /// True when the page's whole text is shown (its label is as tall as its wrapped text).
    bool textFits() const;

public slots:
    void showPage(int page);
    /// Does what the page asks the user to try.
    void showMe();

protected:
    void closeEvent(QCloseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    /// Makes the text's label as tall as the longest page's text needs at its width.
    void fitText();

    WindowParts m_parts;
    QAction* m_layout;
    QAction* m_compare;
    std::optional<Scenario> m_before; ///< the scenario open before the tour, put back at its end
    int m_page = 0;
    QLabel* m_title = nullptr;
    QLabel* m_text = nullptr;
    QPushButton* m_back = nullptr;
    QPushButton* m_next = nullptr;
};

/// Opens the tour when `window` starts for the first time (no "tourShown" in the settings) and
/// records that it has; true when it opened it. main() calls it for an interactive start.
bool openTourOnFirstStart(const WindowParts& window, QAction* layout, QAction* compare);

} // namespace topocast::app
