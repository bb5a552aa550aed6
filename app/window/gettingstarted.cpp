#include "window/gettingstarted.h"

#include "practice/predictmode.h"
#include "scene/sceneview.h"
#include "session/session.h"
#include "timeline/timeline.h"
#include "window/fileactions.h"

#include <QAction>
#include <QCloseEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QMainWindow>
#include <QPushButton>
#include <QSettings>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <array>

namespace topocast::app {

namespace {

struct Page {
    const char* title;
    const char* text;
};

// Written for the default scenario: Cang & Wu's minimum-TCD broadcast on the 8×8×8 mesh from the
// eye (2,2,2), in the plain colour mode.
constexpr std::array<Page, 6> kPages = {{
    {"Play", "This is the 8×8×8 mesh: a broadcast from the orange node (2,2,2), scheduled by Cang & Wu's "
             "algorithm. Watch the message spread step by step; Space pauses and plays. The line under the "
             "view says in words what each step does, and the legend on the right names every colour. "
             "The tour opened the default scenario; yours comes back when you close it."},
    {"Step through it", "Pause, then press → and ← to move one step at a time; Home and End go to the start and the "
                        "end. Green nodes receive in the step shown, blue ones hold the message already, and yellow "
                        "links carry this step's messages."},
    {"Choose the source",
     "Click any node to make it the source: the schedule is computed again at once, and the table on "
     "the left gives its steps and its total communication distance (TCD, every message's hops "
     "added up). Hover a node to see the TCD it would give as the source. Show me picks the corner "
     "(0,0,0)."},
    {"See inside", "A 3-D network opens as its planes side by side, each z-plane drawn like a 2-D network and "
                   "titled z = 0, 1, …; a message from one plane to the next is an arc between them. L stacks "
                   "the planes into a 3-D tower and back: there E pulls the planes apart, drag rotates, the "
                   "wheel zooms and Ctrl+R resets the camera."},
    {"Compare", "Ctrl+K puts a contrast beside the scenario: here Cang & Wu's algorithm as the paper prints it "
                "against the optimum, on one network, with one camera and one timeline. Magenta rings mark the "
                "nodes the two inform at different steps; Ctrl+K again closes the second side."},
    {"Predict", "P turns the timeline into a quiz: before each step, click the nodes you think will receive "
                "and press Enter. The step is shown with your marks graded, and the Predict panel keeps the "
                "score. Help ▸ User guide has the rest; close this panel to get your scenario back."},
}};

} // namespace

GettingStarted::GettingStarted(const WindowParts& window, QAction* layoutAction, QAction* compare)
    : QDockWidget(QStringLiteral("Getting started"), window.window), m_parts(window), m_layout(layoutAction),
      m_compare(compare)
{
    setAttribute(Qt::WA_DeleteOnClose);
    setObjectName(QStringLiteral("tourDock"));
    setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable);
    auto* body = new QWidget;
    QFont larger = font();
    larger.setPointSizeF(larger.pointSizeF() * 1.15);
    body->setFont(larger);

    m_title = new QLabel;
    QFont bold = larger;
    bold.setBold(true);
    bold.setPointSizeF(larger.pointSizeF() * 1.2);
    m_title->setFont(bold);
    m_text = new QLabel;
    m_text->setWordWrap(true);
    m_text->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    auto* show = new QPushButton(QStringLiteral("Show me"));
    m_back = new QPushButton(QStringLiteral("Back"));
    m_next = new QPushButton(QStringLiteral("Next"));
    auto* done = new QPushButton(QStringLiteral("Close"));
    connect(show, &QPushButton::clicked, this, &GettingStarted::showMe);
    connect(m_back, &QPushButton::clicked, this, [this] { showPage(m_page - 1); });
    connect(m_next, &QPushButton::clicked, this, [this] { showPage(m_page + 1); });
    connect(done, &QPushButton::clicked, this, &QDockWidget::close);

