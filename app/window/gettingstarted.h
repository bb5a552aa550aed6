#pragma once
// Help ▸ Getting started: a short guided tour on the default scenario — play, step, click a source,
// planes and tower, compare, predict. A small window beside the main one says what to try on each page, and
// "Show me" does it; the scenario that was open comes back when the tour closes.

#include "topocast/io/scenario.h"

#include <QDialog>

#include <optional>

class QAction;
class QLabel;
class QPushButton;

namespace topocast::app {

class MainWindow;

class GettingStarted : public QDialog {
    Q_OBJECT

public:
    /// Opens the default scenario in `window` and shows page 1; `layout` and `compare` are View ▸
    /// Explode planes and View ▸ Compare side by side.
    GettingStarted(MainWindow& window, QAction* layout, QAction* compare);

    /// The pages, in order; page(i) the one shown.
    static int pageCount();
    int page() const { return m_page; }
    QString pageTitle() const;
    QString pageText() const;

public slots:
    void showPage(int page);
    /// Does what the page asks the user to try.
    void showMe();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    MainWindow& m_window;
    QAction* m_layout;
    QAction* m_compare;
    std::optional<Scenario> m_before; ///< the scenario open before the tour, put back at its end
    int m_page = 0;
    QLabel* m_title = nullptr;
    QLabel* m_text = nullptr;
    QPushButton* m_back = nullptr;
    QPushButton* m_next = nullptr;
};

} // namespace topocast::app