    // The words on the left, the buttons in a column on the right: a wide, short panel under the view.
    auto* words = new QVBoxLayout;
    words->addWidget(m_title);
    words->addWidget(m_text, 1);
    auto* buttons = new QVBoxLayout;
    buttons->addWidget(show);
    auto* backNext = new QHBoxLayout;
    backNext->addWidget(m_back);
    backNext->addWidget(m_next);
    buttons->addLayout(backNext);
    buttons->addWidget(done);
    buttons->addStretch();
    auto* layout = new QHBoxLayout(body);
    layout->addLayout(words, 1);
    layout->addLayout(buttons);
    setWidget(body);
    window.window->addDockWidget(Qt::BottomDockWidgetArea, this);

    m_before = window.session->requestedScenario();
    m_parts.files->openScenario(defaultScenario()); // in the single view
    showPage(0);
}

bool GettingStarted::textFits() const
{
    return m_text->height() >= m_text->heightForWidth(m_text->width());
}

void GettingStarted::fitText()
{
    int tallest = 0;
    const int width = std::max(m_text->width(), 200);
    QLabel probe;
    probe.setFont(m_text->font());
    probe.setWordWrap(true);
    for (const Page& p : kPages) {
        probe.setText(QString::fromUtf8(p.text));
        tallest = std::max(tallest, probe.heightForWidth(width));
    }
    m_text->setMinimumHeight(tallest);
}

void GettingStarted::resizeEvent(QResizeEvent* event)
{
    QDockWidget::resizeEvent(event);
    fitText();
}

int GettingStarted::pageCount()
{
    return static_cast<int>(kPages.size());
}

QString GettingStarted::pageTitle() const
{
    return QStringLiteral("%1 of %2: %3").arg(m_page + 1).arg(pageCount()).arg(QString::fromUtf8(kPages[m_page].title));
}

QString GettingStarted::pageText() const
{
    return QString::fromUtf8(kPages[m_page].text);
}

void GettingStarted::showPage(int page)
{
    m_page = std::clamp(page, 0, pageCount() - 1);
    m_title->setText(pageTitle());
    m_text->setText(pageText());
    m_back->setEnabled(m_page > 0);
    m_next->setEnabled(m_page + 1 < pageCount());
    fitText();
}

void GettingStarted::showMe()
{
    Timeline* timeline = m_parts.timeline;
    switch (m_page) {
    case 0:
        timeline->first();
        timeline->play();
        break;
    case 1:
        timeline->pause();
        timeline->first();
        timeline->stepForward();
        break;
    case 2:
        m_parts.chooseSource(NodeId{0});
        break;
    case 3:
        m_layout->trigger();
        break;
    case 4:
        m_compare->setChecked(true);
        break;
    case 5:
        m_compare->setChecked(false);
        timeline->pause();
        timeline->first();
        m_parts.predict->setActive(true);
        break;
    default:
        break;
    }
    // Whatever the step opened (the Predict panel, the second side), the network is framed again
    // once the window has laid itself out.
    QTimer::singleShot(0, this, [this] { m_parts.scene->camera().resetView(); });
}

void GettingStarted::closeEvent(QCloseEvent* event)
{
    if (m_parts.predict->isActive())
        m_parts.predict->setActive(false);
    m_compare->setChecked(false);
    if (m_before && !(*m_before == m_parts.session->requestedScenario()))
        m_parts.files->openScenario(*m_before);
    m_before.reset();
    QDockWidget::closeEvent(event);
}

bool openTourOnFirstStart(const WindowParts& window, QAction* layout, QAction* compare)
{
    QSettings settings;
    if (settings.value(QStringLiteral("tourShown"), false).toBool())
        return false;
    settings.setValue(QStringLiteral("tourShown"), true);
    (new GettingStarted(window, layout, compare))->show();
    return true;
}

} // namespace topocast::app
